import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findPhones, hasDigitRun, scanPhones } from '../../server/extract/parse/phone.ts';

// The phone finder's shortcuts (skipping libphonenumber when no run of the
// text holds four digits, remembering recent scans) must not change what is
// found: checked against the full scan on text built from phone numbers,
// digit groups, separators, extensions and near misses.

const COUNTRIES = ['US', 'GB', 'DE', 'NU', 'TK', 'IN', 'FR', 'JP', 'BR', 'xx'];
const ctx = (defaultCountry: string) => ({ now: '2026-01-15T10:00:00Z', defaultCountry });

const piece = fc.oneof(
  { weight: 6, arbitrary: fc.stringMatching(/^[0-9]{1,4}$/) },
  { weight: 2, arbitrary: fc.constantFrom('415-555-0123', '+44 20 7946 0958', '+683 4002', '+690 3291', '030 901820', '(415) 555 0123', '+1 415 555 0123', '0171 1234567', '+91 98765 43210', '555-0123', '7946', '4002') },
  { weight: 4, arbitrary: fc.constantFrom(' ', '-', '.', '/', '(', ')', '[', ']', '~', '+', ' - ', '  ', '\t', '\n', '\u00a0', '\u2013', '\uff0d', '\u30fc', '\u3000', '\u200b') },
  { weight: 3, arbitrary: fc.constantFrom('x', 'ext', 'ext.', ' ext ', ' x', '#', ';ext=', ',', ',,', ';', ':', 'int', 'доб', 'anexo', 'tel:', 'call ', 'm2', 'k', '$', '€', 'a', 'é', 'my number is ', 'about ', '@', 'ann@x.io', '12@x.io', 'a1@b2.co', 'www.x.io', 'https://a.b/12') },
  { weight: 2, arbitrary: fc.constantFrom('٠١٢', '٣٤٥٦', '۱۲۳', '０１２３', '４５', '१२३४', '𝟏𝟐𝟑𝟒', '\ud835') },
);
const general = fc.array(piece, { minLength: 1, maxLength: 12 }).map((parts) => parts.join(''));
// Short digit groups split by something that ends a run (a letter, a comma, an extension word…),
// often with punctuation around them: the texts the run rule skips.
const nearMiss = fc.array(fc.oneof(
  { weight: 4, arbitrary: fc.oneof(fc.stringMatching(/^[0-9]{1,3}$/), fc.constantFrom('٠١', '۱۲۳', '０１', '१२', '𝟏𝟐')) },
  { weight: 3, arbitrary: fc.constantFrom(' ', '-', '.', '/', '(', ')', '+', '~', '\u00a0', '\uff0d', '\u30fc', ' (', ') ') },
  { weight: 3, arbitrary: fc.constantFrom('x', 'ext', ' ext. ', ' x ', '#', ';ext=', ',', ',,', ';', ':', 'int', 'доб', 'a', 'm', 'k', '$', '@', 'ann@x.io', 'é', '12@x.io ', '_', '*', '=', "'") },
), { minLength: 2, maxLength: 14 }).map((parts) => parts.join(''));
const messages = fc.oneof(general, nearMiss);

describe('phone scan shortcuts', () => {
  it('findPhones finds exactly what the full libphonenumber scan finds', () => {
    fc.assert(fc.property(messages, fc.constantFrom(...COUNTRIES), (text, country) => {
      const c = ctx(country);
      const full = scanPhones(text, c);
      expect(findPhones(text, c)).toEqual(full);
      expect(findPhones(text, c)).toEqual(full); // again, from the recent-scan memory
    }), { numRuns: 3000 });
  });

  it('a text without four digits in one run has no valid number', () => {
    fc.assert(fc.property(messages, fc.constantFrom(...COUNTRIES), (text, country) => {
      if (!hasDigitRun(text, 4)) expect(scanPhones(text, ctx(country))).toEqual([]);
    }), { numRuns: 3000 });
  });

  it('keeps the cases the run rule is about', () => {
    expect(hasDigitRun('about 420 m2', 4)).toBe(false);
    expect(hasDigitRun('$25k within 3 months', 4)).toBe(false);
    expect(hasDigitRun('+683 4002', 4)).toBe(true);
    expect(hasDigitRun('415-555-0123', 4)).toBe(true);
    expect(hasDigitRun('12\t34', 4)).toBe(true);
    expect(hasDigitRun('١٢ ٣٤', 4)).toBe(true);
    expect(findPhones('call me on +1 415 555 0123 please', ctx('US'))).toEqual([{ value: '+14155550123', start: 11, end: 26 }]);
    expect(findPhones('about 420 m2', ctx('US'))).toEqual([]);
  });

  it('returns copies a caller may change without changing the next answer', () => {
    const first = findPhones('415-555-0123', ctx('US'));
    first[0]!.value = 'changed';
    first.pop();
    expect(findPhones('415-555-0123', ctx('US'))).toEqual([{ value: '+14155550123', start: 0, end: 12 }]);
  });
});
