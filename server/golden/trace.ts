import type { EngineEvent } from '../engine/types.ts';

/** Event details left out of snapshots: they vary between runs without the flow changing. */
const VOLATILE = new Set(['durationMs']);
/** Events left out of snapshots: the model's calls and fallbacks happen live, not when the golden replays them. */
const RUNTIME = new Set(['llm_call', 'llm_fallback']);

/** A JSON value with object keys sorted, so a snapshot line does not depend on key order. */
function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])]));
  }
  return v;
}

/**
 * One event as one snapshot line: `t2 answer_set @q.court_size {"key":…}`.
 * One line per event keeps snapshot diffs readable in review.
 */
export function traceLine(e: EngineEvent): string {
  const { type, turn, node, ...rest } = e;
  const detail = Object.fromEntries(Object.entries(rest).filter(([k]) => !VOLATILE.has(k)));
  const json = Object.keys(detail).length ? ` ${JSON.stringify(sorted(detail))}` : '';
  return `t${turn} ${type}${node !== null ? ` @${node}` : ''}${json}`;
}

/** A whole trace snapshot: a header naming the golden, then one line per event. */
export function traceSnapshot(name: string, revision: string, events: readonly EngineEvent[]): string {
  return [`# trace of "${name}" (flow revision ${revision}); accept changes with questline test --update`, ...events.filter((e) => !RUNTIME.has(e.type)).map(traceLine), ''].join('\n');
}

/** The first differing line of two snapshots, for the failure message. */
export function firstDifference(expected: string, actual: string): { line: number; expected: string; actual: string } | null {
  const a = expected.split('\n');
  const b = actual.split('\n');
  for (let i = 1; i < Math.max(a.length, b.length); i++) { // line 0 is the header, which names the revision
    if (a[i] !== b[i]) return { line: i + 1, expected: a[i] ?? '(end of snapshot)', actual: b[i] ?? '(end of trace)' };
  }
  return null;
}
