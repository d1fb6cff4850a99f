import type { MergeStrategy } from '../schema.ts';

// Field paths and the `merge` rules that give them a strategy.
//
// A concrete path is a list of segments: ['nodes', 'q.intent', 'prompt'].
// Ids contain dots, so a pattern is not split on dots up front; it is matched
// segment by segment, and a literal consumes exactly one whole segment
// ("q.intent"), `*` any one segment, `**` any number (zero or more).
// "nodes.q.intent.prompt" therefore matches the prompt of node q.intent, and
// "nodes.*.answer.options" the options of every node.

/** Where a field path starts: the parts of a flow an overlay can change. */
export const PATH_ROOTS = ['nodes', 'edges', 'paths', 'commands', 'constraints', 'subgraphs'] as const;

/** A `merge` rule, with the layer that declared it. */
export interface MergeRule {
  pattern: string;
  strategy: MergeStrategy;
  /** Index of the declaring layer in application order (0 is the base flow). */
  layer: number;
  /** Label of the declaring layer, for messages. */
  label: string;
}

/** What governs one field for one layer. */
export type Resolved =
  | { strategy: Exclude<MergeStrategy, 'error'>; rule?: MergeRule }
  | { strategy: 'error'; rule: MergeRule };

/** Joins segments for display and for provenance keys: `nodes.q.intent.prompt`. */
export function pathKey(segs: readonly string[]): string {
  return segs.join('.');
}

/** Checks a pattern's syntax; returns a message when it is malformed. */
export function patternProblem(pattern: string): string | undefined {
  const tokens = pattern.split('.');
  if (tokens.some((t) => t === '')) return `merge path '${pattern}' has an empty segment`;
  if (tokens.some((t) => t.includes('*') && t !== '*' && t !== '**')) {
    return `merge path '${pattern}': a wildcard must be a whole segment ('*' for one, '**' for any number)`;
  }
  const root = tokens[0]!;
  if (!(PATH_ROOTS as readonly string[]).includes(root) && root !== '**') {
    return `merge path '${pattern}' must start with one of ${PATH_ROOTS.join(', ')}`;
  }
  if ((root === 'nodes' || root === 'edges') && tokens.length < 2) return `merge path '${pattern}' needs an id (or *) after '${root}'`;
  return undefined;
}

/**
 * Every way `pattern` can be left over after consuming all of `segs`: ''
 * means an exact match, anything else that the pattern reaches deeper.
 */
function remainders(pattern: string, segs: readonly string[], i = 0, out = new Set<string>()): Set<string> {
  if (i === segs.length) {
    out.add(pattern);
    return out;
  }
  if (pattern === '') return out;
  const seg = segs[i]!;
  const rest = (p: string) => (p.startsWith('.') ? p.slice(1) : p);
  if (pattern === '**' || pattern.startsWith('**.')) {
    remainders(pattern, segs, i + 1, out); // ** takes this segment and maybe more
    const after = rest(pattern.slice(2));
    if (after !== '') remainders(after, segs, i, out); // ** takes none
    return out;
  }
  if (pattern === '*' || pattern.startsWith('*.')) return remainders(rest(pattern.slice(1)), segs, i + 1, out);
  if (pattern === seg || pattern.startsWith(`${seg}.`)) remainders(rest(pattern.slice(seg.length)), segs, i + 1, out);
  return out;
}

/** True when `pattern` names exactly the field at `segs`. */
export function matchesPath(pattern: string, segs: readonly string[]): boolean {
  for (const r of remainders(pattern, segs)) if (r === '' || r === '**') return true;
  return false;
}

/** True when `pattern` names some field below `segs`. */
export function reachesBelow(pattern: string, segs: readonly string[]): boolean {
  for (const r of remainders(pattern, segs)) if (r !== '') return true;
  return false;
}

/** Fewer `**`, then fewer `*`, then the longer pattern: the more specific rule wins. */
function specificity(pattern: string): [number, number, number] {
  const tokens = pattern.split('.');
  return [-tokens.filter((t) => t === '**').length, -tokens.filter((t) => t === '*').length, pattern.length];
}

function moreSpecific(a: MergeRule, b: MergeRule): boolean {
  const [x, y] = [specificity(a.pattern), specificity(b.pattern)];
  for (let k = 0; k < 3; k++) if (x[k] !== y[k]) return x[k]! > y[k]!;
  if (a.layer !== b.layer) return a.layer > b.layer;
  return a.pattern > b.pattern;
}

/** The `merge` rules of every layer so far, and how they resolve for a field. */
export class MergeRules {
  private readonly rules: MergeRule[] = [];

  /** Adds a layer's rules. */
  add(rule: MergeRule): void {
    this.rules.push(rule);
  }

  /**
   * The strategy for a change by `layer` to the field at `segs`. An `error`
   * rule of an earlier layer locks the field and everything under it, and no
   * later rule can lift it; the declaring layer itself may still set it.
   * Otherwise the most specific rule of this or an earlier layer applies, and
   * without one, `fallback` (a deep merge passes `deep` down to its fields).
   */
  resolve(segs: readonly string[], layer: number, fallback: Exclude<MergeStrategy, 'error'> = 'override'): Resolved {
    const lock = this.lockOf(segs, layer);
    if (lock) return { strategy: 'error', rule: lock };
    let best: MergeRule | undefined;
    for (const r of this.rules) {
      if (r.layer > layer || !matchesPath(r.pattern, segs)) continue;
      if (!best || moreSpecific(r, best)) best = r;
    }
    if (!best) return { strategy: fallback };
    return { strategy: best.strategy === 'error' ? 'override' : best.strategy, rule: best };
  }

  /** The earlier `error` rule that locks `segs` or one of its ancestors, if any. */
  lockOf(segs: readonly string[], layer: number): MergeRule | undefined {
    let lock: MergeRule | undefined;
    for (const r of this.rules) {
      if (r.strategy !== 'error' || r.layer >= layer) continue;
      for (let n = segs.length; n > 0; n--) {
        if (matchesPath(r.pattern, segs.slice(0, n)) && (!lock || moreSpecific(r, lock))) lock = r;
      }
    }
    return lock;
  }

  /** True when some rule that applies to `layer` names a field below `segs`. */
  reachesBelow(segs: readonly string[], layer: number): boolean {
    return this.rules.some((r) => r.layer <= layer && reachesBelow(r.pattern, segs));
  }
}
