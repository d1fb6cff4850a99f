import type { CompiledEdge, CompiledFlow } from '../flow/compiled-flow.ts';
import { EXIT } from '../flow/desugar.ts';
import { push, reachable } from '../flow/graph-analysis.ts';
import { parseGuard, type Expr } from '../flow/guard/index.ts';

// Which nodes sit on a path's branch, for the picture's path groups.
//
// The rule: an edge *selects* path P when its guard reads `path == 'P'`
// (also `'P' == path`, `path in [..., 'P', ...]`, or `path != 'P'` under a
// `!`) anywhere outside an odd number of negations — even as one alternative
// of an `||`, because that is how flows route on a path before the answers
// decide. A node is on P's branch when it is reachable from the entry, but
// not once every edge that selects P is removed: every route to it passes
// through a P edge. Subgraph calls count as edges from the calling node to
// the subgraph's entry, so a subgraph called only on P's branch is on it too.
// A node reachable only through edges of two different paths is on neither.

/** Path names an expression selects (see the rule above). */
export function selectedPaths(expr: Expr, positive = true, into = new Set<string>()): Set<string> {
  const isPath = (e: Expr) => e.kind === 'ref' && e.root === 'path' && e.path.length === 0;
  const str = (e: Expr) => (e.kind === 'literal' && typeof e.value === 'string' ? e.value : null);
  switch (expr.kind) {
    case 'not':
      return selectedPaths(expr.operand, !positive, into);
    case 'logical':
      for (const o of expr.operands) selectedPaths(o, positive, into);
      return into;
    case 'compare': {
      const eq = expr.op === '==' ? positive : expr.op === '!=' ? !positive : false;
      if (eq) {
        const name = isPath(expr.left) ? str(expr.right) : isPath(expr.right) ? str(expr.left) : null;
        if (name !== null) into.add(name);
      } else if (expr.op === 'in' && positive && isPath(expr.left) && expr.right.kind === 'list') {
        for (const item of expr.right.items) {
          const name = str(item);
          if (name !== null) into.add(name);
        }
      }
      return into;
    }
    default:
      return into;
  }
}

/** Path names an edge's guard selects; none for unguarded and `else` edges. */
export function edgePaths(edge: CompiledEdge): Set<string> {
  if (!edge.guard || edge.guard === 'else') return new Set();
  const parsed = parseGuard(edge.guard.source);
  return parsed.ok ? selectedPaths(parsed.ast) : new Set();
}

/**
 * The nodes on each path's branch, in flow order, for every declared path and
 * every path a guard selects (declared ones first, in file order; others sorted).
 */
export function pathBranches(flow: CompiledFlow): Map<string, string[]> {
  const tagged = new Map<string, Set<CompiledEdge>>();
  for (const e of flow.edges) for (const p of edgePaths(e)) tagged.set(p, (tagged.get(p) ?? new Set()).add(e));
  const declared = Object.keys(flow.source.paths?.options ?? {});
  const names = [...declared, ...[...tagged.keys()].filter((p) => !declared.includes(p)).sort()];

  const successors = (skip: ReadonlySet<CompiledEdge>) => {
    const succ = new Map<string, string[]>();
    for (const e of flow.edges) if (e.to !== EXIT && !skip.has(e)) push(succ, e.from, e.to);
    for (const c of flow.nodes.values()) {
      const sg = c.node.type === 'subgraph' ? flow.subgraphs.get(c.node.ref) : undefined;
      if (sg) push(succ, c.node.id, sg.entry);
    }
    return succ;
  };
  const all = reachable(flow.entry, successors(new Set()));
  const out = new Map<string, string[]>();
  for (const p of names) {
    const without = reachable(flow.entry, successors(tagged.get(p) ?? new Set()));
    out.set(p, [...flow.nodes.keys()].filter((id) => all.has(id) && !without.has(id)));
  }
  return out;
}
