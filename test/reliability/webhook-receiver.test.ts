import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ACME_SALES_SCRIPT } from '../support/scripts.ts';
import { killServers, spawnServer } from '../support/server-process.ts';
import { envNumber, recordTally } from './tally.ts';
import { flowsWithWebhook, newRefusals, OPEN_LIMITS, startReceiver, untilAcked, type Target } from './rest-visitor.ts';

// A webhook receiver that is down (connections reset), then answers 500,
// then is slow (past the 10 s POST timeout once, then just slow), then well,
// while visitors complete intakes against a server process. Nothing a
// visitor sees may change (no refusal), and every acknowledged completion
// must be delivered in the end under one delivery id
// (`webhooks_lost_receiver_faults` = 0); deliveries repeated with the same id
// (the slow answer that came after the timeout) are counted apart.

const VISITORS = envNumber('WEBHOOK_VISITORS', 4);
const PHASE_MS = envNumber('WEBHOOK_PHASE_MS', 1_500);

const temps: string[] = [];
afterAll(async () => {
  await killServers();
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a webhook receiver that is down, failing and slow', () => {
  it('delays deliveries but loses none, and the visitors never notice', async () => {
    const hook = await startReceiver();
    const flowsDir = flowsWithWebhook(hook.url);
    const dataDir = mkdtempSync(join(tmpdir(), 'questline-webhook-'));
    temps.push(flowsDir, dataDir);
    const server = await spawnServer(
      { DATA_DIR: dataDir, FLOWS_DIR: flowsDir, STORE: 'lowdb', ADMIN_KEY: '', ANTHROPIC_API_KEY: '', REDIS_URL: '', RATE_LIMITS: OPEN_LIMITS },
      { timeoutMs: 60_000, maxLogLines: 100 },
    );
    const target: Target = { url: server.url };
    const refusals = newRefusals();
    const key = { 'X-Questline-Key': 'pk_acme_demo' };
    const completed: string[] = [];
    let stopping = false;
    const run = async () => {
      while (!stopping) {
        const s = await untilAcked(target, '/tenants/acme/sessions', { flow: 'flow.sales' }, key, refusals);
        for (const [i, text] of ACME_SALES_SCRIPT.entries()) {
          const ack = await untilAcked(target, `/sessions/${s.sessionId}/messages`, { text, clientId: `m${i}` }, { Authorization: `Bearer ${s.token}` }, refusals);
          if (ack.state.status === 'completed') completed.push(s.sessionId);
        }
      }
    };
    const running = Promise.all(Array.from({ length: VISITORS }, run));
    for (const mode of [{ kind: 'down' }, { kind: 'status', status: 500 }, { kind: 'status', status: 503 }, { kind: 'slow', ms: 11_000 }, { kind: 'slow', ms: 1_500 }] as const) {
      hook.mode = mode;
      await sleep(PHASE_MS);
    }
    hook.mode = { kind: 'ok' };
    stopping = true;
    await running;
    // the backoff doubles from 1 s: an ending that met every fault is due again within a minute
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline && completed.some((id) => !hook.bySession.has(id))) await sleep(200);
    server.proc.kill('SIGKILL');
    await server.exited;
    await hook.close();

    const lost = completed.filter((id) => !hook.bySession.has(id));
    const twice = completed.filter((id) => new Set(hook.bySession.get(id)).size > 1);
    const resent = completed.reduce((n, id) => n + (hook.bySession.get(id)?.length ?? 0) - new Set(hook.bySession.get(id)).size, 0);
    recordTally('webhook-receiver', {
      receiver_faults_completions: completed.length, receiver_faults_posts: hook.posts, webhooks_lost_receiver_faults: lost.length,
      receiver_faults_duplicated: twice.length, receiver_faults_resends_same_id: resent,
      receiver_faults_visitor_refusals: refusals.internal + refusals.storage_unavailable + Object.values(refusals.other).reduce((a, b) => a + b, 0),
    });
    expect(completed.length).toBeGreaterThan(0);
    expect(lost).toEqual([]);
    expect(twice).toEqual([]);
    expect(refusals.internal + refusals.storage_unavailable).toBe(0);
  }, 300_000);
});
