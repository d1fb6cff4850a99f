import { textWidth, truncate, wrap, type TextStyle } from './render-text.ts';

// What each node and edge label shows, and how big its box is. The layout
// sizes boxes with these functions and the SVG renderer draws the same lines
// into them, so the two cannot disagree.

/** Node kinds of the layout: the flow's node types plus the exit of a subgraph. */
export type LayoutNodeType = 'question' | 'decision' | 'action' | 'subgraph' | 'terminal' | 'exit';

/** Edge kinds of the layout (see GraphLayout). */
export type LayoutEdgeKind = 'normal' | 'else' | 'invalid' | 'failure' | 'rejected' | 'call' | 'exit';

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
  if (e.kind === 'invalid' || e.kind === 'failure' || e.kind === 'rejected') lines.push(line(`on ${e.kind}`, 20, 'sans', 10, 'kind'));
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
