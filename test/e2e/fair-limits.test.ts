import { io } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, TEST_ADMIN_KEY, type TestServer } from '../support/server.ts';
import { ACME_KEY, api, chat } from './helpers.ts';

// Limits of a real server: the right admin key is never locked out, resumes and
// transcript reads are limited, TRUST_PROXY decides whose address counts, and
// /metrics needs its token.

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function server(opts: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const s = await startTestServer(opts);
  cleanup.push(() => s.dispose());
  return s;
}

async function operatorConnect(url: string, adminKey: string): Promise<{ ok: true } | { ok: false; code: string | undefined }> {
  const s = io(`${url}/operator`, { auth: { adminKey }, transports: ['websocket'], reconnection: false, forceNew: true });
  cleanup.push(() => void s.close());
  return new Promise((resolve) => {
    s.on('connect', () => resolve({ ok: true }));
    s.on('connect_error', (e: Error & { data?: { code: string } }) => resolve({ ok: false, code: e.data?.code }));
  });
}

describe('admin key', () => {
  it('lets the right key in (REST and /operator) after a flood of wrong keys from the same address', async () => {
    const s = await server({ rateLimits: { adminFailuresPerIp: { points: 10, seconds: 60 } } });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await api(s.url, '/admin/tenants', { headers: { 'x-questline-admin': `wrong-key-${i}-xxxxxxxx` } })).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(403));
    expect(statuses.slice(10)).toEqual([429, 429]);
    expect(await operatorConnect(s.url, 'wrong-key-again-xxxxxxxx')).toEqual({ ok: false, code: 'rate_limited' });
    expect((await api(s.url, '/admin/tenants', { headers: { 'x-questline-admin': TEST_ADMIN_KEY } })).status).toBe(200);
    expect(await operatorConnect(s.url, TEST_ADMIN_KEY)).toEqual({ ok: true });
  });

  it('answers a wrong key in plain words, without naming headers', async () => {
    const s = await server();
    const r = await api(s.url, '/admin/tenants', { headers: { 'x-questline-admin': 'wrong-key-xxxxxxxxxx' } });
    expect(r.body.error.code).toBe('admin_only');
    expect(r.body.error.message).not.toMatch(/X-Questline|header/i);
  });
});

describe('resumes and transcript reads', () => {
  it('limits GET /sessions/:id and socket resumes per session', async () => {
    const s = await server({ rateLimits: { readsPerSession: { points: 3, seconds: 60 } } });
    const started = (await api(s.url, '/tenants/acme/sessions', { body: { flow: 'flow.sales' }, headers: { 'x-questline-key': ACME_KEY } })).body;
    const auth = { authorization: `Bearer ${started.token}` };
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await api(s.url, `/sessions/${started.sessionId}`, { headers: auth })).status);
    expect(statuses).toEqual([200, 200, 200]);
    const refused = await api(s.url, `/sessions/${started.sessionId}`, { headers: auth });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    const c = await chat(s.url, { token: started.token });
    cleanup.push(() => c.close());
    expect(await c.request('session:start', { sessionId: started.sessionId })).toMatchObject({ ok: false, error: { code: 'rate_limited' } });
  });
});

describe('TRUST_PROXY', () => {
  const start = (url: string, xff: string) =>
    api(url, '/tenants/acme/sessions', { body: { flow: 'flow.sales' }, headers: { 'x-questline-key': ACME_KEY, 'x-forwarded-for': xff } });

  it('counts each forwarded client on its own behind a trusted proxy', async () => {
    const s = await server({ rateLimits: { startsPerIp: { points: 1, seconds: 60 } }, env: { TRUST_PROXY: 'loopback' } });
    expect((await start(s.url, '203.0.113.1')).status).toBe(201);
    expect((await start(s.url, '203.0.113.2')).status).toBe(201);
    expect((await start(s.url, '203.0.113.1')).status).toBe(429);
  });

  it('ignores X-Forwarded-For without it (a client cannot pick its own address)', async () => {
    const s = await server({ rateLimits: { startsPerIp: { points: 1, seconds: 60 } } });
    expect((await start(s.url, '203.0.113.1')).status).toBe(201);
    expect((await start(s.url, '203.0.113.2')).status).toBe(429);
  });
});

describe('/metrics', () => {
  it('needs METRICS_TOKEN when one is set, and labels routes by pattern whatever the request spelling', async () => {
    const token = 'metrics-token-0123456789';
    const s = await server({ env: { METRICS_TOKEN: token } });
    expect((await fetch(`${s.url}/metrics`)).status).toBe(403);
    expect((await fetch(`${s.url}/metrics`, { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(403);
    await fetch(`${s.url}/API/V1/Tenants/acme/flows`, { headers: { 'x-questline-key': ACME_KEY } });
    const r = await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(r.status).toBe(200);
    const routes = new Set([...(await r.text()).matchAll(/route="([^"]*)"/g)].map((m) => m[1]));
    expect(routes).toContain('/api/v1/tenants/:tenant/flows');
    expect([...routes].filter((x) => /[A-Z]/.test(x!))).toEqual([]);
  });

  it('serves loopback without a token, and refuses a forwarded client that is not loopback', async () => {
    const s = await server({ env: { TRUST_PROXY: 'loopback' } });
    expect((await fetch(`${s.url}/metrics`)).status).toBe(200);
    expect((await fetch(`${s.url}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.8' } })).status).toBe(403);
  });
});

describe('invisible messages', () => {
  it('refuses a message of zero-width and direction-control characters like an empty one (REST and socket), storing nothing', async () => {
    const s = await server();
    const started = (await api(s.url, '/tenants/acme/sessions', { body: { flow: 'flow.sales' }, headers: { 'x-questline-key': ACME_KEY } })).body;
    const r = await api(s.url, `/sessions/${started.sessionId}/messages`, { body: { text: '\u200B\u202E\u2066' }, headers: { authorization: `Bearer ${started.token}` } });
    expect(r).toMatchObject({ status: 400, body: { error: { code: 'invalid_payload' } } });
    const c = await chat(s.url, { token: started.token });
    cleanup.push(() => c.close());
    await c.request('session:start', { sessionId: started.sessionId });
    expect(await c.request('message', { text: '\u200D\uFEFF', clientId: 'z1' })).toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
    expect((await s.store.load(started.sessionId))!.seq).toBe(started.messages.length);
  });
});
