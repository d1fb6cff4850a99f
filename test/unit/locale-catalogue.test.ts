import { describe, expect, it } from 'vitest';
import { converse, openFlow } from '../../server/api/index.ts';

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
