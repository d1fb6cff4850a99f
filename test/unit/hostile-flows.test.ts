import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileText } from '../../server/flow/document.ts';

const sales = JSON.parse(readFileSync('flows/global/sales.flow.json', 'utf8')) as Record<string, unknown>;
const errorsOf = (r: ReturnType<typeof compileText>) => r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code);

describe('hostile flow files', () => {
  it('refuses a 10 MB file before parsing it', () => {
    const huge = `{"version": "v1", "id": "x", "label": "${'a'.repeat(10 * 1024 * 1024)}", "nodes": []}`;
    expect(errorsOf(compileText(huge, 'huge.json'))).toEqual(['file_too_large']);
  });

  it('reports deeply nested documents without crashing', () => {
    const deep = `{"version": "v1", "id": "x", "nodes": [], "ui": ${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const r = compileText(deep, 'deep.json');
    expect(r.diagnostics.length).toBeGreaterThan(0);
  });

  it('refuses a YAML alias bomb', () => {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++) bomb.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`);
    const r = compileText(`${bomb.join('\n')}\nversion: v1\nid: x\nnodes: []\n`, 'bomb.yaml');
    expect(errorsOf(r)).toEqual(['parse_error']);
  });

  it('rejects hostile guards inside a flow at compile time, with their place', () => {
    const guards = [
      'answers.__proto__.polluted == 1',
      "answers['constructor'] == null",
      'process.exit(1)',
      'globalThis == null',
      `${'('.repeat(10_000)}true${')'.repeat(10_000)}`,
      `'${'x'.repeat(10 * 1024 * 1024)}' == 'x'`,
      Array(50_000).fill('has(answers.name)').join(' || '),
      "matches(answers.name, '(a+)+$') && matches(answers.name, '(?=a)')",
    ];
    for (const guard of guards) {
      const doc = { version: 'v1', id: 'h', nodes: [{ id: 'q', type: 'question', key: 'name' }, { id: 'a', type: 'terminal' }, { id: 'b', type: 'terminal' }],
        edges: [{ from: 'q', to: 'a', guard }, { from: 'q', to: 'b', guard: 'else' }] };
      const r = compileText(JSON.stringify(doc), 'h.json');
      const errors = r.diagnostics.filter((d) => d.severity === 'error');
      expect(errors.length, guard.slice(0, 40)).toBeGreaterThan(0);
      expect(errors.every((d) => d.code.startsWith('guard_') || d.code === 'file_too_large'), guard.slice(0, 40)).toBe(true);
      expect(r.kind === 'flow' && r.flow).toBeFalsy();
    }
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('compiles a large flow (5,000 questions in a chain with many edges into one terminal)', () => {
    const n = 5000;
    const nodes = [...Array.from({ length: n }, (_, i) => ({ id: `q${i}`, type: 'question', key: `k${i}` })), { id: 'end', type: 'terminal' }];
    const edges = Array.from({ length: n }, (_, i) => [
      { from: `q${i}`, to: 'end', guard: `answers.k${i} == 'stop'` },
      { from: `q${i}`, to: i + 1 < n ? `q${i + 1}` : 'end', guard: 'else' },
    ]).flat();
    const r = compileText(JSON.stringify({ version: 'v1', id: 'big', nodes, edges }), 'big.json');
    expect(errorsOf(r)).toEqual([]);
    expect(r.kind === 'flow' && r.flow?.nodes.size).toBe(n + 1);
  });
});

/** Random edits of a valid flow: drop, retype, or rewire parts of it. */
const mutation = fc.oneof(
  fc.record({ op: fc.constant('delete' as const), path: fc.array(fc.nat(40), { minLength: 1, maxLength: 4 }) }),
  fc.record({ op: fc.constant('set' as const), path: fc.array(fc.nat(40), { minLength: 1, maxLength: 4 }),
    value: fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant([]), fc.constant({}),
      fc.constantFrom('__exit__', 'q.intent', 'n.done', 'else', 'answers.', '__proto__', "answers.budget >= 'x'")) }),
);

function apply(doc: unknown, m: { op: 'delete' | 'set'; path: number[]; value?: unknown }): unknown {
  const copy = structuredClone(doc);
  let cur: unknown = copy;
  for (let i = 0; i < m.path.length; i++) {
    if (cur === null || typeof cur !== 'object') return copy;
    const keys = Object.keys(cur);
    if (keys.length === 0) return copy;
    const key = keys[m.path[i]! % keys.length]!;
    if (i === m.path.length - 1) {
      if (m.op === 'delete') {
        if (Array.isArray(cur)) cur.splice(Number(key), 1);
        else delete (cur as Record<string, unknown>)[key];
      } else (cur as Record<string, unknown>)[key] = m.value;
    } else cur = (cur as Record<string, unknown>)[key];
  }
  return copy;
}

describe('compiler fuzzing', () => {
  it('never throws on random edits of a valid flow, and every error has a code and a message', () => {
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 5 }), (ms) => {
        const doc = ms.reduce((d, m) => apply(d, m), sales as unknown);
        const r = compileText(JSON.stringify(doc, null, 2), 'fuzz.json');
        for (const d of r.diagnostics) {
          expect(d.code).toMatch(/^[a-z_]+$/);
          expect(d.message.length).toBeGreaterThan(0);
        }
        if (r.kind === 'flow' && r.flow) expect(r.diagnostics.every((d) => d.severity === 'warning')).toBe(true);
      }),
      { numRuns: 300, seed: 20261122 },
    );
    // 300 seeded compiles of the sales flow: a fixed amount of CPU work, not a timing claim; a loaded 2-core
    // machine needed more than the default 20 s once
  }, 120_000);
});
