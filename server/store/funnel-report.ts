import { parseBucket, SEP, type Tally } from './funnel-tally.ts';

// The funnel as the admin API answers it (docs/insights.md), summed from the
// counters of the buckets a query selects: a day range, a revision, a locale.

/** Which buckets a report sums (days inclusive, YYYY-MM-DD). */
export interface FunnelFilter {
  from?: string;
  to?: string;
  revision?: string;
  locale?: string;
}

/** One node's figures. */
export interface FunnelNode {
  id: string;
  key: string | null;
  reached: number;
  answered: number;
  reasked: number;
  dropped: number;
  escalated: number;
  reasons: Array<{ reason: string; count: number }>;
}

/** `GET …/funnel`: totals, completion times, per node. */
export interface Funnel {
  sessions: number;
  completed: number;
  escalated: number;
  abandoned: number;
  median_completion_s: number | null;
  p90_completion_s: number | null;
  nodes: FunnelNode[];
}

/** Whether a bucket key is in the filter's range, revision and locale. */
export function selects(f: FunnelFilter, key: string): boolean {
  const b = parseBucket(key);
  if (f.from !== undefined && b.day < f.from) return false;
  if (f.to !== undefined && b.day > f.to) return false;
  if (f.revision !== undefined && b.revision !== f.revision) return false;
  if (f.locale !== undefined && b.locale !== f.locale) return false;
  return true;
}

/** The counters of the selected buckets, added up. */
export function sumBuckets(t: Tally, f: FunnelFilter): Map<string, number> {
  const out = new Map<string, number>();
  for (const [key, m] of t) {
    if (!selects(f, key)) continue;
    for (const [field, n] of m) out.set(field, (out.get(field) ?? 0) + n);
  }
  return out;
}

/** The nearest-rank percentile (0 < p ≤ 1) of a histogram of whole seconds; null when it is empty. */
export function percentile(hist: ReadonlyMap<number, number>, p: number): number | null {
  const total = [...hist.values()].reduce((a, b) => a + b, 0);
  if (total <= 0) return null;
  const rank = Math.max(1, Math.ceil(p * total));
  let seen = 0;
  for (const s of [...hist.keys()].sort((a, b) => a - b)) {
    seen += hist.get(s)!;
    if (seen >= rank) return s;
  }
  return null;
}

/**
 * The funnel of the selected buckets. `order`: the flow's nodes (id, answer
 * key) in the order to list them; nodes counted but not in it (another
 * revision's) follow, sorted. `topReasons`: re-ask reasons kept per node.
 */
export function funnelOf(t: Tally, f: FunnelFilter, order: ReadonlyArray<{ id: string; key: string | null }>, topReasons = 5): Funnel {
  const sum = sumBuckets(t, f);
  const nodes = new Map<string, FunnelNode>();
  const node = (id: string, key: string | null = null): FunnelNode => {
    let n = nodes.get(id);
    if (!n) nodes.set(id, (n = { id, key, reached: 0, answered: 0, reasked: 0, dropped: 0, escalated: 0, reasons: [] }));
    return n;
  };
  for (const o of order) node(o.id, o.key);
  const hist = new Map<number, number>();
  const extra = new Set<string>();
  for (const [field, n] of sum) {
    const [kind, a = '', b = ''] = field.split(SEP);
    if (kind === 'n') {
      if (!nodes.has(a)) extra.add(a);
      const x = node(a);
      if (b === 'reached' || b === 'answered' || b === 'reasked' || b === 'dropped' || b === 'escalated') x[b] += n;
    } else if (kind === 'r') {
      if (!nodes.has(a)) extra.add(a);
      node(a).reasons.push({ reason: field.slice(kind.length + a.length + 2), count: n });
    } else if (kind === 't') {
      hist.set(Number(a), (hist.get(Number(a)) ?? 0) + n);
    }
  }
  for (const n of nodes.values()) n.reasons = n.reasons.filter((r) => r.count > 0).sort((x, y) => y.count - x.count || (x.reason < y.reason ? -1 : 1)).slice(0, topReasons);
  const listed = [...order.map((o) => o.id), ...[...extra].sort()];
  return {
    sessions: sum.get('sessions') ?? 0,
    completed: sum.get('completed') ?? 0,
    escalated: sum.get('escalated') ?? 0,
    abandoned: sum.get('abandoned') ?? 0,
    median_completion_s: percentile(hist, 0.5),
    p90_completion_s: percentile(hist, 0.9),
    nodes: listed.map((id) => nodes.get(id)!),
  };
}

/** Per day of the selected buckets: sessions started, completed, escalated, abandoned (days in order). */
export function daysOf(t: Tally, f: FunnelFilter): Array<{ day: string; sessions: number; completed: number; escalated: number; abandoned: number }> {
  const days = new Map<string, { day: string; sessions: number; completed: number; escalated: number; abandoned: number }>();
  for (const [key, m] of t) {
    if (!selects(f, key)) continue;
    const day = parseBucket(key).day;
    const d = days.get(day) ?? { day, sessions: 0, completed: 0, escalated: 0, abandoned: 0 };
    d.sessions += m.get('sessions') ?? 0;
    d.completed += m.get('completed') ?? 0;
    d.escalated += m.get('escalated') ?? 0;
    d.abandoned += m.get('abandoned') ?? 0;
    days.set(day, d);
  }
  return [...days.values()].sort((a, b) => (a.day < b.day ? -1 : 1));
}

/** The revisions counted in a tally, with their sessions (newest bucket first). */
export function revisionsOf(t: Tally): Array<{ revision: string; sessions: number; firstDay: string; lastDay: string }> {
  const out = new Map<string, { revision: string; sessions: number; firstDay: string; lastDay: string }>();
  for (const [key, m] of t) {
    const b = parseBucket(key);
    const r = out.get(b.revision) ?? { revision: b.revision, sessions: 0, firstDay: b.day, lastDay: b.day };
    r.sessions += m.get('sessions') ?? 0;
    if (b.day < r.firstDay) r.firstDay = b.day;
    if (b.day > r.lastDay) r.lastDay = b.day;
    out.set(b.revision, r);
  }
  return [...out.values()].sort((a, b) => (a.lastDay < b.lastDay ? 1 : a.lastDay > b.lastDay ? -1 : a.revision < b.revision ? -1 : 1));
}

/** Sessions open now (active or waiting) by tenant, flow and the node they are at, summed over every bucket. */
export function openSessionsOf(t: Tally): Array<{ tenant: string; flow: string; node: string; n: number }> {
  const out = new Map<string, { tenant: string; flow: string; node: string; n: number }>();
  for (const [key, m] of t) {
    const b = parseBucket(key);
    for (const [field, n] of m) {
      const [kind, node = ''] = field.split(SEP);
      if (kind !== 'o' || n === 0) continue;
      const k = `${b.tenant}${SEP}${b.flow}${SEP}${node}`;
      const row = out.get(k) ?? { tenant: b.tenant, flow: b.flow, node, n: 0 };
      row.n += n;
      out.set(k, row);
    }
  }
  return [...out.values()].filter((r) => r.n !== 0);
}

/** Sessions that took each edge (by the flow's edge id) in the selected buckets. */
export function edgesOf(t: Tally, f: FunnelFilter): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [field, n] of sumBuckets(t, f)) {
    const [kind, edge = ''] = field.split(SEP);
    if (kind === 'e' && n !== 0) out[edge] = n;
  }
  return out;
}
