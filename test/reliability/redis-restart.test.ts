import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { ACME_SALES_SCRIPT } from '../support/scripts.ts';
import { freePort, needsRedisServer, REDIS_SERVER } from '../support/redis.ts';
import { killServers, spawnServer, type ServerProcess } from '../support/server-process.ts';
import { envNumber, recordTally } from './tally.ts';
import { flowsWithWebhook, newRefusals, OPEN_LIMITS, startReceiver, untilAcked, type Target } from './rest-visitor.ts';

// Redis killed (-9) and restarted under two server instances (STORE=redis)
// while visitors go through intakes, alternating between the instances. Redis
// runs with the append-only file fsynced on every write (`appendonly yes`,
// `appendfsync always`: what operations.md asks of a Redis that must not lose
// an acknowledged write). While it is down the instances answer
// storage_unavailable and the visitors resend the same clientId; once it is
// back they recover without a restart. Every acknowledged turn must be in its
// session exactly once (`acked_turns_lost_redis_restart` = 0), no request may
// get 500 `internal`, and every acknowledged completion reaches the webhook.

const VISITORS = envNumber('REDIS_VISITORS', 6);
const DOWN_MS = envNumber('REDIS_DOWN_MS', 3_000);
const hasRedis = needsRedisServer();

const temps: string[] = [];
const redises: ChildProcess[] = [];
afterAll(async () => {
  await killServers();
  for (const r of redises) if (r.exitCode === null) r.kill('SIGKILL');
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts redis-server on `port` with its data in `dir` (AOF, fsync always); resolves once it answers PING. */
async function startRedis(port: number, dir: string): Promise<ChildProcess> {
  const child = spawn(REDIS_SERVER!, [
    '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', '', '--daemonize', 'no',
  ], { stdio: 'ignore' });
  redises.push(child);
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const c = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    c.on('error', () => {});
    try {
      await c.connect();
      if ((await c.ping()) === 'PONG') return child;
    } catch {
      // not up yet
    } finally {
      c.disconnect();
    }
    await sleep(50);
  }
  throw new Error(`redis-server did not start on ${port}`);
}

describe('Redis killed and restarted under two instances', () => {
  it.runIf(hasRedis)('loses no acknowledged turn and recovers without restarting the instances', async () => {
    const hook = await startReceiver();
    const flowsDir = flowsWithWebhook(hook.url);
    const redisDir = mkdtempSync(join(tmpdir(), 'questline-redis-aof-'));
    temps.push(flowsDir, redisDir);
    const port = await freePort();
    let redis = await startRedis(port, redisDir);
    const instance = (name: string): Promise<ServerProcess> => {
      const dataDir = mkdtempSync(join(tmpdir(), `questline-redis-${name}-`));
      temps.push(dataDir);
      return spawnServer(
        { DATA_DIR: dataDir, FLOWS_DIR: flowsDir, STORE: 'redis', REDIS_URL: `redis://127.0.0.1:${port}`, ADMIN_KEY: '', ANTHROPIC_API_KEY: '', RATE_LIMITS: OPEN_LIMITS },
        { label: name, timeoutMs: 60_000, maxLogLines: 100 },
      );
    };
    const a = await instance('a');
    const b = await instance('b');
    const targets: Target[] = [{ url: a.url }, { url: b.url }];
    const refusals = newRefusals();
    const script = ACME_SALES_SCRIPT;
    const key = { 'X-Questline-Key': 'pk_acme_demo' };
    const sessions = new Map<string, { token: string; acked: string[]; completed: boolean }>();
    let stopping = false;
    let acks = 0;

    const run = async (n: number) => {
      while (!stopping) {
        const s = await untilAcked(targets[n % 2]!, '/tenants/acme/sessions', { flow: 'flow.sales' }, key, refusals);
        const mine = { token: s.token as string, acked: [] as string[], completed: false };
        sessions.set(s.sessionId, mine);
        for (let i = 0; i < script.length; i++) {
          const clientId = `m${i}`;
          // every other message to the other instance
          const ack = await untilAcked(targets[(n + i) % 2]!, `/sessions/${s.sessionId}/messages`, { text: script[i], clientId }, { Authorization: `Bearer ${s.token}` }, refusals);
          mine.acked.push(clientId);
          acks++;
          if (ack.state.status === 'completed') mine.completed = true;
        }
      }
    };

    const running = Promise.all(Array.from({ length: VISITORS }, (_, n) => run(n)));
    while (acks < 60) await sleep(10);
    redis.kill('SIGKILL');
    await new Promise((r) => redis.once('exit', r));
    const refusedBefore = refusals.storage_unavailable;
    await sleep(DOWN_MS);
    const readyWhileDown = (await fetch(`${a.url}/readyz`)).status;
    redis = await startRedis(port, redisDir);
    const refusedWhileDown = refusals.storage_unavailable - refusedBefore;
    const acksAtRestart = acks;
    const recoverBy = Date.now() + 60_000;
    while (acks < acksAtRestart + 60 && Date.now() < recoverBy) await sleep(10);
    const recovered = acks >= acksAtRestart + 60;
    const readyAfter = (await fetch(`${b.url}/readyz`)).status;
    stopping = true;
    await running;

    let lostTurns = 0;
    let repeated = 0;
    for (const [id, s] of sessions) {
      const view = await (await fetch(`${a.url}/api/v1/sessions/${id}`, { headers: { Authorization: `Bearer ${s.token}` } })).json() as { messages: Array<{ role: string; clientId?: string }> };
      const users = view.messages.filter((m) => m.role === 'user').map((m) => m.clientId);
      for (const c of s.acked) {
        const n = users.filter((u) => u === c).length;
        if (n === 0) lostTurns++;
        if (n > 1) repeated++;
      }
    }
    const completed = [...sessions].filter(([, s]) => s.completed).map(([id]) => id);
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && completed.some((id) => !hook.bySession.has(id))) await sleep(100);
    const webhooksLost = completed.filter((id) => !hook.bySession.has(id)).length;
    const twice = completed.filter((id) => new Set(hook.bySession.get(id)).size > 1).length;
    for (const s of [a, b]) s.proc.kill('SIGKILL');
    await Promise.all([a.exited, b.exited]);
    await hook.close();

    recordTally('redis-restart', {
      redis_turns_acked: acks, redis_down_refusals: refusedWhileDown, redis_other_refusals: Object.values(refusals.other).reduce((x, y) => x + y, 0), acked_turns_lost_redis_restart: lostTurns + repeated,
      redis_internal_errors: refusals.internal, redis_not_recovered: recovered && readyAfter === 200 ? 0 : 1,
      redis_webhooks_lost: webhooksLost, redis_webhooks_duplicated: twice,
    });
    expect(readyWhileDown).toBe(503);
    expect(recovered).toBe(true);
    expect(readyAfter).toBe(200);
    expect(lostTurns).toBe(0);
    expect(repeated).toBe(0);
    expect(refusals.internal).toBe(0);
    expect(webhooksLost).toBe(0);
    expect(twice).toBe(0);
  }, 300_000);
});
