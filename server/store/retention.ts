import type { SessionStore } from './session-store.ts';

// Optional retention (RETENTION_DAYS): sessions whose last activity
// (`updatedAt`) is older than the period are erased — record, transcript and
// trace — by a sweep when the server starts and then periodically. The clock
// and the timer are injected, so tests run a sweep at any date.

/** What the sweep needs. */
export interface RetentionOptions {
  store: SessionStore;
  /** The tenants whose sessions are swept (the tenant directory's ids). */
  tenants: () => readonly string[];
  days: number;
  /** Erases one session (the service's erase, under the session's turn lock). */
  erase: (id: string) => Promise<boolean>;
  /** Milliseconds since the epoch (default Date.now). */
  now?: () => number;
  /** How often to sweep after the first one (default hourly). */
  everyMs?: number;
  onSweep?: (result: { erased: number; cutoff: string }) => void;
  onError?: (err: unknown) => void;
}

/** Erases every session of the tenants last active before `cutoff` (ISO 8601); returns how many. */
export async function sweepOnce(store: SessionStore, tenants: readonly string[], cutoff: string, erase: (id: string) => Promise<boolean>): Promise<number> {
  let erased = 0;
  for (const tenant of tenants) {
    for (const s of await store.list(tenant)) {
      if (s.updatedAt < cutoff && (await erase(s.id))) erased++;
    }
  }
  return erased;
}

/** A running retention sweeper. */
export interface Retention {
  /** Runs one sweep now (sweeps never overlap). */
  sweep(): Promise<number>;
  stop(): void;
}

/** Starts sweeping: once now, then every `everyMs`. */
export function startRetention(opts: RetentionOptions): Retention {
  if (!(opts.days > 0)) throw new Error(`retention needs a positive number of days, got ${opts.days}`);
  const now = opts.now ?? Date.now;
  let running: Promise<number> | null = null;
  const sweep = (): Promise<number> => (running ??= (async () => {
    try {
      const cutoff = new Date(now() - opts.days * 86_400_000).toISOString();
      const erased = await sweepOnce(opts.store, opts.tenants(), cutoff, opts.erase);
      opts.onSweep?.({ erased, cutoff });
      return erased;
    } catch (err) {
      opts.onError?.(err);
      return 0;
    } finally {
      running = null;
    }
  })());
  void sweep();
  const timer = setInterval(() => void sweep(), opts.everyMs ?? 3_600_000);
  timer.unref();
  return { sweep, stop: () => clearInterval(timer) };
}
