import { applyChanges, parseBucket, type CountChange, type Tally } from './funnel-tally.ts';

// Where the funnel's counters live (docs/insights.md): maintained as turns
// are committed (the service adds each turn's changes after its save), read
// per tenant and flow by the funnel report, replaced by
// `questline insights rebuild`. Implementations: in memory (below), a file
// under DATA_DIR (funnel-counts-file.ts), Redis hashes shared by every
// instance (server/redis/funnel-counts.ts).

/** The funnel's counters. */
export interface FunnelCounts {
  /** Adds a committed turn's counter changes. */
  add(changes: readonly CountChange[]): Promise<void>;
  /**
   * Keeps an erased session's counters as anonymous numbers: they are
   * already in the counts; `retained()` lists them so a rebuild from the
   * sessions still stored adds them back.
   */
  retain(changes: readonly CountChange[]): Promise<void>;
  /** The counters of a tenant's buckets (one flow's, when given). */
  read(tenant: string, flow?: string): Promise<Tally>;
  /** Every counter. */
  all(): Promise<Tally>;
  /** The counters kept of erased sessions. */
  retained(): Promise<Tally>;
  /** Replaces every counter (a rebuild); the retained ones stay. */
  replace(all: Tally): Promise<void>;
  close(): Promise<void>;
}

/** The buckets of `t` that belong to a tenant (and flow), as a new tally sharing the counter maps. */
export function bucketsOf(t: Tally, tenant: string, flow?: string): Tally {
  const out: Tally = new Map();
  for (const [key, m] of t) {
    const b = parseBucket(key);
    if (b.tenant === tenant && (flow === undefined || b.flow === flow)) out.set(key, m);
  }
  return out;
}

/** A deep copy of a tally. */
export function copyTally(t: Tally): Tally {
  return new Map([...t].map(([k, m]) => [k, new Map(m)]));
}

/** Counters in process memory: for tests, `questline chat` and memory backends; nothing survives the process. */
export class MemoryFunnelCounts implements FunnelCounts {
  protected live: Tally = new Map();
  protected kept: Tally = new Map();

  async add(changes: readonly CountChange[]): Promise<void> {
    applyChanges(this.live, changes);
  }

  async retain(changes: readonly CountChange[]): Promise<void> {
    applyChanges(this.kept, changes);
  }

  async read(tenant: string, flow?: string): Promise<Tally> {
    return copyTally(bucketsOf(this.live, tenant, flow));
  }

  async all(): Promise<Tally> {
    return copyTally(this.live);
  }

  async retained(): Promise<Tally> {
    return copyTally(this.kept);
  }

  async replace(all: Tally): Promise<void> {
    this.live = copyTally(all);
  }

  async close(): Promise<void> {}
}
