import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_ADMIN_KEY, type TestServer } from '../support/server.ts';
import { ACME_KEY, api, NORTHSIDE_KEY } from './helpers.ts';

// Escalated means "a person will answer", not "ended" (issue 31): over REST a
// visitor keeps writing after a hazard or a red flag, the messages are stored
// for the operator and counted as unanswered, contact details are kept, and
// the bot says honestly whether someone is online.

const admin = { 'x-questline-admin': TEST_ADMIN_KEY };
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ store: 'memory' });
});
afterAll(async () => {
  await server?.dispose();
});

async function conversation(tenant: 'acme' | 'northside-clinic', script: readonly string[]) {
  const key = tenant === 'acme' ? ACME_KEY : NORTHSIDE_KEY;
  const flow = tenant === 'acme' ? 'flow.sales' : 'flow.patient_intake';
  const start = await api(server.url, `/tenants/${tenant}/sessions`, { body: { flow }, headers: { 'x-questline-key': key } });
  expect(start.status).toBe(201);
  const { sessionId, token } = start.body as { sessionId: string; token: string };
  const auth = { authorization: `Bearer ${token}` };
  const send = (text: string) => api(server.url, `/sessions/${sessionId}/messages`, { body: { text }, headers: auth });
  let last = start.body;
  for (const text of script) {
    const r = await send(text);
    expect(r.status, `${text}: ${r.text}`).toBe(200);
    last = r.body;
  }
  return { sessionId, send, last };
}

const HAZARD = ['I need help with our existing stadium lights', 'skip',
  'A pole light on the north side is sparking and the fixture is hanging loose from the bracket.', 'yes, it is sparking'];

describe('an escalated conversation stays open', () => {
  // first: no operator socket of an earlier test may still be closing (who is online decides the words)
  it('the flow\'s hazard reply is honest: "connecting you with our on-call technician" only while an operator is online', async () => {
    const offline = await conversation('acme', HAZARD);
    const saidOffline = (offline.last.messages as Array<{ text: string }>).map((m) => m.text).join('\n');
    expect(saidOffline).toMatch(/nobody is online in this chat right now/);
    expect(saidOffline).not.toMatch(/connecting you/);
    const op: Socket = io(`${server.url}/operator`, { auth: { adminKey: TEST_ADMIN_KEY }, transports: ['websocket'] });
    try {
      await new Promise<void>((resolve, reject) => { op.on('connect', () => resolve()); op.on('connect_error', reject); });
      const online = await conversation('acme', HAZARD);
      expect((online.last.messages as Array<{ text: string }>).map((m) => m.text).join('\n')).toMatch(/I'm connecting you with our on-call technician now\./);
    } finally {
      op.close();
    }
  });

  it('a hazard then a phone number: the message is taken, in the operator transcript, unanswered, and the phone is kept', async () => {
    const c = await conversation('acme', HAZARD);
    expect(c.last.state.status).toBe('escalated');
    // the bot asked for a way to reach the visitor, after the safety advice
    const said = (c.last.messages as Array<{ role: string; text: string }>).filter((m) => m.role === 'bot').map((m) => m.text);
    expect(said.findIndex((t) => /keep people clear/.test(t))).toBeLessThan(said.findIndex((t) => /email address or phone number/.test(t)));

    const phone = await c.send('call me on 415-555-0132, I am the facilities manager');
    expect(phone.status).toBe(200);
    expect(phone.body.state.status).toBe('escalated');
    expect(phone.body.messages.map((m: { text: string }) => m.text)).toContain('Thanks — our team will reach you at +14155550132.');

    const view = await api(server.url, `/admin/sessions/${c.sessionId}`, { headers: admin });
    expect(view.body.messages.filter((m: { role: string }) => m.role === 'user').at(-1).text).toBe('call me on 415-555-0132, I am the facilities manager');
    expect(view.body.answers.phone).toBe('+14155550132');
    expect(view.body.provenance.find((p: { key: string }) => p.key === 'phone')).toMatchObject({ source: 'user' });
    const rows = await api(server.url, '/admin/sessions?tenant=acme&status=escalated', { headers: admin });
    expect(rows.body.sessions.find((s: { id: string }) => s.id === c.sessionId).unanswered).toMatchObject({ count: 1 });
  });

  it('a red flag then a message: taken and in the transcript; with an operator online the bot says it is connecting', async () => {
    const c = await conversation('northside-clinic', ['I am having severe chest pain right now and cannot breathe']);
    expect(c.last.state.status).toBe('escalated');
    const offline = await c.send("I'm already in your waiting room");
    expect(offline.status).toBe(200);
    expect(offline.body.messages.at(-1).text).toMatch(/Nobody is online right now/);

    const console: Socket = io(`${server.url}/operator`, { auth: { adminKey: TEST_ADMIN_KEY }, transports: ['websocket'] });
    try {
      await new Promise<void>((resolve, reject) => { console.on('connect', () => resolve()); console.on('connect_error', reject); });
      const online = await c.send('my husband is with me');
      expect(online.status).toBe(200);
      expect(online.body.messages.at(-1).text).toMatch(/online and is connecting with you now/);
    } finally {
      console.close();
    }
    const view = await api(server.url, `/admin/sessions/${c.sessionId}`, { headers: admin });
    const users = view.body.messages.filter((m: { role: string }) => m.role === 'user').map((m: { text: string }) => m.text);
    expect(users).toEqual(expect.arrayContaining(["I'm already in your waiting room", 'my husband is with me']));
    const row = (await api(server.url, '/admin/sessions?tenant=northside-clinic', { headers: admin })).body.sessions.find((s: { id: string }) => s.id === c.sessionId);
    expect(row.unanswered).toMatchObject({ count: 2 });

    // the operator's reply answers them: the flag goes
    const reply = await api(server.url, `/admin/sessions/${c.sessionId}/messages`, { body: { text: 'Please tell the front desk, we are coming.' }, headers: admin });
    expect(reply.status).toBe(200);
    const after = (await api(server.url, '/admin/sessions?tenant=northside-clinic', { headers: admin })).body.sessions.find((s: { id: string }) => s.id === c.sessionId);
    expect(after.unanswered).toBeNull();
    // an email typed to the operator is not a contact key of the clinic, a phone is: it is kept, the bot stays quiet
    const typed = await c.send('my number is (415) 555-0199');
    expect(typed.body.messages.filter((m: { role: string }) => m.role === 'bot')).toEqual([]);
    expect((await api(server.url, `/admin/sessions/${c.sessionId}`, { headers: admin })).body.answers.phone).toBe('+14155550199');
  });

  it('an operator closes an escalated session over REST and over the operator socket: the visitor is told, then refused', async () => {
    const c = await conversation('acme', HAZARD);
    const closed = await api(server.url, `/admin/sessions/${c.sessionId}/close`, { method: 'POST', headers: admin });
    expect(closed.status, closed.text).toBe(200);
    expect(closed.body.state).toMatchObject({ status: 'escalated', closed: true });
    expect(closed.body.messages.at(-1).text).toMatch(/^Our team has closed this conversation/);
    expect((await c.send('hello?')).status).toBe(409);
    expect((await api(server.url, `/admin/sessions/${c.sessionId}/close`, { method: 'POST', headers: admin })).status).toBe(409);
    expect((await api(server.url, `/admin/sessions/${c.sessionId}/close`, { method: 'POST' })).status).toBe(403);

    const d = await conversation('northside-clinic', ['I am having severe chest pain right now and cannot breathe']);
    const op: Socket = io(`${server.url}/operator`, { auth: { adminKey: TEST_ADMIN_KEY }, transports: ['websocket'] });
    try {
      await new Promise<void>((resolve, reject) => { op.on('connect', () => resolve()); op.on('connect_error', reject); });
      const ended = new Promise<{ status: string }>((resolve) => op.on('session:end', resolve));
      expect(await op.emitWithAck('operator:join', { sessionId: d.sessionId })).toMatchObject({ ok: true });
      const ack = await op.emitWithAck('operator:close', { sessionId: d.sessionId });
      expect(ack).toMatchObject({ ok: true, state: { status: 'escalated', closed: true } });
      expect(await ended).toMatchObject({ status: 'escalated' });
      expect(await op.emitWithAck('operator:close', { sessionId: d.sessionId })).toMatchObject({ ok: false, error: { code: 'session_ended' } });
    } finally {
      op.close();
    }
    expect((await d.send('are you there?')).status).toBe(409);
  });

  it('a completed or abandoned session still refuses messages (session_ended)', async () => {
    const c = await conversation('acme', ['cancel', 'yes']);
    expect(c.last.state.status).toBe('abandoned');
    expect((await c.send('hello?')).status).toBe(409);
  });
});
