import { describe, expect, it } from 'vitest';
import { start, turn } from '../../server/engine/engine.ts';
import { extractionRequest } from '../../server/engine/extraction.ts';
import { LOCAL_VALUE } from '../../server/engine/input.ts';
import { sessionFromJson, sessionToJson, type Session } from '../../server/engine/session.ts';
import type { TurnResult } from '../../server/engine/types.ts';
import { turnPrompt } from '../../server/extract/anthropic/prompt.ts';
import { OfflineExtractor } from '../../server/extract/offline/offline-extractor.ts';
import type { CompiledFlow } from '../../server/flow/compiled-flow.ts';
import { compileText } from '../../server/flow/document.ts';

// A pii answer (and a pii reply's words) is withheld from every request field a model can read; the offline rules,
// which run in this process, read it under LOCAL_VALUE: a late edit of a pii answer is applied, a date of birth is
// completed over two turns. Neither JSON nor the model's prompt carries it.

const NOW = '2026-01-15T10:00:00Z';
const rules = new OfflineExtractor();

function flowOf(doc: unknown): CompiledFlow {
  const r = compileText(JSON.stringify(doc), 'pii.flow.json');
  if (r.kind !== 'flow' || !r.flow) throw new Error(JSON.stringify(r.diagnostics));
  return r.flow;
}
const flow = flowOf({
  version: 'v1', id: 'pii-late', default_country: 'US',
  nodes: [
    { id: 'q.dob', type: 'question', key: 'date_of_birth', prompt: 'Date of birth?', answer: { type: 'date', birth: true }, pii: true },
    { id: 'q.phone', type: 'question', key: 'phone', prompt: 'Best mobile number?', answer: { type: 'phone' }, pii: true },
    { id: 'q.insured', type: 'question', key: 'has_insurance', prompt: 'Do you have health insurance?', answer: { type: 'boolean' } },
    { id: 'n.done', type: 'terminal' },
  ],
});
/** One visitor turn the way the runner does it, with the session stored and loaded in between (JSON). */
function say(s: Session, text: string): TurnResult {
  const stored = sessionFromJson(JSON.parse(JSON.stringify(sessionToJson(s))));
  return turn(flow, stored, { kind: 'message', text, now: NOW, proposal: rules.extract(extractionRequest(flow, stored, text, NOW)) });
}

describe('pii answers read by the offline late rules in-process only', () => {
  it('applies a late edit of a pii phone, and no request field a model reads holds the number', () => {
    let s = start(flow, { now: NOW }).session;
    s = say(s, '1979-08-22').session;
    s = say(s, '773 555 0129').session;
    const text = 'no. and the last two digits of my number are swapped';
    const req = extractionRequest(flow, s, text, NOW);
    expect(req.previous).toMatchObject({ key: 'phone', pii: true });
    expect(req.previous!.value).toBeUndefined();
    expect(req.previous![LOCAL_VALUE]).toBe('+17735550129');
    expect(JSON.stringify(req)).not.toContain('0129');
    expect(turnPrompt(req)).not.toContain('0129');
    const r = say(s, text);
    expect(r.session.answers.get('phone')?.value).toBe('+17735550192');
    expect(r.session.answers.get('has_insurance')?.value).toBe(false);
    // the number is not said back (a pii answer), and the turn's own line is withheld from later requests
    expect(r.effects.some((e) => (e.type === 'say' || e.type === 'ask') && e.text.includes('0192'))).toBe(false);
    // …but the visitor hears that the correction was taken (the catalogue's `corrected_private`, no value)
    expect(r.effects.filter((e) => e.type === 'say').map((e) => (e as { text: string }).text)).toContain("Thanks — I've changed phone.");
  });

  it('completes a date of birth over two turns from the pii reply kept in-process, not from the text of the history', () => {
    let s = start(flow, { now: NOW }).session;
    s = say(s, 'august 1979').session;
    expect(s.answers.get('date_of_birth')).toBeUndefined();
    const req = extractionRequest(flow, s, 'the 22nd', NOW);
    const last = [...(req.history ?? [])].reverse().find((h) => h.role === 'user')!;
    expect(last).toMatchObject({ pii: true, text: '' });
    expect(last[LOCAL_VALUE]).toBe('august 1979');
    expect(JSON.stringify(req)).not.toContain('1979');
    expect(turnPrompt(req)).not.toContain('1979');
    s = say(s, 'the 22nd').session;
    expect(s.answers.get('date_of_birth')?.value).toBe('1979-08-22');
    // only the last user line keeps its words
    expect((s.recent ?? []).filter((h) => h.held !== undefined).length).toBeLessThanOrEqual(1);
  });
});
