import { EXIT } from './desugar.ts';
import type { Node } from './schema.ts';

/** Appends to a list in a map of lists (linear, unlike re-spreading the list). */
export function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The end of the conversation in the flat graph. */
export const END = '\u0000end';

/** What the analysis needs of a flow: nodes by id, their scope and outgoing targets. */
export interface GraphInput {
  entry: string | undefined;
  nodes: ReadonlyMap<string, { node: Node; scope: string | null }>;
  /** Outgoing edge targets per node id, in file order (may contain `__exit__`). */
  out: ReadonlyMap<string, readonly string[]>;
  subgraphEntry: ReadonlyMap<string, string | undefined>;
}

/**
 * The call-flattened graph: a subgraph node leads into its subgraph's entry, and
 * an `__exit__` leads to wherever any caller of that subgraph goes next. It is
 * context-insensitive (exits return to every caller), which over-approximates
 * paths: right for reachability, conservative for "same key on one route".
 */
export function flatSuccessors(g: GraphInput): Map<string, string[]> {
  const callers = new Map<string, string[]>();
  for (const [id, { node }] of g.nodes) {
    if (node.type === 'subgraph') push(callers, node.ref, id);
  }
  // `seen` stops recursion through subgraphs that (wrongly) call each other
  const after = (id: string, seen: ReadonlySet<string | null> = new Set()): string[] => {
    const node = g.nodes.get(id)?.node;
    const targets = g.out.get(id) ?? [];
    if (node?.type === 'terminal' || targets.length === 0) return [END];
    // a dangling target is reported on its own; reading it as an end avoids a false "trapped" report
    return targets.flatMap((t) => (t === EXIT ? exitTargets(g.nodes.get(id)!.scope, seen) : g.nodes.has(t) ? [t] : [END]));
  };
  const exitTargets = (scope: string | null, seen: ReadonlySet<string | null>): string[] =>
    scope === null || seen.has(scope)
      ? []
      : (callers.get(scope) ?? []).flatMap((c) => after(c, new Set([...seen, scope])));
  const succ = new Map<string, string[]>();
  for (const [id, { node }] of g.nodes) {
    if (node.type === 'subgraph') {
      const entry = g.subgraphEntry.get(node.ref);
      succ.set(id, entry && g.nodes.has(entry) ? [entry] : after(id));
    } else succ.set(id, after(id));
  }
  return succ;
}

/** Every vertex reachable from `start` (including it). */
export function reachable(start: string | undefined, succ: ReadonlyMap<string, readonly string[]>): Set<string> {
  return reachableFrom(start ? [start] : [], succ);
}

/** Every vertex reachable from any of `starts` (including them). */
export function reachableFrom(starts: Iterable<string>, succ: ReadonlyMap<string, readonly string[]>): Set<string> {
  const seen = new Set<string>();
  const stack = [...starts];
  while (stack.length > 0) {
    const v = stack.pop()!;
    if (seen.has(v)) continue;
    seen.add(v);
    for (const w of succ.get(v) ?? []) if (!seen.has(w)) stack.push(w);
  }
  return seen;
}

/** Vertices from which END can be reached. */
export function canEnd(succ: ReadonlyMap<string, readonly string[]>): Set<string> {
  const pred = new Map<string, string[]>();
  for (const [v, ws] of succ) for (const w of ws) push(pred, w, v);
  return reachable(END, pred);
}

/** Splits a set of vertices into groups connected by edges in either direction, each sorted. */
export function components(vertices: ReadonlySet<string>, succ: ReadonlyMap<string, readonly string[]>): string[][] {
  const parent = new Map([...vertices].map((v) => [v, v]));
  const find = (v: string): string => {
    let root = v;
    while (parent.get(root) !== root) root = parent.get(root)!;
    while (v !== root) {
      const next = parent.get(v)!; // path compression keeps long chains linear
      parent.set(v, root);
      v = next;
    }
    return root;
  };
  for (const v of vertices) for (const w of succ.get(v) ?? []) if (vertices.has(w)) parent.set(find(v), find(w));
  const groups = new Map<string, string[]>();
  for (const v of vertices) push(groups, find(v), v);
  return [...groups.values()].map((g) => g.sort()).sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/**
 * Within one subgraph, whether `__exit__` can be reached from its entry
 * (nested subgraph calls are assumed to return).
 */
export function subgraphExits(entry: string, out: ReadonlyMap<string, readonly string[]>): boolean {
  const seen = new Set<string>();
  const stack = [entry];
  while (stack.length > 0) {
    const v = stack.pop()!;
    if (v === EXIT) return true;
    if (seen.has(v)) continue;
    seen.add(v);
    stack.push(...(out.get(v) ?? []));
  }
  return false;
}

/** Key dependency cycles among questions (`dependencies`), each cycle once, smallest key first. */
export function dependencyCycles(deps: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 1 | 2>();
  const seenCycles = new Set<string>();
  const visit = (k: string, stack: string[]) => {
    state.set(k, 1);
    stack.push(k);
    for (const d of deps.get(k) ?? []) {
      if (!deps.has(d)) continue;
      if (state.get(d) === 1) {
        const cyc = stack.slice(stack.indexOf(d));
        const min = cyc.indexOf([...cyc].sort()[0]!);
        const norm = [...cyc.slice(min), ...cyc.slice(0, min)];
        if (!seenCycles.has(norm.join('\u0000'))) {
          seenCycles.add(norm.join('\u0000'));
          cycles.push(norm);
        }
      } else if (!state.has(d)) visit(d, stack);
    }
    stack.pop();
    state.set(k, 2);
  };
  for (const k of [...deps.keys()].sort()) if (!state.has(k)) visit(k, []);
  return cycles;
}
