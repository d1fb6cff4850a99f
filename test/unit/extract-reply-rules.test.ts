import { describe, expect, it } from 'vitest';
import type { AnswerSpec } from '../../server/flow/answer-types.ts';
import { OfflineExtractor } from '../../server/extract/offline/index.ts';
import { parseAnswer } from '../../server/extract/parse/index.ts';
import type { OpenQuestion } from '../../server/extract/extractor.ts';

// One test per rule added to reach zero silently wrong on test/eval, each with a phrasing the eval set does NOT hold.
const ctx = { now: '2026-01-15T10:00:00+00:00', defaultCountry: 'US' };
const value = (spec: AnswerSpec, text: string) => {
  const r = parseAnswer(spec, text, ctx);
  return r.ok ? r.value : { reask: r.reason, specific: r.specific === true };
};
const offline = new OfflineExtractor();
const extract = (answer: AnswerSpec, text: string, extra: Partial<OpenQuestion> = {}) => {
  const current: OpenQuestion = { nodeId: 'q', key: 'k', answer, required: true, ...extra };
  return offline.extract({ text, current, open: [], paths: [], now: ctx.now, defaultCountry: 'US' });
};
const reask = expect.objectContaining({ reask: expect.any(String), specific: true });

const count: AnswerSpec = { type: 'integer', min: 1, max: 100 };
const metres: AnswerSpec = { type: 'number', min: 0, unit: 'm' };
const kilos: AnswerSpec = { type: 'number', min: 0, unit: 'kg' };
const area: AnswerSpec = { type: 'number', min: 0, unit: 'm²' };
const euros: AnswerSpec = { type: 'number', min: 0, unit: 'EUR' };
const plain: AnswerSpec = { type: 'number', min: 0 };
const short: AnswerSpec = { type: 'text', max: 80 };
const person: AnswerSpec = { type: 'text', kind: 'name', of: 'subject' };

describe('numbers', () => {
  it('adds a half written after a number ("two and a half metres")', () => {
    expect(value(metres, 'two and a half metres')).toBe(2.5);
    expect(value(count, '3 and a half')).toMatchObject({ reask: 'Please give a whole number.' });
  });
  it('never takes a negated number, but takes the one beside it', () => {
    expect(value(count, 'definitely not 12')).toEqual(reask);
    expect(value(plain, 'no more than 300')).toEqual(reask);
    expect(value(count, 'not 8 but 9')).toBe(9);
  });
  it('asks about an open-ended count ("20+", "10 or more")', () => {
    expect(value(count, '20+')).toEqual(reask);
    expect(value(count, '10 or more')).toEqual(reask);
  });
  it('asks when a guess is asked back beside a hedge', () => {
    expect(value(count, 'no idea, maybe 12?')).toEqual(reask);
  });
  it('reads dot-grouped thousands where only that fits, and asks where 2.5 could be meant', () => {
    expect(value(euros, '12.500 euro')).toBe(12500);
    expect(value({ type: 'integer', min: 0 }, '3.400')).toBe(3400);
    expect(value(plain, '1.250.000')).toBe(1250000);
    expect(value(plain, '2.500')).toEqual(reask);
    expect(value(plain, '2.5')).toBe(2.5);
  });
  it('converts tonnes and hectares through the unit table', () => {
    expect(value(kilos, '2 tonnes')).toBe(2000);
    expect(value(area, '1.5 hectares')).toBe(15000);
  });
  it('asks when the number counts something else than the unit asked', () => {
    expect(value(area, '3 padel courts')).toEqual(reask);
    expect(value({ type: 'integer', min: 0, max: 120 }, '30 months')).toEqual(reask);
  });
  it('asks for the total when numbers count different things', () => {
    expect(value(count, '3 indoor and 3 outdoor')).toEqual(reask);
  });
  it('reads "nobody" as 0 for a count that may be zero, not as a skip', () => {
    const guests: AnswerSpec = { type: 'integer', min: 0 };
    expect(extract(guests, 'nobody', { required: false, prompt: 'How many guests? (optional, say skip if unsure)' }).updates[0]?.value).toBe(0);
  });
  it('takes the number after "no" used as a self-correction', () => {
    expect(value(count, 'five no six')).toBe(6);
  });
});

describe('booleans, options and dates', () => {
  it('flips a negated flow synonym', () => {
    const covered: AnswerSpec = { type: 'boolean', synonyms: { true: ['covered'], false: ['open air'] } };
    expect(value(covered, 'not covered')).toBe(false);
  });
  it('never selects an option after "anything but"', () => {
    const size: AnswerSpec = { type: 'enum', options: ['small', 'large'] };
    expect(value(size, 'everything but large')).toMatchObject({ reask: expect.any(String) });
  });
  it('asks about a span or a hedge on the day, and about past words for a future date', () => {
    const start: AnswerSpec = { type: 'date', future: true };
    expect(value(start, 'beginning of next week')).toEqual(reask);
    expect(value({ type: 'date', past: true }, 'around two weeks ago')).toEqual(reask);
    expect(value(start, 'last friday')).toMatchObject({ reask: expect.stringContaining('passed') });
  });
});

describe('short text and names', () => {
  it('drops acknowledgements, soft hedges and lead-ins before a short answer', () => {
    expect(value(short, 'yes, Harbour View Tennis')).toBe('Harbour View Tennis');
    expect(value(short, 'I believe it is Humana')).toBe('Humana');
    expect(value(short, 'we use Allianz')).toBe('Allianz');
    expect(value(short, 'it is called Court Kings')).toBe('Court Kings');
    expect(value(short, "we're based in Porto")).toBe('Porto');
    expect(value(short, 'close to Bristol')).toBe('Bristol');
  });
  it('keeps long free text exactly as typed', () => {
    expect(value({ type: 'text' }, 'we have two courts near the river')).toBe('we have two courts near the river');
  });
  it('drops emoji and a nickname aside at the end', () => {
    expect(value(short, 'Lia Moreau 🎾')).toBe('Lia Moreau');
    expect(extract({ type: 'text', kind: 'name' }, 'Elizabeth Grant, but I go by Liz').updates[0]?.value).toBe('Elizabeth Grant');
  });
  it('takes the correction in a short answer', () => {
    expect(value(short, 'Ana Ruiz, I mean Ana Ruíz')).toBe('Ana Ruíz');
  });
  it('asks again on a question back, an unsure answer or two candidates', () => {
    expect(value(short, 'what is it for?')).toEqual(reask);
    expect(value(short, "Bupa I think, don't remember")).toEqual(reask);
    expect(value(short, 'Vitality or Bupa')).toEqual(reask);
  });
  it("reads the subject's name after 'me,' or 'my husband'", () => {
    expect(extract(person, 'my husband Omar Haddad').updates[0]?.value).toBe('Omar Haddad');
    expect(extract(person, 'me, Lucy Park').updates[0]?.value).toBe('Lucy Park');
  });
  it('asks whose name when a reply names two people', () => {
    expect(extract(person, 'me and my wife, Sam and Alex Reid').problem).toMatchObject({ specific: true });
  });
});

describe('hedges and skips', () => {
  const notes: Partial<OpenQuestion> = { required: false, prompt: 'Any access notes? Say skip if not.' };
  it('"no, that\'s it" and "nothing more" decline an optional question that invites a skip', () => {
    expect(extract({ type: 'text', max: 300 }, "no, that's it", notes).unknown).toEqual(['k']);
    expect(extract({ type: 'text', max: 300 }, 'nothing more', notes).unknown).toEqual(['k']);
  });
  it('"we don\'t have one" declines: a skip when optional, asked again when required', () => {
    expect(extract({ type: 'text', max: 80 }, "we don't have a dentist").unknown).toEqual(['k']);
    expect(extract({ type: 'text', max: 80 }, "I don't have a dentist").updates).toEqual([]);
  });
  it('"none" is the answer to a text question whose prompt does not name the skip', () => {
    const meds = extract({ type: 'text', max: 200 }, 'none', { required: false, prompt: 'Current medication? (optional)' });
    expect(meds.updates[0]?.value).toBe('none');
  });
});

describe('later rules: signs, scales, small counts, spaced emails, declines', () => {
  const celsius: AnswerSpec = { type: 'number', min: -80, max: 60, unit: '°C' };
  it('reads "minus" and "below zero" as negative, and "degrees" as the question\'s temperature unit', () => {
    expect(value(celsius, 'minus 4 degrees')).toBe(-4);
    expect(value(celsius, '12 below zero')).toBe(-12);
  });
  it('drops the scale in "8/10" and "3 out of 5"', () => {
    expect(value({ type: 'number', min: 0, max: 10 }, 'a solid 8/10')).toBe(8);
    expect(value({ type: 'integer', min: 1, max: 5 }, '3 out of 5')).toBe(3);
  });
  it('reads "a pair of" as 2 and "only me" as 1', () => {
    expect(value(count, 'a pair of tennis courts')).toBe(2);
    expect(value(count, 'only me')).toBe(1);
  });
  it('closes spaces typed around the @ or a dot of one address', () => {
    expect(value({ type: 'email' }, 'li.wei @ mail . org')).toBe('li.wei@mail.org');
  });
  it('takes "prefer not to share" and "no, no hurry" as skips of an optional question', () => {
    const optional: Partial<OpenQuestion> = { required: false, prompt: 'A deadline, if any? Say skip if not.' };
    expect(extract({ type: 'phone' }, "I'd prefer not to share my number", optional).unknown).toEqual(['k']);
    expect(extract({ type: 'date', future: true }, 'no, no hurry', optional).unknown).toEqual(['k']);
  });
  it('keeps a short number a number where the country reads it as a phone', () => {
    const r = parseAnswer({ type: 'integer', min: 1 }, '2.400', { ...ctx, defaultCountry: 'DE' });
    expect(r).toMatchObject({ ok: true, value: 2400 });
  });
});

describe('issue 16 rules: typos, "all of them", a bare day of the month, spelled web addresses', () => {
  const fruit: AnswerSpec = { type: 'enum', options: ['apple', 'banana', 'cherry'] };
  const fruits: AnswerSpec = { ...fruit, multiple: true };
  it('takes a one-slip typo of exactly one option, two slips from seven letters', () => {
    expect(value(fruit, 'bananna please')).toBe('banana');
    expect(value(fruit, 'chery')).toBe('cherry');
    expect(value({ type: 'enum', options: ['delivery', 'collection'] }, 'colecton')).toBe('collection');
    expect(value(fruits, 'aple and chrry')).toEqual(['apple', 'cherry']);
  });
  it('never guesses a typo that is near two options, too far off, or beside an unknown word in a list', () => {
    expect(value({ type: 'enum', options: ['cart', 'card'] }, 'carx')).toMatchObject({ reask: expect.any(String) });
    expect(value(fruit, 'bnnaa')).toMatchObject({ reask: expect.any(String) });
    expect(value(fruits, 'mango and bananna')).toMatchObject({ reask: expect.any(String) });
    expect(value(fruit, 'not bananna')).toMatchObject({ reask: expect.any(String) });
  });
  it('reads "all of them" and "everything but X" for a multiple choice only', () => {
    expect(value(fruits, 'All of the above!')).toEqual(['apple', 'banana', 'cherry']);
    expect(value(fruits, 'all except cherry')).toEqual(['apple', 'banana']);
    expect(value(fruits, 'everything apart from apple and banana')).toEqual(['cherry']);
    expect(value(fruits, 'all but mango')).toMatchObject({ reask: expect.any(String) });
    expect(value(fruit, 'all of them')).toMatchObject({ reask: expect.any(String) });
  });
  it('reads a bare day of the month by the question\'s direction, and asks when it has none', () => {
    expect(value({ type: 'date', future: true }, 'on the 2nd')).toBe('2026-02-02');
    expect(value({ type: 'date', future: true }, '28th')).toBe('2026-01-28');
    expect(value({ type: 'date', past: true }, 'the 21st')).toBe('2025-12-21');
    expect(value({ type: 'date', past: true }, 'the 31st')).toBe('2025-12-31');
    expect(value({ type: 'date' }, 'the 9th')).toEqual(reask);
    expect(value({ type: 'date', future: true }, 'the 32nd')).toMatchObject({ reask: expect.any(String) });
  });
  it('reads a web address spelled with "dot" only when it gives one distinctive address', () => {
    expect(value({ type: 'url' }, 'riverside (dot) co')).toBe('https://riverside.co');
    expect(value({ type: 'url' }, 'www dot riverside-tennis dot org')).toBe('https://www.riverside-tennis.org');
    expect(value({ type: 'url' }, 'jo at riverside dot com')).toMatchObject({ reask: expect.any(String) });
    expect(value({ type: 'url' }, 'polka dot dress')).toMatchObject({ reask: expect.any(String) });
  });
});
