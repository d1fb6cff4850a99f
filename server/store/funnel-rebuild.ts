import { foldEvents } from './funnel-facts.ts';
import { copyTally, type FunnelCounts } from './funnel-counts.ts';
import { applyChanges, asChanges, tallyDelta, tallyOf, type CountChange, type Tally } from './funnel-tally.ts';
import type { SessionStore } from './session-store.ts';

// `questline insights rebuild`: the funnel's counters recomputed from the
// stored sessions — each one's facts folded anew from its stored trace
// events, its status, node and times from its record — plus the counters kept
// of erased sessions, compared with the maintained counters and (unless only
// checking) put in their place.

/** What a rebuild found. */
export interface Rebuilt {
  /** Sessions read (preview sessions included; they count nothing). */
  sessions: number;
  /** The recomputed counters. */
  tally: Tally;
  /** Where the maintained counters differ: `n` is what the rebuild adds to them. */
  differences: CountChange[];
}

/** Recomputes the counters of every session of `tenants`; replaces the maintained ones unless `check` is set. */
export async function rebuildCounts(store: SessionStore, tenants: readonly string[], counts: FunnelCounts, opts: { check?: boolean } = {}): Promise<Rebuilt> {
  const tally = copyTally(await counts.retained());
  let sessions = 0;
  for (const tenant of tenants) {
    for (const s of await store.list(tenant)) {
      const record = await store.load(s.id);
      if (!record) continue; // erased meanwhile
      sessions++;
      applyChanges(tally, asChanges(tallyOf(record, foldEvents(undefined, await store.events(s.id)))));
    }
  }
  const differences = tallyDelta(await counts.all(), tally);
  if (!opts.check) await counts.replace(tally);
  return { sessions, tally, differences };
}
