import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WireMessage } from '../../server/protocol/index.ts';
import { sampleActions } from '../../examples/sample-actions.ts';
import { TYPING_AFTER_MS } from '../../server/transport/socket/chat.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { ACME_SALES_SCRIPT, api, chat, contiguous, type ChatClient } from './helpers.ts';

let server: TestServer;
const open: ChatClient[] = [];
const client = async (opts: Parameters<typeof chat>[1] = {}) => {
  const c = await chat(server.url, opts);
  open.push(c);
  return c;
};

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const c of open) c.close();
  await server.dispose();
});

/** Every transcript id a client has seen: the start ack's messages, then events, deduplicated by id. */
const seen = (ack: { messages: WireMessage[] }, c: ChatClient) => [...new Set([...ack.messages.map((m) => m.id), ...c.messages().map((m) => m.id)])].sort((a, b) => a - b);

describe('the /chat namespace', () => {
  it("holds a whole conversation on Acme's sales flow and ends it with session:end", async () => {
    const c = await client();
    const start = await c.request('session:start', { flow: 'flow.sales' });
    expect(start).toMatchObject({ ok: true, state: { status: 'active', nodeId: 'q.intent' } });
    expect(start.messages.map((m: WireMessage) => m.id)).toEqual([1, 2]);
    expect(start.messages[1]).toMatchObject({ role: 'bot', kind: 'question', nodeId: 'q.intent', quickReplies: expect.any(Array), progress: { answered: 0 } });

    for (const [i, text] of ACME_SALES_SCRIPT.entries()) {
      const ack = await c.request('message', { text, clientId: `full-${i}` });
      expect(ack, `turn ${i}: ${text}`).toEqual({ ok: true });
    }
    await c.until((x) => x.received.some((r) => r.event === 'session:end'));
    expect(c.received.find((r) => r.event === 'session:end')?.data).toEqual({ status: 'completed', sessionId: start.sessionId });
    expect(c.lastState()).toMatchObject({ status: 'completed', sessionId: start.sessionId });
    const bot = c.messages().filter((m) => m.role === 'bot');
    expect(bot.at(-1)).toMatchObject({ kind: 'done', text: expect.stringContaining('Ann Lee') });
    // every turn was quick: no typing indicator (see 'shows typing only for a slow turn')
    expect(c.received.filter((r) => r.event === 'bot:typing')).toEqual([]);
    // ids run 1..n across the ack and the events, each user message echoed once
    const ids = seen(start, c);
    expect(contiguous(ids)).toBe(true);
    expect(c.messages().filter((m) => m.role === 'user').map((m) => m.text)).toEqual([...ACME_SALES_SCRIPT]);

    const view = await api(server.url, `/sessions/${start.sessionId}`, { headers: { authorization: `Bearer ${start.token}` } });
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ status: 'completed', answers: { email: 'ann@northside.edu', company: 'Northside High School', court_size: 420, budget: 25000, name: 'Ann Lee' } });
    expect(view.body.messages.map((m: WireMessage) => m.id)).toEqual(ids);
  });

  it(`shows typing only for a slow turn: on after ${TYPING_AFTER_MS} ms, off before the ack`, async () => {
    let calls = 0;
    const slow = await startTestServer({
      overrides: {
        actions: {
          ...sampleActions,
          'crm.lookup_company': async (input, ctx) => {
            calls++;
            await new Promise((r) => setTimeout(r, TYPING_AFTER_MS + 250));
            return sampleActions['crm.lookup_company']!(input, ctx);
          },
        },
      },
    });
    try {
      const c = await chat(slow.url);
      open.push(c);
      await c.request('session:start', { flow: 'flow.sales' });
      const typingBefore: boolean[][] = [];
      for (const [i, text] of ACME_SALES_SCRIPT.entries()) {
        expect(await c.request('message', { text, clientId: `slow-${i}` })).toEqual({ ok: true });
        // the ack comes after typing went off, on the same websocket
        typingBefore.push(c.received.filter((r) => r.event === 'bot:typing').map((r) => (r.data as { on: boolean }).on));
      }
      expect(calls).toBe(1);
      const slowTurn = typingBefore.findIndex((t) => t.length > 0);
      expect(slowTurn).toBeGreaterThan(0);
      expect(typingBefore[slowTurn]).toEqual([true, false]);
      expect(typingBefore.at(-1)).toEqual([true, false]);
    } finally {
      await slow.dispose();
    }
  });

  it('resumes mid-conversation with sessionId, token and lastSeq, losing and doubling nothing', async () => {
    const a = await client();
    const start = await a.request('session:start', { flow: 'flow.sales' });
    for (const [i, text] of ACME_SALES_SCRIPT.slice(0, 3).entries()) expect(await a.request('message', { text, clientId: `a-${i}` })).toEqual({ ok: true });
    await a.until((x) => x.messages().filter((m) => m.role === 'bot').length >= 3);
    const before = seen(start, a);
    const lastSeq = before.at(-1)!;
    a.close();

    // the conversation goes on while this client is away (another device, over REST)
    for (const text of ACME_SALES_SCRIPT.slice(3, 5)) {
      const r = await api(server.url, `/sessions/${start.sessionId}/messages`, { body: { text }, headers: { authorization: `Bearer ${start.token}` } });
      expect(r.status).toBe(200);
    }

    const b = await client({ token: start.token });
    const resumed = await b.request('session:start', { sessionId: start.sessionId, lastSeq });
    expect(resumed).toMatchObject({ ok: true, sessionId: start.sessionId, token: start.token, state: { status: 'active' } });
    const replayed = resumed.messages.map((m: WireMessage) => m.id);
    expect(replayed[0]).toBe(lastSeq + 1);
    expect(contiguous([...before, ...replayed])).toBe(true);
    expect(resumed.messages.filter((m: WireMessage) => m.role === 'user').map((m: WireMessage) => m.text)).toEqual(ACME_SALES_SCRIPT.slice(3, 5));

    // and it carries on from the resumed socket
    expect(await b.request('message', { text: ACME_SALES_SCRIPT[5], clientId: 'b-5' })).toEqual({ ok: true });
    await b.until((x) => x.messages().some((m) => m.role === 'bot'));
    const all = [...before, ...replayed, ...b.messages().map((m) => m.id)];
    expect(contiguous(all)).toBe(true);
  });

  it('processes a clientId sent twice only once', async () => {
    const c = await client();
    const start = await c.request('session:start', { flow: 'flow.sales' });
    const first = await c.request('message', { text: ACME_SALES_SCRIPT[0], clientId: 'same-id' });
    const again = await c.request('message', { text: ACME_SALES_SCRIPT[0], clientId: 'same-id' });
    expect(first).toEqual({ ok: true });
    expect(again).toEqual({ ok: true, duplicate: true });
    const view = await api(server.url, `/sessions/${start.sessionId}`, { headers: { authorization: `Bearer ${start.token}` } });
    const users = view.body.messages.filter((m: WireMessage) => m.role === 'user');
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({ clientId: 'same-id', text: ACME_SALES_SCRIPT[0] });
    expect(view.body.state.nodeId).toBe('q.court_size');
    expect(contiguous(view.body.messages.map((m: WireMessage) => m.id))).toBe(true);
  });

  it('serializes two clients sending to one session at once: each turn is contiguous and both see everything', async () => {
    const a = await client();
    const start = await a.request('session:start', { flow: 'flow.sales' });
    const b = await client({ token: start.token });
    expect(await b.request('session:start', { sessionId: start.sessionId, lastSeq: 2 })).toMatchObject({ ok: true, messages: [] });

    // in any order these keep the session active (an ended session refuses messages: session_ended)
    const sends = ['Buy new LED lighting', 'back', 'Buy new LED lighting', 'back', 'Buy new LED lighting', 'back'];
    const acks = await Promise.all(sends.map((text, i) => (i % 2 ? b : a).request('message', { text, clientId: `both-${i}` })));
    expect(acks.every((x) => x.ok === true)).toBe(true);

    const view = await api(server.url, `/sessions/${start.sessionId}`, { headers: { authorization: `Bearer ${start.token}` } });
    const transcript: WireMessage[] = view.body.messages;
    expect(contiguous(transcript.map((m) => m.id))).toBe(true);
    const users = transcript.filter((m) => m.role === 'user');
    expect(users.map((m) => m.text).sort()).toEqual([...sends].sort());
    // a turn is the user's message followed by the bot's reply, never another user's message in between
    for (const u of users) {
      const next = transcript.find((m) => m.id === u.id + 1);
      expect(next?.role, `reply to "${u.text}"`).toBe('bot');
    }
    // the room reached both sockets: each saw every user message
    const last = transcript.at(-1)!.id;
    await a.until((x) => x.messages().some((m) => m.id === last));
    await b.until((x) => x.messages().some((m) => m.id === last));
    expect(a.messages().filter((m) => m.role === 'user')).toHaveLength(sends.length);
    expect(b.messages().filter((m) => m.role === 'user')).toHaveLength(sends.length);
  });

  it('goes back and restarts with the controls, keeping the same session', async () => {
    const c = await client();
    const start = await c.request('session:start', { flow: 'flow.sales' });
    await c.request('message', { text: ACME_SALES_SCRIPT[0], clientId: 'br-0' });
    await c.request('message', { text: ACME_SALES_SCRIPT[1], clientId: 'br-1' });
    const back = await c.request('session:back', {});
    expect(back).toMatchObject({ ok: true, state: { nodeId: 'q.court_size' } });
    const restart = await c.request('session:restart', {});
    expect(restart).toEqual({ ok: true, sessionId: start.sessionId, token: start.token });
    await c.until((x) => x.lastState()?.nodeId === 'q.intent');
  });

  it('works over HTTP long-polling too', async () => {
    const c = await client({ transports: ['polling'] });
    const start = await c.request('session:start', { flow: 'flow.sales' });
    expect(start.ok).toBe(true);
    expect(await c.request('message', { text: ACME_SALES_SCRIPT[0], clientId: 'poll-0' })).toEqual({ ok: true });
    await c.until((x) => x.lastState()?.nodeId === 'q.court_size');
  });

  it('refuses messages before a session is started or resumed', async () => {
    const c = await client();
    expect(await c.request('message', { text: 'hi', clientId: 'x' })).toMatchObject({ ok: false, error: { code: 'unknown_session' } });
    expect(await c.request('session:back', {})).toMatchObject({ ok: false, error: { code: 'unknown_session' } });
  });

  it('answers an unknown flow with unknown_flow', async () => {
    const c = await client();
    expect(await c.request('session:start', { flow: 'flow.nope' })).toMatchObject({ ok: false, error: { code: 'unknown_flow' } });
  });
});
