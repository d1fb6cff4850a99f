import { describe, expect, it } from 'vitest';
import type { AnswerSpec } from '../../server/flow/answer-types.ts';
import { valueSchema } from '../../server/flow/answer-types.ts';
import { coerceValue, findPhones, parseAnswer, type ParseContext, type ParseResult } from '../../server/extract/parse/index.ts';

// Thursday 15 January 2026, 10:00 UTC.
const ctx: ParseContext = { now: '2026-01-15T10:00:00Z', defaultCountry: 'US' };

function value(spec: AnswerSpec, text: string, c: ParseContext = ctx): unknown {
  const r = parseAnswer(spec, text, c);
  if (!r.ok) throw new Error(`expected "${text}" to parse as ${spec.type}, got: ${r.reason}`);
  return r.value;
}

function reason(spec: AnswerSpec, text: string, c: ParseContext = ctx): string {
  const r = parseAnswer(spec, text, c);
  if (r.ok) throw new Error(`expected "${text}" to be rejected as ${spec.type}, got ${JSON.stringify(r.value)}`);
  return r.reason;
}

const ok = (r: ParseResult) => (r.ok ? r : expect.unreachable(`rejected: ${r.reason}`));

describe('numbers', () => {
  const num: AnswerSpec = { type: 'number' };

  it('reads English number words', () => {
    expect(value(num, 'twenty five')).toBe(25);
    expect(value(num, 'twenty-five')).toBe(25);
    expect(value(num, 'a hundred and five')).toBe(105);
    expect(value(num, 'one thousand two hundred')).toBe(1200);
    expect(value(num, 'about twenty-five thousand I think')).toBe(25000);
    expect(value(num, 'two dozen')).toBe(24);
  });

  it('reads k / m / million suffixes without floating-point residue', () => {
    expect(value(num, '1.5k')).toBe(1500);
    expect(value(num, '2m')).toBe(2_000_000);
    expect(value(num, '2 million')).toBe(2_000_000);
    expect(value(num, '2.3m')).toBe(2_300_000);
    expect(value(num, '25 thousand')).toBe(25_000);
  });

  it('reads currency signs and thousands separators', () => {
    const r = ok(parseAnswer(num, '$25,000', ctx));
    expect(r).toMatchObject({ value: 25000, evidence: '$25,000', exact: true });
    expect(value(num, '$25k')).toBe(25000);
    expect(value(num, 'around €1,250.50 per month')).toBe(1250.5);
  });

  it('allows a unit after the number', () => {
    const area: AnswerSpec = { type: 'number', unit: 'm²' };
    expect(ok(parseAnswer(area, 'about 420 m2', ctx))).toMatchObject({ value: 420, exact: false });
    expect(ok(parseAnswer(area, '420 m²', ctx))).toMatchObject({ value: 420, exact: true });
    expect(value(area, '420 square meters')).toBe(420);
  });

  it('reads "420m" as metres, not millions, when the unit is metres', () => {
    expect(value({ type: 'number', unit: 'm' }, '420m')).toBe(420);
    expect(value({ type: 'number' }, '420m')).toBe(420_000_000);
  });

  it('reads negative numbers', () => {
    expect(value(num, '-5')).toBe(-5);
  });

  it('rejects a fraction for an integer question with a reason', () => {
    expect(reason({ type: 'integer' }, '12.5')).toBe('Please give a whole number.');
    expect(value({ type: 'integer' }, '12')).toBe(12);
  });

  it('explains min and max in the reason, with the unit when there is one', () => {
    expect(reason({ type: 'number', min: 50, max: 20000 }, '30')).toBe('Please give a number between 50 and 20000.');
    expect(reason({ type: 'number', min: 50, max: 20000 }, '25k')).toBe('Please give a number between 50 and 20000.');
    expect(reason({ type: 'number', min: 1 }, 'zero')).toBe('Please give a number of at least 1.');
    expect(reason({ type: 'number', max: 10, unit: 'kW' }, '12 kW')).toBe('Please give a number no more than 10 kW.');
    expect(value({ type: 'number', min: 50, max: 20000 }, '50')).toBe(50);
  });

  it('refuses to choose between two different numbers', () => {
    expect(reason(num, 'maybe 50 maybe 100')).toMatch(/more than one number/);
  });

  it('asks which figure of a range to note, naming both ends in one scale', () => {
    expect(reason(num, 'between 50 and 100')).toBe('Which figure should I note — 50, 100, or something in between?');
    expect(reason(num, 'between 15 and 20k')).toMatch(/15,000, 20,000/);
    expect(reason(num, '20–25k')).toMatch(/20,000, 25,000/);
    expect(reason({ type: 'integer', unit: 'days' }, '2-3 days')).toMatch(/— 2, 3,/);
    expect(reason({ type: 'integer', unit: 'USD' }, 'zwischen 15.000 und 20.000 Dollar', { ...ctx, locale: 'de' })).toMatch(/15\.000, 20\.000 oder etwas dazwischen/);
  });

  it('reads a total said with its parts, checked when the parts do not add up', () => {
    const usd: AnswerSpec = { type: 'integer', min: 0, unit: 'USD' };
    const r = ok(parseAnswer(usd, '80k total - 60k for the lights and 20k for install', ctx));
    expect([r.value, r.check]).toEqual([80000, undefined]);
    expect(ok(parseAnswer(usd, '25k for the poles and 15k for the lamps, so 40k in total', ctx)).value).toBe(40000);
    expect(ok(parseAnswer(usd, '55k overall, about 40 of that for the lights', ctx)).check).toBeUndefined();
    expect(ok(parseAnswer(usd, '50k total - 40k lights and 20k install', ctx)).check).toBe(true);
    expect(ok(parseAnswer(usd, 'insgesamt 45.000 $: 35.000 für die Leuchten und 10.000 für die Montage', { ...ctx, locale: 'de' })).value).toBe(45000);
  });

  it('adds the parts of a budget said without a total, and has the sum checked', () => {
    const usd: AnswerSpec = { type: 'integer', min: 0, unit: 'USD' };
    const r = ok(parseAnswer(usd, 'council grant of 25k USD plus 5k from the club', ctx));
    expect([r.value, r.check]).toEqual([30000, true]);
    expect(ok(parseAnswer(usd, '$8k from a grant plus maybe another 5 from fundraising', ctx)).value).toBe(13000);
    expect(ok(parseAnswer(usd, 'ca. 8.000 Dollar vom Förderverein und nochmal 6.000 vom Verein', { ...ctx, locale: 'de' })).value).toBe(14000);
    // counts of different things are not added: the visitor gives the total
    expect(reason({ type: 'integer' }, '2 tennis and 2 padel')).toMatch(/in total/);
    expect(reason(usd, '20k or 30k')).toMatch(/more than one number/);
  });

  it('reads thousands grouped by spaces, not a phone number', () => {
    expect(value(num, '25 000')).toBe(25000);
    expect(value(num, 'around 1 200 000 dollars')).toBe(1200000);
    expect(reason(num, '555 201 3344')).toMatch(/more than one number/);
  });

  it('reads a per-item figure with a bare count of the items as the total, checked', () => {
    const r = ok(parseAnswer({ type: 'integer', unit: 'USD' }, '40k per court, we have 3', ctx));
    expect([r.value, r.check]).toEqual([120000, true]);
    expect(ok(parseAnswer({ type: 'integer', unit: 'USD' }, '4k per court, 3 courts', ctx)).check).toBeUndefined();
  });

  it('does not read the digits of a phone number or email as the number asked for', () => {
    expect(value(num, 'about 5k, call me on 415-555-0123 or ann42@example.com')).toBe(5000);
  });

  it('does not read digits glued to letters ("m2", "covid19") as numbers', () => {
    expect(reason(num, 'covid19 rules')).toMatch(/doesn't look like a number/);
  });

  it('rejects text without a number', () => {
    expect(reason(num, 'lots')).toBe("That doesn't look like a number.");
  });
});

describe('phone numbers dialled with 00', () => {
  const phone: AnswerSpec = { type: 'phone' };
  it('reads "00" and a country code as international wherever the visitor is, but not "00" inside a number', () => {
    expect(value(phone, '0049 171 2345678')).toBe('+491712345678');
    expect(value(phone, 'my mobile is 0044 20 7946 0958')).toBe('+442079460958');
    expect(value(phone, '020 7946 0018', { ...ctx, defaultCountry: 'GB' })).toBe('+442079460018');
  });
});

describe('phone numbers', () => {
  const phone: AnswerSpec = { type: 'phone' };

  it('finds the shortest numbers any country has (four digits) and digits of other scripts, and nothing in three digits', () => {
    expect(findPhones('call 4002 please', { ...ctx, defaultCountry: 'NU' }).map((p) => p.value)).toEqual(['+6834002']); // Niue, national
    expect(findPhones('ring ٤١٥٥٥٥٠١٢٣', ctx).map((p) => p.value)).toEqual(['+14155550123']); // Arabic-Indic digits
    expect(findPhones('about 420 m2', ctx)).toEqual([]);
  });

  it('normalises a national number to E.164 with the default country', () => {
    expect(value(phone, '(415) 555-0123')).toBe('+14155550123');
    expect(value(phone, '415.555.0123')).toBe('+14155550123');
  });

  it('keeps an explicit country code', () => {
    expect(value(phone, '+44 20 7946 0958')).toBe('+442079460958');
  });

  it('uses the context country for numbers without a country code', () => {
    expect(value(phone, '020 7946 0958', { ...ctx, defaultCountry: 'GB' })).toBe('+442079460958');
  });

  it('falls back to US when the default country is not a real one', () => {
    expect(value(phone, '(415) 555-0123', { ...ctx, defaultCountry: 'ZZ' })).toBe('+14155550123');
  });

  it('finds the number inside a sentence', () => {
    expect(ok(parseAnswer(phone, 'sure, call me at 415 555 0123 after lunch', ctx))).toMatchObject({
      value: '+14155550123', evidence: '415 555 0123', exact: false,
    });
  });

  it('rejects a number that is too short to be a phone number', () => {
    expect(reason(phone, '12')).toBe("That doesn't look like a phone number — for example (201) 555-0123.");
    expect(reason(phone, '555-0123')).toMatch(/area code/);
  });

  it('asks which one when two numbers are given', () => {
    expect(reason(phone, '415 555 0123 or 415 555 0199')).toMatch(/more than one phone number/);
  });
});

describe('dates', () => {
  const date: AnswerSpec = { type: 'date' };

  it('resolves relative dates against the session clock', () => {
    expect(value(date, 'next Tuesday')).toBe('2026-01-20');
    expect(value(date, 'tomorrow')).toBe('2026-01-16');
    expect(value(date, 'in 3 days')).toBe('2026-01-18');
  });

  it('reads month names, ISO dates and numeric dates', () => {
    expect(value(date, 'March 4th')).toBe('2026-03-04');
    expect(value(date, '2026-03-04')).toBe('2026-03-04');
    expect(value(date, 'on 4 March 2026 please')).toBe('2026-03-04');
  });

  it('reads 03/04/2026 month-first in the US and day-first elsewhere', () => {
    expect(value(date, '03/04/2026')).toBe('2026-03-04');
    expect(value(date, '03/04/2026', { ...ctx, defaultCountry: 'GB' })).toBe('2026-04-03');
  });

  it("takes today's date at the session clock's offset, not the host's", () => {
    // 20:00 on the 15th in California is already the 16th in UTC.
    expect(value(date, 'today', { ...ctx, now: '2026-01-15T20:00:00-08:00' })).toBe('2026-01-15');
    expect(value(date, 'today', { ...ctx, now: '2026-01-16T00:30:00+14:00' })).toBe('2026-01-16');
  });

  it('rejects a future date for a past-only question', () => {
    expect(reason({ type: 'date', past: true }, '2026-03-04')).toMatch(/in the future/);
    expect(reason({ type: 'date', past: true }, 'tomorrow')).toMatch(/in the future/);
  });

  it('reads a yearless date as the last one for a past-only question', () => {
    expect(value({ type: 'date', past: true }, 'March 4th')).toBe('2025-03-04');
  });

  it('rejects a past date for a future-only question', () => {
    expect(reason({ type: 'date', future: true }, 'yesterday')).toMatch(/has passed/);
    expect(value({ type: 'date', future: true }, 'today')).toBe('2026-01-15');
  });

  it('explains min and max', () => {
    expect(reason({ type: 'date', min: '2026-02-01' }, 'tomorrow')).toBe('Please give a date on or after 2026-02-01.');
    expect(reason({ type: 'date', max: '2026-01-31' }, 'March 4th')).toBe('Please give a date on or before 2026-01-31.');
  });

  it('rejects dates that do not exist and text that is not a date', () => {
    expect(reason(date, '2026-02-30')).toMatch(/no such date/);
    expect(reason(date, 'whenever suits')).toBe("That doesn't look like a date.");
  });

  it('refuses two different dates or a range', () => {
    expect(reason(date, 'march 4 or march 6')).toMatch(/more than one date/);
    expect(reason(date, 'from March 4 to March 6')).toMatch(/single date|more than one date/);
  });
});

describe('email addresses', () => {
  const email: AnswerSpec = { type: 'email' };

  it('extracts the address from a sentence and lowercases it', () => {
    expect(ok(parseAnswer(email, 'Sure, it is Ann.Lee@Example.COM.', ctx))).toMatchObject({
      value: 'ann.lee@example.com', evidence: 'Ann.Lee@Example.COM', exact: false,
    });
  });

  it('marks a bare address as the exact answer', () => {
    expect(ok(parseAnswer(email, ' ann@example.com ', ctx)).exact).toBe(true);
  });

  it('rejects text without an address', () => {
    expect(reason(email, 'ann at example')).toBe("That doesn't look like an email address."); // spelled without an ending: no address
  });

  it('asks which one when two addresses are given', () => {
    expect(reason(email, 'ann@example.com or bob@example.com')).toMatch(/more than one email/);
  });

  it('reads a comma or semicolon typed for the domain\'s dot, to be checked once as read', () => {
    expect(ok(parseAnswer(email, 'k.weber@t-online,de', ctx))).toMatchObject({ value: 'k.weber@t-online.de', check: true });
    expect(ok(parseAnswer(email, 'ann@web;de bitte', ctx))).toMatchObject({ value: 'ann@web.de', check: true });
    expect(ok(parseAnswer(email, 'ann@web.de, thanks', ctx)).check).toBeUndefined();
  });
});

describe('web addresses', () => {
  const url: AnswerSpec = { type: 'url' };

  it('adds https:// to an address without a scheme', () => {
    expect(value(url, 'brightfield.com')).toBe('https://brightfield.com');
  });

  it('keeps the scheme and path and drops sentence punctuation', () => {
    expect(value(url, '  our site is https://www.brightfield.com/about, thanks ')).toBe('https://www.brightfield.com/about');
    expect(value(url, 'http://brightfield.io')).toBe('http://brightfield.io');
  });

  it('does not take the domain of an email address for a web address', () => {
    expect(reason(url, 'ann@brightfield.com')).toBe("That doesn't look like a web address.");
  });

  it('rejects schemes other than http(s)', () => {
    expect(reason(url, 'javascript:alert(1)')).toBe("That doesn't look like a web address.");
  });
});

describe('enums', () => {
  const facility: AnswerSpec = {
    type: 'enum',
    options: [
      { value: 'bb', label: 'Basketball', synonyms: ['basketball court'] },
      { value: 'other', label: 'Other', synonyms: ['court'] },
      { value: 'buy_led', label: 'LED upgrade' },
    ],
  };

  it('takes the longest matching synonym ("basketball court" beats "court")', () => {
    expect(ok(parseAnswer(facility, 'a basketball court please', ctx))).toMatchObject({ value: 'bb', evidence: 'basketball court' });
    expect(value(facility, 'just a court')).toBe('other');
  });

  it('matches case-insensitively on word boundaries only', () => {
    expect(value(facility, 'OTHER')).toBe('other');
    expect(reason(facility, 'the courtyard')).toMatch(/^Please choose one of: Basketball, Other, LED upgrade\.$/);
  });

  it('matches an option value written with spaces instead of underscores', () => {
    expect(value(facility, 'buy led')).toBe('buy_led');
  });

  it('asks for one when two options match equally well', () => {
    expect(reason({ type: 'enum', options: ['small', 'large'] }, 'small or large')).toBe('Please pick just one: small or large.');
  });

  it('collects every mentioned option in option order for multiple', () => {
    const colours: AnswerSpec = { type: 'enum', options: ['red', 'green', 'blue'], multiple: true };
    expect(ok(parseAnswer(colours, 'blue and red', ctx))).toMatchObject({ value: ['red', 'blue'], exact: true });
    expect(value(colours, 'red, red and green')).toEqual(['red', 'green']);
  });

  it('takes a bare number as the option at that position', () => {
    const colours: AnswerSpec = { type: 'enum', options: ['red', 'green', 'blue'] };
    expect(value(colours, '2')).toBe('green');
    expect(value({ ...colours, multiple: true }, '3, 1')).toEqual(['red', 'blue']);
    expect(reason(colours, '4')).toBe('Please pick a number from 1 to 3.');
  });

  it('prefers an option literally named by the number over the position', () => {
    expect(value({ type: 'enum', options: ['2', '1'] }, '1')).toBe('1');
  });
});

describe('booleans', () => {
  const bool: AnswerSpec = { type: 'boolean' };

  it('reads built-in English yes and no words', () => {
    for (const yes of ['yes', 'Yep', 'yeah!', 'sure', 'of course', 'correct', 'y', 'true']) expect(value(bool, yes)).toBe(true);
    for (const no of ['no', 'Nope', 'nah', 'not really', 'n', 'false']) expect(value(bool, no)).toBe(false);
  });

  it('lets the longer phrase win ("of course not" is no, "not sure" is neither)', () => {
    expect(value(bool, 'of course not')).toBe(false);
    expect(reason(bool, 'not sure')).toBe('Please answer yes or no.');
    expect(reason(bool, 'no idea')).toBe('Please answer yes or no.');
  });

  it("reads the spec's own synonyms, which override built-in words", () => {
    const spec: AnswerSpec = { type: 'boolean', synonyms: { true: ['da', 'nope'], false: ['nein'] } };
    expect(value(spec, 'da')).toBe(true);
    expect(value(spec, 'nein')).toBe(false);
    expect(value(spec, 'nope')).toBe(true);
  });

  it('rejects a message that says both yes and no', () => {
    expect(reason(bool, 'yes, no, whatever')).toBe('Please answer yes or no.');
  });

  it('marks "yes please" exact and a yes inside a sentence as partial', () => {
    expect(ok(parseAnswer(bool, 'yes please', ctx)).exact).toBe(true);
    expect(ok(parseAnswer(bool, 'yes, we have a warehouse', ctx)).exact).toBe(false);
  });
});

describe('text', () => {
  it('takes the whole message, trimmed and otherwise untouched', () => {
    expect(ok(parseAnswer({ type: 'text' }, '  The LEDs  flicker.\n', ctx))).toEqual({
      ok: true, value: 'The LEDs  flicker.', evidence: 'The LEDs  flicker.', exact: true,
    });
  });

  it('applies min and max length with a reason', () => {
    expect(reason({ type: 'text', min: 3 }, '  hi ')).toBe('Please write at least 3 characters.');
    expect(reason({ type: 'text', max: 5 }, 'too long')).toBe('Please keep it to 5 characters or fewer.');
  });

  it('requires the RE2 pattern to match the whole answer', () => {
    const zip: AnswerSpec = { type: 'text', pattern: '[0-9]{5}' };
    expect(value(zip, ' 94107 ')).toBe('94107');
    expect(reason(zip, '941070')).toBe("That doesn't match the expected format.");
  });

  it('refuses answers when the pattern cannot be compiled rather than accept them unchecked', () => {
    expect(parseAnswer({ type: 'text', pattern: '(a' }, 'a', ctx).ok).toBe(false);
  });

  it('rejects an empty message', () => {
    expect(reason({ type: 'text' }, '   ')).toBe('Please type an answer.');
  });
});

describe('coerceValue (structured proposals)', () => {
  it('normalises LLM values to the committed form', () => {
    expect(ok(coerceValue({ type: 'number' }, '25k', ctx)).value).toBe(25000);
    expect(ok(coerceValue({ type: 'number' }, '25,000', ctx)).value).toBe(25000);
    expect(ok(coerceValue({ type: 'phone' }, '+1 (415) 555-0123', ctx)).value).toBe('+14155550123');
    expect(ok(coerceValue({ type: 'date' }, 'next tuesday', ctx)).value).toBe('2026-01-20');
    expect(ok(coerceValue({ type: 'date' }, '2026-03-04T09:00:00Z', ctx)).value).toBe('2026-03-04');
    expect(ok(coerceValue({ type: 'boolean' }, 'yes', ctx)).value).toBe(true);
    expect(ok(coerceValue({ type: 'email' }, 'Ann@Example.com', ctx)).value).toBe('ann@example.com');
    expect(ok(coerceValue({ type: 'url' }, 'brightfield.com', ctx)).value).toBe('https://brightfield.com');
    expect(ok(coerceValue({ type: 'text' }, 94107, ctx)).value).toBe('94107');
  });

  it('maps an enum label or synonym to the option value', () => {
    const spec: AnswerSpec = { type: 'enum', options: [{ value: 'buy_led', label: 'Buy LED lighting', synonyms: ['purchase'] }, 'support'] };
    expect(ok(coerceValue(spec, 'Buy LED lighting', ctx)).value).toBe('buy_led');
    expect(ok(coerceValue(spec, 'purchase', ctx)).value).toBe('buy_led');
    expect(coerceValue(spec, 'refund', ctx).ok).toBe(false);
  });

  it('sorts a multiple-choice list into option order and drops duplicates', () => {
    const spec: AnswerSpec = { type: 'enum', options: ['red', 'green', 'blue'], multiple: true };
    expect(ok(coerceValue(spec, ['blue', 'Red', 'blue'], ctx)).value).toEqual(['red', 'blue']);
    expect(coerceValue(spec, ['red', 'purple'], ctx).ok).toBe(false);
  });

  it('passes values already in normal form through unchanged, and they satisfy the zod schema', () => {
    const cases: Array<[AnswerSpec, unknown]> = [
      [{ type: 'text' }, 'hello'],
      [{ type: 'number' }, 1250.5],
      [{ type: 'integer' }, 12],
      [{ type: 'boolean' }, false],
      [{ type: 'enum', options: ['a', 'b'] }, 'b'],
      [{ type: 'enum', options: ['a', 'b'], multiple: true }, ['a', 'b']],
      [{ type: 'email' }, 'ann@example.com'],
      [{ type: 'phone' }, '+442079460958'],
      [{ type: 'url' }, 'https://brightfield.com/about'],
      [{ type: 'date' }, '2026-03-04'],
    ];
    for (const [spec, v] of cases) {
      const r = ok(coerceValue(spec, v, ctx));
      expect(r.value, spec.type).toEqual(v);
      expect(valueSchema(spec).safeParse(r.value).success, spec.type).toBe(true);
    }
  });

  it('still applies the constraints', () => {
    expect(coerceValue({ type: 'integer' }, 12.5, ctx)).toEqual({ ok: false, reason: 'Please give a whole number.' });
    expect(coerceValue({ type: 'number', max: 10 }, '25k', ctx).ok).toBe(false);
    expect(coerceValue({ type: 'date', past: true }, '2030-01-01', ctx).ok).toBe(false);
  });

  it('rejects values of the wrong shape without throwing', () => {
    for (const v of [null, undefined, {}, [], Symbol('x'), () => 1, Number.NaN]) {
      for (const type of ['text', 'number', 'boolean', 'email', 'phone', 'url', 'date'] as const) {
        expect(coerceValue({ type } as AnswerSpec, v, ctx).ok).toBe(false);
      }
    }
  });
});

describe('hostile input', () => {
  const specs: AnswerSpec[] = [
    { type: 'text', max: 100 }, { type: 'text', pattern: '[a-z]+' }, { type: 'number' }, { type: 'integer', min: 0 },
    { type: 'boolean' }, { type: 'enum', options: ['a', 'b'], multiple: true }, { type: 'email' }, { type: 'phone' },
    { type: 'url' }, { type: 'date', past: true },
  ];
  const nasty = [
    'x'.repeat(1_000_000),
    '1,'.repeat(500_000),
    'a@b.'.repeat(250_000),
    '\u0000\u0007\u001b[31mred\u001b[0m\r\n\t',
    '👍🏽🙃🇺🇸 ‍ ️',
    '\u202eoN\u202c yes',
    'نعم، بريدي هو ann@example.com',
    '\ud800 lone surrogate \udfff',
    '',
  ];

  it('never throws, whatever the text, and always returns a result', () => {
    for (const spec of specs) {
      for (const text of nasty) {
        const r = parseAnswer(spec, text, ctx);
        expect(typeof r.ok).toBe('boolean');
      }
    }
  });

  it('turns down a megabyte of text for typed answers with a reason', () => {
    expect(reason({ type: 'email' }, `${'x'.repeat(1_000_000)} ann@example.com`)).toMatch(/too long/);
  });

  it('sees through control and bidi characters around an answer', () => {
    expect(value({ type: 'boolean' }, '\u0007yes\u0000')).toBe(true);
    expect(value({ type: 'email' }, 'نعم، بريدي هو \u200fANN@example.com\u200f')).toBe('ann@example.com');
    expect(value({ type: 'boolean' }, '👍')).toBe(true);
  });

  it('gives the same result for the same input', () => {
    for (const spec of specs) {
      expect(parseAnswer(spec, 'next tuesday, 25k, yes, b', ctx)).toEqual(parseAnswer(spec, 'next tuesday, 25k, yes, b', ctx));
    }
  });
});
