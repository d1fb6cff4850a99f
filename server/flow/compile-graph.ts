import { isCanonical, type CompileContext } from './compile-context.ts';
import { canEnd, components, END, flatSuccessors, reachable, subgraphExits } from './graph-analysis.ts';
import type { QuestionNode } from './schema.ts';

/** Checks the graph's shape: reachability, ways out, subgraph exits, one answer key asked twice on a route. */
export function analyseGraph(ctx: CompileContext): void {
  const { byId, entry, error, warn, subgraphNames } = ctx;
  const targets = new Map<string, string[]>();
  for (const [id, list] of ctx.out) targets.set(id, list.map((e) => e.to));
  // a trigger can fire from the entry on, so its target is reachable (an emergency terminal needs no edge)
  const gotos = (ctx.flow.triggers ?? []).flatMap((t) => (t.goto && byId.get(t.goto)?.scope === null ? [t.goto] : []));
  if (entry && gotos.length > 0) targets.set(entry, [...(targets.get(entry) ?? []), ...gotos]);
  const nodesForGraph = new Map([...byId].map(([id, p]) => [id, { node: p.node, scope: p.scope }]));
  const succ = flatSuccessors({ entry, nodes: nodesForGraph, out: targets, subgraphEntry: ctx.subgraphEntry });
  const reached = reachable(entry && byId.has(entry) ? entry : undefined, succ);
  const usedSubgraphs = new Set<string>();
  for (const id of reached) {
    const n = byId.get(id)?.node;
    if (n?.type === 'subgraph') usedSubgraphs.add(n.ref);
  }
  if (entry && byId.has(entry)) {
    for (const p of ctx.placed.nodes) {
      if (reached.has(p.node.id) || !isCanonical(ctx, p)) continue;
      if (p.scope !== null && !usedSubgraphs.has(p.scope)) continue; // reported once for the subgraph
      error('unreachable_node', `node '${p.node.id}' can never be reached from the entry '${entry}'`, { path: p.path, node: p.node.id });
    }
    for (const name of subgraphNames) {
      if (!usedSubgraphs.has(name)) warn('unused_subgraph', `subgraph '${name}' is never entered`, { path: ['subgraphs', name], key: true });
    }
    const ends = canEnd(succ);
    const trapped = new Set([...reached].filter((v) => v !== END && !ends.has(v)));
    for (const group of components(trapped, succ)) {
      const first = byId.get(group[0]!)!;
      error('trapped_cycle', `nodes ${group.slice(0, 8).map((g) => `'${g}'`).join(', ')}${group.length > 8 ? ' …' : ''} form a cycle with no way out to a terminal or '__exit__'`,
        { path: first.path, node: first.node.id });
    }
  }
  for (const name of subgraphNames) {
    const e = ctx.subgraphEntry.get(name);
    if (e && byId.get(e)?.scope === name && !subgraphExits(e, targets)) {
      error('subgraph_no_exit', `subgraph '${name}' never reaches '__exit__' from its entry '${e}', so it cannot return to its caller`, { path: ['subgraphs', name], key: true });
    }
  }
  for (const [key, list] of ctx.keyNodes) {
    if (list.length < 2) continue;
    for (const a of list) {
      const after = reachable(a.node.id, succ);
      for (const b of list) {
        if (a === b || !after.has(b.node.id) || (b.node as QuestionNode).always_ask) continue;
        error('duplicate_key_on_route', `answer key '${key}' is asked by '${a.node.id}' and again by '${b.node.id}' on the same route; the second is always skipped (set always_ask to re-ask on purpose)`,
          { path: [...b.path, 'key'], node: b.node.id });
      }
    }
  }
}
