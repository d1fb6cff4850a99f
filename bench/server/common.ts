import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { RateLimitSettings } from '../../server/transport/rate-limits.ts';

// What the server bench's processes share: the script the simulated visitors
// follow, the limits the bench server runs with, percentiles, and spawning a
// `node --import tsx` child that talks over IPC.

/** The repository root (children run with it as cwd, so `--import tsx` resolves). */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The repository's flows. */
export const REPO_FLOWS = fileURLToPath(new URL('../../flows/', import.meta.url));

/** The demo tenant and an origin it allows (flows/tenants/acme/tenant.json). */
export const DEMO_KEY = 'pk_acme_demo';
export const DEMO_ORIGIN = 'http://127.0.0.1:3000';
export const DEMO_FLOW = 'flow.sales';

export { ACME_SALES_SCRIPT as SALES_SCRIPT } from '../../test/support/scripts.ts';

/**
 * Rate limits out of the way: every simulated visitor comes from 127.0.0.1,
 * so the default per-IP limits (20 messages/s, 120 connections/min) would
 * measure the limiter, not the server. The limiters still run on every turn.
 */
export const BENCH_LIMITS: RateLimitSettings = {
  perSocket: { points: 1_000_000, seconds: 1 },
  perIp: { points: 1_000_000_000, seconds: 1 },
  perTenant: { points: 1_000_000_000, seconds: 1 },
  tenantFairShare: { points: 1_000_000_000, seconds: 1 },
  readsPerIp: { points: 1_000_000_000, seconds: 60 },
  readsPerSession: { points: 1_000_000_000, seconds: 60 },
  startsPerIp: { points: 1_000_000_000, seconds: 60 },
  connectsPerIp: { points: 1_000_000_000, seconds: 60 },
  adminFailuresPerIp: { points: 10, seconds: 60 },
};

/** The token of a session seeded by bench/server/seed.ts (its record stores the SHA-256 of it, like any other). */
export const seededToken = (id: string) => `seed-token-${id}`;

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** The summary of latency samples (ms). */
export function summarize(values: readonly number[]): LatencySummary {
  const sorted = Float64Array.from(values).sort();
  const sum = values.reduce((a, b) => a + b, 0);
  return {
    count: values.length,
    p50: round(percentile(sorted, 0.5)),
    p90: round(percentile(sorted, 0.9)),
    p99: round(percentile(sorted, 0.99)),
    max: round(sorted.length ? sorted[sorted.length - 1]! : NaN),
    mean: round(values.length ? sum / values.length : NaN),
  };
}

/** Rounds for printing: 3 decimals under 1, 2 under 100, 1 above. */
export function round(x: number): number {
  if (!Number.isFinite(x)) return x;
  const digits = Math.abs(x) >= 100 ? 1 : Math.abs(x) >= 1 ? 2 : 3;
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** A progress line on stderr (stdout is the table or the JSON). */
const started = Date.now();
export function progress(msg: string): void {
  process.stderr.write(`[bench:server ${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s] ${msg}\n`);
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// --- IPC --------------------------------------------------------------------

/** Messages of the server child (bench/server/server-child.ts). */
export type ServerChildMessage =
  | { type: 'ready'; url: string; pid: number }
  | { type: 'mem'; usage: NodeJS.MemoryUsage; sockets: number; gc: boolean }
  /** At the end of a measurement window: CPU the server used in it (share of one core), and the profile file if one was taken. */
  | { type: 'window-stats'; cpu: number; eventLoopP99Ms: number; eventLoopMaxMs: number; profile?: string; turns?: number; redisCommands?: Record<string, number> }
  | { type: 'closed' };

/** What the load child is asked to do (bench/server/load.ts, JSON in argv[2]). */
export type LoadJob =
  | {
    mode: 'steady';
    url: string;
    clients: number;
    warmupMs: number;
    measureMs: number;
    /** Pause between a turn's completion and the next message (0: closed loop). Jittered ±50%. */
    thinkMs: number;
    /**
     * Open loop instead: the clients together offer this many messages per
     * second, each client on its own Poisson schedule (exponential gaps, mean
     * clients / rate s) whatever the server's pace; a message whose slot
     * comes while the client's previous turn is still running is sent when
     * that turn completes, and its latency counts from its slot (no
     * coordinated omission). `thinkMs` is then ignored.
     */
    rate?: number;
    /**
     * Returning visitors: this share of the clients resume stored sessions
     * (listed in `file`: JSON `[{ id, played }]`, token `seededToken(id)`),
     * each on a new connection, and play the rest of the script.
     */
    returning?: { file: string; share: number };
  }
  | { mode: 'idle'; url: string; clients: number }
  /** One visitor plays the script once, restarts, and writes what it received per turn to `file` (a Capture). */
  | { mode: 'capture'; url: string; file: string };

/** The events (name, payload) a client received during one turn, in order, and the turn's ack. */
export interface CapturedTurn {
  events: Array<[string, unknown]>;
  ack: unknown;
}

/** What Questline sent for `session:start`, each message of SALES_SCRIPT, and `session:restart` (the floor server replays it). */
export interface Capture {
  start: CapturedTurn;
  steps: CapturedTurn[];
  restart: CapturedTurn;
}

/** Latency summary in ms. */
export interface LatencySummary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

/** Messages of the load child. */
export type LoadChildMessage =
  | {
    type: 'steady-done';
    /** Message turns completed inside the measurement window (latency.count counts those sent in it). */
    turns: number;
    windowMs: number;
    latency: LatencySummary;
    /** Every measured message turn's latency (ms), for pooling runs. */
    samples: number[];
    /** session:restart turns in the window (not counted in `turns`). */
    restarts: number;
    restartLatency: LatencySummary;
    /** Returning visitors' `session:start` with a stored sessionId (not counted in `turns`). */
    resumeLatency: LatencySummary;
    /** Latency of each message of SALES_SCRIPT (index = position in the script; the last one completes the conversation). */
    byStep: LatencySummary[];
    /** Conversations that reached session:end completed (whole run). */
    completed: number;
    /** Failed acks, turns whose ack came without a bot message, timeouts (whole run). */
    errors: number;
    firstError?: string;
    connectMs: number;
    /** CPU the load process used in the window, as a share of one core. */
    clientCpu: number;
    /** The load process's own event-loop delay in the window (ms, p99 and max): a stall of the client delays the turns it measures. */
    clientEventLoopP99Ms: number;
    clientEventLoopMaxMs: number;
  }
  /** The measurement window starts or ends now (the bench relays it to the server child). */
  | { type: 'window'; at: 'start' | 'end' }
  | { type: 'idle-ready'; connected: number; started: number; errors: number; firstError?: string; connectMs: number }
  | { type: 'idle-closed' }
  /** The capture is written; packets per message turn (events + the ack), averaged over the script. */
  | { type: 'captured'; packetsPerTurn: number; bytesPerTurn: number };

/** A `node --import tsx FILE` child with an IPC channel; its stdout goes to our stderr. */
export interface Child<M extends { type: string }> {
  proc: ChildProcess;
  /** The next message matching `type` (rejects if the child exits first). */
  next<K extends M['type']>(type: K, timeoutMs?: number): Promise<Extract<M, { type: K }>>;
  send(msg: unknown): void;
  /** Resolves with the exit code once the child is gone. */
  exited: Promise<number | null>;
  kill(): void;
}

/** Spawns `node [nodeArgs] --import tsx file [args]` in the repository root. */
export function spawnChild<M extends { type: string }>(file: string, opts: { args?: string[]; nodeArgs?: string[]; env?: Record<string, string> } = {}): Child<M> {
  const proc = spawn(process.execPath, [...(opts.nodeArgs ?? []), '--import', 'tsx', fileURLToPath(new URL(file, import.meta.url)), ...(opts.args ?? [])], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  proc.stdout!.pipe(process.stderr);
  proc.stderr!.pipe(process.stderr);
  const inbox: M[] = [];
  const waiters: Array<{ type: string; resolve: (m: M) => void; reject: (e: Error) => void }> = [];
  let exitCode: number | null | undefined;
  proc.on('message', (m: M) => {
    const i = waiters.findIndex((w) => w.type === m.type);
    if (i >= 0) waiters.splice(i, 1)[0]!.resolve(m);
    else inbox.push(m);
  });
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => {
    exitCode = code;
    for (const w of waiters.splice(0)) w.reject(new Error(`${file} exited (code ${code}) before sending '${w.type}'`));
    resolve(code);
  }));
  return {
    proc,
    exited,
    next(type, timeoutMs = 600_000) {
      const i = inbox.findIndex((m) => m.type === type);
      if (i >= 0) return Promise.resolve(inbox.splice(i, 1)[0] as never);
      if (exitCode !== undefined) return Promise.reject(new Error(`${file} already exited (code ${exitCode})`));
      return new Promise((resolve, reject) => {
        const w = { type, resolve: resolve as (m: M) => void, reject };
        waiters.push(w);
        const timer = setTimeout(() => {
          const at = waiters.indexOf(w);
          if (at >= 0) waiters.splice(at, 1);
          reject(new Error(`${file}: no '${type}' within ${timeoutMs} ms`));
        }, timeoutMs);
        timer.unref();
      });
    },
    send(msg) {
      if (proc.connected) proc.send(msg as never);
    },
    kill() {
      if (exitCode === undefined) proc.kill('SIGKILL');
    },
  };
}
