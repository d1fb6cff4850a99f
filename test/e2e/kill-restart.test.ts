import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { WireMessage } from '../../server/protocol/index.ts';
import { REPO_FLOWS } from '../support/server.ts';
import { killServers, spawnServer, type ServerProcess } from '../support/server-process.ts';
import {
  ACME_SALES_SCRIPT, chat, contiguous, expectWholeConversation, sendPastRateLimits, sessionView, type ChatClient,
} from './helpers.ts';

// A crash, not a shutdown: the server runs as `npm start` runs it
// (`node --import tsx server/main.ts`, LowdbStore on DATA_DIR, default rate
// limits) in a child process and is killed with SIGKILL. A new process on the
// same DATA_DIR takes over the dead process's lock, and what was acknowledged
// before the crash is there exactly once.

const temps: string[] = [];
const clients: ChatClient[] = [];

// closes the clients and kills whatever is still running (also when a test failed half-way)
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await killServers();
});
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

/** Starts the server on `dataDir` (LowdbStore, default rate limits); resolves with the URL it logs once listening. */
function startServerProcess(dataDir: string): Promise<ServerProcess> {
  return spawnServer({ DATA_DIR: dataDir, FLOWS_DIR: REPO_FLOWS, STORE: 'lowdb', ADMIN_KEY: '', ANTHROPIC_API_KEY: '', REDIS_URL: '' });
}

const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'questline-kill-'));
  temps.push(d);
  return d;
};

const lockPid = (dataDir: string) => readFileSync(join(dataDir, '.lock'), 'utf8').trim();

async function connect(url: string, token?: string): Promise<ChatClient> {
  const c = await chat(url, token ? { token } : {});
  clients.push(c);
  return c;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Ack = any;

/** Sends and waits for the ack, sending again (same clientId) past `rate_limited` refusals: 40 tries, 150 ms apart. */
const send = (c: ChatClient, text: string, clientId: string): Promise<Ack> => sendPastRateLimits(c, text, clientId);

describe('a server killed with SIGKILL', () => {
  it('comes back on the same DATA_DIR and the client resumes where the last ack left it', async () => {
    const dataDir = tempDir();
    const first = await startServerProcess(dataDir);
    expect(lockPid(dataDir)).toBe(String(first.pid));

    const a = await connect(first.url);
    const start = await a.request('session:start', { flow: 'flow.sales' });
    expect(start).toMatchObject({ ok: true, messages: [{ id: 1 }, { id: 2 }] });
    const cut = 6;
    const ids = (from: ChatClient) => from.messages().map((m) => m.id);
    for (const [i, text] of ACME_SALES_SCRIPT.slice(0, cut).entries()) {
      const ack = await send(a, text, `k-${i}`);
      expect(ack, `turn ${i}: ${text}`).toEqual({ ok: true });
      if (i === cut - 1) first.proc.kill('SIGKILL'); // right after the ack, nothing in between
    }
    await first.exited;
    // everything the server sent before its acks arrived first (one websocket, in order)
    const seen = [...new Set([...start.messages.map((m: WireMessage) => m.id), ...ids(a)])].sort((x, y) => x - y);
    expect(contiguous(seen)).toBe(true);
    expect(a.messages().filter((m) => m.role === 'user').map((m) => m.clientId)).toEqual(ACME_SALES_SCRIPT.slice(0, cut).map((_, i) => `k-${i}`));
    const lastSeq = seen.at(-1)!;
    a.close();

    // the dead process's lock is still there, and the next process takes it over
    expect(lockPid(dataDir)).toBe(String(first.pid));
    const second = await startServerProcess(dataDir);
    expect(lockPid(dataDir)).toBe(String(second.pid));

    const b = await connect(second.url, start.token);
    const resumed = await b.request('session:start', { sessionId: start.sessionId, lastSeq });
    // nothing was committed after the last ack, and nothing acknowledged was lost
    expect(resumed).toMatchObject({ ok: true, sessionId: start.sessionId, token: start.token, messages: [], state: { status: 'active' } });
    for (const [i, text] of ACME_SALES_SCRIPT.slice(cut).entries()) {
      expect(await send(b, text, `k-${cut + i}`), `turn ${cut + i}: ${text}`).toEqual({ ok: true });
    }
    await b.until((x) => x.received.some((r) => r.event === 'session:end'));
    expect(b.received.find((r) => r.event === 'session:end')?.data).toEqual({ status: 'completed', sessionId: start.sessionId });
    const after = ids(b);
    expect(after[0]).toBe(lastSeq + 1);
    expect(contiguous([...seen, ...after])).toBe(true);

    const view = await sessionView(second.url, start.sessionId, start.token);
    expect(view).toMatchObject({ status: 'completed', answers: { court_size: 420, email: 'ann@northside.edu', name: 'Ann Lee' } });
    expect(view.messages.map((m) => m.id)).toEqual([...seen, ...after]);
    expectWholeConversation(view.messages, ACME_SALES_SCRIPT.map((_, i) => `k-${i}`));
  }, 30_000);

  it('keeps every acknowledged message of a burst from several clients exactly once', async () => {
    const dataDir = tempDir();
    const first = await startServerProcess(dataDir);
    const n = 4;
    const killAfterAcks = 10;

    interface Visitor {
      client: ChatClient;
      sessionId: string;
      token: string;
      /** The script messages acknowledged before the crash. */
      acked: number;
      /** The message sent whose ack never came (the crash cut it), if any. */
      inFlight?: { text: string; clientId: string };
    }
    const visitors: Visitor[] = [];
    for (let i = 0; i < n; i++) {
      const client = await connect(first.url);
      const start = await client.request('session:start', { flow: 'flow.sales' });
      expect(start.ok).toBe(true);
      visitors.push({ client, sessionId: start.sessionId, token: start.token, acked: 0 });
    }

    // every client sends its script as fast as its acks come back; the server dies mid-burst
    let acks = 0;
    let killed = false;
    const burst = async (v: Visitor, who: number) => {
      for (let i = 0; i < ACME_SALES_SCRIPT.length; i++) {
        const msg = { text: ACME_SALES_SCRIPT[i]!, clientId: `c${who}-${i}` };
        v.inFlight = msg;
        let ack: Ack;
        try {
          ack = await send(v.client, msg.text, msg.clientId);
        } catch {
          return; // disconnected by the crash: no ack
        }
        expect(ack, `client ${who}, turn ${i}`).toEqual({ ok: true });
        v.acked++;
        v.inFlight = undefined;
        // acks the server sent just before it died may still arrive after the kill: they count as acks too
        if (killed) return;
        if (++acks === killAfterAcks) {
          killed = true;
          first.proc.kill('SIGKILL');
          return;
        }
      }
    };
    await Promise.all(visitors.map(burst));
    expect(killed).toBe(true);
    await first.exited;
    for (const v of visitors) v.client.close();
    expect(visitors.reduce((s, v) => s + v.acked, 0)).toBeGreaterThanOrEqual(killAfterAcks);

    const second = await startServerProcess(dataDir);
    expect(lockPid(dataDir)).toBe(String(second.pid));

    for (const [who, v] of visitors.entries()) {
      const c = await connect(second.url, v.token);
      const resumed = await c.request('session:start', { sessionId: v.sessionId, lastSeq: 0 });
      expect(resumed.ok).toBe(true);
      // every acknowledged message is in the replayed transcript, once
      const replayedUsers = (resumed.messages as WireMessage[]).filter((m) => m.role === 'user').map((m) => m.clientId);
      const acked = ACME_SALES_SCRIPT.slice(0, v.acked).map((_, i) => `c${who}-${i}`);
      expect(replayedUsers.slice(0, v.acked)).toEqual(acked);
      // the message cut by the crash: committed or not, sending it again (same clientId) processes it once
      let next = v.acked;
      if (v.inFlight) {
        const committed = replayedUsers.includes(v.inFlight.clientId);
        expect(replayedUsers).toHaveLength(v.acked + (committed ? 1 : 0));
        const ack = await send(c, v.inFlight.text, v.inFlight.clientId);
        expect(ack).toEqual(committed ? { ok: true, duplicate: true } : { ok: true });
        next++;
      } else {
        expect(replayedUsers).toHaveLength(v.acked);
      }
      for (let i = next; i < ACME_SALES_SCRIPT.length; i++) {
        expect(await send(c, ACME_SALES_SCRIPT[i]!, `c${who}-${i}`), `client ${who}, turn ${i} after the restart`).toEqual({ ok: true });
      }
      await c.until((x) => x.lastState()?.status === 'completed');
      c.close();
    }

    for (const [who, v] of visitors.entries()) {
      const view = await sessionView(second.url, v.sessionId, v.token);
      expect(view.status).toBe('completed');
      expectWholeConversation(view.messages, ACME_SALES_SCRIPT.map((_, i) => `c${who}-${i}`));
    }
  }, 30_000);
});
