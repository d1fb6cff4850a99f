import { describe, expect, it } from 'vitest';
import type { OpenQuestion } from '../../server/extract/extractor.ts';
import { OfflineExtractor } from '../../server/extract/offline/index.ts';

// Short text answers with something said beside the value (server/extract/offline/value-parts.ts, short-text.ts,
// the packs' self-corrections), through the offline extractor.
const offline = new OfflineExtractor();
const ask = (key: string, prompt: string, reply: string, locale?: string) => {
  const current: OpenQuestion = { nodeId: 'q', key, prompt, answer: { type: 'text', min: 2, max: 200 }, required: key !== 'company' };
  const p = offline.extract({ text: reply, current, open: [], paths: [], now: '2026-11-25T10:00:00Z', defaultCountry: 'US', ...(locale ? { locale } : {}) });
  const u = p.updates.find((x) => x.key === key);
  return u ? { value: u.value, confirm: u.confirm === true } : { problem: p.problem?.reason };
};
const org = (reply: string) => ask('company', "Which school, club or organisation is the project for? (Say skip if it's a private project.)", reply);
const insurer = (reply: string) => ask('insurance_provider', 'Who is your insurance provider?', reply);
const verein = (reply: string) => ask('company', 'Für welche Schule, welchen Verein oder welche Organisation ist das Projekt?', reply, 'de');
const kasse = (reply: string) => ask('insurance_provider', 'Bei welcher Krankenkasse sind Sie versichert?', reply, 'de');

describe('a short answer beside what else is said (session 6)', () => {
  it('takes back a joke: what follows "lol jk", "just kidding", "Spaß beiseite" is the answer', () => {
    expect(org('Dallas Cowboys lol jk, its for our church gym — Grace Fellowship')).toMatchObject({ value: 'Grace Fellowship', confirm: false });
    expect(insurer('Monopoly money lol jk, Humana')).toMatchObject({ value: 'Humana' });
    expect(verein('FC Bayern, Spaß beiseite: TSV Oberndorf')).toMatchObject({ value: 'TSV Oberndorf' });
  });
  it('reads a kind of organisation said with a possessive as pointing at the name after it', () => {
    expect(org('our HOA - Willow Creek Estates')).toMatchObject({ value: 'Willow Creek Estates', confirm: false });
    expect(org('my HOA: Cedar Ridge')).toMatchObject({ value: 'Cedar Ridge' });
  });
  it('drops where the source shows the value', () => {
    expect(insurer('the card says Anthem on it')).toMatchObject({ value: 'Anthem' });
    expect(kasse('auf der Karte steht Barmer drauf')).toMatchObject({ value: 'Barmer' });
  });
  it('commits the value beside a remark about people or where the project is, and checks it beside a doubt', () => {
    expect(insurer('Tricare (my husband is active duty)')).toMatchObject({ value: 'Tricare', confirm: false });
    expect(kasse('TK (mein Mann ist da versichert)')).toMatchObject({ value: 'TK', confirm: false });
    expect(org('Westfield ISD (the project is at Westfield Middle)')).toMatchObject({ value: 'Westfield ISD', confirm: false });
    expect(verein('Stadt Kempten, das Projekt ist in der Sporthalle Nord')).toMatchObject({ value: 'Stadt Kempten', confirm: false });
    expect(insurer('Aetna (my husband thinks)')).toMatchObject({ value: 'Aetna', confirm: true });
  });
});
