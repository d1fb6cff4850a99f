import { describe, expect, it } from 'vitest';
import { narrowDate, parseDate } from '../../server/extract/parse/date.ts';
import { impliedAnswer } from '../../server/engine/implied-answer.ts';

// Dates as visitors say them (issue 30): a year with an apostrophe or in words, a
// fixed-date holiday with a year, a date of birth without a year (asked, never this
// year's), a month said again beside the date, a hedged day after "Which day in March?".

const ctx = { now: '2026-01-15T10:00:00Z', defaultCountry: 'US' };
const dob = { type: 'date' as const, past: true, birth: true, min: '1900-01-01' };
const start = { type: 'date' as const, future: true };
const read = (spec: typeof dob | typeof start, text: string, locale?: string) => {
  const r = parseDate(spec, text, { ...ctx, ...(locale ? { locale } : {}) });
  return r.ok ? r.value : `asked: ${r.reason}`;
};

describe('a year the visitor did not type in four digits', () => {
  it('reads an apostrophe year in the century the question points to', () => {
    expect(read(dob, "Oct 5 '61")).toBe('1961-10-05');
    expect(read(dob, 'jan 2nd ’05')).toBe('2005-01-02');
    expect(read(start, "june 1 '26")).toBe('2026-06-01');
  });
  it('reads a year in words, in English and German', () => {
    expect(read(dob, 'sixteenth of june nineteen seventy')).toBe('1970-06-16');
    expect(read(dob, 'may 5th two thousand and ten')).toBe('2010-05-05');
    expect(read(dob, 'feb 2nd nineteen oh five')).toBe('1905-02-02');
    expect(read(dob, 'october 9 twenty twelve')).toBe('2012-10-09');
    expect(read(dob, '3. März neunzehnhundertachtzig', 'de')).toBe('1980-03-03');
    expect(read(dob, '14. Februar zweitausendundfünf', 'de')).toBe('2005-02-14');
  });
  it('keeps the typed words as the evidence', () => {
    const r = parseDate(dob, "born Oct 5 '61", ctx);
    expect(r.ok && r.evidence).toBe("Oct 5 '61");
  });
});

describe('a holiday', () => {
  it('with a year is that day; a movable one is asked about', () => {
    expect(read(dob, 'born on Christmas day 2010')).toBe('2010-12-25');
    expect(read(dob, "new year's eve 1999")).toBe('1999-12-31');
    expect(read(dob, 'Heiligabend 1975', 'de')).toBe('1975-12-24');
    expect(read(start, 'christmas eve')).toBe('2026-12-24');
    expect(read(dob, 'easter sunday 1990')).toMatch(/^asked: Which day\?/);
    expect(read(start, 'nach den Sommerferien', 'de')).toMatch(/^asked: Welcher Tag\?/);
  });
  it('beside a full date is no second date', () => {
    expect(read(dob, 'Dec 25th, 1956 — a Christmas baby!')).toBe('1956-12-25');
  });
});

describe('a date of birth without a year', () => {
  it('is asked about, never read as this year', () => {
    expect(read(dob, 'March 4th')).toMatch(/^asked: Which year\?/);
    expect(read(dob, 'am 12. Juli', 'de')).toMatch(/^asked: In welchem Jahr\?/);
    expect(read({ ...dob, birth: false } as typeof dob, 'March 4th')).toBe('2025-03-04');
  });
  it('is completed by the year said next', () => {
    const r = narrowDate(dob, 'in 1988', 'march 4th', ctx);
    expect(r && r.ok && r.value).toBe('1988-03-04');
  });
  it('is implied by a key or prompt naming a birth', () => {
    expect(impliedAnswer({ type: 'date' }, 'player_dob', undefined)).toEqual({ type: 'date', birth: true, past: true });
    expect(impliedAnswer({ type: 'date', past: true }, 'x', 'Geburtsdatum?')).toEqual({ type: 'date', past: true, birth: true });
    expect(impliedAnswer({ type: 'date', future: true }, 'start', 'When?')).toEqual({ type: 'date', future: true });
  });
});

describe('a month or year said again beside the date', () => {
  it('agrees, fills in the year, or turns a numeric date the other way', () => {
    expect(read(dob, "11/08/95 (i'm from the UK so that's august)")).toBe('1995-08-11');
    expect(read(dob, 'born jan 3rd this year')).toBe('2026-01-03');
    expect(read(dob, '3/7/2001 - june')).toMatch(/^asked:/);
  });
});

describe('the day asked for after "Which day in March?"', () => {
  it('is that day with a hedge on it, in English and German', () => {
    const narrowed = (text: string, before: string, locale?: string) => {
      const r = narrowDate(start, text, before, { ...ctx, ...(locale ? { locale } : {}) });
      return r && r.ok ? r.value : null;
    };
    expect(narrowed('around the 9th', 'early march')).toBe('2026-03-09');
    expect(narrowed("let's say the 12th", 'mid may')).toBe('2026-05-12');
    expect(narrowed('am 9.', 'Anfang März', 'de')).toBe('2026-03-09');
    expect(narrowed('so um den 14.', 'Mitte April', 'de')).toBe('2026-04-14');
  });
});
