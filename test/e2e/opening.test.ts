import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WireMessage } from '../../server/protocol/index.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { ACME_KEY, api, NORTHSIDE_KEY } from './helpers.ts';

// A description given before its question (docs/understanding.md), played over REST as a visitor would: the first
// message that chose the support branch and described the problem is offered at "Please describe the problem"
// instead of the prompt; a yes takes it, more words are added to it, a bare no asks the question as written.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.dispose();
});

interface Visit {
  send(text: string): Promise<{ said: string; messages: WireMessage[]; node: string }>;
  answers(): Promise<Record<string, unknown>>;
}

async function visit(tenant: string, key: string, flow: string, locale?: string): Promise<Visit> {
  const start = await api(server.url, `/tenants/${tenant}/sessions`, { body: { flow, ...(locale ? { locale } : {}) }, headers: { 'x-questline-key': key } });
  expect(start.status).toBe(201);
  const auth = { authorization: `Bearer ${start.body.token}` };
  return {
    async send(text) {
      const r = await api(server.url, `/sessions/${start.body.sessionId}/messages`, { body: { text }, headers: auth, patient: true });
      expect(r.status, r.text).toBe(200);
      const bot = (r.body.messages as WireMessage[]).filter((m) => m.role === 'bot');
      return { said: bot.map((m) => m.text).join(' / '), messages: bot, node: r.body.state.nodeId };
    },
    async answers() {
      return (await api(server.url, `/sessions/${start.body.sessionId}`, { headers: auth, patient: true })).body.answers;
    },
  };
}

const sales = () => visit('acme', ACME_KEY, 'flow.sales');

describe('a description given in the first message', () => {
  it('is offered at the problem question, and a yes takes it', async () => {
    const v = await sales();
    expect((await v.send('the floodlights over our back pitch keep cutting out')).node).toBe('q.order_number');
    const offer = await v.send('skip');
    expect(offer.node).toBe('q.problem');
    expect(offer.said).toContain('You wrote: “the floodlights over our back pitch keep cutting out”. Shall I note that as the problem description?');
    expect(offer.said).not.toContain('Please describe the problem');
    expect(offer.messages.at(-1)?.quickReplies).toEqual(['Yes', 'No']);
    const next = await v.send('yes');
    expect(next.node).toBe('q.safety_hazard');
    expect(await v.answers()).toMatchObject({ intention: 'support', problem: 'the floodlights over our back pitch keep cutting out' });
  });

  it('takes more words added to it, and asks the question as written after a bare no', async () => {
    const added = await sales();
    await added.send('Hi, the LED lights on our tennis court are flickering');
    expect((await added.send('skip')).said).toContain('You wrote: “The LED lights on our tennis court are flickering”.');
    expect((await added.send('it started last Tuesday and the breaker trips too')).node).toBe('q.safety_hazard');
    expect((await added.answers()).problem).toBe('The LED lights on our tennis court are flickering. it started last Tuesday and the breaker trips too');

    const declined = await sales();
    await declined.send('Hi, the LED lights on our tennis court are flickering');
    await declined.send('skip');
    const asked = await declined.send('no');
    expect(asked.node).toBe('q.problem');
    expect(asked.said).toContain('Please describe the problem');
    await declined.send('Two of the four pole lights on court 3 have been flickering since last Tuesday.');
    expect((await declined.answers()).problem).toBe('Two of the four pole lights on court 3 have been flickering since last Tuesday.');
  });

  it('is never a bare choice, a question, an unsure aside or a request about the bot', async () => {
    for (const first of ['Help with existing lights', 'hi, my lights are broken', 'can you fix floodlights that keep cutting out',
      "It's complicated — our lights came with the building, so I'm not sure you can help"]) {
      const v = await sales();
      await v.send(first);
      const at = await v.send('skip');
      expect(at.said, first).not.toContain('You wrote');
      if (at.node === 'q.problem') expect(at.said, first).toContain('Please describe the problem');
    }
    const other = await sales();
    expect((await other.send('something else')).node).toBe('q.other_details');
    expect((await other.send("We'd like to resell your fixtures in Ohio")).node).toBe('q.name'); // the other branch's description, asked and answered as usual
  });

  it('works in German', async () => {
    const v = await visit('acme', ACME_KEY, 'flow.sales', 'de');
    expect((await v.send('Das Flutlicht über unserem hinteren Platz fällt immer wieder aus')).node).toBe('q.order_number');
    const offer = await v.send('überspringen');
    expect(offer.said).toContain('Sie schrieben: „Das Flutlicht über unserem hinteren Platz fällt immer wieder aus“. Soll ich das als Problembeschreibung notieren?');
    await v.send('ja, und die Leuchten am Mast 3 flackern seit Montag');
    // the greeting-like "ja," is dropped as the text rules drop it from any description
    expect((await v.answers()).problem).toBe('Das Flutlicht über unserem hinteren Platz fällt immer wieder aus. und die Leuchten am Mast 3 flackern seit Montag');
  });

  it('is held when it chose a path, and offered at the reason for the visit and the days asked later (the clinic)', async () => {
    const v = await visit('northside-clinic', NORTHSIDE_KEY, 'flow.patient_intake');
    const first = await v.send('my son has had a fever since yesterday');
    expect(first.node).toBe('q.full_name'); // no description question here: the name is asked as usual
    expect(first.said).not.toContain('You wrote');
    for (const reply of ['Tom Baker', '12 March 2018', 'male', 'Anna Baker', '617 555 0134']) await v.send(reply);
    const reason = await v.send('no'); // no insurance
    expect(reason.node).toBe('q.visit_reason');
    expect(reason.said).toContain('You wrote: “my son has had a fever since yesterday”. Just to check: Feeling unwell?');
    expect(reason.said).not.toContain('What brings you in today?');
    const days = await v.send('yes');
    expect(days.node).toBe('q.symptom_days'); // symptoms were taken from the first message: passed
    expect(days.said).toContain('Just to check: 1 day');
    await v.send('yes');
    expect(await v.answers()).toMatchObject({ symptoms: ['fever'], visit_reason: 'unwell', symptom_days: 1 });
  });

  it('asks the question as written after a no to the held words', async () => {
    const v = await visit('northside-clinic', NORTHSIDE_KEY, 'flow.patient_intake');
    await v.send('my daughter has been coughing for a while, fever too');
    for (const reply of ['Sam Lee', '4 May 1990', 'female', '617 555 0199']) await v.send(reply);
    const reason = await v.send('no');
    expect(reason.said).toContain('You wrote: “my daughter has been coughing for a while, fever too”. Just to check: Feeling unwell?');
    const asked = await v.send('no');
    expect(asked.node).toBe('q.visit_reason');
    expect(asked.said).toContain('What brings you in today?');
  });
});
