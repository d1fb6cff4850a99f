import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../../server/delivery/signature.ts';
import { needsRedisServer, startTestRedis, type TestRedis } from '../support/redis.ts';
import { REPO_FLOWS } from '../support/server.ts';
import { killServers, spawnServer, type ServerProcess } from '../support/server-process.ts';
import {
  ACME_SALES_SCRIPT, api, chat, contiguous, expectWholeConversation, sendPastRateLimits, sessionView, type ChatClient,
} from './helpers.ts';

// Two server processes (`node --import tsx server/main.ts`, STORE=redis, the
// default rate limits) on two ports, sharing a private Redis: one conversation
// space. A local webhook receiver counts deliveries.

const ADMIN_KEY = 'redis-e2e-admin-key-0123456789';
const SECRET = 'webhook-secret-for-tests';

const temps: string[] = [];
const clients: ChatClient[] = [];

let redis: TestRedis;
let flowsDir: string;
let receiver: Server;
/** X-Questline-Delivery of every webhook POST received (signature checked). */
const deliveries: string[] = [];
let a: ServerProcess;
/** Without redis-server the file's tests skip (fail under CI); its hooks then do nothing. */
const hasRedis = needsRedisServer();
let b: ServerProcess;

const tempDir = (name: string) => {
  const d = mkdtempSync(join(tmpdir(), `questline-${name}-`));
  temps.push(d);
  return d;
};

function startServerProcess(name: string): Promise<ServerProcess> {
  return spawnServer({
    DATA_DIR: tempDir(`redis-${name}`), FLOWS_DIR: flowsDir, STORE: 'redis',
    REDIS_URL: redis.url, REDIS_PREFIX: 'e2e:', ADMIN_KEY, ANTHROPIC_API_KEY: '',
  }, { label: name, timeoutMs: 20_000 });
}

beforeAll(async () => {
  if (!hasRedis) return;
  redis = await startTestRedis();
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const ok = verifySignature(SECRET, String(req.headers['x-questline-timestamp']), body, req.headers['x-questline-signature'] as string | undefined);
      if (ok) deliveries.push(String(req.headers['x-questline-delivery']));
      res.statusCode = ok ? 200 : 400;
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  // the repository's flows, with a webhook for acme pointing at the receiver
  flowsDir = tempDir('redis-flows');
  cpSync(REPO_FLOWS, flowsDir, { recursive: true });
  const tenantFile = join(flowsDir, 'tenants', 'acme', 'tenant.json');
  const tenant = JSON.parse(readFileSync(tenantFile, 'utf8'));
  tenant.webhook = { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/intake`, secret: SECRET };
  writeFileSync(tenantFile, JSON.stringify(tenant));
  [a, b] = await Promise.all([startServerProcess('A'), startServerProcess('B')]);
}, 60_000);

afterAll(async () => {
  if (!hasRedis) return;
  for (const c of clients.splice(0)) c.close();
  await killServers();
  receiver?.closeAllConnections();
  await new Promise((r) => receiver?.close(r));
  await redis?.stop();
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

async function connect(url: string, token?: string): Promise<ChatClient> {
  const c = await chat(url, token ? { token } : {});
  clients.push(c);
  return c;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Ack = any;

/** Sends and waits for the ack, sending again (same clientId) past `rate_limited` refusals: 60 tries, 150 ms apart, 15 s for each ack. */
const send = (c: ChatClient, text: string, clientId: string): Promise<Ack> => sendPastRateLimits(c, text, clientId, { attempts: 60, timeoutMs: 15_000 });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until each session has a delivery, then a little longer, and returns how many each got. */
async function deliveriesOf(sessionIds: string[]): Promise<number[]> {
  const count = (id: string) => deliveries.filter((d) => d === `${id}:completed`).length;
  const deadline = Date.now() + 15_000;
  while (sessionIds.some((id) => count(id) === 0) && Date.now() < deadline) await sleep(50);
  await sleep(1_500); // a second delivery (the other instance's worker polls every 5 s, but the lease is checked at once) would land here
  return sessionIds.map(count);
}

describe('two instances on one Redis', () => {
  it('a client starts on A, reconnects to B mid-conversation and finishes: nothing lost or doubled, one webhook delivery', async () => {
    const onA = await connect(a.url);
    const start = await onA.request('session:start', { flow: 'flow.sales' });
    expect(start).toMatchObject({ ok: true, messages: [{ id: 1 }, { id: 2 }] });
    const cut = 5;
    for (const [i, text] of ACME_SALES_SCRIPT.slice(0, cut).entries()) expect(await send(onA, text, `m-${i}`)).toEqual({ ok: true });
    const lastSeq = onA.messages().at(-1)!.id;
    onA.close();

    const onB = await connect(b.url, start.token);
    const resumed = await onB.request('session:start', { sessionId: start.sessionId, lastSeq: lastSeq - 2 });
    // B replays what the client says it missed, from the shared store
    expect(resumed).toMatchObject({ ok: true, sessionId: start.sessionId, messages: [{ id: lastSeq - 1 }, { id: lastSeq }] });
    for (const [i, text] of ACME_SALES_SCRIPT.slice(cut).entries()) expect(await send(onB, text, `m-${cut + i}`)).toEqual({ ok: true });
    // a retry of an early message on B is answered from the store, not run again
    expect(await onB.request('message', { text: ACME_SALES_SCRIPT[0], clientId: 'm-0' })).toMatchObject({ ok: true, duplicate: true });
    await onB.until((x) => x.received.some((r) => r.event === 'session:end'));

    const fromA = await sessionView(a.url, start.sessionId, start.token);
    const fromB = await sessionView(b.url, start.sessionId, start.token);
    expect(fromA).toEqual(fromB);
    expect(fromA).toMatchObject({ status: 'completed', answers: { court_size: 420, email: 'ann@northside.edu', name: 'Ann Lee' } });
    expectWholeConversation(fromA.messages, ACME_SALES_SCRIPT.map((_, i) => `m-${i}`));
    expect(await deliveriesOf([start.sessionId])).toEqual([1]);
  }, 60_000);

  it('serializes concurrent turns of one session sent to A and B, and each side sees the other side\'s messages', async () => {
    const onA = await connect(a.url);
    const start = await onA.request('session:start', { flow: 'flow.sales' });
    const onB = await connect(b.url, start.token);
    expect(await onB.request('session:start', { sessionId: start.sessionId, lastSeq: 2 })).toMatchObject({ ok: true, messages: [] });
    // in any order these keep the session active (an ended session refuses messages: session_ended)
    const texts = ['Buy new LED lighting', 'back', 'restart', 'Buy new LED lighting', 'back', 'restart'];
    const acks = await Promise.all(texts.map((t, i) => send(i % 2 ? onA : onB, t, `c-${i}`)));
    for (const ack of acks) expect(ack).toEqual({ ok: true });
    const v = await sessionView(b.url, start.sessionId, start.token);
    expect(contiguous(v.messages.map((m) => m.id))).toBe(true);
    const users = v.messages.filter((m) => m.role === 'user');
    expect(users.map((m) => m.clientId).sort()).toEqual(texts.map((_, i) => `c-${i}`).sort());
    // each turn is whole: a user message is followed by the bot's reply, never by another turn's message
    for (const u of users) expect(v.messages.find((m) => m.id === u.id + 1)?.role).toBe('bot');
    // the room spans both instances: every message reached both clients
    const last = v.messages.at(-1)!.id;
    for (const c of [onA, onB]) {
      await c.until((x) => x.messages().some((m) => m.id === last));
      const ids = [...new Set(c.messages().map((m) => m.id).filter((id) => id > 2))].sort((x, y) => x - y);
      expect(ids).toEqual(v.messages.filter((m) => m.id > 2).map((m) => m.id));
    }
  }, 60_000);

  it('an operator writing on A reaches the visitor whose socket is on B', async () => {
    const onB = await connect(b.url);
    const start = await onB.request('session:start', { flow: 'flow.sales' });
    const r = await api(a.url, `/admin/sessions/${start.sessionId}/messages`, { body: { text: 'Hello from a person' }, headers: { 'x-questline-admin': ADMIN_KEY } });
    expect(r.status).toBe(200);
    await onB.until((x) => x.messages().some((m) => m.role === 'operator'));
    expect(onB.messages().find((m) => m.role === 'operator')).toMatchObject({ text: 'Hello from a person', id: 3 });
  }, 30_000);

  it('killing A mid-load loses no acknowledged turn: its visitors finish on B, each intake delivered once', async () => {
    interface Visitor { client: ChatClient; sessionId: string; token: string; acked: number; home: 'A' | 'B' }
    const visitors: Visitor[] = [];
    for (let i = 0; i < 6; i++) {
      const home = i % 2 ? 'B' : 'A';
      const client = await connect(home === 'A' ? a.url : b.url);
      const start = await client.request('session:start', { flow: 'flow.sales' });
      expect(start.ok).toBe(true);
      visitors.push({ client, sessionId: start.sessionId, token: start.token, acked: 0, home });
    }
    let acks = 0;
    let killed = false;
    const burst = async (v: Visitor, who: number) => {
      for (let i = v.acked; i < ACME_SALES_SCRIPT.length; i++) {
        let ack: Ack;
        try {
          ack = await send(v.client, ACME_SALES_SCRIPT[i]!, `v${who}-${i}`);
        } catch {
          return; // the connection died with A: no ack
        }
        expect(ack, `visitor ${who}, turn ${i}`).toEqual({ ok: true });
        v.acked++;
        if (++acks === 15 && !killed) {
          killed = true;
          a.proc.kill('SIGKILL');
        }
        if (killed && v.home === 'A') return;
      }
    };
    await Promise.all(visitors.map(burst));
    expect(killed).toBe(true);
    await a.exited;

    // A's visitors reconnect to B and send what was not acknowledged (the in-flight one again, same clientId)
    for (const [who, v] of visitors.entries()) {
      if (v.home !== 'A') continue;
      v.client.close();
      v.client = await connect(b.url, v.token);
      expect(await v.client.request('session:start', { sessionId: v.sessionId, lastSeq: 0 })).toMatchObject({ ok: true });
      for (let i = v.acked; i < ACME_SALES_SCRIPT.length; i++) {
        const ack = await send(v.client, ACME_SALES_SCRIPT[i]!, `v${who}-${i}`);
        expect(ack.ok, JSON.stringify(ack)).toBe(true);
      }
    }
    for (const [who, v] of visitors.entries()) {
      const seen = await sessionView(b.url, v.sessionId, v.token);
      expect(seen.status, `visitor ${who}`).toBe('completed');
      expectWholeConversation(seen.messages, ACME_SALES_SCRIPT.map((_, i) => `v${who}-${i}`));
    }
    expect(await deliveriesOf(visitors.map((v) => v.sessionId))).toEqual(visitors.map(() => 1));
  }, 90_000);
});
