import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_FLOWS } from '../support/server.ts';
import { ACME_KEY, ACME_SALES_SCRIPT, api, chat } from '../e2e/helpers.ts';
import { recordTally } from './tally.ts';
import { defaultOpenFiles } from '../../server/store/lowdb.ts';

// Soak: SOAK_SECONDS of mixed load (socket conversations, REST turns and
// reads) against one server process (LowdbStore, default rate limits). At
// the start and the end: the V8 heap after a full GC (the process runs with
// --expose-gc and a preload, memory-probe.cjs, that prints it on SIGUSR2),
// RSS (/proc/<pid>/status) and open file descriptors (/proc/<pid>/fd); and
// the p99 of message round trips per window (SOAK_WINDOW_SECONDS, 60 in a
// long run). Opt-in: it runs only when SOAK_SECONDS is set (npm run
// reliability sets it).

const SECONDS = Number(process.env.SOAK_SECONDS ?? 0);
const WINDOW_S = Number(process.env.SOAK_WINDOW_SECONDS ?? (SECONDS >= 180 ? 60 : Math.max(5, Math.round(SECONDS / 4))));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = fileURLToPath(new URL('../../server/main.ts', import.meta.url));

let proc: ChildProcess | undefined;
let dataDir: string | undefined;
afterAll(() => {
  proc?.kill('SIGKILL');
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** RSS in MB and open file descriptors of a process, from /proc. */
function sample(pid: number): { rssMb: number; fds: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rss = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN);
  return { rssMb: Math.round((rss / 1024) * 10) / 10, fds: readdirSync(`/proc/${pid}/fd`).length };
}

const p99 = (xs: number[]) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(s.length * 0.99))]! * 10) / 10;
};

describe.runIf(SECONDS > 0)('soak', () => {
  it(`keeps memory, file descriptors and p99 flat over ${SECONDS} s of mixed load`, async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'questline-soak-'));
    const preload = join(ROOT, 'test', 'reliability', 'memory-probe.cjs');
    proc = spawn(process.execPath, ['--expose-gc', '--require', preload, '--import', 'tsx', MAIN], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, FLOWS_DIR: REPO_FLOWS, STORE: 'lowdb', LOG_LEVEL: 'warn', ADMIN_KEY: '', ANTHROPIC_API_KEY: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    let url = '';
    const heaps: number[] = [];
    proc.stdout!.on('data', (c: Buffer) => {
      for (const line of c.toString('utf8').split('\n')) {
        if (!line.trim()) continue;
        if (lines.length < 100) lines.push(line);
        const heap = /^questline-heap-mb (\d+(\.\d+)?)$/.exec(line.trim());
        if (heap) heaps.push(Number(heap[1]));
      }
    });
    proc.stderr!.on('data', (c: Buffer) => {
      for (const line of c.toString('utf8').split('\n')) {
        const heap = /^questline-heap-mb (\d+(\.\d+)?)$/.exec(line.trim());
        if (heap) heaps.push(Number(heap[1]));
        else if (line.trim() && lines.length < 100) lines.push(line);
      }
    });
    // LOG_LEVEL=warn hides the listening line, so find the port from /proc once the process listens
    const deadline = Date.now() + 30_000;
    while (!url && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      const port = listeningPort(proc.pid!);
      if (port) url = `http://127.0.0.1:${port}`;
    }
    expect(url, lines.join('\n')).not.toBe('');
    // the listener is up before the flows are compiled (listen-first start-up): wait until /readyz says they are served
    while (Date.now() < deadline && (await fetch(`${url}/readyz`).then((r) => r.status, () => 0)) !== 200) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const heapNow = async () => {
      const n = heaps.length;
      proc!.kill('SIGUSR2');
      const until = Date.now() + 5_000;
      while (heaps.length === n && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      return heaps.at(-1) ?? NaN;
    };
    // warm up: one conversation, then the start figures
    await conversation(url, 'warm', []);
    const start = { ...sample(proc.pid!), heapMb: await heapNow() };
    const windows: Array<{ p99: number; n: number }> = [];
    const t0 = Date.now();
    let turns = 0;
    let errors = 0;
    const firstErrors: string[] = [];
    while (Date.now() - t0 < SECONDS * 1000) {
      const lat: number[] = [];
      const windowEnd = Math.min(t0 + SECONDS * 1000, Date.now() + WINDOW_S * 1000);
      let k = 0;
      while (Date.now() < windowEnd) {
        // four visitors at a time: three over the socket, one over REST
        const results = await Promise.allSettled([
          conversation(url, `s${windows.length}-${k}-a`, lat), conversation(url, `s${windows.length}-${k}-b`, lat),
          conversation(url, `s${windows.length}-${k}-c`, lat), restConversation(url, lat),
        ]);
        for (const r of results) {
          if (r.status !== 'rejected') continue;
          errors++;
          if (firstErrors.length < 5) firstErrors.push(String((r.reason as Error)?.message ?? r.reason));
        }
        k++;
      }
      turns += lat.length;
      windows.push({ p99: p99(lat), n: lat.length });
    }
    // let timers and sockets settle, then the end figures
    await new Promise((r) => setTimeout(r, 1_000));
    const end = { ...sample(proc.pid!), heapMb: await heapNow() };
    recordTally('soak', {
      soak_seconds: SECONDS, soak_turns: turns, soak_errors: errors, soak_rate_limited: throttled,
      soak_heap_start_mb: start.heapMb, soak_heap_end_mb: end.heapMb, soak_rss_start_mb: start.rssMb, soak_rss_end_mb: end.rssMb,
      soak_fds_start: start.fds, soak_fds_end: end.fds,
      soak_p99_first_ms: windows[0]?.p99 ?? NaN, soak_p99_last_ms: windows.at(-1)?.p99 ?? NaN, soak_p99_max_ms: Math.max(...windows.map((w) => w.p99)),
    });
    if (process.env.RELIABILITY_TALLY_DIR) {
      const { writeFileSync } = await import('node:fs');
      writeFileSync(join(process.env.RELIABILITY_TALLY_DIR, 'soak-windows.json'), JSON.stringify(windows));
    }
    expect(firstErrors).toEqual([]);
    expect(errors).toBe(0);
    expect(turns).toBeGreaterThan(0);
    // flat: the heap after a full GC grows by less than 50% + 20 MB; descriptors by at most 10
    expect(end.heapMb).toBeLessThan(start.heapMb * 1.5 + 20);
    // descriptors: LowdbStore keeps up to defaultOpenFiles() recently appended files open (a bounded LRU,
    // lowdb-jsonl.ts, `openFiles`; the server inherits this process's limit), so they grow with the sessions
    // touched up to that bound, then stay flat
    expect(end.fds).toBeLessThanOrEqual(start.fds + defaultOpenFiles() + 50);
  }, (SECONDS + 120) * 1000);
});

/** The port a process listens on (TCP, IPv4, 127.0.0.1), from /proc/net/tcp and its socket inodes. */
function listeningPort(pid: number): number | null {
  let inodes: Set<string>;
  try {
    inodes = new Set(readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
      try {
        const link = readlinkSync(`/proc/${pid}/fd/${fd}`);
        const m = /^socket:\[(\d+)\]$/.exec(link);
        return m ? [m[1]!] : [];
      } catch {
        return [];
      }
    }));
  } catch {
    return null;
  }
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    if (cols.length < 10 || cols[3] !== '0A') continue; // LISTEN
    if (inodes.has(cols[9]!)) return parseInt(cols[1]!.split(':')[1]!, 16);
  }
  return null;
}

/** One socket conversation through the whole script; message round trips go into `lat` (ms). */
async function conversation(url: string, tag: string, lat: number[]): Promise<void> {
  // the server runs with its default limits (60 session starts and 120 connections a minute per IP, and every
  // client here is 127.0.0.1): a refusal is waited out, like a polite client would, and counted apart
  let c: Awaited<ReturnType<typeof chat>> | undefined;
  for (;;) {
    try {
      c = await chat(url);
    } catch (e) {
      if ((e as { data?: { code?: string } }).data?.code !== 'rate_limited') throw e;
      throttled++;
      await new Promise((r) => setTimeout(r, 1_000));
      continue;
    }
    const start = await c.request('session:start', { flow: 'flow.sales' }, 10_000);
    if (start.ok) break;
    c.close();
    if (start.error?.code !== 'rate_limited') throw new Error(JSON.stringify(start));
    throttled++;
    await new Promise((r) => setTimeout(r, 1_000));
  }
  try {
    for (const [i, text] of ACME_SALES_SCRIPT.entries()) {
      for (;;) {
        const t = performance.now();
        const ack = await c.request('message', { text, clientId: `${tag}-${i}` }, 10_000);
        if (ack?.ok === false && ack.error?.code === 'rate_limited') {
          throttled++;
          await new Promise((r) => setTimeout(r, 100));
          continue;
        }
        if (ack?.ok !== true) throw new Error(JSON.stringify(ack));
        lat.push(performance.now() - t);
        break;
      }
    }
  } finally {
    c.close();
  }
}

/** Refusals by the default rate limits, waited out. */
let throttled = 0;

/** One REST conversation plus reads of its state. */
async function restConversation(url: string, lat: number[]): Promise<void> {
  let s = await api(url, '/tenants/acme/sessions', { body: { flow: 'flow.sales' }, headers: { 'x-questline-key': ACME_KEY } });
  while (s.status === 429) {
    throttled++;
    await new Promise((r) => setTimeout(r, 1_000));
    s = await api(url, '/tenants/acme/sessions', { body: { flow: 'flow.sales' }, headers: { 'x-questline-key': ACME_KEY } });
  }
  if (s.status !== 201) throw new Error(JSON.stringify(s.body));
  const auth = { authorization: `Bearer ${s.body.token}` };
  for (const text of ACME_SALES_SCRIPT) {
    for (;;) {
      const t = performance.now();
      const r = await api(url, `/sessions/${s.body.sessionId}/messages`, { body: { text }, headers: auth });
      if (r.status === 429) {
        throttled++;
        await new Promise((res) => setTimeout(res, 100));
        continue;
      }
      if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
      lat.push(performance.now() - t);
      break;
    }
  }
  const view = await api(url, `/sessions/${s.body.sessionId}`, { headers: auth });
  if (view.status !== 200) throw new Error(`view ${view.status}`);
}
