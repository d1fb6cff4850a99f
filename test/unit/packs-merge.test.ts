import { describe, expect, it } from 'vitest';
import { parseFlowText } from '../../server/flow/load.ts';
import { matchesPath, MergeRules } from '../../server/flow/packs/paths.ts';
import { formatReport } from '../../server/flow/packs/report.ts';
import { mergeAndCompile, mergeLayers, provenanceOf, type LayerInput } from '../../server/flow/packs/packs.ts';
import { FlowV1 as FlowSchema, Overlay, type FlowSource as FlowV1 } from '../../server/flow/schema.ts';

const base: FlowV1 = FlowSchema().parse({
  version: 'v1',
  id: 'flow.t',
  paths: { options: { p1: { label: 'P1', examples: ['one'] } } },
  commands: { human: ['human'] },
  nodes: [
    { id: 'q.a', type: 'question', key: 'a', prompt: 'A?', answer: { type: 'enum', options: ['x', 'y'] }, ui: { group: 'g', colour: 'blue' } },
    { id: 'q.b', type: 'question', key: 'b', prompt: 'B?' },
    { id: 'sg', type: 'subgraph', ref: 'sub' },
    { id: 'n.end', type: 'terminal' },
  ],
  edges: [
    { id: 'e.a.b', from: 'q.a', to: 'q.b' },
    { from: 'q.b', to: 'sg' },
    { id: 'e.sg.end', from: 'sg', to: 'n.end' },
  ],
  subgraphs: {
    sub: {
      nodes: [
        { id: 'q.s1', type: 'question', key: 's1', prompt: 'S1?' },
        { id: 'q.s2', type: 'question', key: 's2', prompt: 'S2?' },
      ],
    },
  },
});
const BASE = { flow: base, file: 'global/t.flow.json' };

/** A tenant (or other) layer from a partial overlay, checked against the Overlay schema. */
function layer(o: Record<string, unknown>, info: LayerInput['info'] = {}): LayerInput {
  const overlay = Overlay().parse({ version: 'v1', layer: 'tenant', extends: 'flow.t', ...o });
  return { overlay, info: { name: `${overlay.layer} ${overlay.id ?? 't'}`, ...info } };
}
const pack = (o: Record<string, unknown>) => layer({ layer: 'industry', id: 'p', ...o });
const node = (ir: FlowV1 | undefined, id: string) =>
  [...ir!.nodes, ...Object.values(ir!.subgraphs ?? {}).flatMap((s) => s.nodes)].find((n) => n.id === id) as Record<string, unknown> | undefined;

describe('field strategies', () => {
  it('override (the default) replaces a prompt and reports before and after with the layer', () => {
    const r = mergeLayers(BASE, [layer({ nodes: [{ id: 'q.a', prompt: 'A, please?' }] })]);
    expect(node(r.ir, 'q.a')?.prompt).toBe('A, please?');
    expect(r.report.changes).toEqual([
      { target: 'node', id: 'q.a', field: 'prompt', action: 'change', layer: 'tenant t', strategy: 'override', before: 'A?', after: 'A, please?', replaces: 'global (global/t.flow.json)' },
    ]);
  });

  it('override replaces a whole object field, dropping keys the layer leaves out', () => {
    const r = mergeLayers(BASE, [layer({ nodes: [{ id: 'q.a', ui: { colour: 'red' } }] })]);
    expect(node(r.ir, 'q.a')?.ui).toEqual({ colour: 'red' });
  });

  it('deep merges objects key by key and reports each changed leaf', () => {
    const r = mergeLayers(BASE, [layer({ merge: { 'nodes.*.ui': 'deep' }, nodes: [{ id: 'q.a', ui: { colour: 'red', icon: 'star' } }] })]);
    expect(node(r.ir, 'q.a')?.ui).toEqual({ group: 'g', colour: 'red', icon: 'star' });
    expect(r.report.changes.map((e) => [e.field, e.action, e.strategy])).toEqual([['ui.colour', 'change', 'deep'], ['ui.icon', 'add', 'deep']]);
  });

  it('concat appends list items; an item with the same value replaces its twin in place', () => {
    const r = mergeLayers(BASE, [layer({
      merge: { 'nodes.*.answer.options': 'concat' },
      nodes: [{ id: 'q.a', answer: { options: ['z', { value: 'y', label: 'Why' }] } }],
    })]);
    expect(node(r.ir, 'q.a')?.answer).toEqual({ type: 'enum', options: ['x', { value: 'y', label: 'Why' }, 'z'] });
    expect(r.report.changes).toMatchObject([{ id: 'q.a', field: 'answer.options', strategy: 'concat', before: ['x', 'y'], after: ['x', { value: 'y', label: 'Why' }, 'z'] }]);
  });

  it('a rule on a nested field merges the fields on the way there key by key', () => {
    const r = mergeLayers(BASE, [layer({ merge: { 'nodes.q.a.answer.options': 'concat' }, nodes: [{ id: 'q.a', answer: { options: ['z'] } }] })]);
    expect(node(r.ir, 'q.a')?.answer).toEqual({ type: 'enum', options: ['x', 'y', 'z'] });
  });

  it('concat on something that is not a list warns and replaces the value', () => {
    const r = mergeLayers(BASE, [layer({ merge: { 'nodes.*.prompt': 'concat' }, nodes: [{ id: 'q.a', prompt: 'New?' }] })]);
    expect(node(r.ir, 'q.a')?.prompt).toBe('New?');
    expect(r.diagnostics).toMatchObject([{ code: 'merge_strategy_mismatch', severity: 'warning' }]);
  });

  it('error: a later layer changing a field an earlier layer marked error fails the merge with a clear message', () => {
    const r = mergeLayers(BASE, [
      pack({ merge: { 'nodes.q.a.prompt': 'error' } }),
      layer({ nodes: [{ id: 'q.a', prompt: 'Sneaky?' }] }),
    ]);
    expect(r.ir).toBeUndefined();
    expect(r.report.conflicts).toEqual([
      { target: 'node', id: 'q.a', field: 'prompt', action: 'change', layer: 'tenant t', strategy: 'error', before: 'A?', after: 'Sneaky?',
        conflict: { rule: 'nodes.q.a.prompt', layer: 'industry p' } },
    ]);
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]).toMatchObject({ code: 'merge_conflict', severity: 'error', node: 'q.a' });
    expect(r.diagnostics[0]!.message).toBe(
      'merge conflict: tenant t cannot change nodes.q.a.prompt: industry p marks "nodes.q.a.prompt" as "error" (it stays "A?"; this layer sets "Sneaky?")');
  });

  it('error lets the declaring layer set the field, and a later layer may repeat the same value', () => {
    const r = mergeLayers(BASE, [
      pack({ merge: { 'nodes.q.a.prompt': 'error' }, nodes: [{ id: 'q.a', prompt: 'Locked?' }] }),
      layer({ nodes: [{ id: 'q.a', prompt: 'Locked?' }] }),
    ]);
    expect(r.report.conflicts).toEqual([]);
    expect(node(r.ir, 'q.a')?.prompt).toBe('Locked?');
  });

  it('an error lock covers everything below it and a later rule cannot lift it; removing the node conflicts too', () => {
    const r = mergeLayers(BASE, [
      pack({ merge: { 'nodes.q.a': 'error' } }),
      layer({ merge: { 'nodes.q.a.prompt': 'override' }, nodes: [{ id: 'q.a', prompt: 'Mine?' }] }),
      layer({ id: 'u', remove: { nodes: ['q.a'] } }),
    ]);
    expect(r.report.conflicts.map((c) => [c.layer, c.field, c.action])).toEqual([['tenant t', 'prompt', 'change'], ['tenant u', '', 'remove']]);
    expect(r.ir).toBeUndefined();
  });

  it('null deletes a field', () => {
    const r = mergeLayers(BASE, [layer({ nodes: [{ id: 'q.a', ui: null }] })]);
    expect(node(r.ir, 'q.a')).not.toHaveProperty('ui');
    expect(r.report.changes).toMatchObject([{ id: 'q.a', field: 'ui', action: 'remove', before: { group: 'g', colour: 'blue' } }]);
  });
});

describe('nodes and edges', () => {
  it('adds a node at the top level, after a given node, into a named subgraph, and as a new subgraph', () => {
    const r = mergeAndCompile(BASE, [layer({
      nodes: [
        { id: 'q.c', $after: 'q.s1', type: 'question', key: 'c', prompt: 'C?' },
        { id: 'n.alt', type: 'terminal', outcome: 'alt' },
      ],
      subgraphs: {
        sub: { nodes: [{ id: 'q.s3', type: 'question', key: 's3', prompt: 'S3?' }] },
        extra: { nodes: [{ id: 'q.x1', type: 'question', key: 'x1', prompt: 'X1?' }] },
      },
      edges: [{ from: 'q.b', to: 'n.alt', guard: "answers.b == 'no'" }],
    })]);
    expect(r.ir!.nodes.map((n) => n.id)).toEqual(['q.a', 'q.b', 'sg', 'n.end', 'n.alt']);
    expect(r.ir!.subgraphs!.sub!.nodes.map((n) => n.id)).toEqual(['q.s1', 'q.c', 'q.s2', 'q.s3']);
    expect(r.ir!.subgraphs!.extra!.nodes.map((n) => n.id)).toEqual(['q.x1']);
    expect(r.report.changes.find((e) => e.id === 'q.c')).toMatchObject({ action: 'add', field: '', place: 'sub after q.s1' });
    // the new edge sits with the other edges of q.b, the else-less guard after the plain one
    expect(r.ir!.edges!.filter((e) => e.from === 'q.b').map((e) => e.to)).toEqual(['sg', 'n.alt']);
  });

  it('changes only the fields a node entry names, anywhere in the flow', () => {
    const r = mergeLayers(BASE, [layer({ nodes: [{ id: 'q.s2', prompt: 'S2 again?', required: false }] })]);
    expect(node(r.ir, 'q.s2')).toEqual({ id: 'q.s2', type: 'question', key: 's2', prompt: 'S2 again?', required: false });
  });

  it('removing a node also removes its edges, and the report says why', () => {
    const r = mergeLayers(BASE, [layer({ remove: { nodes: ['q.b'] }, edges: [{ id: 'e.a.sg', from: 'q.a', to: 'sg' }] })]);
    expect(node(r.ir, 'q.b')).toBeUndefined();
    expect(r.ir!.edges).toEqual([{ id: 'e.sg.end', from: 'sg', to: 'n.end' }, { id: 'e.a.sg', from: 'q.a', to: 'sg' }]);
    expect(r.report.changes.map((e) => [e.target, e.id, e.action, e.cause ?? ''])).toEqual([
      ['node', 'q.b', 'remove', ''],
      ['edge', 'e.a.b', 'remove', 'node q.b removed'],
      ['edge', 'e.a.sg', 'add', ''],
      ['edge', 'q.b->sg', 'remove', 'node q.b removed'],
    ]);
  });

  it('removing a node from a sequence closes the gap', () => {
    const r = mergeAndCompile(BASE, [layer({ remove: { nodes: ['q.s1'] } })]);
    expect(r.ir!.subgraphs!.sub).toEqual({ nodes: [{ id: 'q.s2', type: 'question', key: 's2', prompt: 'S2?' }] });
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('an edge with the id of an existing one replaces it in place; fields it leaves out are dropped but the id stays', () => {
    const r = mergeLayers(BASE, [
      pack({ edges: [{ id: 'e.a.b', from: 'q.a', to: 'q.b', label: 'next', guard: 'has(answers.a)' }] }),
      layer({ edges: [{ id: 'e.a.b', from: 'q.a', to: 'sg' }, { from: 'q.b', to: 'sg', label: 'on' }] }),
    ]);
    expect(r.ir!.edges).toEqual([
      { id: 'e.a.b', from: 'q.a', to: 'sg' },
      { from: 'q.b', to: 'sg', label: 'on' },
      { id: 'e.sg.end', from: 'sg', to: 'n.end' },
    ]);
    expect(r.report.changes.filter((e) => e.layer === 'tenant t').map((e) => [e.id, e.field, e.action])).toEqual([
      ['e.a.b', 'guard', 'remove'], ['e.a.b', 'label', 'remove'], ['e.a.b', 'to', 'change'], ['q.b->sg', 'label', 'add'],
    ]);
  });

  it('removes edges by from and to, or by id; an unknown edge is a warning', () => {
    const r = mergeLayers(BASE, [layer({ remove: { edges: [{ from: 'q.b', to: 'sg' }, { id: 'e.sg.end' }, { id: 'e.nope' }] } })]);
    expect(r.ir!.edges).toEqual([{ id: 'e.a.b', from: 'q.a', to: 'q.b' }]);
    expect(r.diagnostics).toMatchObject([{ code: 'remove_unknown_edge', severity: 'warning' }]);
  });

  it('an edge added to a sequence first writes out the edges the sequence implied', () => {
    const r = mergeAndCompile(BASE, [layer({
      nodes: [{ id: 'q.s1', answer: { type: 'boolean' } }],
      edges: [{ from: 'q.s1', to: '__exit__', guard: 'answers.s1 == false' }],
    })]);
    expect(r.ir!.subgraphs!.sub!.edges).toEqual([
      { from: 'q.s1', to: 'q.s2' },
      { from: 'q.s1', to: '__exit__', guard: 'answers.s1 == false' },
      { from: 'q.s2', to: '__exit__' },
    ]);
    expect(r.report.changes.filter((e) => e.target === 'edge').map((e) => e.id)).toEqual(['q.s1->__exit__']);
    expect(r.flow).toBeDefined();
  });

  it('merges paths and commands key by key', () => {
    const r = mergeLayers(BASE, [layer({
      merge: { 'paths.options.*.examples': 'concat', 'commands.*': 'concat' },
      paths: { options: { p1: { examples: ['uno'] }, p2: { label: 'P2' } } },
      commands: { human: ['agent'] },
    })]);
    expect(r.ir!.paths).toEqual({ options: { p1: { label: 'P1', examples: ['one', 'uno'] }, p2: { label: 'P2' } } });
    expect(r.ir!.commands).toEqual({ human: ['human', 'agent'] });
    expect(r.report.changes.map((e) => [e.target, e.field, e.action])).toEqual([
      ['flow', 'commands.human', 'change'], ['flow', 'paths.options.p1.examples', 'change'], ['flow', 'paths.options.p2', 'add'],
    ]);
  });
});

describe('problems are diagnostics with positions in the layer file', () => {
  const fromText = (text: string, file: string): LayerInput => {
    const loaded = parseFlowText(text, file);
    if (!loaded.ok) throw new Error('fixture does not parse');
    return { overlay: Overlay().parse(loaded.doc.data), info: { name: 'tenant t', file }, map: loaded.doc.map };
  };

  it('points an unknown field in a node entry at its key', () => {
    const r = mergeLayers(BASE, [fromText('{"version":"v1","layer":"tenant","extends":"flow.t",\n "nodes":[\n  {"id":"q.a","promt":"x"}]}', 't.json')]);
    expect(r.ir).toBeUndefined();
    expect(r.diagnostics).toMatchObject([{ code: 'unknown_field', file: 't.json', line: 3, col: 15, node: 'q.a' }]);
    expect(r.diagnostics[0]!.message).toMatch(/unknown field 'promt' \(did you mean 'prompt'\?\)/);
  });

  it('a new node without a type is taken for a typo in an id', () => {
    const r = mergeLayers(BASE, [layer({ nodes: [{ id: 'q.aa', prompt: 'x' }] })]);
    expect(r.diagnostics).toMatchObject([{ code: 'unknown_node', severity: 'error', node: 'q.aa' }]);
  });

  it('rejects a malformed merge path and an overlay for another flow', () => {
    const r = mergeLayers(BASE, [layer({ merge: { 'nodes..prompt': 'error', 'answers.x': 'deep' } }), layer({ id: 'o', extends: 'flow.other' })]);
    expect(r.diagnostics.map((d) => d.code).sort()).toEqual(['bad_merge_path', 'bad_merge_path', 'wrong_base']);
  });

  it('maps a compile error in the merged flow to the layer that wrote the node', () => {
    const r = mergeAndCompile(BASE, [fromText('{"version":"v1","layer":"tenant","extends":"flow.t",\n"remove":{"nodes":["q.b"]}}', 'acme.json')]);
    expect(r.flow).toBeUndefined();
    const unreachable = r.diagnostics.filter((d) => d.code === 'unreachable_node');
    expect(unreachable.map((d) => [d.node, d.file])).toEqual([['n.end', 'global/t.flow.json'], ['sg', 'global/t.flow.json']]);
    expect(unreachable[0]!.message).toMatch(/\(merged flow; from global\)$/);
  });

  it('points a compile error in an edge a layer added at that edge in the layer file', () => {
    const text = '{"version":"v1","layer":"tenant","extends":"flow.t",\n"edges":[\n {"from":"q.a","to":"n.end","guard":"answers.zzz == 1"}]}';
    const r = mergeAndCompile(BASE, [fromText(text, 'acme.json')]);
    expect(r.flow).toBeUndefined();
    expect(r.diagnostics.find((d) => d.code === 'guard_unknown_answer_key')).toMatchObject({ file: 'acme.json', line: 3, col: 2, edge: 'q.a->n.end' });
  });

  it('says which layer removed a node that is still referenced', () => {
    const r = mergeAndCompile(BASE, [layer({ remove: { nodes: ['q.s2'] }, subgraphs: { sub: { entry: 'q.s2' } } })]);
    const d = r.diagnostics.find((x) => x.code === 'subgraph_entry');
    expect(d?.message).toMatch(/node 'q\.s2' was removed by tenant t/);
  });
});

describe('determinism and provenance', () => {
  const layers = () => [
    pack({ merge: { 'nodes.*.answer.options': 'concat' }, nodes: [{ id: 'q.a', answer: { options: ['p'] } }] }),
    layer({ id: 'b', nodes: [{ id: 'q.a', prompt: 'from b' }, { id: 'n.b', type: 'terminal' }] }),
    layer({ id: 'a', nodes: [{ id: 'q.a', prompt: 'from a', answer: { options: ['t'] } }, { id: 'n.a', type: 'terminal' }] }),
  ];

  it('gives the same flow, report and provenance on every run and for any input order', () => {
    const one = mergeLayers(BASE, layers());
    const two = mergeLayers(BASE, layers().reverse());
    expect(JSON.stringify(two)).toBe(JSON.stringify(one));
    expect(formatReport(two.report)).toBe(formatReport(one.report));
    // overlays of the same kind apply by id: a, then b
    expect(node(one.ir, 'q.a')?.prompt).toBe('from b');
    expect(one.ir!.nodes.slice(-2).map((n) => n.id)).toEqual(['n.a', 'n.b']);
    expect((node(one.ir, 'q.a')?.answer as { options: string[] }).options).toEqual(['x', 'y', 'p', 't']);
  });

  it('knows which layer set each field', () => {
    const r = mergeLayers(BASE, layers());
    expect(r.provenance['nodes.q.a.prompt']).toBe('tenant b');
    expect(r.provenance['nodes.q.a.answer.options']).toBe('tenant a');
    expect(r.provenance['nodes.q.b.prompt']).toBe('global (global/t.flow.json)');
    expect(provenanceOf(r.provenance, ['nodes', 'q.a', 'answer', 'type'])).toBe('global (global/t.flow.json)');
    expect(provenanceOf(r.provenance, ['nodes', 'n.a', 'type'])).toBe('tenant a');
    expect(r.report.changes.find((e) => e.id === 'q.a' && e.field === 'prompt' && e.layer === 'tenant b')?.replaces).toBe('tenant a');
  });
});

describe('merge paths', () => {
  it('matches ids with dots as one segment; * is one segment, ** any number', () => {
    expect(matchesPath('nodes.q.intent.prompt', ['nodes', 'q.intent', 'prompt'])).toBe(true);
    expect(matchesPath('nodes.*.prompt', ['nodes', 'q.intent', 'prompt'])).toBe(true);
    expect(matchesPath('nodes.q.*', ['nodes', 'q.intent'])).toBe(false);
    expect(matchesPath('nodes.*.answer.options', ['nodes', 'q.venue', 'answer'])).toBe(false);
    expect(matchesPath('nodes.**', ['nodes', 'q.venue', 'answer', 'options'])).toBe(true);
    expect(matchesPath('**.options', ['nodes', 'q.venue', 'answer', 'options'])).toBe(true);
    expect(matchesPath('**.options', ['paths', 'options'])).toBe(true);
  });

  it('the most specific rule wins, then the later layer', () => {
    const rules = new MergeRules();
    rules.add({ pattern: 'nodes.**', strategy: 'deep', layer: 1, label: 'p' });
    rules.add({ pattern: 'nodes.*.tags', strategy: 'concat', layer: 1, label: 'p' });
    rules.add({ pattern: 'nodes.q.a.tags', strategy: 'override', layer: 2, label: 't' });
    expect(rules.resolve(['nodes', 'q.b', 'tags'], 2).strategy).toBe('concat');
    expect(rules.resolve(['nodes', 'q.a', 'tags'], 2).strategy).toBe('override');
    expect(rules.resolve(['nodes', 'q.a', 'tags'], 1).strategy).toBe('concat');
    expect(rules.resolve(['nodes', 'q.a', 'ui'], 2).strategy).toBe('deep');
    expect(rules.resolve(['edges', 'e.1', 'guard'], 2).strategy).toBe('override');
  });
});
