import { round, textWidth, truncate, wrap, type TextStyle } from './text.ts';

// What each node and edge label shows, and how big its box is. The layout
// sizes boxes with these functions and the SVG renderer draws the same lines
// into them, so the two cannot disagree.

/** Node kinds of the layout: the flow's node types plus the exit of a subgraph. */
export type LayoutNodeType = 'question' | 'decision' | 'action' | 'subgraph' | 'terminal' | 'exit';

/** Edge kinds of the layout (see GraphLayout). */
export type LayoutEdgeKind = 'normal' | 'else' | 'invalid' | 'failure' | 'rejected' | 'no_path' | 'call' | 'exit';

/** One line of text inside a box (shortened text; the full text is in the tooltip). */
export interface TextLine {
  text: string;
  style: TextStyle;
  size: number;
  /** A role the stylesheet can target: title, id, meta. */
  role: 'title' | 'id' | 'meta' | 'guard' | 'kind';
}

/** The node fields the picture uses. */
export interface NodeFace {
  id: string;
  type: LayoutNodeType;
  label: string;
  key: string | null;
  answerType: string | null;
  call: string | null;
  ref: string | null;
  outcome: string | null;
}

/** The edge fields the picture uses. */
export interface EdgeFace {
  kind: LayoutEdgeKind;
  guard: string | null;
  label: string | null;
}

export const LINE_GAP = 3;
const PAD_X = 12;
const PAD_Y = 8;
const MIN_WIDTH = 120;
export const EXIT_SIZE = 34;

function line(text: string, max: number, style: TextStyle, size: number, role: TextLine['role']): TextLine {
  return { text: truncate(text, max), style, size, role };
}

/** The lines drawn inside a node, top to bottom. */
export function nodeLines(n: NodeFace): TextLine[] {
  if (n.type === 'exit') return [line('exit', 8, 'sans', 10, 'title')];
  const lines: TextLine[] = [];
  const titled = n.label !== n.id;
  if (!titled) lines.push(line(n.id, 36, 'bold', 12, 'id'));
  // diamonds grow in both directions with their text, so long titles wrap instead
  else if (n.type === 'decision') lines.push(...wrap(n.label, 18, 2).map((t) => ({ text: t, style: 'bold' as const, size: 12, role: 'title' as const })));
  else lines.push(line(n.label, 30, 'bold', 12, 'title'));
  if (titled) lines.push(line(n.id, 40, 'mono', 10.5, 'id'));
  const meta =
    n.type === 'question' ? `${n.key ?? ''}: ${n.answerType ?? 'text'}`
    : n.type === 'action' ? `call ${n.call ?? ''}`
    : n.type === 'subgraph' ? `enter ${n.ref ?? ''}`
    : n.type === 'terminal' ? `end: ${n.outcome ?? 'completed'}`
    : null;
  if (meta !== null) lines.push(line(meta, 40, 'mono', 10.5, 'meta'));
  return lines;
}

/** Height of a stack of lines (without padding). */
export function linesHeight(lines: readonly TextLine[]): number {
  return lines.reduce((h, l, i) => h + l.size * 1.25 + (i ? LINE_GAP : 0), 0);
}

/** Width of the widest line. */
export function linesWidth(lines: readonly TextLine[]): number {
  return Math.max(0, ...lines.map((l) => textWidth(l.text, l.size, l.style)));
}

/** The size of a node's shape: its lines plus padding, grown to fit the shape's geometry. */
export function nodeSize(n: NodeFace): { width: number; height: number } {
  if (n.type === 'exit') return { width: EXIT_SIZE, height: EXIT_SIZE };
  const lines = nodeLines(n);
  const tw = Math.ceil(linesWidth(lines));
  const th = Math.ceil(linesHeight(lines));
  const w = tw + 2 * PAD_X;
  const h = th + 2 * PAD_Y;
  switch (n.type) {
    // A text box tw×th fits in a rhombus W×H when tw/W + th/H ≤ 1; giving
    // the width 0.58 of that budget keeps diamonds from getting too wide or tall.
    case 'decision': return { width: Math.ceil(Math.max(MIN_WIDTH, (tw + 8) / 0.58)), height: Math.ceil((th + 4) / 0.42) };
    case 'action': return { width: Math.max(MIN_WIDTH, w + 16), height: h };
    case 'subgraph': return { width: Math.max(MIN_WIDTH, w + 8), height: h + 8 };
    case 'terminal': return { width: Math.max(MIN_WIDTH, w + h / 2), height: h };
    default: return { width: Math.max(MIN_WIDTH, w), height: h };
  }
}

/** The lines of an edge's label box, or none. */
export function edgeLabelLines(e: EdgeFace): TextLine[] {
  const lines: TextLine[] = [];
  if (e.label) lines.push(line(e.label, 28, 'sans', 10.5, 'title'));
  if (e.kind === 'invalid' || e.kind === 'failure' || e.kind === 'rejected' || e.kind === 'no_path') lines.push(line(`on ${e.kind}`, 20, 'sans', 10, 'kind'));
  if (e.kind === 'call') lines.push(line('calls', 10, 'sans', 10, 'kind'));
  if (e.guard === 'else') lines.push(line('else', 10, 'sans', 10, 'kind'));
  else if (e.guard) lines.push(line(e.guard, 34, 'mono', 10, 'guard'));
  return lines;
}

/** The size of an edge's label box, or null when the edge has no label. */
export function edgeLabelSize(e: EdgeFace): { width: number; height: number } | null {
  const lines = edgeLabelLines(e);
  if (!lines.length) return null;
  return { width: Math.ceil(linesWidth(lines)) + 10, height: Math.ceil(linesHeight(lines)) + 6 };
}

// Drawing shared by the server's SVG (render-svg.ts) and the console's live map (client/admin/flow-map.ts).

const r2 = (n: number) => String(round(n));

/** Fill and outline per node type (terminals by outcome). Attributes, not CSS, so a `ui.colour` hint can replace them. */
const PAINT: Record<string, { fill: string; stroke: string }> = {
  question: { fill: '#eef5fc', stroke: '#2b6cb0' },
  decision: { fill: '#fff8e6', stroke: '#b7791f' },
  action: { fill: '#f5eefa', stroke: '#805ad5' },
  subgraph: { fill: '#e6f6f4', stroke: '#2c7a7b' },
  terminal: { fill: '#edf7ee', stroke: '#2f855a' },
  escalated: { fill: '#fdecec', stroke: '#c53030' },
  abandoned: { fill: '#f1f2f4', stroke: '#718096' },
  exit: { fill: '#ffffff', stroke: '#2c7a7b' },
};

/** The paint of a node: by type, terminals by outcome. */
export function paint(n: { type: string; outcome?: string | null }): { fill: string; stroke: string } {
  return PAINT[n.type === 'terminal' && (n.outcome === 'escalated' || n.outcome === 'abandoned') ? n.outcome : n.type]!;
}

type Pt = { x: number; y: number };

/** d3's curveBasis: a smooth B-spline from the first point to the last, pulled towards the others. */
export function basisPath(p: readonly Pt[], move = true): string {
  let d = move ? `M${r2(p[0]!.x)} ${r2(p[0]!.y)}` : '';
  if (p.length === 2) return `${d}L${r2(p[1]!.x)} ${r2(p[1]!.y)}`;
  d += `L${r2((5 * p[0]!.x + p[1]!.x) / 6)} ${r2((5 * p[0]!.y + p[1]!.y) / 6)}`;
  const bez = (a: Pt, b: Pt, c: Pt) =>
    `C${r2((2 * a.x + b.x) / 3)} ${r2((2 * a.y + b.y) / 3)} ${r2((a.x + 2 * b.x) / 3)} ${r2((a.y + 2 * b.y) / 3)} ${r2((a.x + 4 * b.x + c.x) / 6)} ${r2((a.y + 4 * b.y + c.y) / 6)}`;
  for (let i = 2; i < p.length; i++) d += bez(p[i - 2]!, p[i - 1]!, p[i]!);
  const last = p[p.length - 1]!;
  return `${d}${bez(p[p.length - 2]!, last, last)}L${r2(last.x)} ${r2(last.y)}`;
}

/**
 * An edge's path: a B-spline (smooth where dagre's route jogs), split at the
 * label so the line runs into the middle of its label box, where the kink hides.
 */
export function edgePath(e: { points: readonly Pt[]; labelBox?: { x: number; y: number; width: number; height: number } | null }): string {
  const p = e.points;
  const b = e.labelBox;
  if (!b || p.length < 3) return basisPath(p);
  const c = { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  let k = 1;
  for (let i = 1; i < p.length - 1; i++) {
    if (Math.hypot(p[i]!.x - c.x, p[i]!.y - c.y) < Math.hypot(p[k]!.x - c.x, p[k]!.y - c.y)) k = i;
  }
  return basisPath(p.slice(0, k + 1)) + basisPath(p.slice(k), false);
}

/** A node's tooltip lines (label and id, type, answer, handler, subgraph, outcome, condition), shared by the SVG and the console's map. */
export function nodeTitleLines(n: {
  id: string; label: string; type: string; entry: boolean; key: string | null; answerType: string | null;
  call: string | null; ref: string | null; outcome: string | null; when: string | null;
}): string[] {
  return [
    n.label === n.id ? n.id : `${n.label} (${n.id})`,
    `type: ${n.type}${n.entry ? ' · entry' : ''}`,
    n.key !== null ? `answer: ${n.key} (${n.answerType})` : '',
    n.call !== null ? `calls handler ${n.call}` : '',
    n.ref !== null ? `enters subgraph ${n.ref}` : '',
    n.outcome !== null ? `outcome: ${n.outcome}` : '',
    n.when !== null ? `when: ${n.when}` : '',
  ].filter(Boolean);
}
