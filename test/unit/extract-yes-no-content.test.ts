import { describe, expect, it } from 'vitest';
import { OfflineExtractor } from '../../server/extract/offline/index.ts';
import type { OpenQuestion } from '../../server/extract/extractor.ts';
import type { AnswerSpec } from '../../server/flow/answer-types.ts';

// A yes/no said by content, without a yes or no word (offline/yes-no-content.ts, each pack's yes-no.ts).

const NOW = '2026-01-15T10:00:00Z';
const HAZARD = 'Is anything unsafe right now: exposed wiring, sparking, or a fixture or pole that looks like it could fall?';
const GEFAHR = 'Ist gerade etwas unsicher: freiliegende Kabel, Funken, oder eine Leuchte oder ein Mast, der umfallen könnte?';

/** The committed value, { check } for a confirmation, or undefined when nothing was read. */
function answer(text: string, prompt = HAZARD, locale?: string, spec: AnswerSpec = { type: 'boolean' }) {
  const current: OpenQuestion = { nodeId: 'q', key: 'answer', answer: spec, required: true, prompt };
  const p = new OfflineExtractor().extract({ text, current, open: [current], paths: [], now: NOW, defaultCountry: 'US', ...(locale ? { locale } : {}) });
  const u = p.updates.find((x) => x.key === 'answer');
  return u === undefined ? undefined : u.confirm ? { check: u.value } : u.value;
}

describe('yes/no by content', () => {
  it("reads the prompt's own listed items, in any word form, as a yes", () => {
    expect(answer('saw a few sparks last night when they switched on')).toBe(true);
    expect(answer("we've taped off the area because the fixture is hanging by one bracket")).toBe(true);
    expect(answer('gestern hat es beim Einschalten kurz gefunkt', GEFAHR, 'de')).toBe(true);
    expect(answer('cant breathe properly', 'Are you having chest pain or trouble breathing right now?')).toBe(true);
  });
  it('reads a denial as a no: of any at all where the prompt asks for any, or of the items named', () => {
    expect(answer('nothing like that, they just flicker')).toBe(false);
    expect(answer('nichts dergleichen, die flackern nur', GEFAHR, 'de')).toBe(false);
    expect(answer('kein Funkenflug, keine losen Teile', GEFAHR, 'de')).toBe(false);
    expect(answer("she's not on anything", 'Do you take any medications at the moment, including over-the-counter medicines?')).toBe(false);
    expect(answer('not that I know of', 'Do you have any allergies to medicines, foods or latex?')).toBe(false);
    expect(answer('the poles are all fine')).toBe(false);
  });
  it('reads nothing from a question back, a mixed reply, a neutral mention, a hedge, or a prompt without a list', () => {
    expect(answer('does a leaning pole count?')).toBeUndefined();
    expect(answer('no sparks but a pole is leaning')).toEqual({ check: false });
    expect(answer('no, but the cover is off and you can see the wiring')).toEqual({ check: false });
    expect(answer('the wiring was redone last year')).toBeUndefined();
    expect(answer('kind of, the pole leans')).toBeUndefined();
    expect(answer('my employer covers it', 'Do you have health insurance?')).toBeUndefined();
    expect(answer('none', 'Do you have health insurance?')).toBeUndefined(); // no "any" in the prompt
    expect(answer('both indoor and outdoor', 'Is the court indoor or outdoor?', undefined, { type: 'boolean', synonyms: { true: ['indoor'], false: ['outdoor'] } })).toBeUndefined();
  });
});
