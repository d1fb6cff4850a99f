import { describe, expect, it } from 'vitest';
import { LocalConversation } from '../../server/conversation/local-conversation.ts';
import { ScriptedClock } from '../../server/conversation/scripted-clock.ts';
import { OfflineExtractor } from '../../server/extract/offline/index.ts';
import { pauses } from '../../server/extract/offline/pause.ts';
import { packOf } from '../../server/language/registry.ts';
import { compileText } from '../../server/flow/document.ts';

// A reply that only asks for a moment ("hold on", "one sec", "Moment bitte") keeps the question open: no miss, no strike,
// and the answer given before is not taken back (a bare "hold on" used to reopen it as a correction).

const NOW = '2026-01-15T10:00:00Z';

describe('pauses: a reply that only asks for a moment', () => {
  const en = packOf('en');
  const de = packOf('de');
  it('reads waiting phrases with fillers, in English and German', () => {
    for (const t of ['hold on', 'ugh hold on', 'one sec', 'Wait!', 'hang on let me count', 'ok one sec pls', 'gimme a sec', 'brb', 'sorry, let me check', '2 mins', 'let me ask my wife']) expect(pauses(t, en), t).toBe(true);
    for (const t of ['Moment bitte', 'einen Moment', 'ähm, ich schau mal nach', 'Sekunde', 'warte mal', 'ich frag mal meinen Mann']) expect(pauses(t, de), t).toBe(true);
  });
  it('leaves anything with content to the readers', () => {
    for (const t of ['hold on, it is metal halide actually', 'one sec: 555 201 0134', 'ok', 'sorry', 'wait, no', 'no idea', 'I need to check the price first and then decide', 'yes']) expect(pauses(t, en), t).toBe(false);
    expect(pauses('Moment, es sind 700 m²', de)).toBe(false);
    expect(pauses('2 mins', en, true)).toBe(false); // at a question asking for a number, the figure may be the answer
  });
});

describe('a pause in a conversation', () => {
  const flow = () => {
    const doc = {
      version: 'v1', id: 'pause.test', locales: ['en', 'de'],
      nodes: [
        { id: 'q.sport', type: 'question', key: 'sport', prompt: 'Which sport?', answer: { type: 'enum', options: ['tennis', 'padel', 'football'] } },
        { id: 'q.courts', type: 'question', key: 'courts', prompt: 'How many courts?', answer: { type: 'integer', min: 1, max: 50 } },
        { id: 'n.done', type: 'terminal', say: 'Noted.' },
      ],
    };
    const r = compileText(JSON.stringify(doc), 'pause.test');
    if (r.kind !== 'flow' || !r.flow) throw new Error('does not compile');
    return r.flow;
  };
  async function conversation(locale?: string) {
    const clock = new ScriptedClock(NOW);
    const conv = new LocalConversation(flow(), { extractor: new OfflineExtractor(), env: clock });
    await conv.start({ now: clock.now(), ...(locale ? { locale } : {}) });
    return { say: async (text: string) => { clock.tick(); return conv.send(text, clock.now()); } };
  }
  const texts = (r: { messages: Array<{ text?: string }> }) => r.messages.map((m) => m.text).join(' / ');

  it('says "Sure, take your time." and asks again, with no miss, keeping the answer before', async () => {
    const { say } = await conversation();
    await say('tennis');
    const held = await say('ugh hold on, let me count');
    expect(texts(held)).toBe('Sure, take your time. How many courts?');
    expect(held.session.attempts).toBe(0);
    expect(held.session.answers.get('sport')?.value).toBe('tennis');
    const again = await say('one sec');
    expect(again.session.attempts).toBe(0);
    const four = await say('4');
    expect(four.session.answers.get('courts')?.value).toBe(4);
  });

  it('says it in the session language', async () => {
    const { say } = await conversation('de');
    await say('Tennis');
    const held = await say('Moment bitte, ich schau mal nach');
    expect(texts(held)).toMatch(/^Klar, lassen Sie sich Zeit\. /);
    expect(held.session.attempts).toBe(0);
  });
});
