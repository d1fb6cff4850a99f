import fc from 'fast-check';
import { regionalQuestion } from '../../server/engine/regional-options.ts';
import { AnswerMap } from '../../server/engine/answer-map.ts';
import { describe, expect, it } from 'vitest';
import { assessPolicy } from '../../server/engine/assess.ts';
import { draftOf, holds } from '../../server/engine/draft.ts';
import { start } from '../../server/engine/engine.ts';
import { extractionRequest, OPEN_AHEAD } from '../../server/engine/extraction.ts';
import { activeTriggers } from '../../server/engine/triggers.ts';
import type { AnswerRecord, Session } from '../../server/engine/session.ts';
import type { ExtractionRequest, OpenQuestion } from '../../server/extract/extractor.ts';
import type { CompiledFlow, CompiledNode } from '../../server/flow/compiled-flow.ts';
import { EXIT } from '../../server/flow/desugar.ts';
import { compileFile, compileText } from '../../server/flow/document.ts';
import { flowArb } from '../property/flow-gen.ts';
import { impliedAnswer } from '../../server/engine/implied-answer.ts';

// extractionRequest caches, per compiled flow, the order its breadth-first
// walk visits nodes in (and the OpenQuestion of each node, and the path list).
// Here it is checked against the walk as it was written before the caches, on
// the repository's flows and random ones, from every node, with random answers,
// subgraph stacks (some naming no node of the flow), path prompts and locks.

function asOpenRef(c: CompiledNode): OpenQuestion | null {
  if (c.node.type !== 'question') return null;
  const prompt = typeof c.node.prompt === 'string' ? c.node.prompt : c.node.prompt?.[0];
  return {
    nodeId: c.node.id,
    key: c.node.key,
    answer: impliedAnswer(c.node.answer ?? { type: 'text' }, c.node.key, prompt),
    required: c.node.required !== false,
    ...(c.node.label ? { label: c.node.label } : {}),
    ...(prompt ? { prompt } : {}),
  };
}

function successorsRef(flow: CompiledFlow, c: CompiledNode, session: Session): string[] {
  if (c.node.type === 'subgraph') return [flow.subgraphs.get(c.node.ref)?.entry ?? ''];
  return c.out.flatMap((e) => {
    if (e.to !== EXIT) return [e.to];
    const caller = [...session.stack].reverse().find((f) => f.ref === c.scope);
    return caller ? flow.nodes.get(caller.node)!.out.map((x) => x.to) : [];
  });
}

/** extractionRequest before the caches (history, id and usage aside: unchanged and not under test). */
function requestRef(flow: CompiledFlow, session: Session, text: string, now: string): Omit<ExtractionRequest, 'history' | 'sessionId' | 'usage'> {
  const d = draftOf(flow, session);
  const here = session.node ? flow.nodes.get(session.node) : undefined;
  let current = session.pending?.kind === 'path_prompt' || !here ? null : asOpenRef(here);
  if (current && here?.node.type === 'question' && here.node.assess) {
    const { threshold, maxRefinements } = assessPolicy(here.node.assess);
    const refining = session.assessing?.key === current.key ? session.assessing : undefined;
    current = { ...current, assess: { criteria: here.node.assess.criteria, threshold, maxRefinements, refinement: refining?.refinements ?? 0,
      ...(refining && !here.node.pii && typeof refining.draft === 'string' ? { draft: refining.draft } : {}) } };
  }
  const open: OpenQuestion[] = [];
  const seen = new Set<string>(here ? [here.node.id] : []);
  const queue: string[] = here ? successorsRef(flow, here, session) : [];
  while (queue.length > 0 && open.length < OPEN_AHEAD) {
    const id = queue.shift()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const c = flow.nodes.get(id);
    if (!c) continue;
    if (c.node.type === 'question' && !session.answers.has(c.node.key) && c.node.key !== current?.key && !(c.when && !holds(d, c.when))) {
      const q = asOpenRef(c);
      if (q && !open.some((o) => o.key === q.key)) open.push(q);
    }
    queue.push(...successorsRef(flow, c, session));
  }
  const paths = flow.source.paths && !session.path.locked
    ? Object.entries(flow.source.paths.options).map(([name, o]) => ({ name, ...(o.label ? { label: o.label } : {}), examples: o.examples ?? [] }))
    : [];
  // triggers are not part of the cached walk: the reference takes them as the engine does
  const triggers = activeTriggers(flow, session.node);
  // each question's option synonyms are those of the visitor's region (not part of the cached walk either)
  const region = flow.source.default_country ?? 'US';
  const regional = (q: OpenQuestion) => regionalQuestion(q, region);
  return { text, current: current && regional(current), open: open.map(regional), paths, ...(triggers ? { triggers } : {}), now, defaultCountry: region };
}

const outcome = <T>(f: () => T): { ok: true; value: T } | { ok: false; error: string } => {
  try {
    return { ok: true, value: f() };
  } catch (e) {
    return { ok: false, error: String(e) };
  }
};

const NOW = '2026-01-15T10:00:00Z';
const VALUES = [null, 'x', 'yes', 0, 3, 25000, 1e9, true, false, ['a'], '2026-02-01', 'ann@x.io'];

/** Random sessions of a flow: any node (or none), any answers, stacks of its subgraph calls. */
function sessionArb(flow: CompiledFlow): fc.Arbitrary<Session> {
  const base = start(flow, { id: 's', now: NOW }).session;
  const ids = [...flow.nodes.keys()];
  const keys = [...new Set([...flow.nodes.values()].flatMap((c) => (c.node.type === 'question' ? [c.node.key] : []))), 'unasked'];
  const calls = [...flow.nodes.values()].flatMap((c) => (c.node.type === 'subgraph' ? [{ node: c.node.id, ref: c.node.ref }] : []));
  const refs = [...flow.subgraphs.keys()];
  const frame = fc.oneof(
    { weight: 8, arbitrary: calls.length ? fc.constantFrom(...calls) : fc.constant({ node: 'nowhere', ref: 'none' }) },
    { weight: 1, arbitrary: fc.record({ node: fc.constantFrom('nowhere', ...ids), ref: fc.constantFrom('none', ...refs, ...(refs.length ? [] : ['x'])) }) },
  );
  return fc.record({
    node: fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...ids) }, { weight: 1, arbitrary: fc.constantFrom(null, 'nowhere') }),
    answers: fc.array(fc.tuple(fc.constantFrom(...keys), fc.constantFrom(...VALUES)), { maxLength: keys.length + 2 }),
    stack: fc.array(frame, { maxLength: 3 }),
    pathPrompt: fc.boolean(),
    locked: fc.boolean(),
    assessing: fc.option(fc.record({ key: fc.constantFrom(...keys), draft: fc.constantFrom('some draft', 3), refinements: fc.nat(3) }), { nil: undefined }),
  }).map(({ node, answers, stack, pathPrompt, locked, assessing }): Session => ({
    ...base,
    node,
    stack,
    answers: AnswerMap.of(answers.map(([k, value]): [string, AnswerRecord] => [k, { value, turn: 1, source: 'user', validation: 'passed' }])),
    path: { ...base.path, locked },
    ...(pathPrompt ? { pending: { kind: 'path_prompt' as const } } : {}),
    ...(assessing ? { assessing } : {}),
  }));
}

function checkFlow(flow: CompiledFlow, runs: number): void {
  fc.assert(fc.property(sessionArb(flow), (s) => {
    const want = outcome(() => requestRef(flow, s, 'hello', NOW));
    const got = outcome(() => extractionRequest(flow, s, 'hello', NOW));
    if (got.ok) {
      const { history: _h, sessionId: _i, usage: _u, ...rest } = got.value;
      expect({ ok: true, value: rest }).toEqual(want);
    } else expect(got).toEqual(want);
    // the second time comes from the caches
    expect(outcome(() => extractionRequest(flow, s, 'hello', NOW))).toEqual(got);
  }), { numRuns: runs });
}

const REPO_FLOWS = ['flows/global/sales.flow.json', 'flows/global/patient-intake.flow.yaml', 'flows/global/newsletter.flow.json', 'flows/examples/seed-sales.flow.json'];

describe('extractionRequest with its per-flow caches', () => {
  for (const file of REPO_FLOWS) {
    it(`asks the same as the uncached walk: ${file}`, () => {
      const r = compileFile(file);
      if (r.kind !== 'flow' || !r.flow) throw new Error(`${file} does not compile`);
      checkFlow(r.flow, 400);
    });
  }

  it('asks the same as the uncached walk on random flows', () => {
    fc.assert(fc.property(flowArb, (g) => {
      const r = compileText(JSON.stringify(g.doc), 'prop.flow.json');
      if (r.kind !== 'flow' || !r.flow) throw new Error('generated flow does not compile');
      checkFlow(r.flow, 20);
    }), { numRuns: 60 });
  });

  it('asks the same past the cached part of the walk: a chain longer than the cached order, answered far along', () => {
    const n = 1_200;
    const nodes = [...Array.from({ length: n }, (_, i) => ({ id: `q${i}`, type: 'question', key: `k${i}` })), { id: 'end', type: 'terminal' }];
    const edges = Array.from({ length: n }, (_, i) => ({ from: `q${i}`, to: i + 1 < n ? `q${i + 1}` : 'end' }));
    const r = compileText(JSON.stringify({ version: 'v1', id: 'long', nodes, edges }), 'long.json');
    if (r.kind !== 'flow' || !r.flow) throw new Error('long chain does not compile');
    const flow = r.flow;
    const base = start(flow, { id: 's', now: NOW }).session;
    // everything up to q1000 answered: the open questions lie beyond the cached part of the walk from q0
    const answered = AnswerMap.of(Array.from({ length: 1_000 }, (_, i): [string, AnswerRecord] => [`k${i + 1}`, { value: 'x', turn: 1, source: 'user', validation: 'passed' }]));
    const s: Session = { ...base, node: 'q0', answers: answered };
    const got = extractionRequest(flow, s, 'hello', NOW);
    expect(got.open.map((q) => q.key)).toEqual(requestRef(flow, s, 'hello', NOW).open.map((q) => q.key));
    expect(got.open[0]!.key).toBe('k1001');
    expect(got.open).toHaveLength(OPEN_AHEAD);
  });

  it('shares frozen questions and paths, which no caller can change', () => {
    const r = compileFile('flows/global/sales.flow.json');
    if (r.kind !== 'flow' || !r.flow) throw new Error('sales does not compile');
    const flow = r.flow;
    const s = start(flow, { id: 's', now: NOW }).session;
    const req = extractionRequest(flow, s, 'hi', NOW);
    expect(Object.isFrozen(req.open[0])).toBe(true);
    expect(Object.isFrozen(req.paths)).toBe(true);
  });
});
