import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { WireMessage } from '../../server/protocol/index.ts';
import { LowdbStore } from '../../server/store/lowdb.ts';
import { envNumber, recordTally } from '../reliability/tally.ts';
import { REPO_FLOWS } from '../support/server.ts';
import { killServers, spawnServer, type ServerProcess } from '../support/server-process.ts';
import { ACME_SALES_SCRIPT, chat, sendPastRateLimits, type ChatClient } from './helpers.ts';

// Crash safety under load: several visitors run the sales script against a
// real server process (LowdbStore, default rate limits, a webhook to a local
// receiver) that is SIGKILLed at random moments CRASH_KILLS times and
// restarted on the same DATA_DIR. After every restart each visitor resumes
// and checks that every message the server acknowledged is in its session,
// once; at the end every session file parses and every ended session's
// webhook arrived exactly once (one delivery id per ending; re-sends of the
// same delivery id are counted apart).

const KILLS = envNumber('CRASH_KILLS', 1);
const VISITORS = envNumber('CRASH_VISITORS', 3);

const temps: string[] = [];
afterAll(async () => {
  await killServers();
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

function startProcess(dataDir: string, flowsDir: string): Promise<ServerProcess> {
  return spawnServer({ DATA_DIR: dataDir, FLOWS_DIR: flowsDir, STORE: 'lowdb', ADMIN_KEY: '', ANTHROPIC_API_KEY: '', REDIS_URL: '' }, { timeoutMs: 30_000, maxLogLines: 200 });
}

/** A webhook receiver on 127.0.0.1 counting deliveries per session and per delivery id. */
async function receiver(): Promise<{ url: string; bySession: Map<string, string[]>; close: () => Promise<void> }> {
  const bySession = new Map<string, string[]>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { sessionId: string; deliveryId: string };
        bySession.set(body.sessionId, [...(bySession.get(body.sessionId) ?? []), body.deliveryId]);
      } catch {
        // counted nowhere: a malformed delivery fails the exactly-once check by absence
      }
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    bySession,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}

interface Visitor {
  n: number;
  sessionId?: string;
  token?: string;
  /** Script lines acknowledged by the server (their clientIds are `v<n>-<i>`). */
  acked: number;
  /** A message sent whose ack the crash cut off. */
  inFlight?: number;
}

/** Sends with retries past rate limits (100 tries, 100–300 ms apart, 10 s for each ack); resolves with the ack, or null when the connection died. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const send = (c: ChatClient, text: string, clientId: string): Promise<any> =>
  sendPastRateLimits(c, text, clientId, { attempts: 100, pauseMs: () => 100 + Math.random() * 200, timeoutMs: 10_000, nullWhenDisconnected: true });

/**
 * Every stored session read back through a LowdbStore opened on the data
 * directory (the process that owned it is dead): whatever the file format,
 * a record or history the store cannot read is corrupt.
 */
async function readBack(dataDir: string): Promise<{ records: Array<{ id: string; status: string }>; corrupt: string[] }> {
  const ids = new Set<string>();
  for (const shard of readdirSync(join(dataDir, 'sessions'))) {
    for (const name of readdirSync(join(dataDir, 'sessions', shard))) {
      const m = /^([A-Za-z0-9_-]{8,64})\.jsonl$/.exec(name);
      // an empty file is a create cut short between creating the file and writing it: no session:start was acked
      if (m && statSync(join(dataDir, 'sessions', shard, name)).size > 0) ids.add(m[1]!);
    }
  }
  const store = await LowdbStore.open(dataDir);
  const records: Array<{ id: string; status: string }> = [];
  const corrupt: string[] = [];
  try {
    for (const id of [...ids].sort()) {
      try {
        const r = await store.load(id);
        if (!r) throw new Error('no record');
        const transcript = await store.transcript(id);
        if (transcript.length !== r.seq) throw new Error(`transcript has ${transcript.length} entries, the record commits ${r.seq}`);
        await store.events(id);
        records.push({ id, status: r.status });
      } catch (e) {
        corrupt.push(`${id}: ${(e as Error).message}`);
      }
    }
  } finally {
    await store.close();
  }
  return { records, corrupt };
}

describe('crash safety under load', () => {
  it(`keeps every acknowledged turn and delivers each webhook once across ${KILLS} SIGKILLs`, async () => {
    const hook = await receiver();
    const dataDir = mkdtempSync(join(tmpdir(), 'questline-crash-'));
    const flowsDir = mkdtempSync(join(tmpdir(), 'questline-crash-flows-'));
    temps.push(dataDir, flowsDir);
    cpSync(REPO_FLOWS, flowsDir, { recursive: true });
    const tenantFile = join(flowsDir, 'tenants', 'acme', 'tenant.json');
    writeFileSync(tenantFile, JSON.stringify({ ...JSON.parse(readFileSync(tenantFile, 'utf8')), webhook: { url: hook.url, secret: 'crash-test-secret' } }));

    const script = ACME_SALES_SCRIPT;
    const visitors: Visitor[] = Array.from({ length: VISITORS }, (_, n) => ({ n, acked: 0 }));
    let turnsChecked = 0;
    const lost: string[] = [];
    let crashes = 0;
    let finished = 0;

    /** Resumes (or starts) a visitor's session and checks the acknowledged turns are there, once. */
    const resume = async (url: string, v: Visitor): Promise<ChatClient | null> => {
      const c = await chat(url, v.token ? { token: v.token } : {});
      if (!v.sessionId) {
        const start = await c.request('session:start', { flow: 'flow.sales' }, 10_000);
        if (!start.ok) throw new Error(`start failed: ${JSON.stringify(start)}`);
        v.sessionId = start.sessionId;
        v.token = start.token;
        return c;
      }
      const r = await c.request('session:start', { sessionId: v.sessionId, lastSeq: 0 }, 10_000);
      if (!r.ok) throw new Error(`resume failed: ${JSON.stringify(r)}`);
      const users = (r.messages as WireMessage[]).filter((m) => m.role === 'user').map((m) => m.clientId);
      const want = script.slice(0, v.acked).map((_, i) => `v${v.n}-${i}`);
      for (const id of want) {
        turnsChecked++;
        if (users.filter((u) => u === id).length !== 1) lost.push(`${id} (${users.filter((u) => u === id).length} times)`);
      }
      // the cut-off message: committed or not, sending it again processes it once
      const expected = v.acked + (v.inFlight !== undefined && users.includes(`v${v.n}-${v.inFlight}`) ? 1 : 0);
      if (users.length !== expected) lost.push(`visitor ${v.n}: ${users.length} user messages stored, expected ${expected}`);
      return c;
    };

    /** Runs visitors until the server dies or everyone finished; `killAt` acks into the run, SIGKILL. */
    const phase = async (server: ServerProcess, killAt: number | null) => {
      let acks = 0;
      let killed = false;
      await Promise.all(visitors.map(async (v) => {
        if (v.acked >= script.length) return;
        let c: ChatClient | null;
        try {
          c = await resume(server.url, v);
        } catch (e) {
          if (killed) return;
          throw e;
        }
        try {
          while (v.acked < script.length && !killed) {
            const i = v.acked;
            v.inFlight = i;
            const ack = await send(c!, script[i]!, `v${v.n}-${i}`);
            if (ack === null) return; // the connection died with the server
            if (ack.ok !== true) throw new Error(`visitor ${v.n} turn ${i}: ${JSON.stringify(ack)}`);
            v.acked++;
            v.inFlight = undefined;
            if (v.acked === script.length) finished++;
            if (killAt !== null && ++acks >= killAt && !killed) {
              killed = true;
              server.proc.kill('SIGKILL');
            }
          }
        } finally {
          c?.close();
        }
      }));
      // also a crash right after the last ack when no kill came mid-load
      server.proc.kill('SIGKILL');
      await server.exited;
    };

    for (let k = 0; k < KILLS; k++) {
      // new visitors join as earlier ones finish, so there is always load when the kill comes
      for (const v of visitors) if (v.acked >= script.length) Object.assign(v, { n: v.n + VISITORS, sessionId: undefined, token: undefined, acked: 0, inFlight: undefined });
      const server = await startProcess(dataDir, flowsDir);
      await phase(server, 3 + Math.floor(Math.random() * 20));
      crashes++;
    }
    // a last run: everyone finishes (then the process is killed once more, right after the last ack)
    await phase(await startProcess(dataDir, flowsDir), null);
    crashes++;
    const final = await startProcess(dataDir, flowsDir);
    try {
      for (const v of visitors) (await resume(final.url, v))?.close();
      expect(visitors.every((v) => v.acked === script.length)).toBe(true);
      // the sessions that ended, as the transcripts the visitors saw say: every visitor's conversation completed
      const ended = visitors.map((v) => v.sessionId!);
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline && ended.some((id) => !hook.bySession.has(id))) await new Promise((r) => setTimeout(r, 100));
      await new Promise((r) => setTimeout(r, 1_500)); // room for a duplicate to show up
      final.proc.kill('SIGKILL');
      await final.exited;
      const back = await readBack(dataDir);
      const endedStored = back.records.filter((r) => r.status !== 'active').map((r) => r.id);
      const missing = endedStored.filter((id) => !hook.bySession.has(id));
      const twice = endedStored.filter((id) => new Set(hook.bySession.get(id)).size > 1);
      const resent = endedStored.reduce((n, id) => n + (hook.bySession.get(id)?.length ?? 0) - new Set(hook.bySession.get(id)).size, 0);
      const unknown = [...hook.bySession.keys()].filter((id) => !endedStored.includes(id));
      recordTally('crash', {
        crashes_survived: crashes, turns_checked: turnsChecked, turns_lost: lost.length, sessions_checked: back.records.length,
        webhooks_expected: endedStored.length, webhooks_missing: missing.length, webhooks_duplicated: twice.length, webhook_resends: resent,
        corrupt_files: back.corrupt.length,
      });
      expect(lost).toEqual([]);
      expect(back.corrupt).toEqual([]);
      expect(back.records.length).toBeGreaterThanOrEqual(visitors.length);
      for (const id of ended) expect(endedStored).toContain(id);
      expect(missing).toEqual([]);
      expect(twice).toEqual([]);
      expect(unknown).toEqual([]);
      expect(turnsChecked).toBeGreaterThan(0);
    } finally {
      final.proc.kill('SIGKILL');
      await final.exited;
      await hook.close();
    }
  }, 180_000);
});
