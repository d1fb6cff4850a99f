import { createHash } from 'node:crypto';
import type { CompiledFlow } from '../flow/compiled-flow.ts';
import type { GraphLayout } from './graph-layout.ts';
import { layoutFlow } from './layout.ts';
import { PATH_COLOURS, paint, renderSvg } from './svg.ts';
import { escapeXml as esc, FONT_STACK } from './text.ts';

// One self-contained page: the SVG is drawn here on the server, so the picture
// needs no script; the small inline script only adds zoom, pan and hover
// highlighting. Nothing is loaded from anywhere — a Content-Security-Policy
// allows exactly the inline stylesheet and script below (by hash), so even a
// flow label that slipped past escaping could not run or fetch anything.

const STYLE = `
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; font-family: ${FONT_STACK.sans}; color: #1a202c; background: #f7f8fa; }
header { padding: 14px 20px 6px; display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 16px; }
h1 { font-size: 18px; margin: 0; overflow-wrap: anywhere; }
.meta { margin: 0; color: #4a5568; font-size: 13px; overflow-wrap: anywhere; }
code { font-family: ${FONT_STACK.mono}; background: #edf2f7; padding: 0 4px; border-radius: 3px; font-size: 12px; }
.tools { margin-left: auto; display: flex; gap: 4px; }
.tools button { font: inherit; font-size: 12px; padding: 2px 8px; border: 1px solid #cbd5e0; background: #fff; border-radius: 4px; cursor: pointer; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 18px; padding: 8px 20px 10px; margin: 0; font-size: 12px; color: #2d3748; border-bottom: 1px solid #e2e8f0; list-style: none; }
.legend li { display: inline-flex; align-items: center; gap: 6px; }
.legend svg { flex: none; }
.legend .path-item { display: inline-flex; align-items: center; gap: 6px; }
.legend .hint { color: #718096; }
.canvas { padding: 14px 20px 28px; }
#graph { display: block; max-width: 100%; height: auto; margin: 0 auto; background: #fff; border: 1px solid #e2e8f0; border-radius: 6px; user-select: none; }
#graph.panning { cursor: grabbing; }
.group-subgraph rect { fill: #f0faf9; stroke: #2c7a7b; stroke-width: 1.2; stroke-dasharray: 7 4; }
.group-ui rect { fill: #f8f9fb; stroke: #a0aec0; stroke-dasharray: 2 3; }
.group-subgraph .group-title { fill: #2c7a7b; }
.group-ui .group-title { fill: #4a5568; }
.edge .line { fill: none; stroke: #4a5568; stroke-width: 1.4; }
.edge .hit { fill: none; stroke: transparent; stroke-width: 10; }
.edge-else .line { stroke-dasharray: 7 4; }
.edge-invalid .line, .edge-failure .line, .edge-rejected .line { stroke: #c53030; stroke-dasharray: 7 3; }
.edge-call .line { stroke: #2c7a7b; stroke-dasharray: 2 4; stroke-width: 1.6; }
.edge-exit .line { stroke: #2c7a7b; }
marker.c-normal path { fill: #4a5568; }
marker.c-alt path { fill: #c53030; }
marker.c-call path { fill: #2c7a7b; }
.edge-label rect { fill: #fff; fill-opacity: 0.94; stroke: #cbd5e0; stroke-width: 0.8; }
.edge-label .t-title { fill: #1a202c; font-weight: 600; }
.edge-label .t-guard { fill: #2d3748; }
.edge-label .t-kind { fill: #4a5568; font-style: italic; }
.edge-invalid .t-kind, .edge-failure .t-kind, .edge-rejected .t-kind { fill: #c53030; }
.edge-call .t-kind { fill: #2c7a7b; }
.node .t-title { fill: #1a202c; }
.node .t-id { fill: #2d3748; }
.node .t-meta { fill: #4a5568; }
.node-exit .t-title { fill: #2c7a7b; }
.start { fill: #1a202c; }
.start-line { stroke: #1a202c; stroke-width: 1.5; }
#graph.dim .node, #graph.dim .edge, #graph.dim .edge-label { opacity: 0.2; }
#graph.dim .hl { opacity: 1; }
.node.hl .shape { stroke-width: 3; }
.edge.hl .line { stroke-width: 2.6; }
@media print { .tools, .legend .hint { display: none; } }
`;

// Plain ES2017, no flow data: it reads ids from data- attributes.
const SCRIPT = `
(function () {
  var svg = document.getElementById('graph');
  if (!svg) return;
  var b = svg.viewBox.baseVal, home = [b.x, b.y, b.width, b.height], view = home.slice(), drag = null;
  function apply() { svg.setAttribute('viewBox', view.join(' ')); }
  function at(e) {
    var r = svg.getBoundingClientRect();
    return [view[0] + (e.clientX - r.left) / r.width * view[2], view[1] + (e.clientY - r.top) / r.height * view[3]];
  }
  function zoom(k, cx, cy) {
    if (view[2] * k > home[2] * 4 || view[2] * k < home[2] / 30) return;
    view = [cx - (cx - view[0]) * k, cy - (cy - view[1]) * k, view[2] * k, view[3] * k];
    apply();
  }
  svg.addEventListener('wheel', function (e) {
    if (!e.ctrlKey && !e.metaKey) return;
    e.preventDefault();
    var p = at(e);
    zoom(e.deltaY < 0 ? 0.85 : 1 / 0.85, p[0], p[1]);
  }, { passive: false });
  svg.addEventListener('pointerdown', function (e) {
    if (e.button !== 0) return;
    drag = { x: e.clientX, y: e.clientY, v: view.slice(), moved: false };
  });
  svg.addEventListener('pointermove', function (e) {
    if (!drag) return;
    if (!drag.moved && Math.abs(e.clientX - drag.x) + Math.abs(e.clientY - drag.y) < 4) return;
    if (!drag.moved) { drag.moved = true; svg.setPointerCapture(e.pointerId); svg.classList.add('panning'); }
    var r = svg.getBoundingClientRect();
    view[0] = drag.v[0] - (e.clientX - drag.x) / r.width * view[2];
    view[1] = drag.v[1] - (e.clientY - drag.y) / r.height * view[3];
    apply();
  });
  function end() { drag = null; svg.classList.remove('panning'); }
  svg.addEventListener('pointerup', end);
  svg.addEventListener('pointercancel', end);
  svg.addEventListener('dblclick', function () { view = home.slice(); apply(); });
  document.querySelectorAll('[data-zoom]').forEach(function (btn) {
    btn.addEventListener('click', function () {
      var z = btn.getAttribute('data-zoom');
      if (z === 'fit') { view = home.slice(); apply(); return; }
      zoom(z === 'in' ? 0.8 : 1.25, view[0] + view[2] / 2, view[1] + view[3] / 2);
    });
  });
  var tools = document.querySelector('.tools');
  if (tools) tools.hidden = false;

  var nodes = Array.prototype.slice.call(svg.querySelectorAll('.node'));
  var edges = Array.prototype.slice.call(svg.querySelectorAll('.edge, .edge-label'));
  var current = null;
  function clear() {
    current = null;
    svg.classList.remove('dim');
    Array.prototype.forEach.call(svg.querySelectorAll('.hl'), function (el) { el.classList.remove('hl'); });
  }
  function node(id) { for (var i = 0; i < nodes.length; i++) if (nodes[i].getAttribute('data-id') === id) return nodes[i]; return null; }
  function focus(g) {
    if (g === current) return;
    clear();
    current = g;
    var id = g.getAttribute('data-id');
    g.classList.add('hl');
    edges.forEach(function (el) {
      var from = el.getAttribute('data-from'), to = el.getAttribute('data-to');
      if (from !== id && to !== id) return;
      el.classList.add('hl');
      var other = node(from === id ? to : from);
      if (other) other.classList.add('hl');
    });
    svg.classList.add('dim');
  }
  svg.addEventListener('pointerover', function (e) {
    if (drag && drag.moved) return;
    var g = e.target.closest ? e.target.closest('.node') : null;
    if (g) focus(g); else if (current) clear();
  });
  svg.addEventListener('pointerleave', clear);
  document.querySelectorAll('[data-path]').forEach(function (item) {
    item.addEventListener('pointerenter', function () {
      clear();
      var k = item.getAttribute('data-path');
      nodes.forEach(function (n) { if ((' ' + (n.getAttribute('data-paths') || '') + ' ').indexOf(' ' + k + ' ') >= 0) n.classList.add('hl'); });
      svg.classList.add('dim');
    });
    item.addEventListener('pointerleave', clear);
  });
})();
`;

const hash = (s: string) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;

/** A small inline SVG for a legend entry. */
const swatch = (w: number, inner: string) => `<svg width="${w}" height="20" viewBox="0 0 ${w} 20" aria-hidden="true">${inner}</svg>`;

function legend(layout: GraphLayout): string {
  const p = (type: Parameters<typeof paint>[0]['type'], outcome: string | null = null) => {
    const c = paint({ type, outcome });
    return `fill="${c.fill}" stroke="${c.stroke}" stroke-width="1.5"`;
  };
  const items: string[] = [
    `${swatch(30, `<rect x="1" y="3" width="28" height="14" rx="3" ${p('question')}/>`)}question (label, id, key: type)`,
    `${swatch(30, `<path d="M15 1L29 10L15 19L1 10Z" ${p('decision')}/>`)}decision`,
    `${swatch(30, `<rect x="1" y="3" width="28" height="14" ${p('action')}/><path d="M6 3V17M24 3V17" stroke="${paint({ type: 'action', outcome: null }).stroke}"/>`)}action`,
    `${swatch(30, `<rect x="1" y="2" width="28" height="16" ${p('subgraph')}/><rect x="4" y="5" width="22" height="10" fill="none" stroke="${paint({ type: 'subgraph', outcome: null }).stroke}"/>`)}subgraph call`,
    `${swatch(30, `<rect x="1" y="3" width="28" height="14" rx="7" ${p('terminal')}/>`)}end`,
    `${swatch(30, `<rect x="1" y="3" width="28" height="14" rx="7" ${p('terminal', 'escalated')}/>`)}escalation`,
    `${swatch(20, `<circle cx="10" cy="10" r="8" ${p('exit')}/>`)}subgraph exit`,
    `${swatch(16, `<circle cx="8" cy="4" r="3.5" class="start"/><path d="M8 7V18" class="start-line"/>`)}entry`,
    `${swatch(30, '<rect x="1" y="2" width="28" height="16" rx="4" class="lg-subgraph"/>')}subgraph`,
  ];
  if (layout.groups.some((g) => g.kind === 'ui')) items.push(`${swatch(30, '<rect x="1" y="2" width="28" height="16" rx="4" class="lg-ui"/>')}ui group`);
  const line = (cls: string, marker: string) => swatch(40, `<g class="edge ${cls}"><path class="line" d="M2 10H36" marker-end="url(#${marker})"/></g>`);
  items.push(
    `${line('edge-normal', 'arrow')}next`,
    `${line('edge-else', 'arrow')}else`,
    `${line('edge-invalid', 'arrow-alt')}on invalid / failure / rejected`,
    `${line('edge-call', 'arrow-call')}calls subgraph`,
  );
  const paths = layout.groups.filter((g) => g.kind === 'path');
  paths.forEach((g, i) => {
    const colour = PATH_COLOURS[i % PATH_COLOURS.length];
    items.push(`<span data-path="${i}" class="path-item">${swatch(30, `<rect x="4" y="5" width="22" height="10" rx="2" fill="#fff" stroke="${colour}" stroke-opacity="0.45" stroke-width="7"/>`)}`
      + `path <code>${esc(g.name)}</code>${g.label !== g.name ? ` ${esc(g.label)}` : ''} (${g.nodes.length} nodes)</span>`);
  });
  items.push('<span class="hint">hover a node to follow its edges; drag to pan, Ctrl+wheel to zoom, double-click to reset</span>');
  return `<ul class="legend" aria-label="Legend">${items.map((i) => `<li>${i}</li>`).join('')}</ul>`;
}

const LEGEND_STYLE = `
.lg-subgraph { fill: #f0faf9; stroke: #2c7a7b; stroke-dasharray: 5 3; }
.lg-ui { fill: #f8f9fb; stroke: #a0aec0; stroke-dasharray: 2 3; }
`;

/** Renders a layout as a self-contained HTML page. */
export function renderHtmlFromLayout(layout: GraphLayout): string {
  const style = STYLE + LEGEND_STYLE;
  const csp = `default-src 'none'; style-src ${hash(style)}; script-src ${hash(SCRIPT)}; img-src data:; base-uri 'none'; form-action 'none'`;
  const { id, label, revision } = layout.flow;
  const edges = layout.edges.filter((e) => e.kind !== 'call').length;
  const nodes = layout.nodes.filter((n) => n.type !== 'exit').length;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="questline graph">
<title>${esc(id)} @ ${esc(revision)}${label ? ` — ${esc(label)}` : ''}</title>
<style>${style}</style>
</head>
<body>
<header>
<h1>${esc(label ?? id)}</h1>
<p class="meta">flow <code>${esc(id)}</code> · revision <code>${esc(revision)}</code> · ${nodes} nodes · ${edges} edges</p>
<div class="tools" hidden><button type="button" data-zoom="in" title="zoom in">+</button><button type="button" data-zoom="out" title="zoom out">−</button><button type="button" data-zoom="fit" title="fit">fit</button></div>
</header>
${legend(layout)}
<main class="canvas">
${renderSvg(layout)}
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

/** Renders a compiled flow as a self-contained HTML page with an inline SVG picture. */
export function renderHtml(flow: CompiledFlow): string {
  return renderHtmlFromLayout(layoutFlow(flow));
}
