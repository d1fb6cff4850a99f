import { describe, expect, it } from 'vitest';
import type { AnswerSpec } from '../../server/flow/answer-types.ts';
import { OfflineExtractor } from '../../server/extract/offline/index.ts';
import { parseAnswer } from '../../server/extract/parse/index.ts';
import type { OpenQuestion } from '../../server/extract/extractor.ts';
import { countryOf } from '../../server/engine/extraction.ts';
import { conversionEcho } from '../../server/engine/engine.ts';

// Replies as visitors type them; every rule here committed a wrong value before (issue 16).
const ctx = { now: '2026-11-25T10:00:00+00:00', defaultCountry: 'US' };
const parse = (spec: AnswerSpec, text: string) => parseAnswer(spec, text, ctx);
const value = (spec: AnswerSpec, text: string) => {
  const r = parse(spec, text);
  return r.ok ? r.value : `problem: ${r.reason}`;
};
const offline = new OfflineExtractor();
const extract = (answer: AnswerSpec, text: string, extra: Partial<OpenQuestion> = {}, country = 'US') => {
  const current: OpenQuestion = { nodeId: 'q', key: 'k', answer, required: true, ...extra };
  return offline.extract({ text, current, open: [], paths: [], now: ctx.now, defaultCountry: country });
};

const area: AnswerSpec = { type: 'integer', min: 50, max: 50000, unit: 'm²' };
const height: AnswerSpec = { type: 'number', min: 0, max: 60, unit: 'm' };
const budget: AnswerSpec = { type: 'integer', min: 0, currency: 'USD' };

describe('units: a value in another unit of the same kind is converted exactly, never taken as is', () => {
  it('converts square feet to square metres for an area question, rounding an integer answer', () => {
    const r = parse(area, '5000 sq ft');
    expect(r).toMatchObject({ ok: true, value: 465, conversion: { raw: '5000 sq ft', from: 'ft²', to: 'm²', value: 465, exact: false } });
  });

  it('converts feet and centimetres to metres', () => {
    expect(value(height, 'about 25 feet')).toBe(7.62);
    expect(value(height, '30cm')).toBe(0.3);
    expect(value({ type: 'integer', unit: 'days' }, '2 weeks')).toBe(14);
  });

  it('reads a decimal comma', () => {
    expect(value(height, '7,5 m')).toBe(7.5);
    expect(value(height, '7,5')).toBe(7.5);
    expect(value({ type: 'integer' }, '7,500')).toBe(7500);
  });

  it('asks again for a unit of another kind, or a calendar span with no fixed length', () => {
    expect(value(height, '8 kg')).toMatch(/^problem: That's a mass \(kg\), and I need a length — please give it in m\./);
    expect(value(area, '420m')).toMatch(/^problem: .*area.*m²/);
    expect(value({ type: 'integer', unit: 'days' }, '3 months')).toBe('problem: Please give that in days.');
  });

  it('keeps the question unit and plain numbers as they are', () => {
    expect(parse(area, 'around 420 m2')).toMatchObject({ ok: true, value: 420 });
    expect(parse(area, '420')).toMatchObject({ ok: true, value: 420 });
    expect(parse(area, '420').ok && 'conversion' in parse(area, '420')).toBe(false);
    expect(value({ type: 'integer', min: 0, max: 40 }, '12 poles')).toBe(12);
  });

  it('says a converted value back the way a person would', () => {
    expect(conversionEcho({ raw: '5000 sq ft', from: 'ft²', to: 'm²', value: 465, exact: false })).toBe('5,000 sq ft — about 465 m², noted.');
    expect(conversionEcho({ raw: '25 feet', from: 'ft', to: 'm', value: 7.62, exact: true })).toBe('25 feet — 7.62 m, noted.');
  });
});

describe('money: an amount in another currency is asked again, never converted', () => {
  it('refuses euros and pounds for a dollar budget', () => {
    expect(value(budget, '€30,000')).toMatch(/^problem: That amount is in Euro \(EUR\) — please give it in US Dollar \(USD\)/);
    expect(value(budget, '£20k')).toMatch(/British Pound/);
    expect(value(budget, 'about 30000 euros')).toMatch(/Euro/);
  });

  it('treats a unit that is an ISO currency code as the question currency', () => {
    expect(value({ type: 'integer', min: 0, unit: 'USD' }, '€30,000')).toMatch(/^problem: .*USD/);
  });

  it('reads dollars and multipliers', () => {
    expect(value(budget, '20k')).toBe(20000);
    expect(value(budget, '$1.2m')).toBe(1200000);
    expect(value(budget, 'around 25k dollars')).toBe(25000);
  });
});

describe('negation, alternatives and self-corrections', () => {
  const colour: AnswerSpec = { type: 'enum', options: ['red', 'green', 'blue'] };
  const intention: AnswerSpec = { type: 'enum', options: [{ value: 'quote', synonyms: ['a quote'] }, { value: 'support', synonyms: ['help'] }] };

  it('never selects a negated option', () => {
    expect(value(intention, "I don't need support, I want a quote")).toBe('quote');
    expect(value(colour, 'not red')).toMatch(/^problem: Which one, then\?/);
    expect(value(colour, 'green, not red')).toBe('green');
  });

  it('gives no path vote to a negated example', () => {
    const paths = [{ name: 'buy', examples: ['quote'] }, { name: 'support', examples: ['repair'] }];
    const vote = offline.extract({ text: "I don't need a repair, I want a quote", current: null, open: [], paths, now: ctx.now, defaultCountry: 'US' }).pathVote;
    expect(vote?.path).toBe('buy');
  });

  it('asks about two options for a single choice', () => {
    expect(value(colour, 'red or green')).toBe('problem: Please pick just one: red or green.');
  });

  it('takes the correction', () => {
    expect(value({ type: 'integer' }, '3 courts — sorry, 4')).toBe(4);
    expect(value({ type: 'integer' }, '3, no wait, 4')).toBe(4);
    expect(value({ type: 'integer' }, '3 actually 4')).toBe(4);
    expect(value(colour, 'red, I mean blue')).toBe('blue');
    expect(value({ type: 'boolean' }, 'yes — sorry, no')).toBe(false);
  });
});

describe('names and short text', () => {
  const name: AnswerSpec = { type: 'text', kind: 'name', min: 2, max: 120 };
  const patient: AnswerSpec = { type: 'text', kind: 'name', of: 'subject', min: 2, max: 120 };

  it('takes the name out of an introduction', () => {
    expect(extract(name, 'my name is Maria Lopez').updates[0]?.value).toBe('Maria Lopez');
    expect(extract(name, "it's Maria Lopez").updates[0]?.value).toBe('Maria Lopez');
    expect(extract(patient, 'it is for me, Maria Lopez').updates[0]?.value).toBe('Maria Lopez');
    expect(extract(patient, 'this is for my son, Tom Baker').updates[0]?.value).toBe('Tom Baker');
  });

  it("asks again when the name given is someone else's", () => {
    const p = extract(name, 'this is for my son, Tom Baker');
    expect(p.updates).toEqual([]);
    expect(p.problem?.reason).toMatch(/your son's name.*your own name/);
  });

  it('trims filler from a short answer and keeps free text as typed', () => {
    const insurer: AnswerSpec = { type: 'text', min: 2, max: 120 };
    expect(value(insurer, 'Blue Cross, like I said')).toBe('Blue Cross');
    expect(value(insurer, "um, it's Aetna thanks")).toBe('Aetna');
    expect(value({ type: 'text' }, 'The light flickers, like I said')).toBe('The light flickers, like I said');
  });
});

describe('hedges and skips: one rule', () => {
  it('skips on a hedge for every answer type', () => {
    for (const answer of [{ type: 'date' }, { type: 'integer' }, { type: 'text' }, { type: 'boolean' }] as AnswerSpec[]) {
      for (const text of ["I don't know", 'dont know', 'idk', 'no idea', 'not sure']) expect(extract(answer, text).unknown).toEqual(['k']);
    }
  });

  it('reads a bare "no" to an optional question that invites a skip as a skip', () => {
    const prompt = 'Is there a date? Say skip if not';
    expect(extract({ type: 'date' }, 'no', { required: false, prompt }).unknown).toEqual(['k']);
    expect(extract({ type: 'text' }, 'none', { required: false, prompt: 'Any allergies? Leave blank if none' }).unknown).toEqual(['k']);
    // a yes/no question's "no" is its answer, and a prompt that invites nothing gets no skip
    expect(extract({ type: 'boolean' }, 'no', { required: false, prompt }).updates[0]?.value).toBe(false);
    expect(extract({ type: 'date' }, 'no', { required: false, prompt: 'When?' }).unknown).toEqual([]);
  });
});

describe('dates', () => {
  it('asks which day for a month without one, never the 1st', () => {
    expect(value({ type: 'date' }, 'mid January')).toBe('problem: Which day in January? Please give the exact date.');
    expect(value({ type: 'date' }, 'jan 15')).toBe('2027-01-15');
  });
});

describe('locale-aware phone defaults', () => {
  it("reads a UK mobile with the tenant's country and gives that country's example", () => {
    expect(extract({ type: 'phone' }, '07911 123456', {}, 'GB').updates[0]?.value).toBe('+447911123456');
    expect(extract({ type: 'phone' }, 'call me', {}, 'GB').problem?.reason).toMatch(/07400 123456/);
  });

  it('takes the country from the session context before the flow', () => {
    expect(countryOf({ country: 'gb' })).toBe('GB');
    expect(countryOf({ country: 'Great Britain' })).toBeUndefined();
    expect(countryOf(undefined)).toBeUndefined();
  });
});
