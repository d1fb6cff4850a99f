import { parseAnswer } from './server/extract/parse/index.ts';
const ctx = { now: '2026-01-15T10:00:00Z', defaultCountry: 'US' } as any;
const a = { type: 'integer', unit: 'USD', currency: 'USD', min: 0 } as any;
for (const [t, l] of [['the board just approved 26k', 'en'], ['der Verein hat jetzt 28k bewilligt', 'de'], ['Der Vorstand hat gerade 22k freigegeben', 'de'], ['jetzt 19.000, die Stadt gibt was dazu', 'de'], ['now 40k, the grant came through', 'en'], ['not sure yet', 'en'], ['maybe 30k', 'en']])
  console.log(t, JSON.stringify(parseAnswer(a, t, l === 'de' ? { ...ctx, locale: 'de' } : ctx)));
