import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ACME_SALES_SCRIPT } from '../support/scripts.ts';
import { killServers, spawnServer, type ServerProcess } from '../support/server-process.ts';
import { envNumber, recordTally } from './tally.ts';
import { flowsWithWebhook, newRefusals, OPEN_LIMITS, startReceiver, untilAcked, type Target } from './rest-visitor.ts';

// What the probe of issue 33 did, as a check: ENDINGS_VISITORS REST visitors
// (npm test: 8; the reliability runner: 30) complete intakes against a server process (LowdbStore, the
// file outbox, a webhook to a local receiver) that is SIGKILLed
// ENDINGS_KILLS times at random moments and restarted on the same DATA_DIR;
// each visitor resends the same clientId until it is acknowledged. Then,
// after one more restart, every visitor resends the last message of every
// intake it completed (answered `duplicate: true` from the store). Every
// acknowledged completion must reach the webhook (`webhooks_lost` = 0), each
// ending under one delivery id (`webhooks_duplicated` = 0).

const VISITORS = envNumber('ENDINGS_VISITORS', 8);
const KILLS = envNumber('ENDINGS_KILLS', 1);

const temps: string[] = [];
afterAll(async () => {
  await killServers();
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Visitor {
  n: number;
  session?: { id: string; token: string; acked: number };
  /** Intakes this visitor saw acknowledged as completed: session id → the token and the last clientId. */
  completed: Map<string, { token: string; clientId: string }>;
}

describe('endings through kill -9', () => {
  it(`delivers every acknowledged completion of ${VISITORS} visitors across ${KILLS} SIGKILLs and duplicate retries`, async () => {
    const hook = await startReceiver();
    const flowsDir = flowsWithWebhook(hook.url);
    const dataDir = mkdtempSync(join(tmpdir(), 'questline-endings-'));
    temps.push(flowsDir, dataDir);
    const start = (): Promise<ServerProcess> => spawnServer(
      { DATA_DIR: dataDir, FLOWS_DIR: flowsDir, STORE: 'lowdb', ADMIN_KEY: '', ANTHROPIC_API_KEY: '', REDIS_URL: '', RATE_LIMITS: OPEN_LIMITS },
      { timeoutMs: 60_000, maxLogLines: 200 },
    );
    const target: Target = { url: null };
    const refusals = newRefusals();
    const visitors: Visitor[] = Array.from({ length: VISITORS }, (_, n) => ({ n, completed: new Map() }));
    let stopping = false;
    let acks = 0;
    let duplicateAckedEndings = 0;
    const script = ACME_SALES_SCRIPT;
    const key = { 'X-Questline-Key': 'pk_acme_demo' };

    /** One visitor: intakes one after another until `stopping`, then finishes the one under way. */
    const run = async (v: Visitor) => {
      for (;;) {
        if (!v.session) {
          if (stopping) return;
          const s = await untilAcked(target, '/tenants/acme/sessions', { flow: 'flow.sales' }, key, refusals);
          v.session = { id: s.sessionId, token: s.token, acked: 0 };
        }
        const s = v.session;
        const clientId = `${s.id.slice(0, 8)}-${s.acked}`;
        const ack = await untilAcked(target, `/sessions/${s.id}/messages`, { text: script[s.acked], clientId }, { Authorization: `Bearer ${s.token}` }, refusals);
        acks++;
        s.acked++;
        if (ack.state.status === 'completed') {
          v.completed.set(s.id, { token: s.token, clientId });
          v.session = undefined;
        } else if (s.acked >= script.length) {
          throw new Error(`visitor ${v.n}: the script ended without completing (${ack.state.status})`);
        }
      }
    };

    let server = await start();
    target.url = server.url;
    const running = Promise.all(visitors.map(run));
    let crashes = 0;
    for (let k = 0; k < KILLS; k++) {
      // a kill lands somewhere in the middle of the load: acks go on until then
      const at = acks + 200 + Math.floor(Math.random() * 200);
      while (acks < at) await sleep(5);
      server.proc.kill('SIGKILL');
      target.url = null;
      await server.exited;
      crashes++;
      server = await start();
      target.url = server.url;
    }
    stopping = true;
    await running;
    // before any retry answered from the store: the endings' own deliveries
    const before = visitors.flatMap((v) => [...v.completed.keys()]);
    const firstDeadline = Date.now() + 60_000;
    while (Date.now() < firstDeadline && before.some((id) => !hook.bySession.has(id))) await sleep(100);
    const lostBeforeDuplicates = before.filter((id) => !hook.bySession.has(id)).length;

    // one more crash and restart, then every completed intake's last message again: answered from the store
    server.proc.kill('SIGKILL');
    target.url = null;
    await server.exited;
    crashes++;
    server = await start();
    target.url = server.url;
    for (const v of visitors) {
      for (const [id, last] of v.completed) {
        const i = Number(last.clientId.split('-').pop());
        const again = await untilAcked(target, `/sessions/${id}/messages`, { text: script[i], clientId: last.clientId }, { Authorization: `Bearer ${last.token}` }, refusals);
        if (again.duplicate === true && again.state.status === 'completed') duplicateAckedEndings++;
      }
    }

    const acked = visitors.flatMap((v) => [...v.completed.keys()]);
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && acked.some((id) => !hook.bySession.has(id))) await sleep(100);
    await sleep(1_000); // room for a second delivery id to show up
    server.proc.kill('SIGKILL');
    await server.exited;
    await hook.close();

    const lost = acked.filter((id) => !hook.bySession.has(id));
    const twice = acked.filter((id) => new Set(hook.bySession.get(id)).size > 1);
    const resent = acked.reduce((n, id) => n + (hook.bySession.get(id)?.length ?? 0) - new Set(hook.bySession.get(id)).size, 0);
    recordTally('endings', {
      endings_crashes: crashes, endings_visitors: VISITORS, endings_turns_acked: acks,
      completions_acked: acked.length, webhooks_received: acked.length - lost.length, webhooks_lost: lost.length,
      duplicate_acked_endings: duplicateAckedEndings, webhooks_lost_before_duplicate_retries: lostBeforeDuplicates, endings_webhooks_duplicated: twice.length, endings_webhook_resends: resent,
      endings_internal_errors: refusals.internal,
    });
    expect(acked.length).toBeGreaterThanOrEqual(VISITORS);
    expect(duplicateAckedEndings).toBe(acked.length);
    expect(lost).toEqual([]);
    expect(lostBeforeDuplicates).toBe(0);
    expect(twice).toEqual([]);
    expect(refusals.internal).toBe(0);
  }, 600_000);
});
