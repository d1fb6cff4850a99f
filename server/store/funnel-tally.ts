import { isEnded } from '../protocol/statuses.ts';
import type { StoredSession } from './session-store.ts';
import { NO_FACTS, type FunnelFacts } from './funnel-facts.ts';

// A session's part in the funnel counts: which counters it adds one (or, for
// re-ask reasons, several) to, in the bucket of its tenant, flow, revision,
// start day and locale. A turn changes the counts by the tally after it
// minus the tally before it, so every counter always equals the sum of the
// tallies of the sessions stored (plus those erased, kept as numbers) — the
// invariant `questline insights rebuild` checks.

/** Separates the parts of a bucket key and of a field name (a character no id or reason uses). */
export const SEP = '\u001f';

/** Where a session is counted: tenant, flow, revision, UTC day it started (YYYY-MM-DD), locale ('' = the flow's default). */
export interface Bucket {
  tenant: string;
  flow: string;
  revision: string;
  day: string;
  locale: string;
}

/** Counter name → value, per bucket key. */
export type Tally = Map<string, Map<string, number>>;

/** One change of one counter. */
export interface CountChange {
  bucket: string;
  field: string;
  n: number;
}

/** The key of a bucket. */
export function bucketKey(b: Bucket): string {
  return [b.tenant, b.flow, b.revision, b.day, b.locale].join(SEP);
}

/** A bucket key read back. */
export function parseBucket(key: string): Bucket {
  const [tenant = '', flow = '', revision = '', day = '', locale = ''] = key.split(SEP);
  return { tenant, flow, revision, day, locale };
}

/** Counter names: totals, per node figures, re-ask reasons, completion seconds, open sessions by node. */
export const field = {
  node: (node: string, figure: 'reached' | 'answered' | 'reasked' | 'dropped' | 'escalated') => `n${SEP}${node}${SEP}${figure}`,
  reason: (node: string, reason: string) => `r${SEP}${node}${SEP}${reason}`,
  seconds: (s: number) => `t${SEP}${s}`,
  open: (node: string) => `o${SEP}${node}`,
  edge: (edge: string) => `e${SEP}${edge}`,
};

/** Completion times are counted in whole seconds up to a day; longer ones count as a day. */
export const MAX_COMPLETION_S = 86_400;

/** A session the funnel leaves out: the Studio's preview chats. */
export const isPreview = (r: StoredSession): boolean => (r as { preview?: unknown }).preview === true;

/** The locale a session is counted under: its own, else its context's, else '' (the flow's default). */
export function localeOf(r: StoredSession): string {
  const l = r.session.locale ?? r.session.context.locale;
  return typeof l === 'string' && l.length <= 35 ? l : '';
}

/** The bucket key of a stored session. */
const bucketOf = (r: StoredSession): string =>
  bucketKey({ tenant: r.tenant, flow: r.flowId, revision: r.revision, day: r.createdAt.slice(0, 10), locale: localeOf(r) });

/** Adds the counters of a session's status (its ending, or where it is open) to `add`. */
function addEnding(r: StoredSession, facts: FunnelFacts, add: (f: string, n?: number) => void): void {
  const at = facts.last ?? r.session.node ?? '';
  switch (r.status) {
    case 'completed': {
      add('completed');
      const s = Math.round((Date.parse(r.session.now) - Date.parse(r.createdAt)) / 1000);
      add(field.seconds(Number.isFinite(s) ? Math.min(MAX_COMPLETION_S, Math.max(0, s)) : 0));
      break;
    }
    case 'escalated':
      add('escalated');
      add(field.node(at, 'escalated'));
      break;
    case 'abandoned':
      add('abandoned');
      add(field.node(at, 'dropped'));
      break;
    case 'error':
      add('error');
      add(field.node(at, 'escalated'));
      break;
    default:
      if (isEnded(r.status)) {
        // an ending added later (a new way of timing out): the visitor is gone, so it counts as dropped there
        add('abandoned');
        add(field.node(at, 'dropped'));
      } else {
        // active or waiting: open, at the node it waits at
        add(field.open(r.session.node ?? at));
      }
  }
}

/** The counters one stored session adds to (nothing for a preview session). */
export function tallyOf(r: StoredSession, facts: FunnelFacts = r.insights ?? NO_FACTS): Tally {
  const out: Tally = new Map();
  if (isPreview(r)) return out;
  const counts = new Map<string, number>();
  const add = (f: string, n = 1) => counts.set(f, (counts.get(f) ?? 0) + n);
  add('sessions');
  for (const n of facts.reached) add(field.node(n, 'reached'));
  for (const n of facts.answered) add(field.node(n, 'answered'));
  for (const n of facts.reasked) add(field.node(n, 'reasked'));
  for (const e of facts.edges ?? []) add(field.edge(e));
  for (const [n, reasons] of Object.entries(facts.reasons)) for (const [reason, k] of Object.entries(reasons)) add(field.reason(n, reason), k);
  addEnding(r, facts, add);
  out.set(bucketOf(r), counts);
  return out;
}

/**
 * The counter changes of one saved turn: `tallyDelta(tallyOf(before),
 * tallyOf(after))`, computed from what changed. Facts only grow (sets gain
 * members, reason counts go up), so when the session stays in its bucket the
 * changes are the new members, the reasons' increases and the ending's
 * difference — a few counters, not two whole tallies; a session that changed
 * bucket (its locale) or preview flag takes the whole way.
 */
export function turnDelta(before: StoredSession | null, after: StoredSession): CountChange[] {
  if (!before || isPreview(before) !== isPreview(after) || bucketOf(before) !== bucketOf(after)) return tallyDelta(before ? tallyOf(before) : null, tallyOf(after));
  if (isPreview(after)) return [];
  const fb = before.insights ?? NO_FACTS;
  const fa = after.insights ?? NO_FACTS;
  const counts = new Map<string, number>();
  const add = (f: string, n = 1) => counts.set(f, (counts.get(f) ?? 0) + n);
  const grown = (was: readonly string[], now: readonly string[], name: (x: string) => string) => {
    if (was === now) return;
    const old = new Set(was);
    for (const x of now) if (!old.has(x)) add(name(x));
    for (const x of was) if (!now.includes(x)) add(name(x), -1); // never, as facts only grow; kept exact all the same
  };
  grown(fb.reached, fa.reached, (n) => field.node(n, 'reached'));
  grown(fb.answered, fa.answered, (n) => field.node(n, 'answered'));
  grown(fb.reasked, fa.reasked, (n) => field.node(n, 'reasked'));
  grown(fb.edges ?? [], fa.edges ?? [], (e) => field.edge(e));
  if (fb.reasons !== fa.reasons) {
    for (const [n, reasons] of Object.entries(fa.reasons)) for (const [reason, k] of Object.entries(reasons)) add(field.reason(n, reason), k - (fb.reasons[n]?.[reason] ?? 0));
    for (const [n, reasons] of Object.entries(fb.reasons)) for (const [reason, k] of Object.entries(reasons)) if (fa.reasons[n]?.[reason] === undefined) add(field.reason(n, reason), -k);
  }
  addEnding(after, fa, add);
  addEnding(before, fb, (f, n = 1) => add(f, -n));
  const bucket = bucketOf(after);
  const out: CountChange[] = [];
  for (const [f, n] of counts) if (n !== 0) out.push({ bucket, field: f, n });
  return out;
}

/** The counter changes that turn tally `before` into `after` (zero changes left out). */
export function tallyDelta(before: Tally | null, after: Tally | null): CountChange[] {
  const out: CountChange[] = [];
  const keys = new Set([...(before?.keys() ?? []), ...(after?.keys() ?? [])]);
  for (const bucket of keys) {
    const b = before?.get(bucket);
    const a = after?.get(bucket);
    const fields = new Set([...(b?.keys() ?? []), ...(a?.keys() ?? [])]);
    for (const f of fields) {
      const n = (a?.get(f) ?? 0) - (b?.get(f) ?? 0);
      if (n !== 0) out.push({ bucket, field: f, n });
    }
  }
  return out;
}

/** Adds changes into a tally (in place); counters that reach zero are removed. */
export function applyChanges(t: Tally, changes: readonly CountChange[]): Tally {
  for (const c of changes) {
    let m = t.get(c.bucket);
    if (!m) t.set(c.bucket, (m = new Map()));
    const v = (m.get(c.field) ?? 0) + c.n;
    if (v === 0) m.delete(c.field);
    else m.set(c.field, v);
    if (m.size === 0) t.delete(c.bucket);
  }
  return t;
}

/** A tally's counters as changes from nothing. */
export function asChanges(t: Tally): CountChange[] {
  return tallyDelta(null, t);
}
