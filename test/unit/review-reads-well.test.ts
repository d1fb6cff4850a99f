import { describe, expect, it } from 'vitest';
import { LocalConversation } from '../../server/conversation/local-conversation.ts';
import { sampleActions } from '../../examples/sample-actions.ts';
import { compileFile } from '../../server/flow/document.ts';

// The review step (issue 31): bounded, the summary once per change, no stale
// lines on the way back, "Change something" a plain question, and natural
// confirmations confirm.

function atReview(file = 'flows/global/sales.flow.json') {
  const r = compileFile(file);
  if (r.kind !== 'flow' || !r.flow) throw new Error(`${file} does not compile`);
  let t = Date.parse('2026-01-15T10:00:00Z');
  const conv = new LocalConversation(r.flow, { actions: sampleActions, env: { now: () => new Date((t += 60_000)).toISOString(), sleep: async () => {}, clock: () => 0 } });
  return {
    conv,
    async open(locale?: string) {
      await conv.start(locale ? { locale } : {});
      for (const text of ['Hi, the LED lights on our tennis court are flickering', 'skip',
        'Two of the four pole lights on court 3 have been flickering since last Tuesday.', 'no, nothing unsafe', 'Maria Gonzalez', 'maria@riverclub.org']) await conv.send(text);
      expect(conv.session.node).toBe('n.review');
    },
  };
}

describe('the review reads well', () => {
  it.each(['yes', 'yes thats all correct', 'looks good', 'thats all correct', 'Looks good to me!', 'perfect, send it'])('"%s" confirms', async (reply) => {
    const { conv, open } = atReview();
    await open();
    const r = await conv.send(reply);
    expect(r.session.status).toBe('completed');
  });

  it('"ja passt" confirms a German review', async () => {
    const { conv } = atReview();
    await conv.start({ locale: 'de' });
    for (const text of ['Wir brauchen ein Angebot für neue Beleuchtung', '420', 'Fußball', 'Außenplatz', '4', '8', 'überspringen', '200', '25000',
      'innerhalb von 3 Monaten', 'Anna Schmidt', 'Gymnasium Nord', 'anna@gymnasium-nord.de']) await conv.send(text);
    expect(conv.session.node).toBe('n.review');
    expect((await conv.send('ja passt')).session.status).toBe('completed');
  });

  it('says a change at a German review back with the label as written (German capitalises nouns: the pack\'s capitalNouns)', async () => {
    const { conv } = atReview();
    await conv.start({ locale: 'de' });
    for (const text of ['Wir brauchen ein Angebot für neue Beleuchtung', '420', 'Fußball', 'Außenplatz', '4', '8', 'überspringen', '200', '25000',
      'innerhalb von 3 Monaten', 'Anna Schmidt', 'Gymnasium Nord', 'anna@gymnasium-nord.de']) await conv.send(text);
    const r = await conv.send('die E-Mail ist anna.schmidt@gymnasium-nord.de');
    expect(r.messages[0]!.text).toBe('Danke — ich habe E-Mail auf anna.schmidt@gymnasium-nord.de geändert.');
  });

  it.each(['no', 'the email is wrong', 'I need to correct something', 'not right', 'not sure', 'not correct', 'neither really'])('"%s" does not confirm', async (reply) => {
    const { conv, open } = atReview();
    await open();
    const r = await conv.send(reply);
    expect(r.session.status).toBe('active');
  });

  it('"Change something" is a plain question with one chip per answer, without the summary again', async () => {
    const { conv, open } = atReview();
    await open();
    const r = await conv.send('Change something');
    expect(r.messages).toHaveLength(1);
    expect(r.messages[0]).toMatchObject({ kind: 'question', text: expect.stringMatching(/^Which one would you like to change\?/) });
    expect(r.messages[0]!.text).not.toMatch(/•/);
    expect(r.messages[0]!.quickReplies).toContain('Change email');
  });

  it('after a change, the way back says nothing stale: the summary once, nothing before it', async () => {
    const { conv, open } = atReview();
    await open();
    await conv.send('change the name');
    const back = await conv.send('Maria Gonzalez-Ruiz');
    expect(back.messages.map((m) => m.nodeId)).toEqual(['n.review']);
    expect(back.messages[0]!.text).toMatch(/• Name: Maria Gonzalez-Ruiz/);
    expect(back.messages.some((m) => /Nice to meet you/.test(m.text))).toBe(false);
  });

  it('"neither really" twelve times ends bounded: two short re-asks, then a person (the chat stays open, nothing loops)', async () => {
    const { conv, open } = atReview();
    await open();
    const replies = [];
    for (let i = 0; i < 12; i++) replies.push(await conv.send('neither really'));
    expect(replies[0]!.messages).toHaveLength(1);
    expect(replies[0]!.messages[0]!.text).not.toMatch(/•/); // the summary is not shown again
    expect(replies[1]!.session.status).toBe('active');
    expect(replies[2]!.session.status).toBe('escalated');
    expect(replies[2]!.events).toContainEqual(expect.objectContaining({ type: 'escalated', reason: 'the review was not confirmed after 3 replies' }));
    expect(replies.at(-1)!.session.status).toBe('escalated');
  });
});
