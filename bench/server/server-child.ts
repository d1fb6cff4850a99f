/**
 * The server under test, in its own process: `startServer` exactly as
 * `npm start` runs it (LowdbStore on DATA_DIR, the repository's flows,
 * 127.0.0.1, a free port), except that the rate limits are out of the way
 * (every simulated visitor shares one IP) and logs go at LOG_LEVEL (default
 * warn). Answers the bench over IPC:
 *
 *   → { type: 'ready', url, pid }                once listening
 *   ← { type: 'mem' }  → { type: 'mem', usage }  process.memoryUsage() after full GCs (run with --expose-gc)
 *   ← { type: 'window', at: 'start', profileDir? }  a measurement window starts: note CPU time, watch the
 *                                                event loop delay, and (with profileDir) start V8's CPU
 *                                                profiler (the one --cpu-prof uses) through node:inspector
 *   ← { type: 'window', at: 'end' } → { type: 'window-stats', cpu, eventLoopP99Ms, eventLoopMaxMs, profile? }
 *   ← { type: 'close' } → { type: 'closed' }     server.close(), then exit 0
 *
 * With BENCH_SERVER_HEAP_PROFILE=DIR (a diagnostic) every window also runs
 * V8's sampling heap profiler, collected objects included, and writes
 * DIR/server-<pid>-<time>.heapprofile (path on stderr; summarise it with
 * `npx tsx bench/server/alloc.ts --read FILE`). BENCH_SERVER_HEAP_SURVIVORS=1
 * leaves out what young collections freed: the sites of what outlived them
 * (promoted — what the old generation's collections then have to clear — or
 * still alive when the window ends; with `--expose-gc` in
 * BENCH_SERVER_NODE_ARGS two young collections first clear the window's
 * last garbage, which would otherwise count).
 *
 * Exits when the bench goes away (IPC disconnect), so it never outlives it.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { loadConfig } from '../../server/config.ts';
import { createEmbeddedBackend } from '../../server/delivery/backend.ts';
import { MemoryOutbox } from '../../server/delivery/outbox.ts';
import { startServer } from '../../server/main.ts';
import { LowdbStore } from '../../server/store/lowdb.ts';
import { watchStalls, type StallReport } from './stalls.ts';
import { BENCH_LIMITS, REPO_FLOWS, type ServerChildMessage } from './common.ts';

const send = (m: ServerChildMessage) => process.send?.(m);

const dataDir = process.env.DATA_DIR;
if (!dataDir || !process.send) {
  process.stderr.write('server-child: run by bench/server.ts with DATA_DIR set and an IPC channel\n');
  process.exit(2);
}

const config = loadConfig({
  PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, FLOWS_DIR: process.env.FLOWS_DIR ?? REPO_FLOWS,
  // bench --memory-store: STORE=memory (sessions in this process only), to compare with the durable default
  STORE: process.env.BENCH_STORE === 'memory' ? 'memory' : 'lowdb',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
});
// Diagnostic only (bench --memory-outbox): hand startServer the same LowdbStore
// with an in-memory webhook outbox instead of the fsynced journal under
// DATA_DIR/outbox; everything else is unchanged.
const memoryOutbox = process.env.BENCH_OUTBOX === 'memory';
// Diagnostic only (bench --replay-turns, bench/server/replay-turns.ts); its counts are printed on close
const replay = process.env.BENCH_REPLAY_TURNS === '1' ? (await import('./replay-turns.ts')).replayCounts : undefined;
const server = await startServer(config, {
  rateLimits: BENCH_LIMITS,
  ...(memoryOutbox ? { backend: await createEmbeddedBackend({ store: await LowdbStore.open(dataDir), outbox: new MemoryOutbox() }) } : {}),
});

const collect = () => {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) for (let i = 0; i < 4; i++) gc();
  return Boolean(gc);
};

let window: { cpu: NodeJS.CpuUsage; wall: number; delay: IntervalHistogram; profiler?: Session; profileDir?: string; heap?: Session; stalls?: () => StallReport } | undefined;
const heapDir = process.env.BENCH_SERVER_HEAP_PROFILE;

async function windowStart(profileDir: string | undefined): Promise<void> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let profiler: Session | undefined;
  if (profileDir) {
    profiler = new Session();
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.setSamplingInterval', { interval: 500 });
    await profiler.post('Profiler.start');
  }
  // diagnostic (BENCH_STALLS=1): where the event loop's late comebacks spent their time
  const stalls = process.env.BENCH_STALLS ? watchStalls(Number(process.env.BENCH_STALLS) > 1 ? Number(process.env.BENCH_STALLS) : undefined) : undefined;
  let heap: Session | undefined;
  if (heapDir) {
    heap = new Session();
    heap.connect();
    await heap.post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: !process.env.BENCH_SERVER_HEAP_SURVIVORS });
  }
  window = { cpu: process.cpuUsage(), wall: performance.now(), delay, ...(profiler ? { profiler, profileDir } : {}), ...(heap ? { heap } : {}), ...(stalls ? { stalls } : {}) };
}

async function windowEnd(): Promise<void> {
  if (!window) return;
  const w = window;
  window = undefined;
  const used = process.cpuUsage(w.cpu);
  const cpu = (used.user + used.system) / 1000 / (performance.now() - w.wall);
  w.delay.disable();
  if (w.stalls) process.stderr.write(`server-child: stalls over the window: ${JSON.stringify(w.stalls())}\n`);
  let profile: string | undefined;
  if (w.profiler) {
    const { profile: p } = await w.profiler.post('Profiler.stop');
    profile = join(w.profileDir!, `server-${process.pid}-${Date.now()}.cpuprofile`);
    writeFileSync(profile, JSON.stringify(p));
    w.profiler.disconnect();
  }
  if (w.heap) {
    // two young collections first (with --expose-gc in BENCH_SERVER_NODE_ARGS): the window's last garbage,
    // not yet collected, would otherwise count as surviving
    const gc = (globalThis as { gc?: (o: { type: 'minor' }) => void }).gc;
    if (gc && process.env.BENCH_SERVER_HEAP_SURVIVORS) for (let i = 0; i < 2; i++) gc({ type: 'minor' });
    const { profile: p } = await w.heap.post('HeapProfiler.stopSampling');
    const file = join(heapDir!, `server-${process.pid}-${Date.now()}.heapprofile`);
    writeFileSync(file, JSON.stringify(p));
    w.heap.disconnect();
    process.stderr.write(`server-child: heap profile ${file}\n`);
  }
  send({ type: 'window-stats', cpu: Math.round(cpu * 1000) / 1000, eventLoopP99Ms: Math.round(w.delay.percentile(99) / 1e4) / 100, eventLoopMaxMs: Math.round(w.delay.max / 1e4) / 100, ...(profile ? { profile } : {}) });
}

let closing = false;
process.on('message', (m: { type: string; at?: string; profileDir?: string }) => {
  if (m.type === 'window') {
    void (m.at === 'start' ? windowStart(m.profileDir) : windowEnd()).catch((err: unknown) => {
      process.stderr.write(`server-child: window ${m.at}: ${(err as Error).stack}\n`);
    });
  } else if (m.type === 'mem') {
    const gc = collect();
    send({ type: 'mem', usage: process.memoryUsage(), sockets: server.io.of('/chat').sockets.size, gc });
  } else if (m.type === 'close' && !closing) {
    closing = true;
    if (replay) process.stderr.write(`server-child: --replay-turns: ${replay.replayed} text turns replayed, ${replay.ran} run\n`);
    void server.close().then(() => {
      send({ type: 'closed' });
      process.disconnect();
      process.exit(0);
    }, (err: unknown) => {
      process.stderr.write(`server-child: close failed: ${(err as Error).stack}\n`);
      process.exit(1);
    });
  }
});
process.on('disconnect', () => {
  if (!closing) process.exit(1);
});

send({ type: 'ready', url: server.url, pid: process.pid });
