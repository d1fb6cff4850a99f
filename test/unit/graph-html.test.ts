import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { CompiledFlow } from '../../server/flow/compiled-flow.ts';
import { compileFile, compileText } from '../../server/flow/document.ts';
import { renderHtml } from '../../server/render/html.ts';
import { layoutFlow } from '../../server/render/layout.ts';
import { escapeXml, truncate, wrap } from '../../server/render/text.ts';

const EVIL = '<script>alert(1)</script>';

function compiled(file: string): CompiledFlow {
  const r = compileFile(file);
  if (r.kind !== 'flow' || !r.flow) throw new Error(`${file} does not compile: ${JSON.stringify(r.diagnostics)}`);
  return r.flow;
}

/** A flow whose every free-text field tries to break out of the page. */
function hostileFlow() {
  const flow = {
    version: 'v1',
    id: 'flow.evil',
    label: `Evil ${EVIL} & "quotes"`,
    paths: { options: { p1: { label: `<img src=x onerror=alert(2)>` } } },
    nodes: [
      {
        id: 'q.a', type: 'question', key: 'a', label: `${EVIL}`, prompt: `Prompt ${EVIL}`,
        answer: { type: 'enum', options: [{ value: 'x' }, { value: 'y' }] },
        ui: { group: `</text><script>alert(3)</script>`, colour: 'red" onmouseover="alert(4)' },
        tags: ['<b>tag</b>'],
      },
      { id: 'n.b', type: 'decision', label: `"><svg onload=alert(5)>` },
      { id: 't.c', type: 'terminal', label: "it's <done>", outcome: '<custom>' },
      { id: 't.d', type: 'terminal' },
    ],
    edges: [
      { from: 'q.a', to: 'n.b', guard: "answers.a == '</title><script>alert(6)</script>' || path == 'p1'", label: `${EVIL}` },
      { from: 'q.a', to: 't.d', guard: 'else' },
      { from: 'n.b', to: 't.c' },
    ],
  };
  const r = compileText(JSON.stringify(flow), 'evil.flow.json');
  if (r.kind !== 'flow' || !r.flow) throw new Error(JSON.stringify(r.diagnostics));
  return r.flow;
}

describe('graph HTML', () => {
  it('escapes hostile labels, guards, ui hints and path labels', () => {
    const html = renderHtml(hostileFlow());
    // exactly one script element: ours
    expect(html.match(/<script/gi)).toHaveLength(1);
    expect(html).not.toMatch(/<script>alert/);
    expect(html).not.toMatch(/<img/);
    expect(html).not.toMatch(/<svg onload/);
    // escaped text never contains '<', so every '<' opens a real tag: none may carry an event handler
    expect(html).not.toMatch(/<[a-z][^>]*\son\w+=/i);
    expect(html).not.toContain('<b>tag</b>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(2)&gt;');
    expect(html).toContain('&quot;&gt;&lt;svg onload=alert(5)&gt;');
    expect(html).toContain('it&#39;s &lt;done&gt;');
    // a colour hint that is not a plain colour is dropped, not escaped into an attribute
    expect(html).not.toContain('alert(4)');
  });

  it('is self-contained: no external scripts, styles, fonts or images, and a CSP that allows only its own inline code', () => {
    const html = renderHtml(compiled('flows/global/sales.flow.json'));
    expect(html).not.toMatch(/<link|@import|@font-face|\ssrc=|\shref=/i);
    expect(html.replace('xmlns="http://www.w3.org/2000/svg"', '')).not.toMatch(/https?:\/\//);
    expect(html.match(/url\(([^)]*)\)/g)?.every((u) => u.startsWith('url(#'))).toBe(true);
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    const sha = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;
    const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)![1]!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`script-src ${sha(script)}`);
    expect(csp).toContain(`style-src ${sha(style)}`);
  });

  it('titles the page with the flow id and revision, and draws every node with its id', () => {
    const flow = compiled('flows/global/sales.flow.json');
    const html = renderHtml(flow);
    expect(html).toContain(`<title>flow.sales @ ${flow.revision}`);
    for (const id of flow.nodes.keys()) {
      expect(html).toContain(`data-id="${id}"`);
      expect(html).toMatch(new RegExp(`<text class="t-id"[^>]*>${id.replace(/\./g, '\\.')}</text>`));
    }
  });

  it('draws each node type with its own shape and a legend entry', () => {
    const flow = compiled('flows/global/sales.flow.json');
    const html = renderHtml(flow);
    const done = layoutFlow(flow).nodes.find((n) => n.id === 'n.done')!;
    expect(html).toMatch(/<g class="node node-decision[^"]*" data-id="n\.start"[^>]*>[\s\S]*?<path class="shape"[^>]*d="M[^"]*Z"/);
    const pill = /<g class="node node-terminal" data-id="n\.done"[^>]*>[\s\S]*?<rect class="shape"[^>]*rx="([\d.]+)"/.exec(html);
    expect(pill?.[1]).toBe(String(done.height / 2));
    expect(html).toMatch(/<g class="group group-subgraph" data-group="subgraph:subgraph\.led_path">/);
    expect(html).toContain('marker-end="url(#arrow)"');
    expect(html).toMatch(/<ul class="legend"/);
    for (const word of ['question', 'decision', 'action', 'subgraph call', 'end', 'else', 'on invalid']) expect(html).toContain(word);
  });

  it('shortens long guards on edges and keeps the full text in the tooltip', () => {
    const flow = compiled('flows/global/sales.flow.json');
    const html = renderHtml(flow);
    expect(html).toContain(`guard: ${escapeXml("answers.intention == 'buy_led' || (answers.intention == 'other' && path == 'buy_led')")}`);
    expect(html).toMatch(/<text class="t-guard"[^>]*>answers\.intention == &#39;buy_led&#39; \|\|…<\/text>/);
  });

  it('is byte-identical for the same flow', () => {
    const a = renderHtml(compiled('flows/global/patient-intake.flow.yaml'));
    const b = renderHtml(compiled('flows/global/patient-intake.flow.yaml'));
    expect(a).toBe(b);
  });

  it('keeps the layout\'s node boxes: SVG shapes sit exactly where the JSON says', () => {
    const flow = compiled('flows/global/sales.flow.json');
    const layout = layoutFlow(flow);
    const html = renderHtml(flow);
    const q = layout.nodes.find((n) => n.id === 'q.budget')!;
    expect(html).toMatch(new RegExp(`data-id="q\\.budget"[\\s\\S]*?<rect class="shape"[^>]* x="${q.x}" y="${q.y}" width="${q.width}" height="${q.height}"`));
  });
});

describe('text helpers', () => {
  it('escapes the five XML specials and drops control characters', () => {
    expect(escapeXml(`<a href="x">'&'</a>\u0001`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('truncates by code point with an ellipsis, on one line', () => {
    expect(truncate('a\n  b', 10)).toBe('a b');
    expect(truncate('abcdefghij', 5)).toBe('abcd…');
    expect(truncate('😀😀😀😀😀😀', 3)).toBe('😀😀…');
  });

  it('wraps words into lines and truncates what does not fit', () => {
    expect(wrap('Nurse review of red-flag symptoms', 18, 2)).toEqual(['Nurse review of', 'red-flag symptoms']);
    expect(wrap('one two three four five six', 9, 2)).toEqual(['one two', 'three fo…']);
    expect(wrap('supercalifragilistic', 8, 3)).toEqual(['supercal', 'ifragili', 'stic']);
  });
});
