import { AnswerMap } from '../../server/engine/answer-map.ts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LocalConversation } from '../../server/conversation/local-conversation.ts';
import { sampleActions } from '../../examples/sample-actions.ts';
import { sessionToJson, type AnswerRecord, type Session, type SessionJson } from '../../server/engine/session.ts';
import { compileFile } from '../../server/flow/document.ts';
import { ACME_SALES_SCRIPT } from '../support/scripts.ts';

// sessionToJson builds its object in one pass instead of spreading the
// session and deleting cleared fields; the bytes must be what they were.

function sessionToJsonRef(s: Session): SessionJson {
  const answers: Record<string, AnswerRecord> = {};
  for (const key of [...s.answers.keys()].sort()) answers[key] = s.answers.get(key)!;
  const json: Record<string, unknown> = { ...s, answers };
  for (const key of Object.keys(json)) if (json[key] === undefined) delete json[key];
  return json as SessionJson;
}

describe('sessionToJson', () => {
  it('gives the same bytes as before along a sales conversation', async () => {
    const r = compileFile('flows/global/sales.flow.json');
    if (r.kind !== 'flow' || !r.flow) throw new Error('sales does not compile');
    let now = Date.parse('2026-01-15T10:00:00Z');
    const env = { now: () => new Date((now += 60_000)).toISOString(), sleep: async () => {}, clock: () => now };
    const c = new LocalConversation(r.flow, { actions: sampleActions, env });
    const sessions = [(await c.start({ id: 'x', context: { clinic_id: 'north' } })).session];
    for (const m of [...ACME_SALES_SCRIPT, 'back', 'restart', ...ACME_SALES_SCRIPT.slice(0, 4)]) sessions.push((await c.send(m)).session);
    for (const s of sessions) expect(JSON.stringify(sessionToJson(s))).toBe(JSON.stringify(sessionToJsonRef(s)));
  });

  it('gives the same bytes as before for any answers and cleared fields', () => {
    const key = fc.constantFrom('a', 'b', 'B', 'é', 'a_1', '10', '2', 'z', 'Z', '', 'aa');
    const record = fc.record({ value: fc.jsonValue(), turn: fc.nat(9), source: fc.constantFrom('user', 'given' as const), validation: fc.constant('passed' as const) })
      .map((x) => x as AnswerRecord);
    fc.assert(fc.property(fc.array(fc.tuple(key, record)), fc.boolean(), fc.boolean(), (answers, cleared, withRecent) => {
      const s = {
        v: 2, id: 'x', flow: { id: 'f', revision: 'r' }, status: 'active', node: 'n', stack: [], attempts: 0,
        path: { scores: {}, tentative: null, locked: false }, turn: 1, context: {}, answers: AnswerMap.of(answers), cache: {}, checkpoints: [], now: 't',
        assessing: cleared ? undefined : { key: 'a', draft: 'd', refinements: 1 }, reask: undefined,
        ...(withRecent ? { recent: [{ role: 'user', text: 'hi' }] } : {}), outcome: undefined,
      } as unknown as Session;
      expect(JSON.stringify(sessionToJson(s))).toBe(JSON.stringify(sessionToJsonRef(s)));
      expect(Object.keys(sessionToJson(s))).toEqual(Object.keys(sessionToJsonRef(s)));
    }), { numRuns: 500 });
  });
});
