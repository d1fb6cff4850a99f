import { describe, expect, it } from 'vitest';
import { converse, openFlow } from '../../server/api/index.ts';
import { parseAnswer } from '../../server/extract/parse/index.ts';
import { CATALOGUES } from '../../server/flow/messages/catalogue.ts';

// One list per locale for what a German, French or Spanish visitor types
// as a command, and one way to say a number back: both come from the
// message catalogue (server/flow/messages), which a flow or tenant can change.

const opened = openFlow({
  version: 'v1',
  id: 'flow.locales',
  locales: ['en', 'de'],
  default_locale: 'en',
  nodes: [
    { id: 'q.area', type: 'question', key: 'area', prompt: { en: 'Floor area?', de: 'Fläche?' }, answer: { type: 'number', unit: 'm²' } },
    { id: 'q.height', type: 'question', key: 'height', prompt: { en: 'Height?', de: 'Höhe?' }, answer: { type: 'number', unit: 'm' } },
    { id: 'q.budget', type: 'question', key: 'budget', prompt: { en: 'Budget?', de: 'Budget?' }, answer: { type: 'number', currency: 'USD' } },
    { id: 'r.review', type: 'review' },
    { id: 'n.done', type: 'terminal', say: { en: 'Done.', de: 'Fertig.' } },
  ],
});
if (!opened.ok) throw new Error(JSON.stringify(opened.diagnostics));
const texts = (x: { messages: { text: string }[] }) => x.messages.map((m) => m.text);

describe('the catalogue is the one list of command words', () => {
  it('goes back on "zurück" and on a word only the German list had, in a German session', async () => {
    const chat = converse(opened.flow, { locale: 'de', now: '2026-02-01T09:00:00Z' });
    expect(texts(await chat.start())).toEqual(['Fläche?']);
    await chat.send('120');
    const back = await chat.send('zurück');
    expect(texts(back)).toContain('Fläche?');
    expect(back.answers).toEqual({});
    await chat.send('120');
    expect(texts(await chat.send('zurückgehen'))).toContain('Fläche?');
  });
});

describe('numbers said back follow the session locale', () => {
  it('echoes a German conversion in German with German digits, and the review writes German numbers and money', async () => {
    const chat = converse(opened.flow, { locale: 'de', now: '2026-02-01T09:00:00Z' });
    await chat.start();
    const area = await chat.send('5000 Quadratfuß');
    expect(texts(area)).toEqual(['5.000 Quadratfuß — etwa 464,52 m², notiert.', 'Höhe?']);
    expect(texts(await chat.send('25 Fuß'))).toEqual(['25 Fuß — 7,62 m, notiert.', 'Budget?']);
    const review = await chat.send('40.000 $');
    expect(review.answers).toEqual({ area: 464.5152, height: 7.62, budget: 40000 });
    expect(texts(review).join('\n')).toContain('• area: 464,5152 m²\n• height: 7,62 m\n• budget: 40.000 USD\n');
  });

  it('keeps English as it was: en-US digits in the echo, plain numbers in the review', async () => {
    const chat = converse(opened.flow, { now: '2026-02-01T09:00:00Z' });
    await chat.start();
    expect(texts(await chat.send('5000 sq ft'))).toEqual(['5,000 sq ft — about 464.52 m², noted.', 'Height?']);
    await chat.send('25 feet');
    const review = await chat.send('40000');
    expect(texts(review).join('\n')).toContain('• budget: 40000\n');
  });
});

describe('a re-ask the parsers and the engine both write', () => {
  const ctx = (locale: string) => ({ now: '2026-01-15T10:00:00Z', defaultCountry: 'DE', locale });
  it('is the catalogue\'s text in each language', () => {
    for (const l of ['en', 'de', 'fr', 'es']) {
      expect(parseAnswer({ type: 'boolean' }, 'ja nein oui non sí no yes', ctx(l))).toMatchObject({ ok: false, reason: CATALOGUES[l]!.reask_boolean });
      expect(parseAnswer({ type: 'enum', options: ['red', 'blue'] }, 'zzz', ctx(l))).toMatchObject({ ok: false, reason: CATALOGUES[l]!.reask_choose_one.replace('{options}', 'red, blue') });
    }
  });
  it('ends a list cut short with its ellipsis, not "…."', () => {
    const options = ['a1', 'b2', 'c3', 'd4', 'e5', 'f6', 'g7', 'h8', 'i9'];
    for (const l of ['en', 'de']) {
      const r = parseAnswer({ type: 'enum', options }, 'zzz', ctx(l));
      expect(r).toMatchObject({ ok: false, reason: CATALOGUES[l]!.reask_choose_one.replace('{options}', 'a1, b2, c3, d4, e5, f6, g7, h8, …').replace('….', '…') });
      expect(r.ok ? '' : r.reason).not.toContain('….');
    }
  });
});
