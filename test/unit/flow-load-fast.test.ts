import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseFlowText } from '../../server/flow/load.ts';
import { ProvenanceTree } from '../../server/flow/packs/provenance.ts';

// Start-up reads flows without building a YAML tree for a plain JSON file, and
// merges keep provenance in a tree: both must give exactly what the slow paths gave.

describe('parsing a JSON flow file', () => {
  it('gives the same data and the same positions as the YAML tree', () => {
    const text = '{\n  "version": "v1",\n  "id": "x",\n  "nodes": [\n    { "id": "q", "type": "question", "key": "k\\u0061" },\n    { "id": "end", "type": "terminal" }\n  ]\n}\n';
    const r = parseFlowText(text, 'x.json');
    if (!r.ok) throw new Error('did not parse');
    expect(r.doc.data).toEqual(JSON.parse(text));
    expect(r.doc.map.at(['nodes', 1, 'type'])).toEqual({ line: 6, col: 28 });
    expect(r.doc.map.at(['nodes', 0, 'key'], { key: true })).toEqual({ line: 5, col: 38 });
    const yaml = parseFlowText(text.replace(/"version"/, 'version'), 'x.yaml');
    if (!yaml.ok) throw new Error('did not parse');
    expect(yaml.doc.map.at(['nodes', 1, 'type'])).toEqual({ line: 6, col: 28 });
  });

  it('still refuses a repeated key, also one spelled with an escape, with its position', () => {
    for (const text of ['{"id": "a",\n "id": "b"}', '{"a": {"id": 1, "x": [{"id": 2}], "\\u0069d": 3}}']) {
      const r = parseFlowText(text, 'dup.json');
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.diagnostics[0]).toMatchObject({ code: 'parse_error', line: expect.any(Number) });
    }
    // the same key in different objects is fine
    expect(parseFlowText('{"a": {"id": 1}, "b": {"id": 2}, "c": ["id", "id"]}', 'ok.json').ok).toBe(true);
  });
});

type Op = { op: 'set'; segs: string[]; label: string } | { op: 'forget'; segs: string[] } | { op: 'move'; from: string[]; to: string[] };

/** The bookkeeping the tree replaced: a flat map scanned whole on every forget and move. */
class FlatProvenance {
  private readonly m = new Map<string, { segs: string[]; label: string }>();
  set(segs: string[], label: string) { this.m.set(segs.join('\u0000'), { segs, label }); }
  forget(segs: string[]) { for (const [k, v] of this.m) if (segs.every((s, i) => v.segs[i] === s)) this.m.delete(k); }
  move(from: string[], to: string[]) {
    for (const [k, v] of [...this.m]) {
      if (!from.every((s, i) => v.segs[i] === s)) continue;
      this.m.delete(k);
      this.set([...to, ...v.segs.slice(from.length)], v.label);
    }
  }
  nearest(segs: string[]) {
    for (let n = segs.length; n > 0; n--) {
      const hit = this.m.get(segs.slice(0, n).join('\u0000'));
      if (hit) return hit.label;
    }
    return undefined;
  }
  entries() {
    return Object.fromEntries([...this.m.values()].map((v) => [v.segs.join('.'), v.label] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
}

describe('provenance kept as a tree', () => {
  const seg = fc.constantFrom('nodes', 'edges', 'q1', 'q2', 'prompt', 'answer', 'min');
  const path = fc.array(seg, { minLength: 1, maxLength: 4 });
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ op: fc.constant('set' as const), segs: path, label: fc.constantFrom('global', 'industry x', 'tenant y') }),
    fc.record({ op: fc.constant('forget' as const), segs: path }),
    fc.record({ op: fc.constant('move' as const), from: path, to: path }),
  );

  it('answers like the flat bookkeeping it replaced, for any sequence of writes, removals and moves', () => {
    fc.assert(fc.property(fc.array(op, { maxLength: 40 }), fc.array(path, { minLength: 1, maxLength: 10 }), (ops, probes) => {
      const tree = new ProvenanceTree();
      const flat = new FlatProvenance();
      for (const o of ops) {
        if (o.op === 'set') { tree.set(o.segs, o.label); flat.set(o.segs, o.label); }
        else if (o.op === 'forget') { tree.forget(o.segs); flat.forget(o.segs); }
        else if (!o.to.slice(0, o.from.length).every((s, i) => s === o.from[i]) || o.to.length < o.from.length) { tree.move(o.from, o.to); flat.move(o.from, o.to); }
      }
      expect(tree.entries()).toEqual(flat.entries());
      for (const p of probes) expect(tree.nearest(p)).toBe(flat.nearest(p));
    }), { numRuns: 500 });
  });
});

describe('flow size limits', () => {
  const chain = (n: number, locales?: string[]) => ({
    version: 'v1', id: 'big', ...(locales ? { locales } : {}),
    nodes: [...Array.from({ length: n }, (_, i) => ({ id: `q${i}`, type: 'question', key: `k${i}`, prompt: 'Q?' })), { id: 'end', type: 'terminal' }],
  });

  it('refuses a flow over the node limit, and one within it but over the budget for its locales', async () => {
    const { compileFlow, FLOW_LIMITS } = await import('../../server/flow/compile.ts');
    const codes = (flow: unknown) => compileFlow({ flow: flow as never, file: 'big.json' }).diagnostics.filter((d) => d.severity === 'error').map((d) => d.code);
    expect(codes(chain(FLOW_LIMITS.maxNodes + 1))).toEqual(['flow_too_large']);
    expect(codes(chain(3000))).toEqual([]);
    expect(codes({ ...chain(3000, ['en', 'de', 'fr', 'es', 'it', 'nl']), default_locale: 'en' })).toEqual(['flow_too_large']);
  });
});
