import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateFlow } from '../../bench/engine/generate.ts';
import { compileBenchFlow } from '../../bench/engine/questline.ts';
import { flowIndex } from '../../server/engine/flow-index.ts';
import { Accept, acceptParams, acceptsOf } from '../../server/engine/node-record.ts';
import { normalOptions, valueSchema, type AnswerSpec } from '../../server/flow/answer-types.ts';
import { compileText } from '../../server/flow/document.ts';
import type { CompiledFlow } from '../../server/flow/compiled-flow.ts';

// The per-node records (server/engine/node-record.ts) are a cache of what a turn
// works out about a node: each field is compared here with the straightforward
// computation, and the quick acceptance test with zod itself.

function compileDoc(doc: unknown): CompiledFlow {
  const r = compileText(JSON.stringify(doc), 'records.flow.json');
  if (r.kind !== 'flow' || !r.flow) throw new Error(JSON.stringify(r.diagnostics));
  return r.flow;
}

const FLOW = {
  version: 'v1', id: 'records', entry: 'q.size',
  nodes: [
    { id: 'q.size', type: 'question', key: 'size', prompt: 'Size?', answer: { type: 'enum', options: ['s', { value: 'm', label: 'Medium' }] } },
    { id: 'q.many', type: 'question', key: 'many', prompt: 'Which?', answer: { type: 'enum', multiple: true, options: ['a', 'b'] } },
    { id: 'q.ok', type: 'question', key: 'ok', prompt: 'OK?', answer: { type: 'boolean' } },
    { id: 'q.n', type: 'question', key: 'n', prompt: 'How many?', answer: { type: 'integer', min: 1, max: 9 } },
    { id: 'act', type: 'action', call: 'lookup', output_map: { r: 'r' } },
    { id: 'done', type: 'terminal' },
    { id: 'help', type: 'terminal', outcome: 'escalated' },
  ],
  edges: [
    { from: 'q.size', to: 'q.many' }, { from: 'q.many', to: 'q.ok' },
    { from: 'q.ok', to: 'q.n', guard: 'answers.ok == true' }, { from: 'q.ok', to: 'done', guard: 'else' },
    { from: 'q.n', to: 'act' }, { from: 'act', to: 'done' }, { from: 'act', to: 'help', on: 'failure' },
  ],
};

/** The quick replies as `ask` worked them out before the records. */
function repliesOf(flow: CompiledFlow, id: string): { quickReplies?: string[]; multiple?: boolean } {
  const c = flow.nodes.get(id)!;
  const spec = c.node.type === 'question' ? c.node.answer : undefined;
  if (spec?.type === 'enum') return { quickReplies: normalOptions(spec).map((o) => o.label), ...(spec.multiple ? { multiple: true } : {}) };
  if (spec?.type === 'boolean') return { quickReplies: [flow.messages.yes, flow.messages.no] };
  return {};
}

describe('node records', () => {
  const flows = [compileDoc(FLOW), compileBenchFlow(generateFlow(20)).flow];

  it('hold every node, its normal edges and its quick replies as computed directly', () => {
    for (const flow of flows) {
      const { records } = flowIndex(flow);
      expect([...records.keys()].sort()).toEqual([...flow.nodes.keys()].sort());
      for (const [id, c] of flow.nodes) {
        const r = records.get(id)!;
        expect(r.c).toBe(c);
        expect([r.id, r.type, r.key]).toEqual([c.node.id, c.node.type, c.node.type === 'question' ? c.node.key : undefined]);
        expect(r.edges).toEqual(c.out.filter((e) => !e.on));
        const direct = repliesOf(flow, id);
        expect({ ...(r.facts.quickReplies ? { quickReplies: [...r.facts.quickReplies] } : {}), ...(r.facts.multiple ? { multiple: true } : {}) }).toEqual(direct);
      }
    }
    // the action's failure edge is not among the edges `next` chooses from
    expect(flowIndex(flows[0]!).records.get('act')!.edges.map((e) => e.to)).toEqual(['done']);
  });

  it('link each edge to its target record and hold the key facts the index has', () => {
    const withMore = compileDoc({
      ...FLOW,
      nodes: [...FLOW.nodes.slice(0, 3), { id: 'q.n', type: 'question', key: 'n', prompt: ['How many, {{answers.size}}?'], answer: { type: 'integer' }, dependencies: ['ok'] },
        { id: 'q.n2', type: 'question', key: 'n', prompt: ' Again? ', answer: { type: 'integer' }, always_ask: true }, ...FLOW.nodes.slice(4)],
      edges: [...FLOW.edges.filter((e) => e.from !== 'q.n'), { from: 'q.n', to: 'q.n2' }, { from: 'q.n2', to: 'act' }],
    });
    for (const flow of [...flows, withMore]) {
      const idx = flowIndex(flow);
      for (const [id, c] of flow.nodes) {
        const r = idx.records.get(id)!;
        expect(idx.recordList[r.ordinal]).toBe(r);
        expect(r.targets.map((t) => t?.id)).toEqual(r.edges.map((e) => (flow.nodes.has(e.to) ? e.to : undefined)));
        for (const t of r.targets) if (t) expect(t).toBe(idx.records.get(t.id));
        expect(r.dependencies).toBe(idx.dependencyOrder.get(id));
        expect(r.edgeSlots).toEqual(r.edges.map((e) => (e.guard === null || e.guard === 'else' ? undefined : e.guard.reads.map((k) => idx.answerSlots.slotOf.get(k) ?? -1))));
        expect(r.facts.hasSchema).toBe(c.node.type === 'question' && c.valueSchema !== undefined);
        const first = r.edges[0];
        expect([r.directEdge, r.directTo, r.directTarget]).toEqual(first?.guard === null ? [first.id, first.to, r.targets[0]] : [undefined, undefined, undefined]);
        if (c.node.type !== 'question') {
          expect([r.keyRank, r.asksFirst, r.firstChange, r.prompt, r.plain]).toEqual([undefined, false, undefined, undefined, false]);
          continue;
        }
        expect(r.keyRank).toBe(idx.keyRank.get(c.node.key));
        expect(idx.answerSlots.keys[r.keySlot!]).toBe(c.node.key);
        const check = c.valueSchema ? acceptParams(c.node.answer ?? { type: 'text' }) : { kind: Accept.NONE, min: 0, max: 0, values: undefined };
        expect({ kind: r.facts.acceptKind, min: r.facts.acceptMin, max: r.facts.acceptMax, values: r.facts.acceptValues }).toEqual(check);
        expect(r.facts.hasPattern).toBe(c.node.answer?.type === 'text' && c.node.answer.pattern !== undefined);
        expect(r.plain).toBe(!c.when && !c.node.say && !c.node.interrupt && !c.node.always_ask && !(c.node.dependencies ?? []).length && !c.node.assess);
        expect(r.asksFirst).toBe(idx.questionByKey.get(c.node.key) === c);
        expect(r.firstChange).toEqual([{ key: c.node.key }]);
        expect(Object.isFrozen(r.firstChange) && Object.isFrozen(r.firstChange![0])).toBe(true);
        const p = c.node.prompt;
        const only = Array.isArray(p) ? (p.length === 1 ? p[0] : undefined) : p ?? c.node.label ?? c.node.key;
        expect(r.prompt).toBe(only === undefined || only.includes('{{') ? undefined : only.trim());
      }
    }
    const more = flowIndex(withMore).records;
    expect([more.get('q.n')!.prompt, more.get('q.n')!.dependencies, more.get('q.n2')!.prompt]).toEqual([undefined, ['ok'], 'Again?']);
    expect([more.get('q.n')!.asksFirst, more.get('q.n2')!.asksFirst]).toEqual([true, false]);
    expect([more.get('q.size')!.plain, more.get('q.n')!.plain, more.get('q.n2')!.plain]).toEqual([true, false, false]);
  });

  it('share one answer facts object among the questions with the same spec', () => {
    const { recordList } = flowIndex(compileBenchFlow(generateFlow(20)).flow);
    const questions = recordList.filter((r) => r.type === 'question');
    // the bench flow's questions: integer 0-1000, enum, boolean, text (the validated integers have the same spec)
    expect(new Set(questions.map((r) => r.facts)).size).toBe(4);
    for (const a of questions) for (const b of questions) {
      const spec = (r: typeof a) => JSON.stringify(r.c.node.type === 'question' ? r.c.node.answer : null);
      expect(a.facts === b.facts).toBe(spec(a) === spec(b));
    }
  });

  it('share one list of validate rules among the nodes with the same expression rules', () => {
    const flow = compileBenchFlow(generateFlow(20)).flow;
    const { recordList } = flowIndex(flow);
    const rulesOf = (v: CompiledFlow['nodes'] extends ReadonlyMap<string, infer C> ? C extends { validators: infer V } ? V : never : never) =>
      v.map((r) => (r.kind === 'expr' ? [r.guard.source, r.message] : r));
    for (const r of recordList) expect(rulesOf(r.validators)).toEqual(rulesOf(r.c.validators));
    const validated = recordList.filter((r) => r.c.validators.length > 0);
    // q4, q9, q14, q19: `validate: value >= 0`, compiled once per node, read as one list
    expect(validated.map((r) => r.id)).toEqual(['n.q4', 'n.q9', 'n.q14', 'n.q19']);
    expect(new Set(validated.map((r) => r.c.validators)).size).toBe(4);
    expect(new Set(validated.map((r) => r.validators)).size).toBe(1);
  });

  it('accept a value only where zod accepts it and returns it unchanged', () => {
    const spec: fc.Arbitrary<AnswerSpec> = fc.oneof(
      fc.record({ type: fc.constant('text' as const), min: fc.option(fc.nat(5), { nil: undefined }), max: fc.option(fc.nat(8), { nil: undefined }) }),
      fc.record({ type: fc.constantFrom('number' as const, 'integer' as const), min: fc.option(fc.integer({ min: -5, max: 5 }), { nil: undefined }), max: fc.option(fc.integer({ min: -5, max: 50 }), { nil: undefined }) }),
      fc.constant({ type: 'boolean' as const }),
      fc.record({ type: fc.constant('enum' as const), options: fc.array(fc.constantFrom('a', 'b', 'c', ''), { maxLength: 3 }) }),
    ).map((s) => Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined)) as AnswerSpec);
    const value = fc.oneof(
      fc.anything(), fc.string({ maxLength: 10 }), fc.constantFrom('', 'a', 'b', 'c', ' a', true, false, null, [], ['a'], 0, -0, 1.5, 3, 9, 10, 50, NaN, Infinity, -Infinity, 2 ** 53, -(2 ** 53), 1e300),
      fc.integer({ min: -10, max: 60 }), fc.double(),
    );
    let accepted = 0;
    fc.assert(fc.property(spec, value, (s, v) => {
      const accepts = acceptsOf(s);
      if (!accepts || !accepts(v)) return;
      accepted++;
      const parsed = valueSchema(s).safeParse(v);
      expect(parsed.success).toBe(true);
      expect(Object.is(parsed.success ? parsed.data : undefined, v)).toBe(true);
    }), { numRuns: 3000 });
    expect(accepted).toBeGreaterThan(100);
  });

  it('leave multiple choice and formatted types to zod', () => {
    for (const s of [{ type: 'enum', multiple: true, options: ['a'] }, { type: 'email' }, { type: 'url' }, { type: 'phone' }, { type: 'date' }] as AnswerSpec[]) {
      expect(acceptsOf(s)).toBeUndefined();
    }
  });
});
