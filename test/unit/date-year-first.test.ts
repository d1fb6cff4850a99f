import { describe, expect, it } from 'vitest';
import { parseDate } from '../../server/extract/parse/date.ts';

// A date of birth typed with the year first (issue 30's walkthrough: "a date of
// birth with the year first gave a date this year"): the year said before the
// day and month is the date's year, not this year's.

const ctx = { now: '2026-01-15T10:00:00Z', defaultCountry: 'US' };
const dob = { type: 'date' as const, past: true, min: '1900-01-01' };
const value = (text: string, locale?: string) => {
  const r = parseDate(dob, text, { ...ctx, ...(locale ? { locale } : {}) });
  return r.ok ? r.value : undefined;
};

describe('a year said before the day and month', () => {
  it('is the date\'s year, in English and German', () => {
    expect(value('2010 march 4th')).toBe('2010-03-04');
    expect(value('1984, March 27')).toBe('1984-03-27');
    expect(value('2016 - 2 august')).toBe('2016-08-02');
    expect(value('1990 am 4. März', 'de')).toBe('1990-03-04');
  });

  it('leaves a date with its own year, or none, as it was', () => {
    expect(value('March 4th 2010')).toBe('2010-03-04');
    expect(value('march 4th')).toBe('2025-03-04');
    expect(value('room 12, march 4th')).toBe('2025-03-04');
  });
});
