import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_ADMIN_KEY, type TestServer } from '../support/server.ts';
import { ACME_KEY, ACME_SALES_SCRIPT, api, chat, ChatClient, NORTHSIDE_KEY, sessionView } from './helpers.ts';

let server: TestServer;
const clients: ChatClient[] = [];
const track = (c: ChatClient) => (clients.push(c), c);

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const c of clients) c.close();
  await server.dispose();
});

/** Starts an Acme session over REST. */
async function acmeSession(): Promise<{ sessionId: string; token: string }> {
  const r = await api(server.url, '/tenants/acme/sessions', { body: { flow: 'flow.sales' }, headers: { 'x-questline-key': ACME_KEY } });
  expect(r.status).toBe(201);
  return r.body;
}

/** The connect_error of a client that should be refused. */
async function refusal(c: ChatClient): Promise<{ message: string; data?: { code: string } }> {
  track(c);
  return c.connected().then(() => {
    throw new Error('connected, but should have been refused');
  }, (err: { message: string; data?: { code: string } }) => err);
}

describe('keys, tokens and tenants', () => {
  it("refuses a session token of tenant A presented with tenant B's key", async () => {
    const s = await acmeSession();
    const c = track(await chat(server.url, { key: NORTHSIDE_KEY, token: s.token }));
    expect(await c.request('session:start', { sessionId: s.sessionId })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await c.request('message', { text: 'hi', clientId: 'x' })).toMatchObject({ ok: false, error: { code: 'unknown_session' } });
  });

  it("refuses a token used with another session's id", async () => {
    const mine = await acmeSession();
    const theirs = await acmeSession();
    const c = track(await chat(server.url, { token: mine.token }));
    expect(await c.request('session:start', { sessionId: theirs.sessionId })).toMatchObject({ ok: false, error: { code: 'unknown_session' } });
    const rest = await api(server.url, `/sessions/${theirs.sessionId}/messages`, { body: { text: 'hi' }, headers: { authorization: `Bearer ${mine.token}` } });
    expect(rest.status).toBe(404);
    expect(rest.body.error.code).toBe('unknown_session');
    expect((await api(server.url, `/sessions/${theirs.sessionId}`, { headers: { authorization: `Bearer ${mine.token}` } })).status).toBe(404);
    expect((await api(server.url, `/sessions/${theirs.sessionId}`)).body.error.code).toBe('bad_token');
  });

  it('answers a wrong token exactly as it answers a session that does not exist (no existence oracle)', async () => {
    const mine = await acmeSession();
    const theirs = await acmeSession();
    const absent = `${theirs.sessionId.slice(0, -4)}${theirs.sessionId.endsWith('aaaa') ? 'bbbb' : 'aaaa'}`;
    const auth = { authorization: `Bearer ${mine.token}` };
    const probe = async (id: string) => {
      const read = await api(server.url, `/sessions/${id}`, { headers: auth });
      const write = await api(server.url, `/sessions/${id}/messages`, { body: { text: 'hi' }, headers: auth });
      return { read: [read.status, read.body], write: [write.status, write.body] };
    };
    expect(await probe(theirs.sessionId)).toEqual(await probe(absent));
    const c = track(await chat(server.url, { token: mine.token }));
    expect(await c.request('session:start', { sessionId: theirs.sessionId })).toEqual(await c.request('session:start', { sessionId: absent }));
  });

  it("refuses a key that belongs to another tenant than the path's", async () => {
    const r = await api(server.url, '/tenants/acme/sessions', { body: { flow: 'flow.sales' }, headers: { 'x-questline-key': NORTHSIDE_KEY } });
    expect(r).toMatchObject({ status: 403, body: { error: { code: 'forbidden' } } });
    const none = await api(server.url, '/tenants/acme/sessions', { body: { flow: 'flow.sales' } });
    expect(none).toMatchObject({ status: 401, body: { error: { code: 'unknown_key' } } });
    const flows = await api(server.url, '/tenants/northside-clinic/flows', { headers: { 'x-questline-key': ACME_KEY } });
    expect(flows.status).toBe(403);
  });

  it('refuses an unknown key at the socket handshake', async () => {
    const err = await refusal(new ChatClient(server.url, { key: 'pk_nobody_at_all' }));
    expect(err.data?.code).toBe('unknown_key');
  });
});

describe('origins', () => {
  it('refuses a socket from an origin no tenant allows', async () => {
    const err = await refusal(new ChatClient(server.url, { origin: 'https://evil.example' }));
    expect(err.message).toBeTruthy();
    const polling = await refusal(new ChatClient(server.url, { origin: 'https://evil.example', transports: ['polling'] }));
    expect(polling.message).toBeTruthy();
  });

  it('refuses REST calls from an origin the tenant does not allow', async () => {
    const r = await api(server.url, '/tenants/acme/sessions', { body: { flow: 'flow.sales' }, headers: { 'x-questline-key': ACME_KEY }, origin: 'https://evil.example' });
    expect(r).toMatchObject({ status: 403, body: { error: { code: 'origin_not_allowed' } } });
    const s = await acmeSession();
    const msg = await api(server.url, `/sessions/${s.sessionId}/messages`, { body: { text: 'hi' }, headers: { authorization: `Bearer ${s.token}` }, origin: 'https://evil.example' });
    expect(msg).toMatchObject({ status: 403, body: { error: { code: 'origin_not_allowed' } } });
  });

  it('answers a CORS preflight only for an origin a tenant allows', async () => {
    const ok = await fetch(`${server.url}/api/v1/tenants/acme/sessions`, { method: 'OPTIONS', headers: { origin: 'http://127.0.0.1:3000', 'access-control-request-method': 'POST' } });
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:3000');
    const evil = await fetch(`${server.url}/api/v1/tenants/acme/sessions`, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('admin access', () => {
  it('refuses admin endpoints and the operator namespace without the admin key', async () => {
    const s = await acmeSession();
    for (const path of ['/admin/tenants/acme/sessions', `/admin/sessions/${s.sessionId}`, '/admin/tenants/acme/export?format=csv']) {
      expect(await api(server.url, path), path).toMatchObject({ status: 403, body: { error: { code: 'admin_only' } } });
      expect((await api(server.url, path, { headers: { 'x-questline-admin': 'wrong-key-wrong-key' } })).status).toBe(403);
    }
    const post = await api(server.url, `/admin/sessions/${s.sessionId}/messages`, { body: { text: 'hello' } });
    expect(post.status).toBe(403);
    expect((await api(server.url, '/admin/tenants/acme/sessions', { headers: { 'x-questline-admin': TEST_ADMIN_KEY } })).status).toBe(200);

    const op = io(`${server.url}/operator`, { auth: { adminKey: 'wrong' }, transports: ['websocket'], reconnection: false, forceNew: true });
    const err = await new Promise<{ data?: { code: string } }>((resolve) => op.once('connect_error', resolve));
    op.close();
    expect(err.data?.code).toBe('admin_only');
  });

  it('refuses admin endpoints when the server has no ADMIN_KEY, whatever the header says', async () => {
    const bare = await startTestServer({ adminKey: null });
    try {
      const r = await api(bare.url, '/admin/tenants/acme/sessions', { headers: { 'x-questline-admin': TEST_ADMIN_KEY } });
      expect(r).toMatchObject({ status: 403, body: { error: { code: 'admin_only' } } });
    } finally {
      await bare.dispose();
    }
  });
});

/** zod's own wording, which must never reach a visitor or an operator. */
const ZOD_WORDS = /Too big|Too small|Invalid input|expected (string|number|object)|<=|>=/;

describe('hostile payloads', () => {
  it('answers malformed socket payloads with error acks and keeps serving', async () => {
    const c = track(await chat(server.url));
    expect(await c.request('session:start', 42)).toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
    expect(await c.request('session:start', { flow: 'flow.sales', context: { nested: { a: 1 } } })).toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
    expect(await c.request('session:start', { sessionId: '../../etc/passwd' })).toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
    const start = await c.request('session:start', { flow: 'flow.sales' });
    expect(start.ok).toBe(true);
    expect(await c.request('message', {})).toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
    expect(await c.request('message', 'just a string')).toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
    expect(await c.request('message', { text: '   ', clientId: 'blank' })).toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
    expect(await c.request('message', { text: 'x'.repeat(5_000), clientId: 'long' })).toEqual({ ok: false, error: { code: 'too_large', message: 'Your message is too long (at most 2,000 characters).' } });
    // people read plain words, never zod's ("Too big: expected string to have <=2000 characters")
    for (const bad of [42, { flow: 'flow.sales', context: { nested: { a: 1 } } }, { flow: 7 }, {}]) {
      const ack = await c.request('session:start', bad);
      expect(ack.error.message).not.toMatch(ZOD_WORDS);
    }
    expect((await c.request('message', { text: 5, clientId: 'n' })).error.message).toBe("'text' is missing or not valid.");
    // no ack callback, unknown events: ignored, nothing breaks
    c.socket.emit('message', { text: 'no ack wanted' });
    c.socket.emit('no:such:event', { anything: true });
    c.socket.emit('session:back');
    expect(await c.request('message', { text: ACME_SALES_SCRIPT[0], clientId: 'after' })).toEqual({ ok: true });
  });

  it('drops a socket that sends more than 32 KB and keeps serving the others', async () => {
    const other = track(await chat(server.url));
    expect((await other.request('session:start', { flow: 'flow.sales' })).ok).toBe(true);
    const big = track(await chat(server.url));
    const dropped = new Promise<string>((resolve) => big.socket.once('disconnect', resolve));
    big.socket.emit('message', { text: 'x'.repeat(40 * 1024), clientId: 'huge' });
    expect(await dropped).toMatch(/transport (close|error)/);
    expect(await other.request('message', { text: ACME_SALES_SCRIPT[0], clientId: 'still-here' })).toEqual({ ok: true });
  });

  it('answers oversized and malformed REST bodies with too_large and invalid_payload', async () => {
    const headers = { 'x-questline-key': ACME_KEY };
    const big = await api(server.url, '/tenants/acme/sessions', { rawBody: JSON.stringify({ flow: 'x'.repeat(40 * 1024) }), headers });
    expect(big).toMatchObject({ status: 413, body: { error: { code: 'too_large' } } });
    const broken = await api(server.url, '/tenants/acme/sessions', { rawBody: '{"flow": ', headers });
    expect(broken).toMatchObject({ status: 400, body: { error: { code: 'invalid_payload' } } });
    const wrong = await api(server.url, '/tenants/acme/sessions', { body: { flow: 7 }, headers });
    expect(wrong).toMatchObject({ status: 400, body: { error: { code: 'invalid_payload' } } });
    const s = await acmeSession();
    const long = await api(server.url, `/sessions/${s.sessionId}/messages`, { body: { text: 'y'.repeat(3_000) }, headers: { authorization: `Bearer ${s.token}` } });
    expect(long).toMatchObject({ status: 413, body: { error: { code: 'too_large', message: 'Your message is too long (at most 2,000 characters).' } } });
    expect(wrong.body.error.message).not.toMatch(ZOD_WORDS);
    expect((await api(server.url, '/healthz')).status).toBe(200);
  });
});

describe('rate limits', () => {
  it('charges unknown events to the socket like messages, and drops a socket that keeps sending them', async () => {
    const limited = await startTestServer({ rateLimits: { perSocket: { points: 3, seconds: 60 } } });
    try {
      const other = await chat(limited.url);
      expect((await other.request('session:start', { flow: 'flow.sales' })).ok).toBe(true);
      const junk = await chat(limited.url);
      const acks = await Promise.all(Array.from({ length: 8 }, (_, i) => junk.request(`junk:${i}`, { i })));
      expect(acks.map((a) => a.error.code)).toEqual([...Array(3).fill('invalid_payload'), ...Array(5).fill('rate_limited')]);
      const dropped = new Promise<string>((resolve) => junk.socket.once('disconnect', resolve));
      for (let i = 0; i < 30; i += 1) junk.socket.emit('junk:flood', { i });
      expect(await dropped).toBe('io server disconnect');
      // the other visitor's socket is served as before
      expect(await other.request('message', { text: ACME_SALES_SCRIPT[0], clientId: 'still' })).toEqual({ ok: true });
      other.close();
    } finally {
      await limited.dispose();
    }
  });

  it('answers a burst over the per-socket limit with rate_limited', async () => {
    const limited = await startTestServer({ rateLimits: { perSocket: { points: 3, seconds: 60 } } });
    try {
      const c = await chat(limited.url);
      const start = await c.request('session:start', { flow: 'flow.sales' });
      expect(start.ok).toBe(true);
      // texts that keep the conversation going (a refused one, had it run, would be stored)
      const texts = Array.from({ length: 6 }, (_, i) => (i % 2 ? 'back' : 'Buy new LED lighting'));
      const acks = await Promise.all(texts.map((text, i) => c.request('message', { text, clientId: `burst-${i}` })));
      expect(acks.filter((a) => a.ok)).toHaveLength(3);
      expect(acks.filter((a) => !a.ok).every((a) => a.error.code === 'rate_limited')).toBe(true);
      c.close();
      const metrics = await fetch(`${limited.url}/metrics`).then((r) => r.text());
      expect(metrics).toMatch(/questline_rejected_requests_total\{transport="socket",code="rate_limited"\} 3/);
      // a message over the socket's own limit never reaches the session: three stored, three counted as turns
      // a REST message queues on the session's turn lock behind whatever the burst left running
      const after = await api(limited.url, `/sessions/${start.sessionId}/messages`, { body: { text: 'restart' }, headers: { authorization: `Bearer ${start.token}` } });
      expect(after.status, JSON.stringify(after.body)).toBe(200);
      const view = await sessionView(limited.url, start.sessionId, start.token);
      expect(view.messages.filter((m) => m.role === 'user').map((m) => m.text).sort())
        .toEqual([...acks.flatMap((a, i) => (a.ok ? [texts[i]] : [])), 'restart'].sort());
      expect(metrics).toMatch(/questline_turns_total\{tenant="acme",kind="message",result="ok"\} 3\n/);
      expect(metrics).not.toMatch(/questline_turns_total\{[^}]*kind="message",result="rate_limited"\}/);
    } finally {
      await limited.dispose();
    }
  });
});

describe('rate limits past the socket', () => {
  it('leaves no trace of a message the per-IP limit refuses, though its turn set out alongside the charge', async () => {
    const limited = await startTestServer({ rateLimits: { perSocket: { points: 100, seconds: 60 }, perIp: { points: 3, seconds: 60 } } });
    try {
      const c = await chat(limited.url);
      const start = await c.request('session:start', { flow: 'flow.sales' });
      expect(start.ok).toBe(true);
      // texts that keep the conversation going (a refused one, had it run, would be stored)
      const texts = Array.from({ length: 6 }, (_, i) => (i % 2 ? 'back' : 'Buy new LED lighting'));
      const acks = await Promise.all(texts.map((text, i) => c.request('message', { text, clientId: `ip-burst-${i}` })));
      expect(acks.filter((a) => a.ok)).toHaveLength(3);
      expect(acks.filter((a) => !a.ok).every((a) => a.error.code === 'rate_limited')).toBe(true);
      c.close();
      // an operator's line queues on the session's turn lock behind whatever the burst left running
      const admin = { 'x-questline-admin': TEST_ADMIN_KEY };
      expect((await api(limited.url, `/admin/sessions/${start.sessionId}/messages`, { body: { text: 'an operator here' }, headers: admin })).status).toBe(200);
      const view = await api(limited.url, `/admin/sessions/${start.sessionId}`, { headers: admin });
      expect(view.body.messages.filter((m: { role: string }) => m.role === 'user').map((m: { text: string }) => m.text).sort())
        .toEqual(acks.flatMap((a, i) => (a.ok ? [texts[i]] : [])).sort());
      const metrics = await fetch(`${limited.url}/metrics`).then((r) => r.text());
      expect(metrics).toMatch(/questline_turns_total\{tenant="acme",kind="message",result="ok"\} 3\n/);
      expect(metrics).not.toMatch(/questline_turns_total\{[^}]*kind="message",result="rate_limited"\}/);
    } finally {
      await limited.dispose();
    }
  });
});

describe('tenant isolation, counted', () => {
  it("refuses every way a client of tenant A tries to read or write tenant B's sessions and flows", async () => {
    const { recordTally } = await import('../reliability/tally.ts');
    const admin = { 'x-questline-admin': TEST_ADMIN_KEY };
    const a = (await api(server.url, '/tenants/acme/sessions', { body: { flow: 'flow.sales' }, headers: { 'x-questline-key': ACME_KEY } })).body;
    const b = (await api(server.url, '/tenants/northside-clinic/sessions', { body: { flow: 'flow.patient_intake' }, headers: { 'x-questline-key': NORTHSIDE_KEY } })).body;
    expect(a.token && b.token).toBeTruthy();
    const bBefore = await api(server.url, `/sessions/${b.sessionId}`, { headers: { authorization: `Bearer ${b.token}` } });
    expect(bBefore.status).toBe(200);

    let attempts = 0;
    const successes: string[] = [];
    const rest = async (label: string, path: string, init: Parameters<typeof api>[2] = {}) => {
      attempts++;
      const r = await api(server.url, path, init);
      if (r.status < 400 || !r.body?.error?.code) successes.push(`${label}: ${r.status}`);
    };
    const aAuth = { authorization: `Bearer ${a.token}` };
    const aKey = { 'x-questline-key': ACME_KEY };
    const guessed = Array.from({ length: 20 }, (_, i) => Buffer.from(`guess-${i}-${b.sessionId}`).toString('base64url').slice(0, 22));
    // B's session through REST: no token, A's token, guessed ids, a token in the query string, A's key as a header
    for (const [label, headers] of [['no token', {}], ["A's token", aAuth], ["A's key", aKey], ["A's token and key", { ...aAuth, ...aKey }], ['garbage token', { authorization: `Bearer ${'A'.repeat(43)}` }]] as const) {
      await rest(`GET B ${label}`, `/sessions/${b.sessionId}`, { headers });
      await rest(`POST B ${label}`, `/sessions/${b.sessionId}/messages`, { body: { text: 'hi' }, headers });
    }
    await rest('GET B token in query', `/sessions/${b.sessionId}?token=${encodeURIComponent(b.token)}`);
    for (const id of guessed) {
      await rest(`GET guessed ${id}`, `/sessions/${id}`, { headers: aAuth });
      await rest(`POST guessed ${id}`, `/sessions/${id}/messages`, { body: { text: 'hi' }, headers: aAuth });
    }
    // B's flows and session starts with A's key, with no key, from a forged origin
    for (const path of ['/tenants/northside-clinic/flows', '/tenants/northside-clinic/flows/flow.patient_intake', '/tenants/northside-clinic/flows/flow.patient_intake/graph', '/tenants/northside-clinic/flows/flow.patient_intake/schema']) {
      await rest(`GET ${path} A key`, path, { headers: aKey });
      await rest(`GET ${path} no key`, path);
      await rest(`GET ${path} B key forged origin`, path, { headers: { 'x-questline-key': NORTHSIDE_KEY }, origin: 'https://evil.example' });
    }
    await rest('start B with A key', '/tenants/northside-clinic/sessions', { body: { flow: 'flow.patient_intake' }, headers: aKey });
    await rest('start A flow of B', '/tenants/acme/sessions', { body: { flow: 'flow.patient_intake' }, headers: aKey });
    await rest('start B forged origin', '/tenants/northside-clinic/sessions', { body: { flow: 'flow.patient_intake' }, headers: { 'x-questline-key': NORTHSIDE_KEY }, origin: 'https://evil.example' });
    // admin endpoints without the key and with a wrong one
    const adminPaths: Array<[string, string, unknown?]> = [
      ['GET', '/admin/tenants/northside-clinic/sessions'], ['GET', `/admin/sessions/${b.sessionId}`], ['GET', '/admin/tenants/northside-clinic/export?format=csv'],
      ['DELETE', `/admin/sessions/${b.sessionId}`], ['POST', `/admin/sessions/${b.sessionId}/decision`, { decision: 'approve' }],
      ['POST', `/admin/sessions/${b.sessionId}/messages`, { text: 'operator here' }], ['POST', `/admin/sessions/${b.sessionId}/hand-back`, { nodeId: 'q.x' }],
    ];
    for (const [method, path, body] of adminPaths) {
      for (const headers of [{}, { 'x-questline-admin': 'not-the-admin-key-0123' }, { 'x-questline-admin': TEST_ADMIN_KEY.slice(0, -1) }, aAuth, aKey] as Array<Record<string, string>>) {
        await rest(`${method} ${path}`, path, { method, headers, ...(body ? { body } : {}) });
      }
    }
    // the socket: A's key with B's token, A's token, none; a payload naming B's session
    const sock = async (label: string, key: string, token: string | undefined, event: string, payload: unknown) => {
      attempts++;
      const c = track(await chat(server.url, { key, ...(token ? { token } : {}) }));
      const ack = await c.request(event, payload);
      if (ack?.ok !== false) successes.push(`${label}: ${JSON.stringify(ack)}`);
      attempts++;
      const after = await c.request('message', { text: 'hello B', clientId: `x-${attempts}` });
      if (after?.ok !== false) successes.push(`${label} then message: ${JSON.stringify(after)}`);
      c.close();
    };
    await sock("A key + B's token", ACME_KEY, b.token, 'session:start', { sessionId: b.sessionId });
    await sock("A key + A's token", ACME_KEY, a.token, 'session:start', { sessionId: b.sessionId });
    await sock('A key, no token', ACME_KEY, undefined, 'session:start', { sessionId: b.sessionId });
    await sock("A key, B's flow", ACME_KEY, undefined, 'session:start', { flow: 'flow.patient_intake' });
    for (const id of guessed.slice(0, 5)) await sock(`A key, guessed ${id}`, ACME_KEY, a.token, 'session:start', { sessionId: id });
    // a socket on its own session cannot point a message at another one
    attempts++;
    const own = track(await chat(server.url, { token: a.token }));
    expect((await own.request('session:start', { sessionId: a.sessionId })).ok).toBe(true);
    await own.request('message', { text: 'hello', clientId: 'mine-1', sessionId: b.sessionId });
    own.close();
    // the operator namespace without the admin key
    for (const adminKey of [undefined, 'wrong', TEST_ADMIN_KEY.toUpperCase()]) {
      attempts++;
      const op = io(`${server.url}/operator`, { auth: adminKey ? { adminKey } : {}, transports: ['websocket'], reconnection: false, forceNew: true });
      const outcome = await new Promise<string>((resolve) => {
        op.once('connect', () => resolve('connected'));
        op.once('connect_error', () => resolve('refused'));
      });
      op.close();
      if (outcome !== 'refused') successes.push(`operator with ${adminKey}`);
    }

    // B's session is exactly as it was
    const bAfter = await api(server.url, `/sessions/${b.sessionId}`, { headers: { authorization: `Bearer ${b.token}` } });
    if (JSON.stringify(bAfter.body) !== JSON.stringify(bBefore.body)) successes.push("B's session changed");
    const adminView = await api(server.url, `/admin/sessions/${b.sessionId}`, { headers: admin });
    expect(adminView.status).toBe(200);
    recordTally('isolation', { cross_tenant_attempts: attempts, cross_tenant_successes: successes.length });
    expect(successes).toEqual([]);
    expect(attempts).toBeGreaterThan(100);
  });

  it('issues unguessable tokens (256 bits, all distinct) and stores only their hash', async () => {
    const { readFileSync } = await import('node:fs');
    const { sessionPaths } = await import('../../server/store/lowdb-paths.ts');
    const { lastRecord } = await import('../../server/store/lowdb.ts');
    const tokens = new Set<string>();
    for (let i = 0; i < 30; i++) {
      const s = (await api(server.url, '/tenants/acme/sessions', { body: { flow: 'flow.sales' }, headers: { 'x-questline-key': ACME_KEY } })).body;
      expect(Buffer.from(s.token, 'base64url').length).toBeGreaterThanOrEqual(16); // ≥ 128 bits
      expect(Buffer.from(s.token, 'base64url').length).toBe(32);
      tokens.add(s.token);
      const stored = readFileSync(sessionPaths(server.dataDir, s.sessionId).file, 'utf8');
      expect(stored).not.toContain(s.token);
      expect(lastRecord(stored)!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(tokens.size).toBe(30);
  });
});
