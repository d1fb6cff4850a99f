import { graphlib, layout } from '@dagrejs/dagre';
import type { CompiledEdge, CompiledFlow } from '../flow/compiled-flow.ts';
import { EXIT } from '../flow/desugar.ts';
import type { GraphLayout, GraphLayoutEdge, GraphLayoutGroup, GraphLayoutNode } from './graph-layout.ts';
import { pathBranches } from './paths.ts';
import { edgeLabelSize, nodeSize, type LayoutEdgeKind } from './shapes.ts';
import { round } from './text.ts';

// Flow → GraphLayout: dagre places nodes, clusters and edge labels and routes
// edges. dagre's result depends only on insertion order, which follows the
// flow file, so the output is deterministic. dagre sees internal ids (n0, c0,
// e0) so that no node id can collide with a cluster id or graphlib internals.

type Draft = Omit<GraphLayoutNode, 'x' | 'y' | 'width' | 'height'>;
type DraftEdge = Omit<GraphLayoutEdge, 'points' | 'labelBox'>;
interface Point { x: number; y: number }
interface DagreBox { x: number; y: number; width: number; height: number }

const SPACING = { nodesep: 24, edgesep: 10, ranksep: 56, marginx: 24, marginy: 24 };
/** Room above a cluster's first row for its title. */
const CLUSTER_TITLE = 20;

function uniqueId(id: string, taken: Set<string>): string {
  let out = id;
  for (let n = 2; taken.has(out); n++) out = `${id}#${n}`;
  taken.add(out);
  return out;
}

function edgeKind(e: CompiledEdge): LayoutEdgeKind {
  if (e.on) return e.on;
  if (e.to === EXIT) return 'exit';
  return e.guard === 'else' ? 'else' : 'normal';
}

/** Whether a point lies inside a node's shape (all shapes are convex). */
function inside(n: Pick<GraphLayoutNode, 'type' | 'x' | 'y' | 'width' | 'height'>, p: Point): boolean {
  const a = n.width / 2;
  const b = n.height / 2;
  const dx = Math.abs(p.x - (n.x + a));
  const dy = Math.abs(p.y - (n.y + b));
  switch (n.type) {
    case 'decision': return dx / a + dy / b <= 1;
    case 'exit': return dx * dx + dy * dy <= a * a;
    case 'terminal': {
      if (dx <= a - b) return dy <= b;
      const cx = dx - (a - b);
      return cx * cx + dy * dy <= b * b;
    }
    default: return dx <= a && dy <= b;
  }
}

/** Where the segment from the node's centre towards `toward` leaves its outline. */
function clip(n: GraphLayoutNode, toward: Point, fallback: Point): Point {
  const c = { x: n.x + n.width / 2, y: n.y + n.height / 2 };
  if (inside(n, toward)) return fallback;
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 32; i++) {
    const mid = (lo + hi) / 2;
    if (inside(n, { x: c.x + (toward.x - c.x) * mid, y: c.y + (toward.y - c.y) * mid })) lo = mid;
    else hi = mid;
  }
  return { x: c.x + (toward.x - c.x) * hi, y: c.y + (toward.y - c.y) * hi };
}

/**
 * A loop on the node's right side, through the middle of its label when it
 * has one. dagre reserves room to the right of the node for a self-edge (and
 * its label), but its own points for a labelled self-edge are unusable.
 */
function selfLoop(n: GraphLayoutNode, label: DagreBox | null): Point[] {
  const right = n.x + n.width;
  const a = { x: right, y: n.y + n.height * 0.3 };
  const d = { x: right, y: n.y + n.height * 0.7 };
  if (!label) {
    return [a, { x: right + 18, y: n.y + n.height * 0.15 }, { x: right + 18, y: n.y + n.height * 0.85 }, d];
  }
  const c = { x: label.x + label.width / 2, y: label.y + label.height / 2 };
  return [a, { x: (a.x + c.x) / 2, y: Math.min(a.y, c.y) - 6 }, c, { x: (d.x + c.x) / 2, y: Math.max(d.y, c.y) + 6 }, d];
}

const topLeft = (b: DagreBox) => ({ x: b.x - b.width / 2, y: b.y - b.height / 2, width: b.width, height: b.height });

/** Lays a compiled flow out: nodes, routed edges, and groups for subgraphs, ui groups and paths. */
export function layoutFlow(flow: CompiledFlow): GraphLayout {
  const ids = new Set<string>();
  const drafts: Draft[] = [];
  for (const c of flow.nodes.values()) {
    const n = c.node;
    ids.add(n.id);
    drafts.push({
      id: n.id,
      type: n.type === 'review' ? 'question' : n.type, // drawn as a question box, marked 'review' below
      label: n.label ?? n.id,
      key: n.type === 'question' ? n.key : null,
      answerType: n.type === 'question' ? (n.answer?.type ?? 'text') : n.type === 'review' ? 'review' : null,
      call: n.type === 'action' ? n.call : null,
      ref: n.type === 'subgraph' ? n.ref : null,
      outcome: n.type === 'terminal' ? (n.outcome ?? 'completed') : null,
      when: n.when ?? null,
      scope: c.scope,
      entry: n.id === flow.entry || (c.scope !== null && flow.subgraphs.get(c.scope)?.entry === n.id),
      tags: [...(n.tags ?? [])],
      ui: n.ui ? structuredClone(n.ui) : null,
      groups: [],
    });
  }
  const exitOf = new Map<string, string>();
  for (const name of flow.subgraphs.keys()) {
    if (!flow.edges.some((e) => e.to === EXIT && flow.nodes.get(e.from)?.scope === name)) continue;
    const id = uniqueId(`${name}/${EXIT}`, ids);
    exitOf.set(name, id);
    drafts.push({
      id, type: 'exit', label: 'exit', key: null, answerType: null, call: null, ref: null, outcome: null,
      when: null, scope: name, entry: false, tags: [], ui: null, groups: [],
    });
  }

  const edgeIds = new Set<string>();
  // A compiled flow has no dangling edges; the filter only keeps a bad one from crashing the layout.
  const edges: DraftEdge[] = flow.edges.filter((e) => flow.nodes.has(e.from) && (e.to === EXIT || flow.nodes.has(e.to))).map((e) => ({
    id: uniqueId(e.id, edgeIds),
    from: e.from,
    to: e.to === EXIT ? (exitOf.get(flow.nodes.get(e.from)!.scope ?? '') ?? e.to) : e.to,
    kind: edgeKind(e),
    guard: e.guard === 'else' ? 'else' : (e.guard?.source ?? null),
    label: e.source.label ?? null,
  })).filter((e) => ids.has(e.to));
  for (const c of flow.nodes.values()) {
    const sg = c.node.type === 'subgraph' ? flow.subgraphs.get(c.node.ref) : undefined;
    if (sg && flow.nodes.has(sg.entry)) {
      edges.push({ id: uniqueId(`${c.node.id}/call`, edgeIds), from: c.node.id, to: sg.entry, kind: 'call', guard: null, label: null });
    }
  }

  // Groups: subgraph clusters, ui-group clusters inside their scope, path branches.
  const groups: GraphLayoutGroup[] = [];
  const clusterOf = new Map<string, GraphLayoutGroup>();
  const parentOf = new Map<string, GraphLayoutGroup>();
  for (const name of flow.subgraphs.keys()) {
    const g: GraphLayoutGroup = {
      id: `subgraph:${name}`, kind: 'subgraph', name, label: flow.source.subgraphs?.[name]?.label ?? name,
      nodes: drafts.filter((d) => d.scope === name).map((d) => d.id), box: null,
    };
    groups.push(g);
    clusterOf.set(g.id, g);
  }
  for (const d of drafts) {
    const name = d.ui?.group;
    if (typeof name !== 'string' || name === '') continue;
    const id = d.scope === null ? `ui:${name}` : `ui:${d.scope}/${name}`;
    let g = clusterOf.get(id);
    if (!g) {
      g = { id, kind: 'ui', name, label: name, nodes: [], box: null };
      groups.push(g);
      clusterOf.set(id, g);
      if (d.scope !== null) parentOf.set(id, clusterOf.get(`subgraph:${d.scope}`)!);
    }
    g.nodes.push(d.id);
  }
  for (const [name, nodes] of pathBranches(flow)) {
    groups.push({ id: `path:${name}`, kind: 'path', name, label: flow.source.paths?.options[name]?.label ?? name, nodes, box: null });
  }
  for (const g of groups) for (const id of g.nodes) drafts.find((d) => d.id === id)?.groups.push(g.id);

  // dagre
  const g = new graphlib.Graph({ multigraph: true, compound: true });
  g.setGraph({ rankdir: 'TB', ...SPACING });
  const internal = new Map<string, string>();
  drafts.forEach((d, i) => {
    internal.set(d.id, `n${i}`);
    g.setNode(`n${i}`, { ...nodeSize(d) });
  });
  const clusters = groups.filter((gr) => gr.kind !== 'path');
  clusters.forEach((gr, i) => {
    internal.set(gr.id, `c${i}`);
    g.setNode(`c${i}`, {});
  });
  for (const gr of clusters) {
    const parent = parentOf.get(gr.id);
    if (parent) g.setParent(internal.get(gr.id)!, internal.get(parent.id)!);
  }
  for (const d of drafts) {
    // the innermost cluster: a ui group, else the subgraph
    const ui = d.groups.find((id) => id.startsWith('ui:'));
    const cluster = ui ?? (d.scope !== null ? `subgraph:${d.scope}` : undefined);
    if (cluster && internal.has(cluster)) g.setParent(internal.get(d.id)!, internal.get(cluster)!);
  }
  edges.forEach((e, i) => {
    const size = edgeLabelSize(e);
    const v = internal.get(e.from);
    const w = internal.get(e.to);
    if (v && w) g.setEdge(v, w, { ...(size ?? { width: 0, height: 0 }), labelpos: 'c', minlen: 1 }, `e${i}`);
  });
  layout(g);

  const nodes: GraphLayoutNode[] = drafts.map((d) => ({ ...d, ...topLeft(g.node(internal.get(d.id)!) as DagreBox) }));
  const byId = new Map(nodes.map((n) => [n.id, n]));
  for (const gr of clusters) {
    const b = topLeft(g.node(internal.get(gr.id)!) as DagreBox);
    gr.box = { x: b.x, y: b.y - CLUSTER_TITLE, width: b.width, height: b.height + CLUSTER_TITLE };
  }
  const routed: GraphLayoutEdge[] = edges.map((e, i) => {
    const label = g.edge(internal.get(e.from)!, internal.get(e.to)!, `e${i}`) as
      { points?: Point[]; x?: number; y?: number; width: number; height: number } | undefined;
    const from = byId.get(e.from)!;
    const to = byId.get(e.to)!;
    const pts = (label?.points ?? []).map((p) => ({ x: p.x, y: p.y }));
    if (pts.length < 2) {
      pts.splice(0, pts.length, { x: from.x + from.width / 2, y: from.y + from.height }, { x: to.x + to.width / 2, y: to.y });
    }
    const hasLabel = label && label.width > 0 && label.x !== undefined && label.y !== undefined;
    const labelBox = hasLabel ? topLeft({ x: label.x!, y: label.y!, width: label.width, height: label.height }) : null;
    if (e.from === e.to) return { ...e, points: selfLoop(from, labelBox), labelBox };
    pts[0] = clip(from, pts[1]!, pts[0]!);
    pts[pts.length - 1] = clip(to, pts[pts.length - 2]!, pts[pts.length - 1]!);
    return { ...e, points: pts, labelBox };
  });
  return finish(flow, nodes, routed, groups);
}

/** Moves everything so the picture starts at the margin, and rounds every coordinate. */
function finish(flow: CompiledFlow, nodes: GraphLayoutNode[], edges: GraphLayoutEdge[], groups: GraphLayoutGroup[]): GraphLayout {
  const xs: number[] = [];
  const ys: number[] = [];
  const box = (b: { x: number; y: number; width: number; height: number }) => {
    xs.push(b.x, b.x + b.width);
    ys.push(b.y, b.y + b.height);
  };
  nodes.forEach(box);
  for (const e of edges) {
    for (const p of e.points) box({ ...p, width: 0, height: 0 });
    if (e.labelBox) box(e.labelBox);
  }
  for (const gr of groups) if (gr.box) box(gr.box);
  const m = SPACING.marginx;
  const dx = m - Math.min(m, ...xs);
  const dy = m - Math.min(m, ...ys);
  const at = <T extends { x: number; y: number }>(b: T): T => ({ ...b, x: round(b.x + dx), y: round(b.y + dy) });
  const sized = <T extends { x: number; y: number; width: number; height: number }>(b: T): T =>
    ({ ...at(b), width: round(b.width), height: round(b.height) });
  return {
    version: 1,
    flow: { id: flow.id, label: flow.label ?? null, revision: flow.revision, entry: flow.entry },
    direction: 'TB',
    width: round(Math.max(0, ...xs) + dx + m),
    height: round(Math.max(0, ...ys) + dy + m),
    nodes: nodes.map(sized),
    edges: edges.map((e) => ({ ...e, points: e.points.map(at), labelBox: e.labelBox ? sized(e.labelBox) : null })),
    groups: groups.map((gr) => ({ ...gr, box: gr.box ? sized(gr.box) : null })),
  };
}
