import { describe, expect, it } from 'vitest';
import { LocalConversation } from '../../server/conversation/local-conversation.ts';
import { sampleActions } from '../../examples/sample-actions.ts';
import { answerValues } from '../../server/engine/session.ts';
import { compileFile } from '../../server/flow/document.ts';

function salesConversation() {
  const r = compileFile('flows/global/sales.flow.json');
  if (r.kind !== 'flow' || !r.flow) throw new Error('sales flow does not compile');
  let t = Date.parse('2026-01-15T10:00:00Z');
  return new LocalConversation(r.flow, { actions: sampleActions, env: { now: () => new Date((t += 60_000)).toISOString(), sleep: async () => {}, clock: () => 0 } });
}

describe('a realistic sales conversation with the offline extractor', () => {
  it('chooses a path, enters and leaves the LED subgraph, re-asks a wrong email, undoes with back, and completes', async () => {
    const conv = salesConversation();
    const hello = await conv.start();
    expect(hello.messages.map((m) => m.nodeId)).toEqual(['n.start', 'q.intent']);

    const intent = await conv.send('We need new lights, looking for a quote');
    expect(intent.events).toContainEqual(expect.objectContaining({ type: 'path_vote', path: 'buy_led' }));
    expect(intent.events).toContainEqual(expect.objectContaining({ type: 'subgraph_enter', subgraph: 'subgraph.led_path' }));
    expect(intent.session.node).toBe('q.court_size');

    await conv.send('tennis'); // answers the sport question ahead; court size is asked again
    expect(conv.session.node).toBe('q.court_size');
    await conv.send('about 1300 m2');
    await conv.send('2');
    await conv.send('30');
    const back = await conv.send('back');
    expect(back.session.node).toBe('q.mounting_height');
    expect(back.session.answers.has('mounting_height')).toBe(false);
    await conv.send('25');
    const left = await conv.send('1000w');
    expect(left.events).toContainEqual(expect.objectContaining({ type: 'subgraph_exit', subgraph: 'subgraph.led_path' }));
    expect(left.session.stack).toEqual([]);
    for (const text of ['$40k', 'next season', "I'm Ann Lee", 'Acme Tennis Club']) await conv.send(text);
    const wrong = await conv.send('ann@acme');
    expect(wrong.messages[0]).toMatchObject({ kind: 'invalid', nodeId: 'q.email' });
    expect(wrong.session.answers.has('email')).toBe(false);
    const review = await conv.send('ann@acmetennis.com');
    expect(review.session.node).toBe('n.review'); // the answers are shown before they are sent
    const done = await conv.send('yes');
    expect(done.session.status).toBe('completed');
    expect(done.messages.at(-1)).toMatchObject({ kind: 'done', text: expect.stringContaining('Ann Lee') });
    expect(answerValues(done.session)).toMatchObject({
      intention: 'buy_led', sport: 'tennis', court_size: 1300, pole_count: 2, mounting_height: 25, wattage: 1000,
      budget: 40000, timeline: 'within_12_months', name: 'Ann Lee', company: 'Acme Tennis Club', email: 'ann@acmetennis.com',
      crm_account_id: expect.stringMatching(/^ACCT-/),
    });
  });

  it('escalates when the visitor asks for a person', async () => {
    const conv = salesConversation();
    await conv.start();
    const r = await conv.send('can I talk to a human please');
    expect(r.session.status).toBe('escalated');
    // the hand-over line, then (no contact given yet) one question for a way to reach the visitor
    expect(r.messages.at(-2)?.kind).toBe('handoff');
    expect(r.messages.at(-1)).toMatchObject({ kind: 'question', text: expect.stringMatching(/email address or phone number/), quickReplies: ['Skip'] });
    // the conversation stays open: "skip" is acknowledged, and the visitor is told when and how the team will reply
    const skipped = await conv.send('skip');
    expect(skipped.session.status).toBe('escalated');
    expect(skipped.messages.map((m) => m.text)).toEqual(['No problem.', expect.stringMatching(/Nobody is online right now/)]);
  });

  it("tells a German visitor the tenant's reply time in German when the tenant gives it per language", async () => {
    const replyTime = { en: 'within one business day', de: 'innerhalb eines Werktags' };
    const de = salesConversation();
    await de.start({ locale: 'de', context: { reply_time: replyTime } });
    await de.send('ich möchte mit einem Menschen sprechen');
    const told = await de.send('überspringen');
    expect(told.messages.at(-1)?.text).toMatch(/wir antworten innerhalb eines Werktags/);
    const en = salesConversation();
    await en.start({ locale: 'en', context: { reply_time: replyTime } });
    await en.send('can I talk to a human please');
    expect((await en.send('skip')).messages.at(-1)?.text).toMatch(/reply within one business day/);
    // a language the setting does not name: the bot's own words, never another language's text
    const fr = salesConversation();
    await fr.start({ locale: 'de', context: { reply_time: { en: 'within one business day' } } });
    await fr.send('ich möchte mit einem Menschen sprechen');
    expect((await fr.send('überspringen')).messages.at(-1)?.text).not.toMatch(/business day/);
  });
});
