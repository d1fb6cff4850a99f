import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { CompiledFlow } from '../../server/flow/compiled-flow.ts';
import { compileFile, compileText } from '../../server/flow/document.ts';
import { parseGuard } from '../../server/flow/guard/index.ts';
import { GraphLayout } from '../../server/render/graph-layout.ts';
import { renderJson } from '../../server/render/json.ts';
import { layoutFlow } from '../../server/render/layout.ts';
import { selectedPaths } from '../../server/render/paths.ts';

const SALES = 'flows/global/sales.flow.json';
const PATIENT = 'flows/global/patient-intake.flow.yaml';

function compiled(file: string): CompiledFlow {
  const r = compileFile(file);
  if (r.kind !== 'flow' || !r.flow) throw new Error(`${file} does not compile: ${JSON.stringify(r.diagnostics)}`);
  return r.flow;
}

/** A 50-node flow: three branches on paths, two subgraphs, actions, on-edges, a ui group. */
export function bigFlow(): Record<string, unknown> {
  const q = (id: string, label: string, type = 'text', extra: Record<string, unknown> = {}) => ({
    id, type: 'question', label, key: id.replace(/^q\./, ''), prompt: `${label}?`,
    answer: type === 'enum' ? { type, options: ['a', 'b', 'c'].map((value) => ({ value })) } : { type }, ...extra,
  });
  const chain = (ids: string[]) => ids.slice(1).map((to, i) => ({ from: ids[i]!, to }));
  return {
    version: 'v1', id: 'flow.big', label: 'Fifty-node test flow', entry: 'n.start',
    paths: { options: { buy: { label: 'Buying' }, support: { label: 'Support' } } },
    nodes: [
      { id: 'n.start', type: 'decision', label: 'Start' },
      q('q.intent', 'What do you need', 'enum'),
      { id: 'sg.quote', type: 'subgraph', label: 'Quote details', ref: 'quote' },
      ...['Budget range', 'Decision maker', 'Timeline', 'Competitors'].map((l, i) => q(`q.a${i + 1}`, l)),
      ...['Order number', 'Product', 'Serial number', 'Purchase date', 'Problem', 'Photos', 'Warranty'].map((l, i) => q(`q.b${i + 1}`, l)),
      { id: 'a.warranty', type: 'action', label: 'Check warranty status', call: 'erp.warranty' },
      { id: 'n.in_warranty', type: 'decision', label: 'Under warranty?', routes: { on: 'answers.b7', cases: { yes: 'sg.rma' }, default: 'q.b8' } },
      { id: 'sg.rma', type: 'subgraph', label: 'Return authorisation', ref: 'rma' },
      q('q.b8', 'Pay for repair', 'boolean'),
      ...['Topic', 'Details', 'Urgency', 'Attachments', 'Account number', 'Best channel'].map((l, i) => q(`q.c${i + 1}`, l)),
      ...['Name', 'Email', 'Phone', 'Company', 'Role', 'Preferred time'].map((l, i) => q(`q.k${i + 1}`, l, 'text', { ui: { group: 'contact' } })),
      { id: 'a.crm', type: 'action', label: 'Create CRM lead', call: 'crm.create' },
      { id: 'n.wrap', type: 'decision', label: 'Wrap up' },
      { id: 't.sales', type: 'terminal', label: 'Sales follow-up' },
      { id: 't.support', type: 'terminal', label: 'Ticket created' },
      { id: 't.human', type: 'terminal', label: 'Hand to a human', outcome: 'escalated' },
      { id: 't.abandon', type: 'terminal', label: 'Gave up', outcome: 'abandoned' },
    ],
    edges: [
      { from: 'n.start', to: 'q.intent' },
      { from: 'q.intent', to: 'sg.quote', guard: "answers.intent == 'a' || path == 'buy'", label: 'Buying' },
      { from: 'q.intent', to: 'q.b1', guard: "answers.intent == 'b' || path == 'support'", label: 'Support' },
      { from: 'q.intent', to: 'q.c1', guard: 'else' },
      { from: 'sg.quote', to: 'q.a1' },
      ...chain(['q.a1', 'q.a2', 'q.a3', 'q.a4', 'q.k1']),
      { from: 'q.a2', to: 't.human', on: 'invalid', label: 'Cannot say' },
      ...chain(['q.b1', 'q.b2', 'q.b3', 'q.b4', 'q.b5', 'q.b6', 'q.b7', 'a.warranty', 'n.in_warranty']),
      { from: 'a.warranty', to: 't.human', on: 'failure', label: 'ERP down' },
      { from: 'sg.rma', to: 'q.k1' },
      { from: 'q.b8', to: 'q.k1', guard: 'answers.b8 == true' },
      { from: 'q.b8', to: 't.abandon', guard: 'else', label: 'Declined' },
      ...chain(['q.c1', 'q.c2', 'q.c3', 'q.c4', 'q.c5', 'q.c6', 'q.k1']),
      ...chain(['q.k1', 'q.k2', 'q.k3', 'q.k4', 'q.k5', 'q.k6', 'a.crm', 'n.wrap']),
      { from: 'a.crm', to: 't.human', on: 'failure' },
      { from: 'n.wrap', to: 't.sales', guard: "answers.intent == 'a' || path == 'buy'" },
      { from: 'n.wrap', to: 't.support', guard: 'else' },
    ],
    subgraphs: {
      quote: {
        label: 'Quote details',
        nodes: [
          q('q.q1', 'Site size', 'integer'), q('q.q2', 'Indoor or outdoor', 'enum'),
          { id: 'n.q_route', type: 'decision', label: 'Where', routes: { on: 'answers.q2', cases: { a: 'q.q3', b: 'q.q4' }, default: 'q.q5' } },
          q('q.q3', 'Ceiling height', 'number'), q('q.q4', 'Pole count', 'integer'), q('q.q5', 'Describe the site'),
          q('q.q6', 'Existing fixtures'), q('q.q7', 'Target lux', 'integer'),
        ],
        edges: [
          ...chain(['q.q1', 'q.q2', 'n.q_route']),
          { from: 'q.q3', to: 'q.q6' }, { from: 'q.q4', to: 'q.q6' }, { from: 'q.q5', to: 'q.q6' },
          ...chain(['q.q6', 'q.q7']), { from: 'q.q7', to: '__exit__' },
        ],
      },
      rma: {
        label: 'Return authorisation',
        nodes: [q('q.r1', 'Shipping address'), q('q.r2', 'Box size', 'enum'), q('q.r3', 'Reason for return'), { id: 'a.rma', type: 'action', label: 'Issue RMA label', call: 'erp.rma' }],
        edges: [...chain(['q.r1', 'q.r2', 'q.r3', 'a.rma']), { from: 'a.rma', to: '__exit__' }, { from: 'a.rma', to: '__exit__', on: 'failure' }],
      },
    },
  };
}

function compiledBig(): CompiledFlow {
  const r = compileText(JSON.stringify(bigFlow()), 'big.flow.json');
  if (r.kind !== 'flow' || !r.flow) throw new Error(JSON.stringify(r.diagnostics));
  return r.flow;
}

/** A question that loops on itself until its answer is big enough. */
function compiledLoop(): CompiledFlow {
  const r = compileText(JSON.stringify({
    version: 'v1', id: 'flow.loop',
    nodes: [{ id: 'q.a', type: 'question', key: 'a', prompt: 'A?', answer: { type: 'integer' } }, { id: 't.end', type: 'terminal' }],
    edges: [{ from: 'q.a', to: 'q.a', guard: 'answers.a < 3', label: 'again' }, { from: 'q.a', to: 't.end', guard: 'else' }],
  }), 'loop.flow.json');
  if (r.kind !== 'flow' || !r.flow) throw new Error(JSON.stringify(r.diagnostics));
  return r.flow;
}

interface Box { x: number; y: number; width: number; height: number }
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const contains = (outer: Box, inner: Box) =>
  inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;

const flows: Array<[string, () => CompiledFlow]> = [
  ['sales', () => compiled(SALES)],
  ['patient intake', () => compiled(PATIENT)],
  ['50-node', compiledBig],
  ['self-loop', compiledLoop],
];

describe.each(flows)('graph layout JSON of the %s flow', (_name, load) => {
  const flow = load();
  const layout = layoutFlow(flow);

  it('matches the GraphLayout schema, version 1', () => {
    expect(GraphLayout.parse(JSON.parse(renderJson(flow)))).toEqual(layout);
    expect(layout.version).toBe(1);
    expect(layout.flow).toEqual({ id: flow.id, label: flow.label ?? null, revision: flow.revision, entry: flow.entry });
  });

  it('covers every node and every edge, plus subgraph calls and exits', () => {
    const real = layout.nodes.filter((n) => n.type !== 'exit').map((n) => n.id);
    expect(real).toEqual([...flow.nodes.keys()]);
    expect(layout.edges.filter((e) => e.kind !== 'call').map((e) => e.id)).toEqual(flow.edges.map((e) => e.id));
    const callers = [...flow.nodes.values()].filter((c) => c.node.type === 'subgraph').length;
    expect(layout.edges.filter((e) => e.kind === 'call')).toHaveLength(callers);
    const ids = new Set(layout.nodes.map((n) => n.id));
    for (const e of layout.edges) {
      expect(ids.has(e.from), e.id).toBe(true);
      expect(ids.has(e.to), e.id).toBe(true);
    }
    expect(new Set(layout.edges.map((e) => e.id)).size).toBe(layout.edges.length);
  });

  it('gives every node, edge point and label box finite coordinates inside the picture', () => {
    const all: Box[] = [
      ...layout.nodes,
      ...layout.edges.flatMap((e) => [...e.points.map((p) => ({ ...p, width: 0, height: 0 })), ...(e.labelBox ? [e.labelBox] : [])]),
      ...layout.groups.flatMap((g) => (g.box ? [g.box] : [])),
    ];
    for (const b of all) {
      for (const v of [b.x, b.y, b.width, b.height]) expect(Number.isFinite(v)).toBe(true);
      expect(contains({ x: 0, y: 0, width: layout.width, height: layout.height }, b)).toBe(true);
    }
    for (const n of layout.nodes) expect(n.width * n.height).toBeGreaterThan(0);
  });

  it('places no two nodes, and no node and edge label, on top of each other', () => {
    const boxes = [...layout.nodes.map((n) => ({ id: n.id, box: n as Box })), ...layout.edges.flatMap((e) => (e.labelBox ? [{ id: `label of ${e.id}`, box: e.labelBox }] : []))];
    const clashes: string[] = [];
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) if (overlaps(boxes[i]!.box, boxes[j]!.box)) clashes.push(`${boxes[i]!.id} × ${boxes[j]!.id}`);
    }
    expect(clashes).toEqual([]);
  });

  it('draws each cluster around its nodes, and keeps other nodes out of subgraph clusters', () => {
    for (const g of layout.groups.filter((gr) => gr.kind !== 'path')) {
      expect(g.box, g.id).not.toBeNull();
      expect(g.nodes.length, g.id).toBeGreaterThan(0);
      for (const id of g.nodes) expect(contains(g.box!, layout.nodes.find((n) => n.id === id)!), `${id} in ${g.id}`).toBe(true);
    }
    for (const g of layout.groups.filter((gr) => gr.kind === 'subgraph')) {
      for (const n of layout.nodes) {
        expect(n.scope === g.name, `${n.id} vs ${g.id}`).toBe(g.nodes.includes(n.id));
        if (!g.nodes.includes(n.id)) expect(overlaps(g.box!, n), `${n.id} outside ${g.id}`).toBe(false);
      }
    }
  });

  it('lists each node\'s groups in the order of `groups`', () => {
    for (const n of layout.nodes) {
      const expected = layout.groups.filter((g) => g.nodes.includes(n.id)).map((g) => g.id);
      expect(n.groups).toEqual(expected);
    }
  });

  it('routes every edge from its source\'s outline to its target\'s', () => {
    const byId = new Map(layout.nodes.map((n) => [n.id, n]));
    const near = (p: { x: number; y: number }, b: Box) =>
      p.x >= b.x - 1 && p.x <= b.x + b.width + 1 && p.y >= b.y - 1 && p.y <= b.y + b.height + 1;
    for (const e of layout.edges) {
      expect(near(e.points[0]!, byId.get(e.from)!), `${e.id} starts at ${e.from}`).toBe(true);
      expect(near(e.points.at(-1)!, byId.get(e.to)!), `${e.id} ends at ${e.to}`).toBe(true);
    }
  });

  it('is byte-identical across runs', () => {
    expect(renderJson(load())).toBe(renderJson(flow));
  });
});

describe('graph layout JSON content', () => {
  const sales = layoutFlow(compiled(SALES));
  const node = (id: string) => sales.nodes.find((n) => n.id === id)!;
  const edge = (id: string) => sales.edges.find((e) => e.id === id)!;

  it('describes nodes: type, key, label, answer type, ui hints, entry', () => {
    expect(node('q.budget')).toMatchObject({ type: 'question', key: 'budget', label: 'Budget', answerType: 'integer', scope: null, tags: ['sales'], ui: null });
    expect(node('q.name')).toMatchObject({ ui: { group: 'contact' }, groups: ['ui:contact'] });
    expect(node('a.crm_lookup')).toMatchObject({ type: 'action', call: 'crm.lookup_company', key: null });
    expect(node('sg.led')).toMatchObject({ type: 'subgraph', ref: 'subgraph.led_path' });
    expect(node('n.escalate')).toMatchObject({ type: 'terminal', outcome: 'escalated' });
    expect(node('q.company').when).toBe("answers.intention == 'buy_led' || path == 'buy_led'");
    expect(node('n.start').entry).toBe(true);
    expect(node('q.court_size')).toMatchObject({ entry: true, scope: 'subgraph.led_path' });
    expect(node('q.sport').entry).toBe(false);
    expect(node('subgraph.led_path/__exit__')).toMatchObject({ type: 'exit', scope: 'subgraph.led_path', label: 'exit' });
  });

  it('passes ui hints through unchanged', () => {
    const patient = layoutFlow(compiled(PATIENT));
    expect(patient.nodes.find((n) => n.id === 'q.red_flag_now')!.ui).toEqual({ group: 'visit', colour: 'red' });
  });

  it('gives each edge its kind, guard text and label', () => {
    expect(edge('e.start')).toMatchObject({ kind: 'normal', guard: null, label: null });
    expect(edge('e.intent.buy')).toMatchObject({
      kind: 'normal', label: 'Buying', guard: "answers.intention == 'buy_led' || (answers.intention == 'other' && path == 'buy_led')",
    });
    expect(edge('e.intent.other')).toMatchObject({ kind: 'else', guard: 'else', label: 'Something else' });
    expect(edge('e.budget.invalid')).toMatchObject({ kind: 'invalid', guard: null });
    expect(edge('e.crm.failure').kind).toBe('failure');
    expect(edge('e.wattage.exit')).toMatchObject({ kind: 'exit', to: 'subgraph.led_path/__exit__' });
    expect(edge('sg.led/call')).toMatchObject({ kind: 'call', from: 'sg.led', to: 'q.court_size' });
    expect(edge('n.venue_route->q.broadcast')).toMatchObject({ kind: 'normal', guard: "(answers.venue) == 'stadium'" });
    const patient = layoutFlow(compiled(PATIENT));
    expect(patient.edges.find((e) => e.id === 'e.review.rejected')!.kind).toBe('rejected');
  });

  it('groups each path\'s branch: the nodes reached only through edges that select the path', () => {
    const group = (id: string) => sales.groups.find((g) => g.id === id)!;
    expect(group('path:buy_led')).toMatchObject({ kind: 'path', name: 'buy_led', label: 'Buy LED lighting', box: null });
    expect(group('path:buy_led').nodes).toEqual([
      'sg.led', 'q.budget', 'n.budget_help', 'q.timeline',
      'q.court_size', 'q.sport', 'q.venue', 'n.venue_route', 'q.pole_count', 'q.broadcast', 'q.mounting_height', 'q.wattage',
    ]);
    expect(group('path:support').nodes).toEqual(['q.order_number', 'n.no_order', 'q.problem', 'q.safety_hazard', 'n.support_done', 'n.escalate']);
    // reachable on every path: in none
    for (const id of ['n.start', 'q.intent', 'q.other_details', 'q.name', 'n.done']) expect(node(id).groups.filter((g) => g.startsWith('path:'))).toEqual([]);
    expect(group('subgraph:subgraph.led_path')).toMatchObject({ kind: 'subgraph', label: 'LED project details' });
    expect(sales.groups.map((g) => g.id)).toEqual(['subgraph:subgraph.led_path', 'ui:contact', 'path:buy_led', 'path:support']);
  });

  it('reads which paths a guard selects, minding negation', () => {
    const sel = (src: string) => {
      const p = parseGuard(src);
      if (!p.ok) throw new Error(src);
      return [...selectedPaths(p.ast)].sort();
    };
    expect(sel("path == 'a'")).toEqual(['a']);
    expect(sel("'a' == path")).toEqual(['a']);
    expect(sel("answers.x == 1 || (answers.y && path == 'b')")).toEqual(['b']);
    expect(sel("path in ['a', 'b']")).toEqual(['a', 'b']);
    expect(sel("path != 'a'")).toEqual([]);
    expect(sel("!(path == 'a')")).toEqual([]);
    expect(sel("!(path != 'a')")).toEqual(['a']);
    expect(sel("answers.path == 'a'")).toEqual([]);
  });

  it('is byte-identical in a separate process (the CLI)', () => {
    const r = spawnSync(process.execPath, ['bin/questline.js', 'graph', SALES, '--format', 'json'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(renderJson(compiled(SALES)));
  });
});
