import { describe, expect, it } from 'vitest';
import { parseAnswer } from '../../server/extract/parse/index.ts';
import { OfflineExtractor } from '../../server/extract/offline/index.ts';
import type { OpenQuestion } from '../../server/extract/extractor.ts';
import type { AnswerSpec } from '../../server/flow/answer-types.ts';

// A count of days given as a start (parse/days-since.ts) and a person's age in months or weeks (offline/duration-reply.ts).

const NOW = '2026-01-15T10:00:00Z'; // a Thursday
const days: AnswerSpec = { type: 'integer', unit: 'days', min: 0, max: 3650 };
const read = (text: string, locale?: string) => {
  const r = parseAnswer(days, text, { now: NOW, defaultCountry: 'US', ...(locale ? { locale } : {}) });
  return r.ok ? r.value : null;
};
const age = (text: string, prompt = "And the patient's age in years?", locale?: string) => {
  const current: OpenQuestion = { nodeId: 'q', key: 'age', answer: { type: 'integer', min: 0, max: 120 }, required: true, prompt: locale === 'de' ? 'Wie alt ist der Patient?' : prompt };
  const u = new OfflineExtractor().extract({ text, current, open: [current], paths: [], now: NOW, defaultCountry: 'US', ...(locale ? { locale } : {}) }).updates.find((x) => x.key === 'age');
  return u === undefined ? undefined : u.confirm ? { check: u.value } : u.value;
};

describe('a count of days given as a start', () => {
  it('counts the days from the start to today, and reads "a week" as 7', () => {
    expect(read('since monday')).toBe(3);
    expect(read('started this morning')).toBe(0);
    expect(read('since the 10th')).toBe(5);
    expect(read('about a week')).toBe(7);
    expect(read('seit gestern', 'de')).toBe(1);
    expect(read('2 Wochen', 'de')).toBe(14);
    expect(read('since christmas')).toBe(21); // the last 25 December
    expect(read('seit Silvester', 'de')).toBe(15);
  });
  it('reads a part of a day as the day it falls on, by the pack\'s words', () => {
    expect(read('since last night')).toBe(1);
    expect(read('since this evening')).toBe(0);
    expect(read('seit heute früh', 'de')).toBe(0);
    expect(read('seit gestern abend', 'de')).toBe(1);
    expect(read('seit heute morgen, nein gestern', 'de')).toBe(1);
    const jours: AnswerSpec = { type: 'integer', unit: 'jours', min: 0, max: 3650 };
    const fr = (text: string) => { const r = parseAnswer(jours, text, { now: NOW, defaultCountry: 'US', locale: 'fr' }); return r.ok ? r.value : null; };
    expect(fr('depuis ce matin')).toBe(0);
    expect(fr('depuis hier soir')).toBe(1);
    expect(fr('la nuit dernière')).toBe(1);
  });
  it('reads no start in the future', () => {
    expect(read('since next monday')).toBeNull();
  });
  it('reads a weekday alone after a start word as the last one (Thursday 15 January)', () => {
    expect(read('since saturday')).toBe(5);
    expect(read('seit Samstag', 'de')).toBe(5);
    expect(read('since tuesday')).toBe(2);
  });
  it('counts a month as 30 days', () => {
    expect(read('about a month')).toBe(30);
    expect(read('a month or so')).toBe(30);
    expect(read('ungefähr einen Monat', 'de')).toBe(30);
    expect(read('3 months')).toBeNull();
  });
});

describe("a person's age in months or weeks", () => {
  it('is the whole years it makes', () => {
    expect(age('18 months')).toBe(1);
    expect(age('3 weeks old')).toBe(0);
    expect(age('7 and a half')).toBe(7);
  });
  it('leaves a unit that counts something else, and a thing\'s age, as before', () => {
    expect(age('18 months', 'How old is the lighting system?')).toBeUndefined();
  });
  it('is one less than the age of a birthday to come, and the age just reached', () => {
    expect(age('40 next week')).toBe(39);
    expect(age('almost 5')).toBe(4);
    expect(age("she'll be 8 next month")).toBe(7);
    expect(age('41 in March, so 40')).toBe(40);
    expect(age('just turned 40 last week')).toBe(40);
    expect(age('fast 6', undefined, 'de')).toBe(5);
    expect(age('sie wird nächste Woche 40', undefined, 'de')).toBe(39);
    // a conclusion that does not follow is no answer
    expect(age('41 in March, so 38')).not.toBe(40);
    expect(age('18 months', 'How old is the lighting system?')).toBeUndefined();
  });
});

describe('an age said roughly', () => {
  it("checks an adult's 'almost' and an age said about, and takes a child's next birthday", () => {
    expect(age('almost 40')).toEqual({ check: 39 });
    expect(age('about 50')).toEqual({ check: 50 });
    expect(age('70 or so')).toEqual({ check: 70 });
    expect(age('so um die 50', "Wie alt ist die Patientin?", 'de')).toEqual({ check: 50 });
    expect(age('almost 5')).toBe(4);
    expect(age('42')).toBe(42);
  });
});
