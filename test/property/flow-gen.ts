import fc from 'fast-check';

// Random valid flows for the engine's property tests. A flow is a chain of
// steps — questions of several answer types (with bounds, patterns and
// `validate` rules, some optional, some with an interrupt), decisions that
// branch on an earlier answer, a subgraph of questions — ending in
// terminals. The generator keeps its own description of every question
// (`QuestionSpec`), so the tests judge committed values with an oracle that
// does not share code with the engine.

/** What the oracle knows about a question. */
export type QuestionSpec =
  | { key: string; type: 'integer'; min: number; max: number; forbid: number | null; required: boolean }
  | { key: string; type: 'text'; max: number; digitsOnly: boolean; required: boolean }
  | { key: string; type: 'enum'; options: string[]; multiple: boolean; required: boolean }
  | { key: string; type: 'boolean'; required: boolean };

/** A generated flow: the document to compile and the oracle's view of it. */
export interface GeneratedFlow {
  doc: Record<string, unknown>;
  questions: QuestionSpec[];
  /** Node ids of every question and terminal. */
  questionNodes: string[];
  terminalNodes: string[];
}

type Step =
  | { kind: 'question'; spec: QuestionSpec; interrupt: boolean }
  | { kind: 'decision'; jump: number; threshold: number }
  | { kind: 'subgraph'; specs: QuestionSpec[] };

const spec = (i: number): fc.Arbitrary<QuestionSpec> =>
  fc.oneof(
    fc.record({ lo: fc.integer({ min: -5, max: 50 }), span: fc.integer({ min: 0, max: 100 }), forbid: fc.boolean(), required: fc.boolean() }).map(
      ({ lo, span, forbid, required }): QuestionSpec => ({ key: `k${i}`, type: 'integer', min: lo, max: lo + span, forbid: forbid && span > 0 ? lo + 1 : null, required }),
    ),
    fc.record({ max: fc.integer({ min: 1, max: 20 }), digitsOnly: fc.boolean(), required: fc.boolean() }).map(
      ({ max, digitsOnly, required }): QuestionSpec => ({ key: `k${i}`, type: 'text', max, digitsOnly, required }),
    ),
    fc.record({ n: fc.integer({ min: 1, max: 4 }), multiple: fc.boolean(), required: fc.boolean() }).map(
      ({ n, multiple, required }): QuestionSpec => ({ key: `k${i}`, type: 'enum', options: Array.from({ length: n }, (_, j) => `opt${j}`), multiple, required }),
    ),
    fc.boolean().map((required): QuestionSpec => ({ key: `k${i}`, type: 'boolean', required })),
  );

/** The question node of a spec. */
function questionNode(id: string, s: QuestionSpec, interrupt: boolean): Record<string, unknown> {
  const node: Record<string, unknown> = { id, type: 'question', key: s.key, prompt: `${s.key}?` };
  if (!s.required) node.required = false;
  if (interrupt) node.interrupt = { when: 'after' };
  switch (s.type) {
    case 'integer':
      node.answer = { type: 'integer', min: s.min, max: s.max };
      if (s.forbid !== null) node.validate = [{ expr: `value != ${s.forbid}`, message: `not ${s.forbid}` }];
      break;
    case 'text':
      node.answer = { type: 'text', max: s.max, ...(s.digitsOnly ? { pattern: '^[0-9]+$' } : {}) };
      break;
    case 'enum':
      node.answer = { type: 'enum', options: s.options, ...(s.multiple ? { multiple: true } : {}) };
      break;
    case 'boolean':
      node.answer = { type: 'boolean' };
      break;
  }
  return node;
}

/** Random valid flows with 1–7 steps. */
export const flowArb: fc.Arbitrary<GeneratedFlow> = fc
  .integer({ min: 1, max: 7 })
  .chain((n) =>
    fc.tuple(
      ...Array.from({ length: n }, (_, i) =>
        fc.oneof(
          { weight: 4, arbitrary: fc.record({ spec: spec(i), interrupt: fc.integer({ min: 0, max: 5 }).map((x) => x === 0) }).map(({ spec: s, interrupt }): Step => ({ kind: 'question', spec: s, interrupt })) },
          { weight: 1, arbitrary: fc.record({ jump: fc.integer({ min: 1, max: 3 }), threshold: fc.integer({ min: 0, max: 60 }) }).map(({ jump, threshold }): Step => ({ kind: 'decision', jump, threshold })) },
          { weight: 1, arbitrary: fc.array(spec(0), { minLength: 1, maxLength: 2 }).map((specs): Step => ({ kind: 'subgraph', specs: specs.map((s, j) => ({ ...s, key: `k${i}_${j}` })) })) },
        ),
      ),
    ),
  )
  .map((steps) => build(steps));

function build(steps: Step[]): GeneratedFlow {
  const nodes: Array<Record<string, unknown>> = [];
  const edges: Array<Record<string, unknown>> = [];
  const subgraphs: Record<string, unknown> = {};
  const questions: QuestionSpec[] = [];
  const questionNodes: string[] = [];
  const next = (i: number) => (i + 1 < steps.length ? `s${i + 1}` : 'n.done');
  steps.forEach((step, i) => {
    const id = `s${i}`;
    if (step.kind === 'question') {
      nodes.push(questionNode(id, step.spec, step.interrupt));
      questions.push(step.spec);
      questionNodes.push(id);
      edges.push({ from: id, to: next(i) });
    } else if (step.kind === 'subgraph') {
      const name = `sub${i}`;
      const inner = step.specs.map((s, j) => {
        questions.push(s);
        questionNodes.push(`${id}.q${j}`);
        return questionNode(`${id}.q${j}`, s, false);
      });
      subgraphs[name] = { nodes: inner };
      nodes.push({ id, type: 'subgraph', ref: name });
      edges.push({ from: id, to: next(i) });
    } else {
      // branch on the last integer asked before this step, if any; else on whether anything was answered
      const earlier = [...questions].reverse().find((q) => q.type === 'integer');
      const guard = earlier ? `answers.${earlier.key} >= ${step.threshold}` : questions.length ? `has(answers.${questions.at(-1)!.key})` : 'true';
      const target = i + step.jump < steps.length ? `s${i + step.jump}` : 'n.alt';
      nodes.push({ id, type: 'decision' });
      edges.push({ from: id, to: target, guard }, { from: id, to: next(i), guard: 'else' });
    }
  });
  nodes.push({ id: 'n.done', type: 'terminal' }, { id: 'n.alt', type: 'terminal', outcome: 'alternative' });
  // n.alt must be reachable: a last edge from the entry would change the flow, so route the final step's
  // completion through it only when no decision does
  if (!edges.some((e) => e.to === 'n.alt')) nodes.pop();
  return {
    doc: { version: 'v1', id: 'flow.prop', nodes, edges, ...(Object.keys(subgraphs).length ? { subgraphs } : {}) },
    questions,
    questionNodes,
    terminalNodes: nodes.filter((n) => n.type === 'terminal').map((n) => String(n.id)),
  };
}

/** A value the oracle accepts for the spec (null only for optional questions). */
export function oracleAccepts(s: QuestionSpec, value: unknown): boolean {
  if (value === null) return !s.required;
  switch (s.type) {
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) && value >= s.min && value <= s.max && value !== s.forbid;
    case 'text':
      return typeof value === 'string' && value.length <= s.max && value.length > 0 && (!s.digitsOnly || /^[0-9]+$/.test(value));
    case 'enum':
      if (s.multiple) return Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string' && s.options.includes(v));
      return typeof value === 'string' && s.options.includes(value);
    case 'boolean':
      return typeof value === 'boolean';
  }
}

/** One user turn. */
export type Step2 =
  | { kind: 'answer'; key: string; value: unknown }
  | { kind: 'answers'; updates: Array<{ key: string; value: unknown }> }
  | { kind: 'unknown'; key: string }
  | { kind: 'command'; command: 'back' | 'skip' | 'restart' | 'human' | 'cancel' }
  | { kind: 'operator'; decision: 'approve' | 'reject' };

/** Values that pass or break the spec: in range, at the bounds, out of range, wrong types, hostile shapes. */
function valueFor(s: QuestionSpec | undefined): fc.Arbitrary<unknown> {
  const hostile = fc.oneof(
    fc.constant(null), fc.constant(undefined), fc.constant(Number.NaN), fc.constant(Infinity), fc.constant(-0),
    fc.constant({ __proto__: { polluted: true } }), fc.constant(JSON.parse('{"__proto__":{"x":1},"constructor":{"prototype":{"y":2}}}')),
    fc.constant([]), fc.constant(['opt0', 'opt0']), fc.string({ maxLength: 30 }), fc.double(), fc.integer(), fc.boolean(),
    fc.constant('x'.repeat(5_000)),
  );
  if (!s) return hostile;
  switch (s.type) {
    case 'integer':
      return fc.oneof(fc.integer({ min: s.min - 3, max: s.max + 3 }), fc.constant(s.min), fc.constant(s.max), fc.constant(s.forbid ?? s.min), fc.double({ min: s.min, max: s.max }), fc.constant(String(s.min)), hostile);
    case 'text':
      return fc.oneof(fc.stringMatching(/^[0-9]{1,25}$/), fc.string({ maxLength: s.max + 5 }), fc.constant(''), hostile);
    case 'enum':
      return fc.oneof(fc.constantFrom(...s.options), fc.constant('not-an-option'), fc.constant(s.options), fc.subarray(s.options), fc.constant([...s.options, 'nope']), hostile);
    case 'boolean':
      return fc.oneof(fc.boolean(), fc.constant('yes'), fc.constant(0), hostile);
  }
}

/** Random turn sequences for a flow: mostly plausible answers to its questions, with everything else mixed in. */
export function turnsArb(g: GeneratedFlow, maxLength = 25): fc.Arbitrary<Step2[]> {
  const keys = [...g.questions.map((q) => q.key), 'nope', '__proto__', 'constructor'];
  const byKey = new Map(g.questions.map((q) => [q.key, q]));
  const answer = fc.constantFrom(...keys).chain((key) => valueFor(byKey.get(key)).map((value): Step2 => ({ kind: 'answer', key, value })));
  const step: fc.Arbitrary<Step2> = fc.oneof(
    { weight: 8, arbitrary: answer },
    { weight: 2, arbitrary: fc.array(answer, { minLength: 2, maxLength: 3 }).map((as): Step2 => ({ kind: 'answers', updates: as.map((a) => a.kind === 'answer' ? { key: a.key, value: a.value } : { key: 'nope', value: 1 }) })) },
    { weight: 1, arbitrary: fc.constantFrom(...keys).map((key): Step2 => ({ kind: 'unknown', key })) },
    { weight: 2, arbitrary: fc.constantFrom('back', 'back', 'skip', 'restart', 'human', 'cancel').map((command): Step2 => ({ kind: 'command', command: command as 'back' })) },
    { weight: 1, arbitrary: fc.constantFrom('approve', 'reject').map((decision): Step2 => ({ kind: 'operator', decision: decision as 'approve' })) },
  );
  return fc.array(step, { minLength: 1, maxLength });
}

type CallStep =
  | { kind: 'question'; spec: QuestionSpec }
  | { kind: 'call'; sub: 0 | 1; when: number | null }
  | { kind: 'decision'; jump: number; threshold: number };

/**
 * Random valid flows that call subgraphs: `sub0` and the nested `sub1`, each
 * called from one or more top-level nodes (some with a `when`), `sub0` calling
 * `sub1` when `nest`, and a decision inside `sub0` that may leave it early;
 * guards read integer keys asked anywhere in the flow. For walks through calls
 * and returns (route-memo.ts).
 */
export const callFlowArb: fc.Arbitrary<GeneratedFlow> = fc
  .record({
    inner: fc.array(spec(0), { minLength: 1, maxLength: 2 }),
    outer: fc.array(spec(0), { minLength: 1, maxLength: 3 }),
    nest: fc.boolean(),
    early: fc.option(fc.integer({ min: 0, max: 60 }), { nil: null }),
    top: fc.array(
      fc.oneof(
        { weight: 3, arbitrary: spec(0).map((s): CallStep => ({ kind: 'question', spec: s })) },
        { weight: 3, arbitrary: fc.record({ sub: fc.constantFrom(0 as const, 1 as const), when: fc.option(fc.integer({ min: 0, max: 60 }), { nil: null }) }).map((c): CallStep => ({ kind: 'call', ...c })) },
        { weight: 1, arbitrary: fc.record({ jump: fc.integer({ min: 1, max: 3 }), threshold: fc.integer({ min: 0, max: 60 }) }).map((d): CallStep => ({ kind: 'decision', ...d })) },
      ),
      { minLength: 2, maxLength: 6 },
    ),
  })
  .map(buildCalls);

function buildCalls(g: { inner: QuestionSpec[]; outer: QuestionSpec[]; nest: boolean; early: number | null; top: CallStep[] }): GeneratedFlow {
  const questions: QuestionSpec[] = [];
  const questionNodes: string[] = [];
  const ask = (id: string, s: QuestionSpec): Record<string, unknown> => {
    questions.push(s);
    questionNodes.push(id);
    return questionNode(id, s, false);
  };
  // every subgraph is called (an unused one does not compile): sub0 from the top, sub1 from the top or from sub0
  const steps: CallStep[] = [...g.top];
  if (!steps.some((s) => s.kind === 'call' && s.sub === 0)) steps.push({ kind: 'call', sub: 0, when: null });
  if (!g.nest && !steps.some((s) => s.kind === 'call' && s.sub === 1)) steps.push({ kind: 'call', sub: 1, when: null });
  const top = steps.map((step, i): CallStep => (step.kind === 'question' ? { ...step, spec: { ...step.spec, key: `t${i}` } } : step));
  const ints = [...g.outer.map((s, j) => ({ ...s, key: `a${j}` })), ...g.inner.map((s, j) => ({ ...s, key: `b${j}` })),
    ...top.flatMap((s) => (s.kind === 'question' ? [s.spec] : []))].filter((s) => s.type === 'integer');
  const guard = (threshold: number) => (ints.length ? `answers.${ints[threshold % ints.length]!.key} >= ${threshold}` : 'false');
  // sub1: a sequence of questions; sub0: its first question, an early way out, sub1 when nested, its other questions
  const sub1 = { nodes: g.inner.map((s, j) => ask(`sub1.q${j}`, { ...s, key: `b${j}` })) };
  const outerNodes: Array<Record<string, unknown>> = g.outer.map((s, j) => ask(`sub0.q${j}`, { ...s, key: `a${j}` }));
  const chain: string[] = outerNodes.map((n) => String(n.id));
  if (g.nest) {
    outerNodes.push({ id: 'sub0.call', type: 'subgraph', ref: 'sub1' });
    chain.splice(1, 0, 'sub0.call');
  }
  const outerEdges: Array<Record<string, unknown>> = [];
  if (g.early !== null) {
    outerNodes.push({ id: 'sub0.d', type: 'decision' });
    chain.splice(1, 0, 'sub0.d');
  }
  chain.forEach((id, j) => {
    const to = chain[j + 1] ?? '__exit__';
    if (id === 'sub0.d') outerEdges.push({ from: id, to: '__exit__', guard: guard(g.early!) }, { from: id, to, guard: 'else' });
    else outerEdges.push({ from: id, to });
  });
  const nodes: Array<Record<string, unknown>> = [];
  const edges: Array<Record<string, unknown>> = [];
  const next = (i: number) => (i + 1 < top.length ? `s${i + 1}` : 'n.done');
  top.forEach((step, i) => {
    const id = `s${i}`;
    if (step.kind === 'question') nodes.push(ask(id, step.spec));
    else if (step.kind === 'call') nodes.push({ id, type: 'subgraph', ref: `sub${step.sub}`, ...(step.when !== null ? { when: guard(step.when) } : {}) });
    else nodes.push({ id, type: 'decision' });
    if (step.kind === 'decision') {
      edges.push({ from: id, to: i + step.jump < top.length ? `s${i + step.jump}` : 'n.alt', guard: guard(step.threshold) }, { from: id, to: next(i), guard: 'else' });
    } else edges.push({ from: id, to: next(i) });
  });
  nodes.push({ id: 'n.done', type: 'terminal' }, { id: 'n.alt', type: 'terminal', outcome: 'alternative' });
  if (!edges.some((e) => e.to === 'n.alt')) nodes.pop();
  return {
    doc: { version: 'v1', id: 'flow.calls', entry: 's0', nodes, edges, subgraphs: { sub0: { nodes: outerNodes, edges: outerEdges }, sub1 } },
    questions,
    questionNodes,
    terminalNodes: nodes.filter((n) => n.type === 'terminal').map((n) => String(n.id)),
  };
}
