import { describe, expect, it } from 'vitest';
import type { OpenQuestion } from '../../server/extract/extractor.ts';
import { volunteeredUpdates } from '../../server/extract/offline/volunteered.ts';

// A phone number given at another question is taken unasked only when its country is not in doubt: in a German
// session without a region, "044 123 45 67" (Zürich as the Swiss write it, a valid Oldenburg number) is left for the
// phone question, which asks which country (server/extract/parse/phone.ts, neighbourReading).

const safety: OpenQuestion = { nodeId: 'q.safety', key: 'safety_hazard', required: true, answer: { type: 'boolean' } };
const phone: OpenQuestion = { nodeId: 'q.phone', key: 'phone', required: false, answer: { type: 'phone' } };
const ctx = { now: '2026-01-15T10:00:00Z', defaultCountry: 'DE', locale: 'de' };
const phonesAt = (text: string, c: typeof ctx | Omit<typeof ctx, 'locale'> & { locale: string } = ctx) =>
  volunteeredUpdates(text, safety, [safety, phone], c).filter((u) => u.key === 'phone').map((u) => u.value);

describe('a volunteered phone number whose country is in doubt', () => {
  it('is left for its question in a German session without a region', () => {
    expect(phonesAt('nein. Rufen Sie mich unter 044 123 45 67 an')).toEqual([]);
    expect(phonesAt('nein, mein Handy: 0664 1234567')).toEqual([]);
    // another country named: read at the phone question, where the country named is applied
    expect(phonesAt('nein, Schweizer Nummer 044 123 45 67')).toEqual([]);
  });

  it('is taken when it is a German number written the German way, or the locale has a region', () => {
    expect(phonesAt('nein. Rufen Sie mich unter 0171 2345678 an')).toEqual(['+491712345678']);
    expect(phonesAt('nein. Rufen Sie mich unter 044 123 45 67 an', { ...ctx, locale: 'de-DE' })).toEqual(['+49441234567']);
  });
});
