import { join } from 'node:path';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Server as SocketServer } from 'socket.io';
import { FileFunnelCounts } from '../store/funnel-counts-file.ts';
import { MemoryFunnelCounts, type FunnelCounts } from '../store/funnel-counts.ts';
import { LowdbStore } from '../store/lowdb.ts';
import { MemoryStore } from '../store/memory.ts';
import type { SessionStore } from '../store/session-store.ts';
import type { PublishLog } from '../store/publish-log.ts';
import { KeyedMutex, type TurnLock } from '../store/turn-lock.ts';
import { FileOutbox } from './outbox-file.ts';
import { MemoryOutbox, type Outbox } from './outbox.ts';

// Where a server keeps what must outlive a turn: sessions, the per-session
// turn lock and the webhook outbox, plus (for a backend several instances
// share) the rate limiters and the socket.io adapter. The pieces come as one
// set because they must agree: sessions in Redis with a process-local lock or
// an in-memory outbox would let two instances run the same turn or lose
// endings on a restart. This file sits in delivery/ because it is the lowest
// layer that sees both the stores and the outboxes; the Redis family builds
// the same shape in redis/index.ts.

/** Builds the limiter of one rate (the shape transport/rate-limits.ts takes). */
export type LimiterFactory = (r: { points: number; seconds: number }, keyPrefix: string) => RateLimiterAbstract;

/** One family of storage pieces, built together by one factory. */
export interface Backend {
  /** What logs and /healthz call it: lowdb, memory, redis, or custom. */
  readonly kind: string;
  readonly store: SessionStore;
  /** The per-session turn lock; it must span every process that shares `store`. */
  readonly lock: TurnLock;
  readonly outbox: Outbox;
  /** The funnel's counters (docs/insights.md); absent: kept in this process's memory. */
  readonly counts?: FunnelCounts;
  /** Shared rate limiters; absent: each process counts in its own memory. */
  readonly limiters?: LimiterFactory;
  /** The Studio's publish log shared by every instance (Redis); absent: the server keeps one under DATA_DIR (or in memory). */
  readonly publishes?: PublishLog;
  /** Puts socket.io on an adapter that reaches every instance; absent: rooms are local. */
  readonly attachSockets?: (io: SocketServer) => void;
  /** Closes the outbox, then the store; idempotent as far as they are. */
  close(): Promise<void>;
}

/**
 * What an embedded (one process) backend keeps: files under a data directory,
 * memory only, or a caller's own store with the outbox the caller chose. The
 * third form is for tests, benches and embedders; the outbox is required so
 * that keeping endings in memory is a visible choice, never a default.
 */
export type EmbeddedBackendOptions =
  | { dataDir: string }
  | { memory: true }
  | { store: SessionStore; outbox: Outbox; kind?: string };

/** A lowdb, memory or caller-supplied store with a process-local lock: one server process only. */
export async function createEmbeddedBackend(opts: EmbeddedBackendOptions): Promise<Backend> {
  if ('store' in opts) return assemble(opts.kind ?? 'custom', opts.store, opts.outbox, new MemoryFunnelCounts());
  if ('memory' in opts) return assemble('memory', new MemoryStore(), new MemoryOutbox(), new MemoryFunnelCounts());
  const store = await LowdbStore.open(opts.dataDir);
  try {
    // the counts file is opened under the data directory's lock the store holds
    const counts = FileFunnelCounts.open(opts.dataDir);
    return assemble('lowdb', store, await FileOutbox.open(join(opts.dataDir, 'outbox')), counts);
  } catch (err) {
    await store.close().catch(() => {});
    throw err;
  }
}

/** What /readyz answers: ready when every check passed; each check says `ok` or why not. */
export interface Readiness {
  ok: boolean;
  checks: { store: string; outbox: string };
}

/**
 * Whether the backend takes writes now: the store and the outbox each asked
 * (`ready()`, a small write), each given `timeoutMs` (default 2 s) to answer.
 */
export async function checkReady(backend: Pick<Backend, 'store' | 'outbox'>, timeoutMs = 2_000): Promise<Readiness> {
  const check = async (probe: (() => Promise<void>) | undefined): Promise<string> => {
    if (!probe) return 'ok';
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([probe(), new Promise<never>((_r, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      })]);
      return 'ok';
    } catch (e) {
      const err = e as { code?: unknown; message?: unknown };
      const text = String(err.message ?? e);
      return typeof err.code === 'string' && !text.includes(err.code) ? `${err.code}: ${text}` : text;
    } finally {
      clearTimeout(timer);
    }
  };
  const [store, outbox] = await Promise.all([check(backend.store.ready?.bind(backend.store)), check(backend.outbox.ready?.bind(backend.outbox))]);
  return { ok: store === 'ok' && outbox === 'ok', checks: { store, outbox } };
}

function assemble(kind: string, store: SessionStore, outbox: Outbox, counts: FunnelCounts): Backend {
  return {
    kind, store, outbox, counts, lock: new KeyedMutex(),
    async close() {
      try {
        await outbox.close();
      } finally {
        await counts.close();
        await store.close();
      }
    },
  };
}
