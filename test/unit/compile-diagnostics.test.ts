import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { Diagnostic } from '../../server/flow/diagnostic.ts';
import { compileText } from '../../server/flow/document.ts';

/** Compiles a flow given as an object (serialised as 2-space JSON so positions are real). */
function check(doc: Record<string, unknown>) {
  const text = JSON.stringify({ version: 'v1', id: 'flow.t', ...doc }, null, 2);
  return { text, ...compileText(text, 't.flow.json') };
}
const codes = (ds: readonly Diagnostic[], severity?: Diagnostic['severity']) =>
  ds.filter((d) => !severity || d.severity === severity).map((d) => d.code);
const q = (id: string, key: string, extra: Record<string, unknown> = {}) => ({ id, type: 'question', key, prompt: `${key}?`, ...extra });
const end = (id = 'n.end', extra: Record<string, unknown> = {}) => ({ id, type: 'terminal', ...extra });

/** Line (1-based) of the first occurrence of `needle` in `text`. */
const lineOf = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length;

describe('compiler diagnostics', () => {
  it('compiles a correct flow with no diagnostics and returns an indexed flow', () => {
    const r = check({ nodes: [q('q.a', 'a'), end()], edges: [{ from: 'q.a', to: 'n.end' }] });
    expect(r.diagnostics).toEqual([]);
    expect(r.kind === 'flow' && r.flow?.nodes.get('q.a')?.out[0]?.to).toBe('n.end');
  });

  it('reports a dangling edge at its line and column, naming both ids', () => {
    const r = check({ nodes: [q('q.a', 'a'), end()], edges: [{ from: 'q.a', to: 'q.nowhere' }] });
    const d = r.diagnostics.find((x) => x.code === 'dangling_edge')!;
    expect(d.severity).toBe('error');
    expect(d.message).toContain("'q.a'");
    expect(d.message).toContain("'q.nowhere'");
    expect(d.line).toBe(lineOf(r.text, '"to": "q.nowhere"'));
    expect(d.col).toBe(r.text.split('\n')[d.line! - 1]!.indexOf('"q.nowhere"') + 1);
    expect(r.kind === 'flow' && r.flow).toBeFalsy();
  });

  it('reports an edge from an unknown node', () => {
    const r = check({ nodes: [q('q.a', 'a'), end()], edges: [{ from: 'q.a', to: 'n.end' }, { from: 'q.ghost', to: 'n.end' }] });
    expect(codes(r.diagnostics)).toContain('dangling_edge');
  });

  it('reports duplicate node ids, also across subgraphs', () => {
    const r = check({
      nodes: [q('q.a', 'a'), { id: 'sg', type: 'subgraph', ref: 's' }, end()],
      edges: [{ from: 'q.a', to: 'sg' }, { from: 'sg', to: 'n.end' }],
      subgraphs: { s: { nodes: [q('q.a', 'b')], edges: [{ from: 'q.a', to: '__exit__' }] } },
    });
    expect(codes(r.diagnostics, 'error')).toContain('duplicate_node');
  });

  it('reports the same answer key asked twice on one route', () => {
    const r = check({ nodes: [q('q.a', 'email'), q('q.b', 'email'), end()] });
    const d = r.diagnostics.find((x) => x.code === 'duplicate_key_on_route')!;
    expect(d.node).toBe('q.b');
  });

  it('allows the same key on two different branches, and on purpose with always_ask', () => {
    const branches = check({
      nodes: [q('q.k', 'kind', { answer: { type: 'enum', options: ['x', 'y'] } }), q('q.x', 'email'), q('q.y', 'email'), end()],
      edges: [
        { from: 'q.k', to: 'q.x', guard: "answers.kind == 'x'" }, { from: 'q.k', to: 'q.y', guard: 'else' },
        { from: 'q.x', to: 'n.end' }, { from: 'q.y', to: 'n.end' },
      ],
    });
    expect(codes(branches.diagnostics)).not.toContain('duplicate_key_on_route');
    const again = check({ nodes: [q('q.a', 'email'), q('q.b', 'email', { always_ask: true }), end()] });
    expect(codes(again.diagnostics)).not.toContain('duplicate_key_on_route');
  });

  it('reports an unknown entry, an entry inside a subgraph, and a flow with no nodes', () => {
    expect(codes(check({ entry: 'q.zzz', nodes: [q('q.a', 'a'), end()] }).diagnostics)).toContain('unknown_entry');
    expect(codes(check({
      entry: 'q.in', nodes: [{ id: 'sg', type: 'subgraph', ref: 's' }, end()],
      subgraphs: { s: { nodes: [q('q.in', 'a')] } },
    }).diagnostics)).toContain('unknown_entry');
    expect(codes(check({ nodes: [] }).diagnostics)).toContain('no_nodes');
  });

  it('reports unreachable nodes', () => {
    const r = check({ nodes: [q('q.a', 'a'), q('q.lost', 'b'), end()], edges: [{ from: 'q.a', to: 'n.end' }] });
    const d = r.diagnostics.find((x) => x.code === 'unreachable_node')!;
    expect(d.node).toBe('q.lost');
    expect(d.line).toBe(lineOf(r.text, '"id": "q.lost"') - 1); // the node object's opening brace
  });

  it('reports a subgraph that never reaches __exit__', () => {
    const r = check({
      nodes: [{ id: 'sg', type: 'subgraph', ref: 's' }, end()], edges: [{ from: 'sg', to: 'n.end' }],
      subgraphs: { s: { nodes: [q('q.in', 'a'), end('n.inner')], edges: [{ from: 'q.in', to: 'n.inner' }] } },
    });
    expect(codes(r.diagnostics, 'error')).toContain('subgraph_no_exit');
  });

  it('reports an unknown subgraph ref and a subgraph that enters itself', () => {
    expect(codes(check({ nodes: [{ id: 'sg', type: 'subgraph', ref: 'nope' }, end()] }).diagnostics)).toContain('unknown_subgraph');
    const rec = check({
      nodes: [{ id: 'sg', type: 'subgraph', ref: 's' }, end()],
      subgraphs: { s: { nodes: [q('q.in', 'a'), { id: 'sg2', type: 'subgraph', ref: 's' }] } },
    });
    expect(codes(rec.diagnostics)).toContain('recursive_subgraph');
  });

  it('reports __exit__ outside a subgraph', () => {
    const r = check({ nodes: [q('q.a', 'a')], edges: [{ from: 'q.a', to: '__exit__' }] });
    expect(codes(r.diagnostics)).toContain('exit_outside_subgraph');
  });

  it('reports a subgraph entry that is not one of its nodes', () => {
    const r = check({
      nodes: [q('q.top', 't'), { id: 'sg', type: 'subgraph', ref: 's' }, end()],
      subgraphs: { s: { entry: 'q.top', nodes: [q('q.in', 'a')] } },
    });
    expect(codes(r.diagnostics)).toContain('subgraph_entry');
  });

  it('reports edges that jump into or out of a subgraph', () => {
    const r = check({
      nodes: [q('q.a', 'a'), { id: 'sg', type: 'subgraph', ref: 's' }, end()],
      edges: [{ from: 'q.a', to: 'q.in' }, { from: 'q.a', to: 'sg', guard: 'else' }, { from: 'sg', to: 'n.end' }],
      subgraphs: { s: { nodes: [q('q.in', 'b')] } },
    });
    expect(codes(r.diagnostics)).toContain('cross_scope_edge');
  });

  it('reports guard errors with the column inside the expression', () => {
    const r = check({
      nodes: [q('q.a', 'age', { answer: { type: 'integer' } }), end(), end('n.other')],
      edges: [{ from: 'q.a', to: 'n.end', guard: 'answers.age >= (18' }, { from: 'q.a', to: 'n.other', guard: 'else' }],
    });
    const d = r.diagnostics.find((x) => x.code === 'guard_syntax')!;
    expect(d).toBeDefined();
    const line = r.text.split('\n')[d.line! - 1]!;
    expect(d.line).toBe(lineOf(r.text, '(18'));
    expect(d.col).toBeGreaterThan(line.indexOf('answers.age'));
  });

  it('reports a guard reading an unknown answer key or calling an unknown function', () => {
    const r = check({
      nodes: [q('q.a', 'name'), end(), end('n.x')],
      edges: [{ from: 'q.a', to: 'n.end', guard: "answers.nmae == 'x'" }, { from: 'q.a', to: 'n.x', guard: 'shout(answers.name)' }],
    });
    expect(codes(r.diagnostics)).toEqual(expect.arrayContaining(['guard_unknown_answer_key', 'guard_unknown_function']));
    const unknown = r.diagnostics.find((d) => d.code === 'guard_unknown_answer_key')!;
    expect(r.text.split('\n')[unknown.line! - 1]!.slice(unknown.col! - 1)).toMatch(/^nmae/);
  });

  it('warns at the literal when a guard compares path or a declared context key with a value that is not declared', () => {
    const doc = (pathName: string, region: string) => ({
      interface: { context: { type: 'object', properties: { region: { type: 'string', enum: ['eu', 'us'] }, clinic_id: { type: 'string' } } } },
      paths: { prompt: 'Buy or support?', options: { buy: { label: 'Buy' }, support: { label: 'Support' } } },
      nodes: [q('q.a', 'name'), end(), end('n.x'), end('n.y')],
      edges: [
        { from: 'q.a', to: 'n.x', guard: `path == '${pathName}'` },
        { from: 'q.a', to: 'n.y', guard: `context.region == '${region}' && context.clinic_id == 'anything'` },
        { from: 'q.a', to: 'n.end' },
      ],
    });
    expect(check(doc('support', 'eu')).diagnostics).toEqual([]);
    const r = check(doc('suport', 'asia'));
    const warned = r.diagnostics.filter((d) => d.code === 'guard_type_mismatch');
    expect(warned.map((d) => d.message)).toEqual([
      expect.stringContaining("'suport' is not an option of path (options: buy, support)"),
      expect.stringContaining("'asia' is not an option of context.region (options: eu, us)"),
    ]);
    for (const [d, needle] of [[warned[0]!, "'suport'"], [warned[1]!, "'asia'"]] as const) {
      expect(r.text.split('\n')[d.line! - 1]!.slice(d.col! - 1)).toMatch(new RegExp(`^${needle}`));
    }
  });

  it('reports value outside validate, and accepts it inside validate', () => {
    const r = check({ nodes: [q('q.a', 'a', { when: 'value == 1' }), end()] });
    expect(codes(r.diagnostics)).toContain('guard_value_outside_validate');
    const ok = check({ nodes: [q('q.a', 'a', { answer: { type: 'integer' }, validate: 'value >= 18' }), end()] });
    expect(ok.diagnostics).toEqual([]);
  });

  it('reports prototype access as a compile error', () => {
    for (const guard of ['answers.__proto__ == null', "answers['constructor'] == null", 'context.a.prototype == 1']) {
      const r = check({ nodes: [q('q.a', 'a'), end(), end('n.b')], edges: [{ from: 'q.a', to: 'n.end', guard }, { from: 'q.a', to: 'n.b', guard: 'else' }] });
      expect(codes(r.diagnostics), guard).toContain('guard_prototype_access');
    }
  });

  it('reports a cycle with no way out, but allows a cycle that can leave', () => {
    const trapped = check({
      nodes: [q('q.a', 'a'), q('q.b', 'b'), end()],
      edges: [{ from: 'q.a', to: 'q.b' }, { from: 'q.b', to: 'q.a' }],
    });
    const d = trapped.diagnostics.find((x) => x.code === 'trapped_cycle')!;
    expect(d.message).toContain("'q.a'");
    expect(d.message).toContain("'q.b'");
    const loop = check({
      nodes: [q('q.a', 'a', { answer: { type: 'boolean' }, always_ask: true }), end()],
      edges: [{ from: 'q.a', to: 'n.end', guard: 'answers.a == true' }, { from: 'q.a', to: 'q.a', guard: 'else' }],
    });
    expect(codes(loop.diagnostics)).not.toContain('trapped_cycle');
  });

  it('reports a terminal with outgoing edges', () => {
    const r = check({ nodes: [q('q.a', 'a'), end()], edges: [{ from: 'q.a', to: 'n.end' }, { from: 'n.end', to: 'q.a' }] });
    expect(codes(r.diagnostics)).toContain('terminal_has_edges');
  });

  it('reports two else edges on one node', () => {
    const r = check({
      nodes: [q('q.a', 'a'), end(), end('n.b')],
      edges: [{ from: 'q.a', to: 'n.end', guard: 'else' }, { from: 'q.a', to: 'n.b', guard: 'else' }],
    });
    expect(codes(r.diagnostics)).toContain('duplicate_else');
  });

  it('reports an enum without options and one with duplicate values', () => {
    expect(codes(check({ nodes: [q('q.a', 'a', { answer: { type: 'enum', options: [] } }), end()] }).diagnostics)).toContain('enum_no_options');
    expect(codes(check({ nodes: [q('q.a', 'a', { answer: { type: 'enum', options: ['x', { value: 'x', label: 'X' }] } }), end()] }).diagnostics))
      .toContain('enum_duplicate_option');
  });

  it('reports min greater than max for numbers, text and dates', () => {
    for (const answer of [{ type: 'integer', min: 10, max: 1 }, { type: 'text', min: 5, max: 2 }, { type: 'date', min: '2026-02-01', max: '2026-01-01' }]) {
      expect(codes(check({ nodes: [q('q.a', 'a', { answer }), end()] }).diagnostics), answer.type).toContain('min_gt_max');
    }
  });

  it('reports a question without a key, pointing at the node', () => {
    const r = check({ nodes: [{ id: 'q.a', type: 'question', prompt: 'Hi?' }, end()] });
    const d = r.diagnostics.find((x) => x.code === 'question_without_key')!;
    expect(d.node).toBe('q.a');
    expect(d.line).toBe(lineOf(r.text, '"id": "q.a"') - 1);
  });

  it('reports an unknown field with a suggestion, and still runs the other checks', () => {
    const r = check({ nodes: [q('q.a', 'a', { promt: 'x' }), end()], edges: [{ from: 'q.a', to: 'q.zz' }] });
    expect(codes(r.diagnostics)).toEqual(expect.arrayContaining(['unknown_field', 'dangling_edge']));
    expect(r.diagnostics.find((d) => d.code === 'unknown_field')!.message).toContain("did you mean 'prompt'");
  });

  it('reports dependency cycles and unknown dependencies on v1 questions', () => {
    const r = check({ nodes: [q('q.a', 'a', { dependencies: ['b'] }), q('q.b', 'b', { dependencies: ['a', 'zzz'] }), end()] });
    expect(codes(r.diagnostics)).toEqual(expect.arrayContaining(['dependency_cycle', 'unknown_dependency']));
  });

  it('reports bad regular expressions in patterns and conflicting key types', () => {
    expect(codes(check({ nodes: [q('q.a', 'a', { answer: { type: 'text', pattern: '(a' } }), end()] }).diagnostics)).toContain('bad_pattern');
    expect(codes(check({ nodes: [q('q.a', 'a', { answer: { type: 'integer' } }), q('q.b', 'a', { answer: { type: 'date' }, always_ask: true }), end()] }).diagnostics))
      .toContain('conflicting_key_type');
  });

  it('reports action inputs that read nothing known', () => {
    const r = check({
      nodes: [q('q.a', 'a'), { id: 'a.x', type: 'action', call: 'crm', input_map: { id: 'answers.zzz', raw: 'a' }, output_map: { acct: 'account' } }, end()],
    });
    expect(codes(r.diagnostics)).toEqual(expect.arrayContaining(['unknown_answer_key', 'bad_input_map']));
  });

  it('refuses a review that lists an internal question, at the key, and accepts one that shows only visible answers', () => {
    const nodes = (keys: string[]) => [q('q.a', 'name'), q('q.b', 'pin', { internal: true }), { id: 'r', type: 'review', keys }, end()];
    const bad = check({ nodes: nodes(['name', 'pin']) });
    const d = bad.diagnostics.find((x) => x.code === 'internal_in_review')!;
    expect(d.severity).toBe('error');
    expect(d.message).toContain("'pin'");
    expect(d.line).toBe(lineOf(bad.text, '"pin"\n'));
    expect(codes(check({ nodes: nodes(['name']) }).diagnostics, 'error')).toEqual([]);
  });

  it('warns when a bot message shows an internal answer, unless the action says internal: false', () => {
    const lookup = (internal?: boolean) => ({ id: 'a.crm', type: 'action', call: 'crm', input_map: { n: 'answers.name' }, output_map: { owner: 'owner' }, ...(internal === undefined ? {} : { internal }) });
    const nodes = (internal?: boolean) => [q('q.name', 'name'), q('q.pin', 'pin', { internal: true }), lookup(internal),
      end('n.end', { say: 'Thanks {{answers.name}}; {{answers.owner}} will call. PIN {{answers.pin}}' })];
    const warned = check({ nodes: nodes() }).diagnostics.filter((d) => d.code === 'internal_in_template').map((d) => d.message);
    expect(warned).toHaveLength(2);
    expect(warned.join(' ')).toContain('{{answers.owner}}');
    expect(warned.join(' ')).toContain('{{answers.pin}}');
    const shown = check({ nodes: nodes(false) }).diagnostics.filter((d) => d.code === 'internal_in_template').map((d) => d.message);
    expect(shown).toHaveLength(1);
    expect(shown[0]).toContain('{{answers.pin}}');
  });

  it('reports oneOf constraints naming unknown keys and bad constraint expressions', () => {
    const r = check({ nodes: [q('q.a', 'email'), end()], constraints: [{ oneOf: [['email'], ['phone']] }, { name: 'c', expr: 'has(answers.fax)' }] });
    expect(codes(r.diagnostics).filter((c) => c.includes('unknown_answer_key'))).toHaveLength(2);
  });

  it('warns about an implicit end and guarded edges without else, but not about an exhaustive route', () => {
    const r = check({
      nodes: [q('q.a', 'a', { answer: { type: 'integer' } }), q('q.b', 'b'), end()],
      edges: [{ from: 'q.a', to: 'q.b', guard: 'answers.a > 1' }, { from: 'q.a', to: 'n.end', guard: 'answers.a <= 1' }],
    });
    expect(codes(r.diagnostics, 'warning')).toEqual(expect.arrayContaining(['no_else', 'implicit_end']));
    expect(codes(r.diagnostics, 'error')).toEqual([]);
    const routed = check({
      nodes: [q('q.k', 'k', { answer: { type: 'enum', options: ['x', 'y'] } }), { id: 'd', type: 'decision', routes: { on: 'answers.k', cases: { x: 'n.end', y: 'n.y' } } }, end(), end('n.y')],
      edges: [{ from: 'q.k', to: 'd' }],
    });
    expect(routed.diagnostics).toEqual([]);
  });

  it('warns about a route case that is not an option of the enum it switches on', () => {
    const r = check({
      nodes: [q('q.k', 'k', { answer: { type: 'enum', options: ['x', 'y'] } }), { id: 'd', type: 'decision', routes: { on: 'answers.k', cases: { x: 'n.end', zz: 'n.y' }, default: 'n.end' } }, end(), end('n.y')],
      edges: [{ from: 'q.k', to: 'd' }],
    });
    expect(codes(r.diagnostics, 'warning')).toContain('guard_type_mismatch');
  });

  it('warns about edges shadowed by an earlier unguarded edge and templates naming unknown keys', () => {
    const r = check({
      nodes: [q('q.a', 'a', { say: 'Hi {{answers.nam}}' }), end(), end('n.b')],
      edges: [{ from: 'q.a', to: 'n.end' }, { from: 'q.a', to: 'n.b' }],
    });
    expect(codes(r.diagnostics, 'warning')).toEqual(expect.arrayContaining(['shadowed_edge', 'unknown_template_key']));
  });

  it('reports a YAML syntax error with its line', () => {
    const r = compileText('version: v1\nid: x\nnodes:\n  - id: a\n   type: question\n', 'bad.yaml');
    expect(r.diagnostics[0]!.code).toBe('parse_error');
    expect(r.diagnostics[0]!.line).toBeGreaterThanOrEqual(4);
  });

  it('reports a JSON syntax error and a duplicate key', () => {
    const missing = compileText('{\n  "version": "v1",\n  "id": }', 'bad.json').diagnostics[0]!;
    expect([missing.code, missing.line, missing.col]).toEqual(['parse_error', 3, 3]);
    const comma = compileText('{"version": "v1", "id": "x", "nodes": [],}', 'comma.json').diagnostics[0]!;
    expect(comma.code).toBe('parse_error');
    expect(compileText('{"version": "v1", "version": "v1", "id": "x", "nodes": []}', 'dup.json').diagnostics[0]!.code).toBe('parse_error');
  });

  it('reports a document without a known version', () => {
    expect(codes(compileText('{"id": "x"}').diagnostics)).toEqual(['unknown_version']);
    expect(codes(compileText('{"version": "v9", "id": "x"}').diagnostics)).toEqual(['unknown_version']);
    expect(codes(compileText('[1, 2]').diagnostics)).toEqual(['unknown_version']);
  });

  it('reports every problem at once', () => {
    const r = check({
      nodes: [q('q.a', 'a'), q('q.a', 'b'), end(), { id: 'q.e', type: 'question', key: 'e', answer: { type: 'enum', options: [] } }],
      edges: [{ from: 'q.a', to: 'q.x' }, { from: 'n.end', to: 'q.a' }, { from: 'q.a', to: 'n.end', guard: 'answers.zz == 1' }],
    });
    expect(new Set(codes(r.diagnostics, 'error'))).toEqual(new Set([
      'duplicate_node', 'dangling_edge', 'terminal_has_edges', 'guard_unknown_answer_key', 'enum_no_options', 'unreachable_node',
    ]));
  });
});

describe('v0 checklist diagnostics', () => {
  const v0 = (questions: unknown[], extra: Record<string, unknown> = {}) =>
    compileText(JSON.stringify({ version: 'v0', id: 'flow.c', questions, ...extra }, null, 2), 'c.v0.json');

  it('reports a dependency cycle, pointing into the v0 file', () => {
    const r = v0([{ key: 'a', prompt: 'A?', dependencies: ['b'] }, { key: 'b', prompt: 'B?', dependencies: ['a'] }]);
    const d = r.diagnostics.find((x) => x.code === 'dependency_cycle')!;
    expect(d.message).toMatch(/a → b → a/);
    expect(d.line).toBeGreaterThan(1);
  });

  it('reports an unknown dependency once even when several paths copy the question', () => {
    const r = v0([{ key: 'a', prompt: 'A?', dependencies: ['ghost'] }], { paths: { x: { questions: [] }, y: { questions: [] } } });
    expect(codes(r.diagnostics).filter((c) => c === 'unknown_dependency')).toHaveLength(1);
  });

  it('reports a when guard reading an unknown key', () => {
    expect(codes(v0([{ key: 'a', prompt: 'A?', when: "answers.b == 'x'" }]).diagnostics)).toContain('guard_unknown_answer_key');
  });
});

describe('no false edge warnings', () => {
  it('a guard that does not compile is an error, and the edge after it is not "shadowed" by it', () => {
    const r = check({
      nodes: [q('q.a', 'a', { answer: { type: 'integer' } }), end('n.x'), end('n.y')],
      edges: [{ from: 'q.a', to: 'n.x', guard: 'answers.a >>> 3' }, { from: 'q.a', to: 'n.y', guard: 'else' }],
    });
    expect(codes(r.diagnostics, 'error').length).toBeGreaterThan(0);
    expect(codes(r.diagnostics)).not.toContain('shadowed_edge');
  });

  it('"on": "invalid" from a decision that routes on path is not an on_mismatch (v0 checklists with paths)', () => {
    const r = compileText(readFileSync(new URL('../../flows/global/checklist.v0.json', import.meta.url), 'utf8'), 'checklist.v0.json');
    expect(codes(r.diagnostics)).toEqual([]);
    const d = check({
      nodes: [{ id: 'n.d', type: 'decision', routes: { on: 'answers.a', cases: { x: 'n.x' } } }, end('n.x'), end('n.y')],
      edges: [{ from: 'n.d', to: 'n.y', on: 'invalid' }],
    });
    expect(codes(d.diagnostics)).toContain('on_mismatch');
  });
});

describe('a trigger phrase that is a command word', () => {
  it('is a compile warning: the command runs, the trigger never does', () => {
    const r = check({
      nodes: [q('q.a', 'a'), end()],
      triggers: [{ id: 'halt', phrases: ['Stop', 'I want to stop'], goto: 'n.end' }],
    });
    const w = r.diagnostics.filter((d) => d.code === 'trigger_is_command');
    expect(w).toHaveLength(1);
    expect(w[0]!.message).toBe("trigger 'halt' has the phrase 'Stop', which is also the 'cancel' command word: a message of just those words runs the command, not the trigger");
  });
});
