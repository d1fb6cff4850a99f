import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEmbeddedBackend } from '../../server/delivery/backend.ts';
import { FileOutbox } from '../../server/delivery/outbox-file.ts';
import { LowdbStore } from '../../server/store/lowdb.ts';
import { ACME_SALES_SCRIPT } from '../support/scripts.ts';
import { killServers, spawnServer, type ServerProcess } from '../support/server-process.ts';
import { startTestServer } from '../support/server.ts';
import { envNumber, recordTally } from './tally.ts';
import { flowsWithWebhook, newRefusals, OPEN_LIMITS, startReceiver, untilAcked, type Target } from './rest-visitor.ts';

// A full disk under load. Where this process may mount (root, `mount -t
// tmpfs` works) the server process runs on a small tmpfs that a filler file
// fills to the last byte (real ENOSPC from the kernel); elsewhere the store
// and the outbox of an in-process server answer every write with an injected
// ENOSPC. Visitors keep sending (the same clientId until acknowledged) while
// the disk is full and after it has room again; then the server is killed
// (-9) and restarted, and every acknowledged turn must be in its session
// exactly once (`acked_turns_lost_disk_full` = 0), no request may get 500
// `internal`, /readyz must have said 503 while full and 200 after, and every
// acknowledged completion must reach the webhook.

const VISITORS = envNumber('DISK_VISITORS', 6);
const FULL_MS = envNumber('DISK_FULL_MS', 2_000);

const temps: string[] = [];
const mounts: string[] = [];
afterAll(async () => {
  await killServers();
  for (const m of mounts) spawnSync('umount', ['-l', m]);
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A small tmpfs mounted at a new temp directory, or null when this machine does not allow it. */
function tmpfs(sizeMb: number): string | null {
  if (process.getuid?.() !== 0 || process.env.DISK_FULL_INJECTED === '1') return null;
  const dir = mkdtempSync(join(tmpdir(), 'questline-tmpfs-'));
  temps.push(dir);
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=0700`, 'tmpfs', dir], { encoding: 'utf8' });
  if (r.status !== 0) return null;
  mounts.push(dir);
  return dir;
}

/** Writes zeros into `file` until the file system says ENOSPC. */
function fillUp(file: string): number {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  let written = 0;
  try {
    for (;;) {
      try {
        written += writeSync(fd, chunk.length > 4096 ? chunk : chunk.subarray(0, 4096));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
        // the last pages: fill them in small pieces, down to the byte
        for (let size = 4096; size >= 1; size = Math.floor(size / 2)) {
          try {
            for (;;) written += writeSync(fd, chunk.subarray(0, size));
          } catch {
            // this size no longer fits: a smaller one may
          }
        }
        return written;
      }
    }
  } finally {
    closeSync(fd);
  }
}

/** The server under test, however the disk gets full. */
interface Rig {
  mode: 'tmpfs' | 'injected';
  target: Target;
  fill(): void;
  free(): void;
  /** Kills (-9; in-process: closes) and starts the server again on the same data. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

async function tmpfsRig(mnt: string, flowsDir: string): Promise<Rig> {
  const dataDir = join(mnt, 'data');
  mkdirSync(dataDir, { recursive: true });
  const filler = join(mnt, 'filler');
  const start = (): Promise<ServerProcess> => spawnServer(
    { DATA_DIR: dataDir, FLOWS_DIR: flowsDir, STORE: 'lowdb', ADMIN_KEY: '', ANTHROPIC_API_KEY: '', REDIS_URL: '', RATE_LIMITS: OPEN_LIMITS },
    { timeoutMs: 60_000, maxLogLines: 100 },
  );
  let server = await start();
  const target: Target = { url: server.url };
  return {
    mode: 'tmpfs', target,
    fill: () => void fillUp(filler),
    free: () => rmSync(filler, { force: true }),
    async restart() {
      server.proc.kill('SIGKILL');
      target.url = null;
      await server.exited;
      server = await start();
      target.url = server.url;
    },
    async stop() {
      server.proc.kill('SIGKILL');
      await server.exited;
    },
  };
}

async function injectedRig(flowsDir: string): Promise<Rig> {
  const dataDir = mkdtempSync(join(tmpdir(), 'questline-disk-'));
  temps.push(dataDir);
  const disk = { full: false };
  const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  const full = <T extends object>(t: T, writes: string[]): T => new Proxy(t, {
    get(o, k, r) {
      const v = Reflect.get(o, k, r) as unknown;
      if (typeof v !== 'function') return v;
      const bound = (v as (...a: unknown[]) => unknown).bind(o);
      return writes.includes(String(k)) ? async (...a: unknown[]) => { if (disk.full) throw enospc(); return bound(...a); } : bound;
    },
  });
  const open = async () => {
    const backend = await createEmbeddedBackend({
      kind: 'lowdb',
      store: full(await LowdbStore.open(dataDir), ['create', 'commit', 'delete', 'ready']),
      outbox: full(await FileOutbox.open(join(dataDir, 'outbox')), ['enqueue', 'attempted', 'delivered', 'dead', 'forgetSession', 'ready']),
    });
    return startTestServer({ dataDir, env: { FLOWS_DIR: flowsDir }, overrides: { backend } });
  };
  let server = await open();
  const target: Target = { url: server.url };
  return {
    mode: 'injected', target,
    fill: () => void (disk.full = true),
    free: () => void (disk.full = false),
    async restart() {
      target.url = null;
      await server.close();
      server = await open();
      target.url = server.url;
    },
    stop: () => server.close(),
  };
}

describe('a full disk under load', () => {
  it('loses no acknowledged turn, answers storage_unavailable (never internal) and recovers without a restart', async () => {
    const hook = await startReceiver();
    const flowsDir = flowsWithWebhook(hook.url);
    temps.push(flowsDir);
    const mnt = tmpfs(16);
    const rig = mnt ? await tmpfsRig(mnt, flowsDir) : await injectedRig(flowsDir);
    const refusals = newRefusals();
    const script = ACME_SALES_SCRIPT;
    const key = { 'X-Questline-Key': 'pk_acme_demo' };
    /** Every session a visitor started, with the clientIds acknowledged in it. */
    const sessions = new Map<string, { token: string; acked: string[]; completed: boolean }>();
    let stopping = false;
    let acks = 0;

    const run = async () => {
      while (!stopping) {
        const s = await untilAcked(rig.target, '/tenants/acme/sessions', { flow: 'flow.sales' }, key, refusals);
        const mine = { token: s.token as string, acked: [] as string[], completed: false };
        sessions.set(s.sessionId, mine);
        for (let i = 0; i < script.length; i++) {
          const clientId = `m${i}`;
          const ack = await untilAcked(rig.target, `/sessions/${s.sessionId}/messages`, { text: script[i], clientId }, { Authorization: `Bearer ${s.token}` }, refusals);
          mine.acked.push(clientId);
          acks++;
          if (ack.state.status === 'completed') mine.completed = true;
        }
      }
    };
    const readyz = async () => (rig.target.url ? (await fetch(`${rig.target.url}/readyz`)).status : 0);

    const running = Promise.all(Array.from({ length: VISITORS }, run));
    while (acks < 60) await sleep(10);
    rig.fill();
    const refusedBefore = refusals.storage_unavailable;
    await sleep(FULL_MS);
    const readyWhileFull = await readyz();
    const refusedWhileFull = refusals.storage_unavailable - refusedBefore;
    rig.free();
    // recovery without a restart: ready again, and the visitors' retries go through
    const recoverBy = Date.now() + 20_000;
    while ((await readyz()) !== 200 && Date.now() < recoverBy) await sleep(100);
    const readyAfter = await readyz();
    const acksAtRecovery = acks;
    while (acks < acksAtRecovery + 60) await sleep(10);
    stopping = true;
    await running;

    // a crash after it all: what was acknowledged is on disk, once
    await rig.restart();
    let lostTurns = 0;
    let repeated = 0;
    for (const [id, s] of sessions) {
      const res = await fetch(`${rig.target.url}/api/v1/sessions/${id}`, { headers: { Authorization: `Bearer ${s.token}` } });
      const view = await res.json() as { messages: Array<{ role: string; clientId?: string }> };
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
    await rig.stop();
    await hook.close();

    recordTally('disk-full', {
      disk_full_tmpfs: rig.mode === 'tmpfs' ? 1 : 0, disk_full_turns_acked: acks, disk_full_refusals: refusedWhileFull,
      acked_turns_lost_disk_full: lostTurns + repeated, disk_full_internal_errors: refusals.internal,
      disk_full_not_ready: readyWhileFull === 503 ? 0 : 1, disk_full_not_recovered: readyAfter === 200 ? 0 : 1,
      disk_full_webhooks_lost: webhooksLost,
    });
    expect(refusedWhileFull).toBeGreaterThan(0);
    expect(readyWhileFull).toBe(503);
    expect(readyAfter).toBe(200);
    expect(lostTurns).toBe(0);
    expect(repeated).toBe(0);
    expect(refusals.internal).toBe(0);
    expect(webhooksLost).toBe(0);
  }, 300_000);
});
