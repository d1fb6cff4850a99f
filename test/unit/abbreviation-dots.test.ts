import { describe, expect, it } from 'vitest';
import { KEPT_DOT, keepAbbreviationDots } from '../../server/extract/offline/abbreviation-dots.ts';
import { packOf } from '../../server/language/registry.ts';

// A dot after a known abbreviation (per language pack) or an initial ends no clause (issue 30: "St. Mary's
// Catholic School, the gym not the field" was checked as "Just to check: St?").

const kept = (text: string, locale?: string) => keepAbbreviationDots(text, packOf(locale)).split(KEPT_DOT).length - 1;

describe('dots the clause cutters keep', () => {
  it('after an abbreviation of the language, an initial, or "No." before a figure', () => {
    expect(kept("St. Mary's Catholic School, the gym")).toBe(1);
    expect(kept('Dr. Raj Patel, athletic director')).toBe(1);
    expect(kept('Mt. Pleasant High')).toBe(1);
    expect(kept('e.g. the back pitch')).toBe(2);
    expect(kept('J. R. Hartley')).toBe(2);
    expect(kept('No. 5 ground')).toBe(1);
    expect(kept('Dr. med. Klaus Berger', 'de')).toBe(2);
    expect(kept('FC St. Pauli, Jugend', 'de')).toBe(1);
    expect(kept('Grundschule Nr. 5', 'de')).toBe(1);
    expect(kept('z. B. die Halle', 'de')).toBe(2);
  });
  it('not a full stop after another word, "no." before words, or the last dot', () => {
    expect(kept('Riverside school. the gym')).toBe(0);
    expect(kept("no. I don't have one")).toBe(0);
    expect(kept('Acme Ltd. The field')).toBe(0);
    expect(kept('Talk to Dr.')).toBe(0);
  });
  it('keeps the length, so indices still point into the typed text', () => {
    const text = 'Dr. med. Klaus Berger, Schulleiter';
    expect(keepAbbreviationDots(text, packOf('de'))).toHaveLength(text.length);
  });
});
