import { describe, expect, it } from 'vitest';
import { parseEnum } from '../../server/extract/parse/enum.ts';
import { OfflineExtractor } from '../../server/extract/offline/index.ts';
import type { OpenQuestion } from '../../server/extract/extractor.ts';
import type { AnswerSpec } from '../../server/flow/answer-types.ts';
import { packOf } from '../../server/language/registry.ts';

// Single choices (issue 30, choices): an item off the menu goes to its "other" option, a date to the window of time
// its deadline falls in, an urgent word beside a date in the first window to "as soon as possible", an option named
// only by the prompt's description of it.

const NOW = '2026-01-15T10:00:00Z';
const en = packOf('en');
const de = packOf('de');
const enumOf = (pairs: Array<[string, string]>) => ({ type: 'enum' as const, options: pairs.map(([value, label]) => ({ value, label })) });
const reason = enumOf([['unwell', 'Feeling unwell'], ['injury', 'An injury'], ['checkup', 'Check-up or physical'], ['vaccination', 'Vaccination'], ['refill', 'Prescription refill'], ['other', 'Something else']]);
const intent = enumOf([['buy', 'Buy new LED lighting'], ['support', 'Help with existing lights'], ['other', 'Something else']]);
const absicht = enumOf([['buy', 'Neue LED-Beleuchtung kaufen'], ['support', 'Hilfe mit bestehender Beleuchtung'], ['other', 'Etwas anderes']]);
const timeline = enumOf([['asap', 'As soon as possible'], ['w3', 'Within 3 months'], ['w12', 'In 3 to 12 months'], ['research', 'Just researching']]);
const zeit = enumOf([['asap', 'So bald wie möglich'], ['w3', 'Innerhalb von 3 Monaten'], ['w12', 'In 3 bis 12 Monaten'], ['research', 'Ich informiere mich nur']]);
const committed = (r: ReturnType<typeof parseEnum>) => (r.ok && r.exact && !r.check ? r.value : r.ok ? `check ${JSON.stringify(r.value)}` : 'ask');

/** The value the offline extractor commits at a question, { check } for a confirmation, or undefined. */
function answer(text: string, prompt: string, spec: AnswerSpec, locale?: string) {
  const current: OpenQuestion = { nodeId: 'q', key: 'answer', answer: spec, required: true, prompt };
  const p = new OfflineExtractor().extract({ text, current, open: [current], paths: [], now: NOW, defaultCountry: 'US', ...(locale ? { locale } : {}) });
  const u = p.updates.find((x) => x.key === 'answer');
  return u === undefined ? undefined : u.confirm ? { check: u.value } : u.value;
}

describe('single choices', () => {
  it('reads an item clearly off the menu as the "other" option, not the nearest option on one shared word', () => {
    expect(committed(parseEnum(reason, 'a sick note for my employer', en, NOW))).toBe('other');
    expect(committed(parseEnum(intent, "I'm a journalist writing a piece about stadium lighting", en, NOW))).toBe('other');
    expect(committed(parseEnum(intent, 'looking for an internship', en, NOW))).toBe('other');
    expect(committed(parseEnum(absicht, 'Bewerbung', de, NOW))).toBe('other');
    // without an "other" option, such a reply is asked again
    expect(committed(parseEnum(enumOf([['buy', 'Buy new LED lighting'], ['support', 'Help with existing lights']]), 'looking for an internship', en, NOW))).toBe('ask');
  });

  it('reads lights bought or fitted before as help with them', () => {
    expect(committed(parseEnum(intent, 'we bought from you last year and one fixture died already', en, NOW))).toBe('support');
    expect(committed(parseEnum(absicht, 'Reklamation', de, NOW))).toBe('support');
  });

  it('reads a deadline by the window it falls in, and asks on a boundary', () => {
    expect(committed(parseEnum(timeline, 'by June', en, NOW))).toBe('w12');
    expect(committed(parseEnum(timeline, 'by the end of March', en, NOW))).toBe('w3');
    expect(committed(parseEnum(zeit, 'bis zum Sommer', de, NOW))).toBe('w12');
    expect(committed(parseEnum(timeline, 'sometime in April', en, NOW))).toBe('ask');
    expect(committed(parseEnum(timeline, 'next year', en, NOW))).toBe('ask');
  });

  it('reads ranges and vague counts of a unit, and an estimate word is no doubt about the window', () => {
    expect(committed(parseEnum(timeline, '3-12 months', en, NOW))).toBe('w12');
    expect(committed(parseEnum(timeline, 'a few weeks', en, NOW))).toBe('w3');
    expect(committed(parseEnum(zeit, 'in 3 bis 6 Monaten', de, NOW))).toBe('w12');
    expect(committed(parseEnum(timeline, 'probably in the autumn', en, NOW))).toBe('w12');
    expect(committed(parseEnum(timeline, 'either next week or in september', en, NOW))).not.toBe('w12');
  });

  it('reads an urgent word beside a date in the first window as as soon as possible', () => {
    expect(committed(parseEnum(timeline, 'urgent, we have a tournament feb 20', en, NOW))).toBe('asap');
    expect(committed(parseEnum(timeline, 'no rush, just getting numbers for next year\'s budget', en, NOW))).toBe('research');
  });

  it("checks an option named only by the prompt's description of it: a place says where, not what is wanted", () => {
    const prompt = 'Are you after new LED lighting for a court, gym or stadium, or help with lights you already have?';
    expect(answer('stadium', prompt, intent)).toEqual({ check: 'buy' });
    expect(answer('for our gym', prompt, intent)).toEqual({ check: 'buy' });
    expect(answer('not a stadium', prompt, intent)).toBeUndefined();
    expect(answer('Stadion', 'Suchen Sie neue LED-Beleuchtung für einen Platz, eine Halle oder ein Stadion, oder Hilfe mit einer bestehenden Beleuchtung?', absicht, 'de')).toEqual({ check: 'buy' });
  });

  it('reads an initial that begins one label, never one that could be a position', () => {
    const sex = enumOf([['female', 'Female'], ['male', 'Male'], ['intersex', 'Intersex'], ['prefer_not_to_say', 'Prefer not to say']]);
    expect(committed(parseEnum(sex, 'M', en, NOW))).toBe('male');
    expect(committed(parseEnum(sex, 'f.', en, NOW))).toBe('female');
    expect(committed(parseEnum(intent, 'b', en, NOW))).toBe('ask');
  });

  it('reads a refusal as the option that refuses, and not knowing as no refusal', () => {
    const sex = enumOf([['female', 'Female'], ['male', 'Male'], ['intersex', 'Intersex'], ['prefer_not_to_say', 'Prefer not to say']]);
    const prompt = 'What sex was the patient assigned at birth?';
    expect(answer("I'd rather not say", prompt, sex)).toBe('prefer_not_to_say');
    expect(answer('no idea', prompt, sex)).toBeUndefined();
    const sure = enumOf([['yes', 'Yes'], ['no', 'No'], ['unsure', 'Not sure']]);
    expect(answer('no idea', 'Has the fixture been serviced?', sure)).toBe('unsure');
  });

  it('accounts for every clause of a multiple choice: a word of an option left out is checked, a denied one is not', () => {
    const symptoms: AnswerSpec = { type: 'enum', multiple: true, options: [
      { value: 'fever', label: 'Fever' }, { value: 'cough', label: 'Cough' }, { value: 'headache', label: 'Headache' },
      { value: 'nausea', label: 'Nausea or vomiting', synonyms: ['throwing up'] }, { value: 'sore_throat', label: 'Sore throat', synonyms: ['throat hurts'] }] };
    const prompt = 'Which of these symptoms do you have? You can pick more than one.';
    expect(answer('my head hurts and I feel like throwing up', prompt, symptoms)).toEqual(['headache', 'nausea']);
    expect(answer('no fever, just a cough', prompt, symptoms)).toEqual(['cough']);
    // "head" names Headache, which a reading of nausea alone would lose: checked, never committed as nausea alone
    expect(answer('throwing up, and the head thing', prompt, symptoms)).not.toEqual(['nausea']);
  });
});
