import type { GraphLayout, GraphLayoutEdge, GraphLayoutGroup, GraphLayoutNode } from './graph-layout.ts';
import { edgeLabelLines, edgePath, linesHeight, nodeLines, nodeTitleLines, paint, type TextLine } from './shapes.ts';
import { escapeXml as esc, FONT_STACK, round, truncate } from './text.ts';

// GraphLayout → one <svg> element. Works from the layout JSON alone, so any
// consumer of the JSON could draw the same picture. Every piece of flow text
// goes through esc(); nothing from the flow becomes an element name, a URL or
// script, and colours from `ui` hints are used only when they look like a colour.

/** Colours of path branches, in `groups` order of the path groups. */
export { paint } from './shapes.ts';

export const PATH_COLOURS = ['#3b82f6', '#f59e0b', '#10b981', '#ec4899', '#8b5cf6', '#0ea5e9'];

/** A `ui.colour` / `ui.color` hint, if it is a plain colour name or hex value. */
export function uiColour(n: Pick<GraphLayoutNode, 'ui'>): string | null {
  const c = n.ui?.colour ?? n.ui?.color;
  return typeof c === 'string' && /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,20})$/.test(c) ? c : null;
}

const f = (n: number) => String(round(n));
/** Text is sans-serif (set once on the root); monospace runs say so. */
const MONO = ` font-family="${esc(FONT_STACK.mono)}"`;

function textLines(lines: readonly TextLine[], cx: number, top: number): string {
  let y = top;
  return lines
    .map((l, i) => {
      if (i) y += 3;
      const mid = y + (l.size * 1.25) / 2;
      y += l.size * 1.25;
      return `<text class="t-${l.role}" x="${f(cx)}" y="${f(mid)}" font-size="${l.size}"${l.style === 'mono' ? MONO : ''}${l.style === 'bold' ? ' font-weight="bold"' : ''} text-anchor="middle" dominant-baseline="central">${esc(l.text)}</text>`;
    })
    .join('');
}

/** The outline of a node's shape as SVG markup. */
function shape(n: GraphLayoutNode, extra = ''): string {
  const { x, y, width: w, height: h } = n;
  const cx = x + w / 2;
  const cy = y + h / 2;
  switch (n.type) {
    case 'decision':
      return `<path class="shape"${extra} d="M${f(cx)} ${f(y)}L${f(x + w)} ${f(cy)}L${f(cx)} ${f(y + h)}L${f(x)} ${f(cy)}Z"/>`;
    case 'terminal':
      return `<rect class="shape"${extra} x="${f(x)}" y="${f(y)}" width="${f(w)}" height="${f(h)}" rx="${f(h / 2)}"/>`;
    case 'exit':
      return `<circle class="shape"${extra} cx="${f(cx)}" cy="${f(cy)}" r="${f(w / 2)}"/>`;
    default:
      return `<rect class="shape"${extra} x="${f(x)}" y="${f(y)}" width="${f(w)}" height="${f(h)}" rx="${n.type === 'question' ? 4 : 2}"/>`;
  }
}

/** The decorations that tell action and subgraph boxes apart from questions. */
function decorations(n: GraphLayoutNode): string {
  const { x, y, width: w, height: h } = n;
  if (n.type === 'action') {
    return `<path class="deco" stroke="${paint(n).stroke}" d="M${f(x + 8)} ${f(y)}V${f(y + h)}M${f(x + w - 8)} ${f(y)}V${f(y + h)}"/>`;
  }
  if (n.type === 'subgraph') {
    return `<rect class="deco" fill="none" stroke="${paint(n).stroke}" x="${f(x + 4)}" y="${f(y + 4)}" width="${f(w - 8)}" height="${f(h - 8)}" rx="2"/>`;
  }
  return '';
}

function nodeTitle(n: GraphLayoutNode, groups: readonly GraphLayoutGroup[]): string {
  const rows = [
    ...nodeTitleLines(n),
    n.tags.length ? `tags: ${n.tags.join(', ')}` : '',
    ...groups.filter((g) => n.groups.includes(g.id)).map((g) => `${g.kind}: ${g.label}`),
  ];
  return rows.filter(Boolean).join('\n');
}

function renderNode(n: GraphLayoutNode, groups: readonly GraphLayoutGroup[], pathIndex: ReadonlyMap<string, number>): string {
  const lines = nodeLines(n);
  const p = paint(n);
  const stroke = uiColour(n) ?? p.stroke;
  const paths = n.groups.filter((id) => pathIndex.has(id)).map((id) => pathIndex.get(id)!);
  // path branches: a coloured halo behind the shape, one ring per path
  const halos = paths
    .map((k, i) => shape(n, ` fill="none" stroke="${PATH_COLOURS[k % PATH_COLOURS.length]}" stroke-opacity="0.45" stroke-width="${8 + 6 * (paths.length - 1 - i)}"`))
    .join('')
    .replace(/class="shape"/g, 'class="halo"');
  const start = n.type !== 'exit' && n.entry && n.scope === null
    ? `<circle class="start" cx="${f(n.x + n.width / 2)}" cy="${f(n.y - 16)}" r="5"/><path class="start-line" d="M${f(n.x + n.width / 2)} ${f(n.y - 11)}V${f(n.y)}"/>`
    : '';
  const top = n.y + n.height / 2 - linesHeight(lines) / 2;
  const cls = `node node-${n.type}${n.entry ? ' entry' : ''}`;
  return `<g class="${cls}" data-id="${esc(n.id)}"${paths.length ? ` data-paths="${paths.join(' ')}"` : ''}>`
    + `<title>${esc(nodeTitle(n, groups))}</title>${start}${halos}${shape(n, ` fill="${p.fill}" stroke="${esc(stroke)}" stroke-width="${n.entry && n.scope === null ? 2.5 : 1.5}"`)}${decorations(n)}`
    + `${textLines(lines, n.x + n.width / 2, top)}</g>`;
}

function edgeTitle(e: GraphLayoutEdge): string {
  return [
    `${e.from} → ${e.to}${e.kind === 'normal' ? '' : ` (${e.kind})`}`,
    e.label ?? '',
    e.guard !== null && e.guard !== 'else' ? `guard: ${e.guard}` : '',
    `edge ${e.id}`,
  ].filter(Boolean).join('\n');
}

const MARKER: Record<GraphLayoutEdge['kind'], string> = {
  normal: 'arrow', else: 'arrow', exit: 'arrow-call', call: 'arrow-call', invalid: 'arrow-alt', failure: 'arrow-alt', rejected: 'arrow-alt', no_path: 'arrow',
};

function renderEdge(e: GraphLayoutEdge): string {
  return `<g class="edge edge-${e.kind}" data-from="${esc(e.from)}" data-to="${esc(e.to)}"><title>${esc(edgeTitle(e))}</title>`
    + `<path class="hit" d="${edgePath(e)}"/><path class="line" d="${edgePath(e)}" marker-end="url(#${MARKER[e.kind]})"/></g>`;
}

function renderEdgeLabel(e: GraphLayoutEdge): string {
  if (!e.labelBox) return '';
  const b = e.labelBox;
  const lines = edgeLabelLines(e);
  return `<g class="edge-label edge-${e.kind}" data-from="${esc(e.from)}" data-to="${esc(e.to)}"><title>${esc(edgeTitle(e))}</title>`
    + `<rect x="${f(b.x)}" y="${f(b.y)}" width="${f(b.width)}" height="${f(b.height)}" rx="3"/>`
    + `${textLines(lines, b.x + b.width / 2, b.y + (b.height - linesHeight(lines)) / 2)}</g>`;
}

function renderGroup(g: GraphLayoutGroup): string {
  if (!g.box) return '';
  const b = g.box;
  const title = g.label;
  const max = Math.max(4, Math.floor((b.width - 16) / (11 * 0.7)));
  return `<g class="group group-${g.kind}" data-group="${esc(g.id)}"><title>${esc(`${g.kind} ${g.name}: ${g.label}`)}</title>`
    + `<rect x="${f(b.x)}" y="${f(b.y)}" width="${f(b.width)}" height="${f(b.height)}" rx="${g.kind === 'subgraph' ? 10 : 8}"/>`
    + `<text class="group-title" x="${f(b.x + 10)}" y="${f(b.y + 14)}" font-size="11" font-weight="bold">${esc(truncate(title, max))}</text></g>`;
}

/** Arrowhead markers, one per edge colour. */
const DEFS = '<defs>'
  + [['arrow', 'c-normal'], ['arrow-alt', 'c-alt'], ['arrow-call', 'c-call']]
    .map(([id, cls]) => `<marker id="${id}" class="${cls}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" markerUnits="userSpaceOnUse" orient="auto"><path d="M0 0L10 5L0 10z"/></marker>`)
    .join('')
  + '</defs>';

/** Renders the layout as a standalone SVG element (styled by the page's stylesheet classes). */
export function renderSvg(layout: GraphLayout): string {
  const pathIndex = new Map(layout.groups.filter((g) => g.kind === 'path').map((g, i) => [g.id, i]));
  // subgraph clusters first, so ui groups nested in them are drawn on top
  const clusters = [...layout.groups.filter((g) => g.kind === 'subgraph'), ...layout.groups.filter((g) => g.kind === 'ui')];
  const title = `${layout.flow.label ?? layout.flow.id} (${layout.flow.id}, revision ${layout.flow.revision})`;
  return `<svg id="graph" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${f(layout.width)} ${f(layout.height)}" width="${f(layout.width)}" height="${f(layout.height)}" role="img" aria-label="${esc(title)}" font-family="${esc(FONT_STACK.sans)}">`
    + DEFS
    + `<g class="groups">${clusters.map(renderGroup).join('')}</g>`
    + `<g class="edges">${layout.edges.map(renderEdge).join('')}</g>`
    + `<g class="nodes">${layout.nodes.map((n) => renderNode(n, layout.groups, pathIndex)).join('')}</g>`
    + `<g class="edge-labels">${layout.edges.map(renderEdgeLabel).join('')}</g>`
    + '</svg>';
}
