import type { DocPath } from './load.ts';
import type { Edge, FlowV1, Node } from './schema.ts';

/** Where a subgraph's `__exit__` edges point. */
export const EXIT = '__exit__';

/** A node with its scope (subgraph name, or null for the top level) and source path. */
export interface PlacedNode {
  node: Node;
  scope: string | null;
  path: DocPath;
}

/** An edge of the plain graph, sugar expanded, with where it came from. */
export interface PlacedEdge {
  edge: Edge;
  scope: string | null;
  /** Source path of the edge, or of the node whose sugar produced it. */
  path: DocPath;
  /** Path of the guard text, for positions inside the expression. */
  guardPath?: DocPath;
  /** Set for edges made by `routes`: the expression being switched on, and its path. */
  route?: { on: string; value: string | null; onPath: DocPath };
  generated: boolean;
}

/** A JSON string literal in the guard language. */
export function guardString(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/**
 * The literal a route case compares with: cases are object keys, hence
 * strings, so `"true"` or `"3"` become a boolean or number when the route
 * switches on an answer of that type.
 */
function caseLiteral(on: string, value: string, keyTypes: ReadonlyMap<string, string>): string {
  const m = /^\s*answers\.([A-Za-z_][\w]*)\s*$/.exec(on);
  const type = m ? keyTypes.get(m[1]!) : undefined;
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value;
  if ((type === 'number' || type === 'integer') && /^-?\d+(\.\d+)?$/.test(value)) return value;
  return guardString(value);
}

/**
 * Lists every node and every edge of a flow with sugar expanded: a scope with
 * `nodes` and no `edges` is a sequence (a subgraph's last node exits), and a
 * decision's `routes` become guarded edges (cases in order, `default` as else).
 * `nodePath` supplies source paths for flows that came from another document
 * (the v0 migrator).
 */
export function desugar(flow: FlowV1, nodePath?: (id: string) => DocPath | undefined): { nodes: PlacedNode[]; edges: PlacedEdge[] } {
  const nodes: PlacedNode[] = [];
  const edges: PlacedEdge[] = [];
  const keyTypes = new Map<string, string>();
  for (const n of [...flow.nodes, ...Object.values(flow.subgraphs ?? {}).flatMap((sg) => sg.nodes)]) {
    if (n.type === 'question') keyTypes.set(n.key, n.answer?.type ?? 'text');
  }
  const scopes: Array<{ scope: string | null; base: DocPath; nodes: Node[]; edges: Edge[] | undefined }> = [
    { scope: null, base: [], nodes: flow.nodes, edges: flow.edges },
    ...Object.keys(flow.subgraphs ?? {}).map((name) => {
      const sg = flow.subgraphs![name]!;
      return { scope: name, base: ['subgraphs', name] as DocPath, nodes: sg.nodes, edges: sg.edges };
    }),
  ];
  for (const { scope, base, nodes: list, edges: explicit } of scopes) {
    const pathOf = (n: Node, i: number): DocPath => nodePath?.(n.id) ?? [...base, 'nodes', i];
    list.forEach((node, i) => nodes.push({ node, scope, path: pathOf(node, i) }));
    // routes first: they are the decision's own outgoing edges
    list.forEach((node, i) => {
      if (node.type !== 'decision' || !node.routes) return;
      const at = [...pathOf(node, i), 'routes'];
      const { on, cases } = node.routes;
      for (const value of Object.keys(cases)) {
        edges.push({
          edge: { from: node.id, to: cases[value]!, guard: `(${on}) == ${caseLiteral(on, value, keyTypes)}` },
          scope, path: [...at, 'cases', value], generated: true,
          route: { on, value, onPath: [...at, 'on'] },
        });
      }
      if (node.routes.default) {
        edges.push({ edge: { from: node.id, to: node.routes.default, guard: 'else' }, scope,
          path: [...at, 'default'], generated: true, route: { on, value: null, onPath: [...at, 'on'] } });
      }
    });
    if (explicit) {
      explicit.forEach((edge, i) => {
        const path = [...base, 'edges', i];
        edges.push({ edge, scope, path, ...(edge.guard !== undefined ? { guardPath: [...path, 'guard'] } : {}), generated: false });
      });
    } else {
      list.forEach((node, i) => {
        if (node.type === 'terminal' || (node.type === 'decision' && node.routes)) return;
        const next = list[i + 1]?.id ?? (scope !== null ? EXIT : undefined);
        if (next) edges.push({ edge: { from: node.id, to: next }, scope, path: pathOf(node, i), generated: true });
      });
    }
  }
  return { nodes, edges };
}

/** The flow with its sugar expanded into plain edges: what the revision hash covers. */
export function plainFlow(flow: FlowV1, placed: { nodes: PlacedNode[]; edges: PlacedEdge[] }): FlowV1 {
  const stripRoutes = (n: Node): Node => (n.type === 'decision' && n.routes ? (({ routes: _r, ...rest }) => rest)(n) : n);
  const edgesOf = (scope: string | null) => placed.edges.filter((e) => e.scope === scope).map((e) => e.edge);
  const { $schema: _s, ...rest } = flow;
  return {
    ...rest,
    nodes: flow.nodes.map(stripRoutes),
    edges: edgesOf(null),
    ...(flow.subgraphs
      ? {
          subgraphs: Object.fromEntries(
            Object.entries(flow.subgraphs).map(([name, sg]) => [name, { ...sg, nodes: sg.nodes.map(stripRoutes), edges: edgesOf(name) }]),
          ),
        }
      : {}),
  };
}
