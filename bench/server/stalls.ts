/**
 * A diagnostic of the server's event-loop stalls (bench:server with
 * `BENCH_STALLS=1`, or `BENCH_STALLS=MS` for stalls over MS ms; Linux only): a timer every TICK_MS on the server's main
 * thread reads that thread's /proc schedstat (time on a CPU, time waiting
 * for one) and, when the loop comes back late, says where the missing
 * time went — running (JavaScript, or a collector pause: GC entries that
 * overlap the gap are summed apart), waiting for a CPU that other threads
 * or processes held, or neither (blocked in a system call, or stopped).
 */
import { readFileSync } from 'node:fs';
import { PerformanceObserver, performance } from 'node:perf_hooks';

const TICK_MS = 2;
/** By default a gap longer than this is a stall. */
const STALL_MS = 10;

/** One stall: its length and where its time went, in ms. */
export interface Stall {
  atMs: number;
  ms: number;
  runMs: number;
  gcMs: number;
  waitMs: number;
  otherMs: number;
}

/** What the window's stalls add up to, and the longest ones. */
export interface StallReport {
  stalls: number;
  totalMs: number;
  runMs: number;
  gcMs: number;
  waitMs: number;
  otherMs: number;
  longest: Stall[];
}

const SCHEDSTAT = `/proc/${process.pid}/task/${process.pid}/schedstat`;

/** The main thread's ns on a CPU and ns waiting for one. */
function schedstat(): [number, number] {
  const [run, wait] = readFileSync(SCHEDSTAT, 'utf8').split(' ');
  return [Number(run), Number(wait)];
}

/** Starts watching; the returned function stops and reports. */
export function watchStalls(stallMs = STALL_MS): () => StallReport {
  const gcs: { start: number; end: number }[] = [];
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcs.push({ start: e.startTime, end: e.startTime + e.duration });
  });
  obs.observe({ entryTypes: ['gc'] });
  const stalls: Stall[] = [];
  const t0 = performance.now();
  let last = t0;
  let [run, wait] = schedstat();
  const timer = setInterval(() => {
    const now = performance.now();
    const [r, w] = schedstat();
    const gap = now - last;
    if (gap > stallMs) {
      let gcMs = 0;
      for (const g of gcs) gcMs += Math.max(0, Math.min(g.end, now) - Math.max(g.start, last));
      const runMs = (r - run) / 1e6;
      const waitMs = (w - wait) / 1e6;
      stalls.push({ atMs: Math.round(last - t0), ms: gap, runMs: runMs - Math.min(gcMs, runMs), gcMs, waitMs, otherMs: Math.max(0, gap - runMs - waitMs) });
    }
    if (gcs.length > 1000) gcs.splice(0, gcs.length - 100);
    last = now;
    run = r;
    wait = w;
  }, TICK_MS);
  return () => {
    clearInterval(timer);
    obs.disconnect();
    const sum = (k: keyof Stall) => Math.round(stalls.reduce((a, s) => a + s[k], 0) * 10) / 10;
    const r1 = (s: Stall): Stall => ({ atMs: s.atMs, ms: +s.ms.toFixed(1), runMs: +s.runMs.toFixed(1), gcMs: +s.gcMs.toFixed(1), waitMs: +s.waitMs.toFixed(1), otherMs: +s.otherMs.toFixed(1) });
    return {
      stalls: stalls.length, totalMs: sum('ms'), runMs: sum('runMs'), gcMs: sum('gcMs'), waitMs: sum('waitMs'), otherMs: sum('otherMs'),
      longest: [...stalls].sort((a, b) => b.ms - a.ms).slice(0, 8).map(r1),
    };
  };
}
