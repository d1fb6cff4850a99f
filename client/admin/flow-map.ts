import { edgeLabelLines, edgePath, linesHeight, nodeLines, nodeTitleLines, paint, type TextLine } from '../../server/render/shapes.ts';
import type { GraphEdge, GraphGroup, GraphLayout, GraphNode, Trail } from './types.ts';

// The live flow map: a session's flow revision drawn as SVG from the
// GraphLayout JSON with DOM calls (every piece of flow text is a text node,
// never markup), then restyled by class as the conversation moves: the
// current node, the nodes visited and the edges taken. The shapes and the
// lines inside them are the ones the server's renderer uses
// (server/flow/render-svg.ts, render-shapes.ts), so the map matches
// `questline graph --format html`.

const SVG = 'http://www.w3.org/2000/svg';

const r2 = (n: number) => String(Math.round(n * 100) / 100);

function el<K extends keyof SVGElementTagNameMap>(name: K, attrs: Record<string, string | number> = {}, ...children: Array<Node | null>): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, typeof v === 'number' ? r2(v) : v);
  for (const c of children) if (c) e.appendChild(c);
  return e;
}

function title(text: string): SVGTitleElement {
  const t = el('title');
  t.textContent = text;
  return t;
}

function textLines(lines: readonly TextLine[], cx: number, top: number): SVGTextElement[] {
  let y = top;
  return lines.map((l, i) => {
    if (i) y += 3;
    const mid = y + (l.size * 1.25) / 2;
    y += l.size * 1.25;
    const t = el('text', {
      class: `t-${l.role}`, x: cx, y: mid, 'font-size': l.size, 'text-anchor': 'middle', 'dominant-baseline': 'central',
      ...(l.style === 'mono' ? { 'font-family': "'DejaVu Sans Mono', Menlo, Consolas, monospace" } : {}),
      ...(l.style === 'bold' ? { 'font-weight': 'bold' } : {}),
    });
    t.textContent = l.text;
    return t;
  });
}

function shape(n: GraphNode, cls: string, attrs: Record<string, string | number> = {}): SVGElement {
  const { x, y, width: w, height: h } = n;
  const cx = x + w / 2;
  const cy = y + h / 2;
  switch (n.type) {
    case 'decision':
      return el('path', { class: cls, d: `M${r2(cx)} ${r2(y)}L${r2(x + w)} ${r2(cy)}L${r2(cx)} ${r2(y + h)}L${r2(x)} ${r2(cy)}Z`, ...attrs });
    case 'terminal':
      return el('rect', { class: cls, x, y, width: w, height: h, rx: h / 2, ...attrs });
    case 'exit':
      return el('circle', { class: cls, cx, cy, r: w / 2, ...attrs });
    default:
      return el('rect', { class: cls, x, y, width: w, height: h, rx: n.type === 'question' ? 4 : 2, ...attrs });
  }
}

function nodeTitle(n: GraphNode): string {
  return nodeTitleLines(n).join('\n');
}

function edgeTitle(e: GraphEdge): string {
  return [`${e.from} → ${e.to}${e.kind === 'normal' ? '' : ` (${e.kind})`}`, e.label ?? '', e.guard !== null && e.guard !== 'else' ? `guard: ${e.guard}` : ''].filter(Boolean).join('\n');
}

function marker(id: string, cls: string): SVGMarkerElement {
  return el('marker', { id, class: cls, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 8, markerHeight: 8, markerUnits: 'userSpaceOnUse', orient: 'auto' }, el('path', { d: 'M0 0L10 5L0 10z' }));
}

/** Figures drawn on the map by the Insights view: a badge per node, a count per edge, the worst drop-off called out. */
export interface MapOverlay {
  /** Per node id: the badge's text (one short line) and its tone; nodes without an entry are dimmed. */
  nodes: ReadonlyMap<string, { text: string; tone: 'ok' | 'warn' | 'bad' }>;
  /** Per layout edge id: how many sessions took it. */
  edges: ReadonlyMap<string, number>;
  /** The node with the biggest drop-off, and the words of its callout. */
  worst: { id: string; text: string } | null;
}

/** Where the map is and what it shows, in words (the picture's text alternative). */
export interface MapSummary {
  current: GraphNode | null;
  visited: number;
  taken: number;
}

export class FlowMap {
  private layout: GraphLayout | null = null;
  private svg: SVGSVGElement | null = null;
  private scale = 1;
  private readonly nodeEls = new Map<string, SVGGElement>();
  private readonly edgeEls = new Map<string, SVGGElement[]>();
  private current: string | null = null;
  /** The Studio's: what a click (or Enter) on a node does. */
  private pick: ((id: string) => void) | null = null;

  constructor(private readonly container: HTMLElement) {}

  /** Makes every node a button (click, Enter or Space) that calls `pick` with its id; applies to every later draw too. */
  selectable(pick: (id: string) => void): void {
    this.pick = pick;
    for (const [id, g] of this.nodeEls) this.makePickable(id, g);
  }

  /** Marks the node being edited (the Studio's cursor is in its source); null clears it. */
  select(id: string | null): void {
    for (const [nid, g] of this.nodeEls) {
      g.classList.toggle('selected', nid === id);
      if (nid === id) g.setAttribute('aria-current', 'true');
      else if (g.getAttribute('aria-current') === 'true') g.removeAttribute('aria-current');
    }
    const n = id ? this.layout?.nodes.find((x) => x.id === id) : undefined;
    if (n) {
      this.current = n.id;
      this.showCurrent();
    }
  }

  /** Paints what goldens never exercised (`missing` nodes and edges get the class `uncovered`); null takes the paint off. */
  coverage(missing: { nodes: ReadonlySet<string>; edges: ReadonlySet<string> } | null): void {
    for (const [id, g] of this.nodeEls) g.classList.toggle('uncovered', missing !== null && missing.nodes.has(id));
    for (const [id, parts] of this.edgeEls) for (const g of parts) g.classList.toggle('uncovered', missing !== null && missing.edges.has(id));
  }

  private makePickable(id: string, g: SVGGElement): void {
    if (!this.pick || g.dataset.pickable) return;
    g.dataset.pickable = '1';
    g.setAttribute('tabindex', '0');
    g.setAttribute('role', 'button');
    const pick = this.pick;
    g.addEventListener('click', () => pick(id));
    g.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        pick(id);
      }
    });
  }

  /** The revision drawn now (`flowId@revision`), or null. */
  get drawn(): string | null {
    return this.layout ? `${this.layout.flow.id}@${this.layout.flow.revision}` : null;
  }

  clear(): void {
    this.container.replaceChildren();
    this.layout = null;
    this.svg = null;
    this.nodeEls.clear();
    this.edgeEls.clear();
    this.current = null;
  }

  draw(layout: GraphLayout): void {
    this.clear();
    this.layout = layout;
    const name = `${layout.flow.label ?? layout.flow.id} (${layout.flow.id}, revision ${layout.flow.revision})`;
    const svg = el('svg', { viewBox: `0 0 ${r2(layout.width)} ${r2(layout.height)}`, role: this.pick ? 'group' : 'img', 'aria-label': `Flow map of ${name}`, 'font-family': "'DejaVu Sans', Verdana, sans-serif" });
    svg.appendChild(el('defs', {}, marker('qm-arrow', 'normal'), marker('qm-arrow-taken', 'taken')));

    const clusters: GraphGroup[] = [...layout.groups.filter((g) => g.kind === 'subgraph'), ...layout.groups.filter((g) => g.kind === 'ui')];
    const groups = el('g', { class: 'groups' });
    for (const g of clusters) {
      if (!g.box) continue;
      const b = g.box;
      const label = el('text', { class: 'group-title', x: b.x + 10, y: b.y + 14, 'font-size': 11, 'font-weight': 'bold' });
      label.textContent = g.label;
      groups.appendChild(el('g', { class: `group group-${g.kind}` }, title(`${g.kind} ${g.name}: ${g.label}`), el('rect', { x: b.x, y: b.y, width: b.width, height: b.height, rx: g.kind === 'subgraph' ? 10 : 8 }), label));
    }
    svg.appendChild(groups);

    const edges = el('g', { class: 'edges' });
    for (const e of layout.edges) {
      const g = el('g', { class: `edge edge-${e.kind}`, 'data-id': e.id }, title(edgeTitle(e)), el('path', { class: 'line', d: edgePath(e), 'marker-end': 'url(#qm-arrow)' }));
      edges.appendChild(g);
      this.edgeEls.set(e.id, [g]);
    }
    svg.appendChild(edges);

    const nodes = el('g', { class: 'nodes' });
    for (const n of layout.nodes) {
      const p = paint(n);
      const lines = nodeLines(n);
      const g = el('g', { class: `node node-${n.type}`, 'data-id': n.id }, title(nodeTitle(n)));
      if (n.type !== 'exit' && n.entry && n.scope === null) {
        g.appendChild(el('circle', { class: 'start', cx: n.x + n.width / 2, cy: n.y - 16, r: 5 }));
        g.appendChild(el('path', { class: 'start-line', d: `M${r2(n.x + n.width / 2)} ${r2(n.y - 11)}V${r2(n.y)}` }));
      }
      g.appendChild(shape(n, 'halo-current', { fill: 'none' }));
      g.appendChild(shape(n, 'shape', { fill: p.fill, stroke: p.stroke, 'stroke-width': 1.5 }));
      if (n.type === 'action') g.appendChild(el('path', { class: 'deco', fill: 'none', stroke: p.stroke, d: `M${r2(n.x + 8)} ${r2(n.y)}V${r2(n.y + n.height)}M${r2(n.x + n.width - 8)} ${r2(n.y)}V${r2(n.y + n.height)}` }));
      if (n.type === 'subgraph') g.appendChild(el('rect', { class: 'deco', fill: 'none', stroke: p.stroke, x: n.x + 4, y: n.y + 4, width: n.width - 8, height: n.height - 8, rx: 2 }));
      for (const t of textLines(lines, n.x + n.width / 2, n.y + n.height / 2 - linesHeight(lines) / 2)) g.appendChild(t);
      nodes.appendChild(g);
      this.nodeEls.set(n.id, g);
      this.makePickable(n.id, g);
    }
    svg.appendChild(nodes);

    const labels = el('g', { class: 'edge-labels' });
    for (const e of layout.edges) {
      if (!e.labelBox) continue;
      const b = e.labelBox;
      const lines = edgeLabelLines(e);
      const g = el('g', { class: `edge-label edge-${e.kind}`, 'data-id': e.id }, title(edgeTitle(e)), el('rect', { x: b.x, y: b.y, width: b.width, height: b.height, rx: 3 }));
      for (const t of textLines(lines, b.x + b.width / 2, b.y + (b.height - linesHeight(lines)) / 2)) g.appendChild(t);
      labels.appendChild(g);
      this.edgeEls.get(e.id)?.push(g);
    }
    svg.appendChild(labels);

    this.svg = svg;
    this.container.appendChild(svg);
    // readable first: at most a little smaller than 1:1; Fit shows the whole width
    this.zoom(Math.max(0.8, this.fitScale()));
  }

  /** Marks the current node, the visited nodes and the taken edges; returns what it shows. */
  update(trail: Trail, current: string | null): MapSummary {
    const visited = new Set(trail.nodes);
    const taken = new Set(trail.edges);
    for (const [id, g] of this.nodeEls) {
      g.classList.toggle('visited', visited.has(id));
      g.classList.toggle('unvisited', !visited.has(id) && id !== current);
      g.classList.toggle('current', id === current);
      if (id === current) g.setAttribute('aria-current', 'step');
      else g.removeAttribute('aria-current');
    }
    for (const [id, parts] of this.edgeEls) {
      for (const g of parts) g.classList.toggle('taken', taken.has(id));
      const line = parts[0]?.querySelector('.line');
      line?.setAttribute('marker-end', taken.has(id) ? 'url(#qm-arrow-taken)' : 'url(#qm-arrow)');
    }
    const moved = current !== this.current;
    const first = this.current === null;
    this.current = current;
    // a live move glides (unless the user prefers less motion); the first view jumps
    if (moved) this.showCurrent(!first && !matchMedia('(prefers-reduced-motion: reduce)').matches);
    const node = current ? this.layout?.nodes.find((n) => n.id === current) ?? null : null;
    return { current: node, visited: visited.size, taken: [...taken].filter((id) => this.edgeEls.has(id)).length };
  }

  /**
   * Draws (or, with null, removes) the Insights figures: a badge above each
   * node, edges as thick as the share of sessions that took them with their
   * count, the worst drop-off circled with a callout. Text is set as text.
   */
  overlay(o: MapOverlay | null): void {
    this.svg?.querySelector('g.overlay')?.remove();
    if (!this.svg || !this.layout) return;
    for (const [id, g] of this.nodeEls) {
      g.classList.toggle('unreached', o !== null && !o.nodes.has(id));
      g.classList.toggle('worst', o?.worst?.id === id);
    }
    const most = o ? Math.max(1, ...o.edges.values()) : 1;
    for (const [id, parts] of this.edgeEls) {
      const line = parts[0]?.querySelector<SVGPathElement>('.line');
      const n = o?.edges.get(id) ?? 0;
      parts[0]?.classList.toggle('flow', o !== null && n > 0);
      if (line) line.style.strokeWidth = o && n > 0 ? r2(1.5 + 7 * (n / most)) : '';
    }
    if (!o) return;
    const layer = el('g', { class: 'overlay', 'aria-hidden': 'true' });
    for (const e of this.layout.edges) {
      const n = o.edges.get(e.id);
      const line = this.edgeEls.get(e.id)?.[0]?.querySelector<SVGPathElement>('.line');
      if (!n || !line || typeof line.getTotalLength !== 'function') continue;
      const at = line.getPointAtLength(line.getTotalLength() * 0.5);
      const text = String(n);
      const w = 8 + text.length * 7;
      const t = el('text', { x: at.x, y: at.y, 'font-size': 11, 'font-weight': 'bold', 'text-anchor': 'middle', 'dominant-baseline': 'central' });
      t.textContent = text;
      layer.appendChild(el('g', { class: 'edge-count' }, el('rect', { x: at.x - w / 2, y: at.y - 8, width: w, height: 16, rx: 8 }), t));
    }
    for (const n of this.layout.nodes) {
      const info = o.nodes.get(n.id);
      if (!info) continue;
      const w = Math.max(40, 10 + info.text.length * 6.6);
      const x = n.x + n.width / 2 - w / 2;
      const y = n.y - 11;
      const t = el('text', { x: x + w / 2, y: y + 9, 'font-size': 11.5, 'font-weight': 'bold', 'text-anchor': 'middle', 'dominant-baseline': 'central' });
      t.textContent = info.text;
      layer.appendChild(el('g', { class: `badge badge-${info.tone}`, 'data-id': n.id }, el('rect', { x, y, width: w, height: 18, rx: 9 }), t));
      if (o.worst?.id === n.id) {
        const cw = Math.max(120, 14 + o.worst.text.length * 6.8);
        const cx = n.x + n.width + 14;
        const cy = n.y + n.height / 2 - 13;
        const c = el('text', { x: cx + 8, y: cy + 13, 'font-size': 12.5, 'font-weight': 'bold', 'dominant-baseline': 'central' });
        c.textContent = o.worst.text;
        layer.appendChild(el('g', { class: 'callout' },
          el('path', { d: `M${r2(n.x + n.width + 2)} ${r2(n.y + n.height / 2)}H${r2(cx)}` }),
          el('rect', { x: cx, y: cy, width: cw, height: 26, rx: 6 }), c));
      }
    }
    this.svg.appendChild(layer);
    // the callout may run past the layout's right edge: widen the picture to hold it
    if (o.worst) {
      const n = this.layout.nodes.find((x) => x.id === o.worst!.id);
      if (n) {
        const right = n.x + n.width + 14 + Math.max(120, 14 + o.worst.text.length * 6.8) + 8;
        const width = Math.max(this.layout.width, right);
        this.svg.setAttribute('viewBox', `0 0 ${r2(width)} ${r2(this.layout.height)}`);
        this.svg.setAttribute('width', r2(width * this.scale));
      }
    }
  }

  /** Scrolls the map so a node is in the middle. */
  showNode(id: string): void {
    const prev = this.current;
    this.current = id;
    this.showCurrent();
    this.current = prev;
  }

  /** Sets the zoom (1 = the layout's pixels). */
  zoom(scale: number): void {
    if (!this.svg || !this.layout) return;
    this.scale = Math.min(2.5, Math.max(0.2, scale));
    this.svg.setAttribute('width', r2(this.layout.width * this.scale));
    this.svg.setAttribute('height', r2(this.layout.height * this.scale));
  }

  zoomBy(factor: number): void {
    this.zoom(this.scale * factor);
    this.showCurrent();
  }

  /** Fits the map's width into the box (never above 1:1, never so small that text cannot be read). */
  fit(): void {
    this.zoom(this.fitScale());
    this.showCurrent();
  }

  private fitScale(): number {
    const room = this.container.clientWidth - 16;
    return this.layout && room > 0 ? Math.max(0.3, Math.min(1, room / this.layout.width)) : 1;
  }

  /** Scrolls the map so the current node is in the middle. */
  showCurrent(smooth = false): void {
    const n = this.current ? this.layout?.nodes.find((x) => x.id === this.current) : undefined;
    if (!n || !this.svg) return;
    const offsetX = Math.max(0, (this.container.clientWidth - this.layout!.width * this.scale) / 2);
    const left = offsetX + (n.x + n.width / 2) * this.scale - this.container.clientWidth / 2;
    const top = (n.y + n.height / 2) * this.scale - this.container.clientHeight / 2;
    this.container.scrollTo({ left: Math.max(0, left), top: Math.max(0, top), behavior: smooth ? 'smooth' : 'auto' });
  }
}
