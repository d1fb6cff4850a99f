import { isCanonical, scopeName, type CompileContext } from './compile-context.ts';
import type { CompiledEdge } from './compiled-flow.ts';
import { EXIT, type PlacedEdge } from './desugar.ts';
import { push } from './graph-analysis.ts';
import type { AnswerKeyInfo } from './guard/index.ts';
import type { FlowV1, Node } from './schema.ts';

// Edges: each gets its id, its guard compiled once, and its checks (dangling,
// across scopes, out of a terminal); then each node's edges as a set (one
// else, nothing shadowed, a way on, `on` that fits the node).

/** Compiles each decision's `routes.on` once, so a bad expression is reported once rather than per case. */
export function checkRoutes(ctx: CompileContext): void {
  for (const p of ctx.placed.nodes) {
    if (p.node.type === 'decision' && p.node.routes) {
      if (!ctx.guardOf(`has(${p.node.routes.on})`, { path: [...p.path, 'routes', 'on'], node: p.node.id, offset: 4 })) ctx.badRoutes.add(p.node.id);
    }
  }
}

/** Gives every edge its id and compiled guard, and reports edges that dangle, cross scopes or leave a terminal. */
export function compileEdges(ctx: CompileContext): void {
  const { byId, error } = ctx;
  const edgeIds = new Map<string, number>();
  ctx.placed.edges.forEach((pe, index) => {
    const { edge } = pe;
    const pairId = `${edge.from}->${edge.to}`;
    const seen = edgeIds.get(pairId) ?? 0;
    edgeIds.set(pairId, seen + 1);
    const id = edge.id ?? (seen ? `${pairId}#${seen + 1}` : pairId);
    const label = `${edge.from} → ${edge.to}`;
    const from = byId.get(edge.from);
    const to = edge.to === EXIT ? undefined : byId.get(edge.to);
    if (!from) {
      error('dangling_edge', `edge ${label}: no node '${edge.from}' (source of the edge to '${edge.to}')`, { path: [...pe.path, ...(pe.generated ? [] : ['from'])], edge: id });
    }
    if (edge.to === EXIT) {
      if (pe.scope === null) {
        error('exit_outside_subgraph', `edge ${label}: '__exit__' only exists inside a subgraph`, { path: [...pe.path, ...(pe.generated ? [] : ['to'])], edge: id, node: edge.from });
      }
    } else if (!to) {
      error('dangling_edge', `edge ${label}: no node '${edge.to}' (target of the edge from '${edge.from}')`, { path: [...pe.path, ...(pe.generated ? [] : ['to'])], edge: id, node: edge.from });
    }
    if (from && from.scope !== pe.scope) {
      error('cross_scope_edge', `edge ${label}: '${edge.from}' belongs to ${scopeName(from.scope)}, not to ${scopeName(pe.scope)} where the edge is listed`, { path: pe.path, edge: id });
    } else if (from && to && to.scope !== from.scope) {
      error('cross_scope_edge', `edge ${label}: an edge cannot jump from ${scopeName(from.scope)} into ${scopeName(to.scope)}; enter a subgraph through a subgraph node and leave it through '__exit__'`, { path: pe.path, edge: id });
    }
    if (from?.node.type === 'terminal') {
      error('terminal_has_edges', `terminal node '${edge.from}' has an outgoing edge to '${edge.to}'; a terminal ends the conversation`, { path: pe.path, edge: id, node: edge.from });
    }
    let guard: CompiledEdge['guard'] = null;
    if (edge.guard !== undefined) {
      if (edge.guard.trim() === 'else') guard = 'else';
      else if (pe.route) {
        // a case's problems (say, a value that is not an option) point at the case, not into generated text
        guard = ctx.badRoutes.has(edge.from) ? null : ctx.guardOf(edge.guard, { path: pe.path, edge: id, node: edge.from, inline: false });
      } else {
        guard = ctx.guardOf(edge.guard, { ...(pe.guardPath ? { path: pe.guardPath } : { path: pe.path }), edge: id, node: edge.from });
      }
    }
    const compiled: CompiledEdge = { index, id, from: edge.from, to: edge.to, ...(edge.on ? { on: edge.on } : {}), guard, source: edge };
    ctx.edges.push(compiled);
    // structurally the edge exists even when its guard or target is wrong; keeping it
    // avoids follow-on noise (a false "implicit end" or "unreachable")
    if (from) push(ctx.out, edge.from, compiled);
  });
}

/** Checks each node's outgoing edges as a set: at most one else, none shadowed, a way on, `on` kinds that fit. */
export function checkNodeEdges(ctx: CompileContext): void {
  const { placed, error, warn } = ctx;
  for (const p of placed.nodes) {
    const n = p.node;
    if (!isCanonical(ctx, p)) continue; // a duplicate id, already reported
    const own = ctx.out.get(n.id) ?? [];
    const normal = own.filter((e) => !e.on);
    const elses = normal.filter((e) => e.guard === 'else');
    if (elses.length > 1) {
      const second = placed.edges[elses[1]!.index]!;
      error('duplicate_else', `node '${n.id}' has ${elses.length} else edges (to ${elses.map((e) => `'${e.to}'`).join(', ')}); only one can apply`, { path: second.path, node: n.id, edge: elses[1]!.id });
    }
    // an edge with no guard at all (one whose guard failed to compile is already an error, not "no guard")
    const firstAlways = normal.findIndex((e) => e.guard === null && e.source.guard === undefined);
    if (firstAlways >= 0 && firstAlways < normal.length - 1) {
      const shadowed = normal[firstAlways + 1]!;
      warn('shadowed_edge', `edge ${shadowed.id} is never taken: the earlier edge ${normal[firstAlways]!.id} has no guard`, { path: placed.edges[shadowed.index]!.path, node: n.id, edge: shadowed.id });
    }
    if (n.type === 'terminal') continue;
    if (normal.length === 0 && !own.some((e) => e.on === undefined)) {
      if (!(n.type === 'decision' && n.routes)) {
        warn('implicit_end', `node '${n.id}' has no outgoing edges: the conversation ends there as completed (add a terminal to make it explicit)`, { path: p.path, node: n.id });
      }
    } else if (normal.every((e) => e.guard !== null && e.guard !== 'else') && !exhaustive(n, normal, placed.edges, ctx.keys, ctx.flow)) {
      warn('no_else', `node '${n.id}': every outgoing edge is guarded and none is 'else'; if no guard holds the conversation stops with an error`, { path: p.path, node: n.id });
    }
    for (const e of own) {
      if (e.on === 'failure' && n.type !== 'action') warn('on_mismatch', `edge ${e.id}: "on": "failure" only applies to action nodes`, { path: placed.edges[e.index]!.path, edge: e.id });
      // a question (no valid answer), a review (no clear reply) and a decision routing on path (no path chosen) end that way
      const takesInvalid = n.type === 'question' || n.type === 'review' || (n.type === 'decision' && n.routes?.on.trim() === 'path');
      if (e.on === 'invalid' && !takesInvalid) warn('on_mismatch', `edge ${e.id}: "on": "invalid" only applies to question and review nodes and to a decision that routes on path`, { path: placed.edges[e.index]!.path, edge: e.id });
      if (e.on === 'no_path' && !(n.type === 'decision' && n.routes?.on.trim() === 'path')) warn('on_mismatch', `edge ${e.id}: "on": "no_path" only applies to a decision that routes on path`, { path: placed.edges[e.index]!.path, edge: e.id });
      if (e.on === 'rejected' && !n.interrupt) warn('on_mismatch', `edge ${e.id}: "on": "rejected" only applies to nodes with an interrupt`, { path: placed.edges[e.index]!.path, edge: e.id });
    }
  }
}

/**
 * Whether guarded edges cover every case without an else: a route on an enum
 * answer (single choice, required) whose cases name every option, or a route
 * on `path` naming every declared path (the engine asks the path prompt until
 * one locks).
 */
function exhaustive(n: Node, normal: readonly CompiledEdge[], placed: readonly PlacedEdge[], keys: ReadonlyMap<string, AnswerKeyInfo>, flow: FlowV1): boolean {
  const routes = normal.map((e) => placed[e.index]!.route);
  if (n.type !== 'decision' || routes.some((r) => !r)) return false;
  const on = routes[0]!.on.trim();
  const values = new Set(routes.map((r) => r!.value));
  if (on === 'path') return Object.keys(flow.paths?.options ?? {}).every((p) => values.has(p));
  const m = /^answers\.([A-Za-z_]\w*)$/.exec(on);
  const info = m ? keys.get(m[1]!) : undefined;
  return !!info && info.type === 'enum' && !info.multiple && (info.options ?? []).every((o) => values.has(o));
}
