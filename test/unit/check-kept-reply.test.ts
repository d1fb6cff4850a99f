import { describe, expect, it } from 'vitest';
import { LocalConversation } from '../../server/conversation/local-conversation.ts';
import { ScriptedClock } from '../../server/conversation/scripted-clock.ts';
import { OfflineExtractor } from '../../server/extract/offline/index.ts';
import { compileText } from '../../server/flow/document.ts';
import type { CompiledFlow } from '../../server/flow/compiled-flow.ts';

// A visitor who answers the next question instead of the bot's "Just to check: …?" (docs/understanding.md, "The
// commit rule and confirmations"): the reply is kept, the check asked once more in plain words, and the kept reply is
// read at the next question after the yes.

const FLOW = (locale = 'en') => compileText(JSON.stringify({
  version: 'v1', id: 'kept.check', ...(locale === 'de' ? { locales: ['de'], default_locale: 'de' } : {}),
  nodes: [
    { id: 'q.budget', type: 'question', key: 'budget', prompt: 'What budget do you have in mind, in US dollars?', answer: { type: 'integer', unit: 'USD', currency: 'USD', min: 0 } },
    { id: 'q.timeline', type: 'question', key: 'timeline', prompt: 'When are you hoping to have the new lights installed?',
      answer: { type: 'enum', options: [{ value: 'asap', label: locale === 'de' ? 'So bald wie möglich' : 'As soon as possible' }, { value: 'within_3_months', label: locale === 'de' ? 'Innerhalb von 3 Monaten' : 'Within 3 months' }] } },
    { id: 'q.email', type: 'question', key: 'email', prompt: 'Your email?', answer: { type: 'email' } },
    { id: 'n.done', type: 'terminal', outcome: 'completed' },
  ],
  edges: [{ id: 'e1', from: 'q.budget', to: 'q.timeline' }, { id: 'e2', from: 'q.timeline', to: 'q.email' }, { id: 'e3', from: 'q.email', to: 'n.done' }],
}), 'kept.flow.json') as { flow: CompiledFlow };

async function conversation(locale = 'en') {
  const clock = new ScriptedClock('2026-01-15T10:00:00Z');
  const conv = new LocalConversation(FLOW(locale).flow, { extractor: new OfflineExtractor(), env: clock });
  await conv.start({ now: clock.now() });
  return conv;
}

describe('a reply that ignores "Just to check"', () => {
  it('is kept, the check is asked once more, and after the yes it answers the next question', async () => {
    const conv = await conversation();
    const checked = await conv.send('5k per court');
    expect(checked.messages.at(-1)!.text).toBe('Just to check: 5000 USD?');
    const ignored = await conv.send('as soon as possible');
    expect(ignored.messages.map((m) => m.text)).toEqual(['Before we go on — is 5000 USD right? Please say yes or no.']);
    expect(ignored.session.answers.has('timeline')).toBe(false);
    const yes = await conv.send('yes');
    expect(yes.session.answers.get('budget')?.value).toBe(5000);
    expect(yes.session.answers.get('timeline')?.value).toBe('asap');
    // the timeline question is not asked: the next one is
    expect(yes.messages.map((m) => m.text)).toEqual(['Your email?']);
  });

  it('after a no, the checked question is asked again and the kept reply is dropped', async () => {
    const conv = await conversation();
    await conv.send('5k per court');
    await conv.send('as soon as possible');
    const no = await conv.send('no');
    expect(no.session.answers.has('budget')).toBe(false);
    expect(no.messages.at(-1)!.text).toContain('What budget');
    const again = await conv.send('20000');
    expect(again.session.answers.get('budget')?.value).toBe(20000);
    expect(again.messages.at(-1)!.text).toContain('When are you hoping');
  });

  it('a kept reply that does not answer the next question is dropped: that question is asked as usual', async () => {
    const conv = await conversation();
    await conv.send('5k per court');
    await conv.send('hmm hard to say');
    const yes = await conv.send('yes');
    expect(yes.session.answers.get('budget')?.value).toBe(5000);
    expect(yes.session.answers.has('timeline')).toBe(false);
    expect(yes.messages.at(-1)!.text).toContain('When are you hoping');
  });

  it('is asked once more only: a second reply that ignores it is read as usual', async () => {
    const conv = await conversation();
    await conv.send('5k per court');
    await conv.send('as soon as possible');
    const twice = await conv.send('as soon as possible');
    expect(twice.messages.map((m) => m.text).join(' ')).not.toContain('Before we go on');
    expect(twice.session.checking).toBeUndefined();
  });

  it('in German', async () => {
    const conv = await conversation('de');
    const checked = await conv.send('5.000 pro Platz');
    expect(checked.messages.at(-1)!.text).toBe('Nur zur Sicherheit: 5.000 USD?');
    const ignored = await conv.send('so bald wie möglich');
    expect(ignored.messages.map((m) => m.text)).toEqual(['Bevor wir weitermachen — stimmt 5.000 USD? Bitte antworten Sie mit Ja oder Nein.']);
    const yes = await conv.send('ja');
    expect(yes.session.answers.get('timeline')?.value).toBe('asap');
  });
});
