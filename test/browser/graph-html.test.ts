import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { compileFile } from '../../server/flow/document.ts';
import { renderHtml } from '../../server/render/html.ts';
import { describeBrowser, launchBrowser, type TestBrowser } from '../support/browser.ts';

// Opens `questline graph --format html` output in headless Chromium, as a
// user would, and checks the picture: every node is visible with its id, no
// text spills out of its shape, nothing spills off the page, the inline script
// runs under the page's CSP, and a screenshot can be taken.

const FLOWS = [
  ['sales', 'flows/global/sales.flow.json'],
  ['patient intake', 'flows/global/patient-intake.flow.yaml'],
] as const;

// page.evaluate callbacks run in the page; the project compiles without the DOM
// lib (server code must not see browser globals), so here they are untyped.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const getComputedStyle: (el: any) => any;

const dir = mkdtempSync(join(tmpdir(), 'questline-graph-html-'));

describeBrowser('graph HTML in a browser', () => {
  let browser: TestBrowser;
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  async function open(name: string, file: string) {
    const result = compileFile(file);
    if (result.kind !== 'flow' || !result.flow) throw new Error(`${file} does not compile`);
    const flow = result.flow;
    const html = join(dir, `${name.replace(/\W+/g, '-')}.html`);
    writeFileSync(html, renderHtml(flow));
    const page = await browser.newPage({ width: 1280, height: 900 });
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('request', (r) => {
      if (!r.url().startsWith('file:')) problems.push(`request to ${r.url()}`);
    });
    await page.goto(pathToFileURL(html).href);
    return { flow, page, problems };
  }

  it.each(FLOWS)('shows every node of the %s flow as visible SVG text with its id', async (_name, file) => {
    const { flow, page, problems } = await open(_name, file);
    const ids = [...flow.nodes.keys()];
    const seen = await page.evaluate((wanted) => {
      const out: Record<string, string> = {};
      const nodes = Array.from(document.querySelectorAll('#graph g.node')) as any[];
      for (const id of wanted) {
        const g = nodes.find((n: any) => n.getAttribute('data-id') === id);
        if (!g) { out[id] = 'no node'; continue; }
        const text: any = (Array.from(g.querySelectorAll('text')) as any[]).find((t: any) => t.textContent === id);
        if (!text) { out[id] = 'no text'; continue; }
        const r = text.getBoundingClientRect();
        const style = getComputedStyle(text);
        const shapeStyle = getComputedStyle(g.querySelector('.shape')!);
        out[id] = r.width > 0 && r.height > 0 && style.visibility === 'visible' && style.display !== 'none'
          && Number(style.opacity) > 0 && style.fill !== shapeStyle.fill ? 'visible' : `hidden (${r.width}×${r.height})`;
      }
      return out;
    }, ids);
    expect(seen).toEqual(Object.fromEntries(ids.map((id) => [id, 'visible'])));
    expect(problems).toEqual([]);
    await page.close();
  });

  it.each(FLOWS)('keeps every element of the %s picture on the page and all text inside its shape', async (_name, file) => {
    const { page, problems } = await open(_name, file);
    const report = await page.evaluate(() => {
      const issues: string[] = [];
      const doc = document.documentElement;
      if (doc.scrollWidth > doc.clientWidth) issues.push(`page scrolls sideways: ${doc.scrollWidth} > ${doc.clientWidth}`);
      const svg = document.querySelector('#graph') as any;
      const frame = svg.getBoundingClientRect();
      if (frame.right > doc.clientWidth + 0.5) issues.push(`svg ends at ${frame.right}`);
      for (const el of Array.from(document.body.querySelectorAll('*')) as any[]) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) continue;
        if (el.closest('marker, defs, title')) continue;
        if (r.left < -0.5 || r.right > doc.clientWidth + 0.5) issues.push(`${el.tagName}.${el.getAttribute('class')} spills sideways`);
        if (svg.contains(el) && el !== svg && (r.left < frame.left - 0.5 || r.right > frame.right + 0.5 || r.top < frame.top - 0.5 || r.bottom > frame.bottom + 0.5)) {
          issues.push(`${el.tagName}.${el.getAttribute('class')} outside the picture`);
        }
      }
      // text inside its own shape, in SVG units (convex shapes: test the corners of each line)
      for (const g of Array.from(svg.querySelectorAll('g.node, g.edge-label')) as any[]) {
        const shape = g.querySelector('.shape, rect') as any;
        const s = shape.getBBox();
        const kind = g.classList.contains('node-decision') ? 'diamond' : g.classList.contains('node-terminal') ? 'pill' : g.classList.contains('node-exit') ? 'circle' : 'box';
        const inside = (x: number, y: number) => {
          const a = s.width / 2, b = s.height / 2;
          const dx = Math.abs(x - (s.x + a)), dy = Math.abs(y - (s.y + b));
          if (kind === 'diamond') return dx / a + dy / b <= 1.001;
          if (kind === 'circle') return dx * dx + dy * dy <= a * a * 1.002;
          if (kind === 'pill' && dx > a - b) return (dx - (a - b)) ** 2 + dy * dy <= b * b * 1.002;
          return dx <= a + 0.5 && dy <= b + 0.5;
        };
        for (const t of Array.from(g.querySelectorAll('text')) as any[]) {
          const r = t.getBBox();
          // glyph boxes include the font's full ascent/descent; trim it to the ink the eye sees
          const pad = r.height * 0.15;
          const corners: Array<[number, number]> = [[r.x, r.y + pad], [r.x + r.width, r.y + pad], [r.x, r.y + r.height - pad], [r.x + r.width, r.y + r.height - pad]];
          if (!corners.every(([x, y]) => inside(x, y))) {
            issues.push(`text "${t.textContent}" spills out of ${g.getAttribute('data-id') ?? 'an edge label'} (${kind})`);
          }
        }
      }
      // node shapes do not overlap on screen
      const boxes = Array.from(svg.querySelectorAll('g.node .shape')).map((s: any) => ({ id: s.parentElement!.getAttribute('data-id'), r: s.getBoundingClientRect() }));
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i]!.r, b = boxes[j]!.r;
          if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) issues.push(`${boxes[i]!.id} overlaps ${boxes[j]!.id}`);
        }
      }
      return issues;
    });
    expect(report).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('runs its inline script under its own CSP: hovering a node highlights its neighbours', async () => {
    const { page, problems } = await open('sales', 'flows/global/sales.flow.json');
    expect(await page.locator('.tools').isVisible()).toBe(true);
    await page.locator('#graph g.node[data-id="q.budget"]').hover();
    const state = await page.evaluate(() => ({
      dim: document.querySelector('#graph')!.classList.contains('dim'),
      lit: Array.from(document.querySelectorAll('#graph g.node.hl')).map((g: any) => g.getAttribute('data-id')).sort(),
    }));
    expect(state).toEqual({ dim: true, lit: ['n.budget_help', 'q.budget', 'q.timeline', 'sg.led'] });
    await page.locator('[data-zoom="in"]').click();
    expect(await page.locator('#graph').getAttribute('viewBox')).not.toBe(await page.evaluate(() => {
      const svg = document.querySelector('#graph') as any;
      return `0 0 ${svg.getAttribute('width')} ${svg.getAttribute('height')}`;
    }));
    expect(problems).toEqual([]);
    await page.close();
  });

  it.each(FLOWS)('takes a full-page screenshot of the %s flow', async (name, file) => {
    const { page } = await open(name, file);
    const shot = join(dir, `${name.replace(/\W+/g, '-')}.png`);
    await page.screenshot({ path: shot, fullPage: true });
    expect(statSync(shot).size).toBeGreaterThan(20_000);
    await page.close();
  });
});
