import { describe, expect, it } from 'vitest';
import { LocalConversation } from '../../server/conversation/local-conversation.ts';
import { ScriptedClock } from '../../server/conversation/scripted-clock.ts';
import { carriedRest as readRest } from '../../server/extract/offline/carried-answer.ts';
import { packOf } from '../../server/language/registry.ts';

const carriedRest = (text: string, locale: string) => readRest(text, packOf(locale));
import { OfflineExtractor } from '../../server/extract/offline/index.ts';
import { compileText } from '../../server/flow/document.ts';
import type { CompiledFlow } from '../../server/flow/compiled-flow.ts';

// A yes or no that already carries the next question's answer ("yep, Aetna" to "Do you have insurance?"): the rest is
// read at the question asked next, taken with a short echo when it answers it outright, else that question is asked.

const de = (locale: string, en: string, deText: string) => (locale === 'de' ? deText : en);
const FLOW = (locale = 'en') => (compileText(JSON.stringify({
  version: 'v1', id: 'carried', ...(locale === 'de' ? { locales: ['de'], default_locale: 'de' } : {}),
  nodes: [
    { id: 'q.has_insurance', type: 'question', key: 'has_insurance', label: de(locale, 'Has insurance', 'Versichert'), prompt: de(locale, 'Do you have health insurance?', 'Sind Sie krankenversichert?'), answer: { type: 'boolean' } },
    { id: 'q.insurance_provider', type: 'question', key: 'insurance_provider', label: de(locale, 'Insurance provider', 'Krankenkasse'), when: 'answers.has_insurance == true', prompt: de(locale, 'Who is your insurance provider?', 'Bei welcher Krankenkasse sind Sie?'), answer: { type: 'text', min: 2, max: 120 } },
    { id: 'q.takes_medication', type: 'question', key: 'takes_medication', label: 'Takes medication', prompt: 'Do you take any medications?', answer: { type: 'boolean' } },
    { id: 'q.medications', type: 'question', key: 'medications', label: 'Medications', when: 'answers.takes_medication == true', prompt: 'Please list them, with the dose if you know it.', answer: { type: 'text', max: 2000 } },
    { id: 'q.consent', type: 'question', key: 'consent', prompt: 'Do you agree to our privacy notice?', answer: { type: 'boolean' } },
    { id: 'n.done', type: 'terminal', outcome: 'completed' },
  ],
  edges: [
    { id: 'e1', from: 'q.has_insurance', to: 'q.insurance_provider' }, { id: 'e2', from: 'q.insurance_provider', to: 'q.takes_medication' },
    { id: 'e3', from: 'q.takes_medication', to: 'q.medications' }, { id: 'e4', from: 'q.medications', to: 'q.consent' }, { id: 'e5', from: 'q.consent', to: 'n.done' },
  ],
}), 'carried.flow.json') as { flow: CompiledFlow }).flow;

async function conversation(locale = 'en') {
  const clock = new ScriptedClock('2026-01-15T10:00:00Z');
  const conv = new LocalConversation(FLOW(locale), { extractor: new OfflineExtractor(), env: clock });
  await conv.start({ now: clock.now() });
  return conv;
}

describe('a yes that carries the next answer', () => {
  it('"yep, Aetna": the provider is taken with an echo, and the question after it is asked', async () => {
    const conv = await conversation();
    const r = await conv.send('yep, Aetna');
    expect(r.session.answers.get('has_insurance')?.value).toBe(true);
    expect(r.session.answers.get('insurance_provider')?.value).toBe('Aetna');
    expect(r.messages.map((m) => m.text)).toEqual(['Noted — Insurance provider: Aetna.', 'Do you take any medications?']);
  });

  it('"yes, lisinopril 10 mg" at the medications yes/no', async () => {
    const conv = await conversation();
    await conv.send('no');
    const r = await conv.send('yes, lisinopril 10 mg');
    expect(r.session.answers.get('medications')?.value).toBe('lisinopril 10 mg');
    expect(r.messages.at(-1)!.text).toBe('Do you agree to our privacy notice?');
  });

  it('a rest that does not name an answer is not carried: the next question is asked', async () => {
    const conv = await conversation();
    const r = await conv.send('yes, through work');
    expect(r.session.answers.has('insurance_provider')).toBe(false);
    expect(r.messages.at(-1)!.text).toBe('Who is your insurance provider?');
  });

  it('"no, paying cash" goes on as before', async () => {
    const conv = await conversation();
    const r = await conv.send('no, paying cash');
    expect(r.session.answers.get('has_insurance')?.value).toBe(false);
    expect(r.messages.at(-1)!.text).toBe('Do you take any medications?');
  });

  it('in German: "ja, die AOK"', async () => {
    const conv = await conversation('de');
    const r = await conv.send('ja, die AOK');
    expect(r.session.answers.get('insurance_provider')?.value).toBe('AOK');
    expect(r.messages[0]!.text).toBe('Notiert — Krankenkasse: AOK.');
  });

  it('reads the rest only when it is a name or holds a figure, in one clause', () => {
    expect(carriedRest('yep, Aetna', 'en')).toBe('Aetna');
    expect(carriedRest('yes Blue Cross', 'en')).toBe('Blue Cross');
    expect(carriedRest('yes, through work', 'en')).toBeNull();
    expect(carriedRest('yes I do, Aetna', 'en')).toBeNull();
    expect(carriedRest('yes', 'en')).toBeNull();
    expect(carriedRest('ja, die AOK', 'de')).toBe('AOK');
    expect(carriedRest('yes, Bank of America', 'en')).toBe('Bank of America');
    expect(carriedRest('yes, lisinopril 10 mg', 'en')).toBe('lisinopril 10 mg');
    expect(carriedRest("yes I'm on 2 of them", 'en')).toBeNull();
  });
  it('reads each language by its pack\'s words: articles before a name, a speaker\'s statement', () => {
    expect(carriedRest('oui, la MAAF', 'fr')).toBe('MAAF');
    expect(carriedRest('sí, la Sanitas', 'es')).toBe('Sanitas');
    expect(carriedRest("oui, j'en prends 2 par jour", 'fr')).toBeNull();
    expect(carriedRest('ja, ich nehme 2 am Tag', 'de')).toBeNull();
  });
});
