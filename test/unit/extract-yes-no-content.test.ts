import { describe, expect, it } from 'vitest';
import { OfflineExtractor } from '../../server/extract/offline/index.ts';
import type { OpenQuestion } from '../../server/extract/extractor.ts';
import type { AnswerSpec } from '../../server/flow/answer-types.ts';

// A yes/no said by content, without a yes or no word (offline/yes-no-content.ts, each pack's yes-no.ts).

const NOW = '2026-01-15T10:00:00Z';
const HAZARD = 'Is anything unsafe right now: exposed wiring, sparking, or a fixture or pole that looks like it could fall?';
const DANGER = 'Y a-t-il quelque chose de dangereux : des câbles dénudés, des étincelles, ou un poteau qui pourrait tomber ?';
const PELIGRO = '¿Hay algo peligroso ahora: cables expuestos, chispas, o un poste que podría caerse?';
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
    expect(answer('no, but the cover is off and you can see the wiring')).toEqual({ check: false });
    expect(answer('the wiring was redone last year')).toBeUndefined();
    // (a degree beside an item the prompt lists names it mildly: "kind of, the pole leans" is a yes — see 'a degree beside an item')
    expect(answer('kind of, the pole leans')).toBe(true);
    expect(answer('kind of')).toBeUndefined();
    expect(answer('my employer covers it', 'Do you have health insurance?')).toBeUndefined();
    expect(answer('none', 'Do you have health insurance?')).toBeUndefined(); // no "any" in the prompt
    expect(answer('both indoor and outdoor', 'Is the court indoor or outdoor?', undefined, { type: 'boolean', synonyms: { true: ['indoor'], false: ['outdoor'] } })).toBeUndefined();
  });
  it('reads an item named beside items denied as a yes: the no denies one item', () => {
    expect(answer('no sparks but a pole is leaning')).toBe(true);
    expect(answer("no sparks, but there's a cable hanging out of the box at the base")).toBe(true);
    expect(answer('keine Funken, aber ein Kabel hängt raus', GEFAHR, 'de')).toBe(true);
    // clauses split at each pack's "but" and "and" (lexicon.conjunctions): "solid" denies only the pole
    expect(answer('the pole is solid but there are sparks')).toBe(true);
    expect(answer('le poteau est solide mais il y a des étincelles', DANGER, 'fr')).toBe(true);
    expect(answer('le poteau est solide et des étincelles sortent', DANGER, 'fr')).toBe(true);
    expect(answer('el poste está firme pero salen chispas', PELIGRO, 'es')).toBe(true);
    expect(answer('el poste está firme y salen chispas', PELIGRO, 'es')).toBe(true);
    expect(answer('we taped off the area just in case')).toBe(true);
    // a no that stands alone beside an item is still checked
    expect(answer('no, but the cover is off and you can see the wiring')).toEqual({ check: false });
  });
  it('reads "all fine" as a no where the prompt asks whether there is anything, unless a precaution is told beside it', () => {
    expect(answer('everything looks fine')).toBe(false);
    expect(answer('hab nachgeschaut, alles in Ordnung', GEFAHR, 'de')).toBe(false);
    expect(answer("all good, we've taped the area off anyway")).toBeUndefined();
  });
  it('reads a thing of the kind the prompt names as a yes, and "only" a thing outside it as a no', () => {
    const MEDS = 'Do you take any medications at the moment, including over-the-counter medicines and supplements?';
    const ALLERGIES = 'Do you have any allergies to medicines, foods or latex?';
    const NOW_PROMPT = 'Are you having chest pain or trouble breathing right now?';
    expect(answer('just a daily multivitamin', MEDS)).toBe(true);
    expect(answer('tylenol sometimes when I need it', MEDS)).toBe(true);
    expect(answer('shellfish', ALLERGIES)).toBe(true);
    expect(answer('only to cats', ALLERGIES)).toBe(false);
    expect(answer('just the cough', NOW_PROMPT)).toBe(false);
    expect(answer('used to take metformin but stopped in the summer', MEDS)).toBe(false);
    // a thing outside the kind without "only" says neither
    expect(answer('cats', ALLERGIES)).toBeUndefined();
    expect(answer('vitamins?', MEDS)).toBeUndefined();
  });
  it('reads a fact that rules the topic out as a no', () => {
    const PREGNANT = "Is there any chance you could be pregnant? (You can say skip if you're not sure.)";
    expect(answer("I'm a guy", PREGNANT)).toBe(false);
    expect(answer("she's 7", PREGNANT)).toBe(false);
    expect(answer('not possible, I had a hysterectomy', PREGNANT)).toBe(false);
    expect(answer("she's 34", PREGNANT)).toBeUndefined();
    expect(answer("I'm a guy", 'Do you have health insurance?')).toBeUndefined();
  });
  it("carries a negator over items joined by 'or'/'nor'/'noch' and after an item; a question back or 'weiß ich nicht' reads nothing", () => {
    expect(answer('No, no loose wires or sparks, and the poles are solid')).toBe(false);
    expect(answer('Mast eigentlich nicht', GEFAHR, 'de')).toBe(false);
    expect(answer('define sparking')).toBeUndefined();
    expect(answer('what do you mean by unsafe')).toBeUndefined();
    expect(answer('weiß ich nicht, bin noch nicht vor Ort', GEFAHR, 'de')).toBeUndefined();
  });
});

describe('a chance, a degree, a condition and a soft no', () => {
  const CHANCE = "Is there any chance you could be pregnant? (You can say skip if you're not sure.)";
  const NOW_Q = 'Important — are you having chest pain or trouble breathing right now, at this moment?';
  it('reads a possibility as a yes where the prompt asks whether there is a chance', () => {
    expect(answer('could be, we have been trying', CHANCE)).toBe(true);
    expect(answer('könnte sein', 'Besteht die Möglichkeit, dass Sie schwanger sind?', 'de')).toBe(true);
    expect(answer('probably not', CHANCE)).toBeUndefined();
    expect(answer('could be', HAZARD)).toBeUndefined();
  });
  it('reads a degree beside an item of the prompt as a yes, and asks about one beside a condition or alone', () => {
    expect(answer('kinda hard to breathe', NOW_Q)).toBe(true);
    expect(answer('kind of short of breath when I climb stairs', NOW_Q)).toBeUndefined();
    expect(answer('kinda?', NOW_Q)).toBeUndefined();
    expect(answer('only when I cough', NOW_Q)).toBeUndefined();
  });
  it('reads a soft no as a no, and an intolerance as neither', () => {
    expect(answer("I don't think so", 'Do you take any medications at the moment?')).toBe(false);
    expect(answer('ich glaube nicht', GEFAHR, 'de')).toBe(false);
    expect(answer('no med allergies but im lactose intolerant', 'Do you have any allergies to medicines, foods or latex?')).toBeUndefined();
  });
});
