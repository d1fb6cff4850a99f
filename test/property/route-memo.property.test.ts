import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { draftOf } from '../../server/engine/draft.ts';
import { start, turn } from '../../server/engine/engine.ts';
import { progressAt, remainingOnRoute } from '../../server/engine/progress.ts';
import { flowIndex } from '../../server/engine/flow-index.ts';
import { certainlyUnanswered } from '../../server/engine/route-memo.ts';
import { sessionFromJson, sessionToJson, type Session } from '../../server/engine/session.ts';
import type { Input } from '../../server/engine/types.ts';
import type { Frame } from '../../server/engine/session.ts';
import type { CompiledFlow } from '../../server/flow/compiled-flow.ts';
import { compileText } from '../../server/flow/document.ts';
import { envNumber } from '../reliability/tally.ts';
import { callFlowArb, flowArb, type GeneratedFlow, type QuestionSpec } from './flow-gen.ts';

// The progress walk ahead is remembered per flow and node (server/engine/route-memo.ts)
// and reused across sessions and turns. Here it is compared with a fresh walk
// (remainingOnRoute without the memo) on random flows, for several cooperative
// conversations with different answers on the same compiled flow, at every turn and at every
// question of the flow (with each chain of subgraph calls that leads to it), so
// remembered walks meet other answers and frames.

const RUNS = envNumber('RELIABILITY_RUNS', 60);
const T0 = Date.parse('2026-01-15T10:00:00Z');
const at = (i: number) => new Date(T0 + i * 60_000).toISOString();

function compile(g: GeneratedFlow): CompiledFlow {
  const r = compileText(JSON.stringify(g.doc), 'prop.flow.json');
  if (r.kind !== 'flow' || !r.flow) throw new Error(`generated flow does not compile: ${JSON.stringify(g.doc)}`);
  return r.flow;
}

/** A value the question accepts, picked by `r`. */
function validValue(q: QuestionSpec, r: number): unknown {
  switch (q.type) {
    case 'integer': {
      const v = q.min + (r % (q.max - q.min + 1));
      return v === q.forbid ? q.min : v;
    }
    case 'boolean': return r % 2 === 0;
    case 'enum': return q.multiple ? [q.options[r % q.options.length]!] : q.options[r % q.options.length]!;
    case 'text': return q.digitsOnly ? '7'.repeat(1 + (r % q.max)) : 'a'.repeat(1 + (r % q.max));
  }
}

/**
 * A cooperative visitor driven by random numbers: mostly answers the question
 * asked with a valid value, sometimes also one ahead, skips, goes back, or
 * approves an operator wait.
 */
function inputOf(g: GeneratedFlow, flow: CompiledFlow, s: Session, r: number, i: number): Input {
  const now = at(i);
  if (s.status === 'waiting') return { kind: 'operator', decision: 'approve', now };
  const current = s.node ? flow.nodes.get(s.node)?.node : undefined;
  const q = current?.type === 'question' ? g.questions.find((x) => x.key === current.key) : undefined;
  if (r % 9 === 0) return { kind: 'command', command: 'back', now };
  if (r % 11 === 0) return { kind: 'command', command: 'skip', now };
  const updates = q ? [{ key: q.key, value: validValue(q, r >> 4) }] : [];
  const other = g.questions[(r >> 8) % Math.max(1, g.questions.length)];
  if (r % 5 === 0 && other) updates.push({ key: other.key, value: validValue(other, r >> 12) });
  return { kind: 'message', text: `answer ${i}`, now, proposal: { extractor: 'rules', updates, unknown: [] } };
}

/** The walk without the memo: answered questions plus a fresh count ahead. */
function fresh(flow: CompiledFlow, s: Session, node: string): number {
  return progressAt(flow, s.answers, null).answered + remainingOnRoute(draftOf(flow, s), node, s.stack);
}

/**
 * Stacks to walk from `node` with: none, each chain of
 * calls that leads to the node's scope (a subgraph may have several callers,
 * and a nested one callers inside another subgraph), and each single call
 * frame whatever it calls (a stack no turn makes: an exit then returns to a
 * node that may rank above, which the memo must not trust).
 */
function stacksFor(flow: CompiledFlow, node: string): Session['stack'][] {
  const chains = (scope: string | null, depth: number): Frame[][] => {
    if (scope === null) return [[]];
    if (depth > 3) return [];
    return [...flow.nodes.values()].filter((c) => c.node.type === 'subgraph' && c.node.ref === scope)
      .flatMap((c) => chains(c.scope, depth + 1).map((below) => [...below, { node: c.node.id, ref: scope }]));
  };
  const single = [...flow.nodes.values()].flatMap((c) => (c.node.type === 'subgraph' ? [[{ node: c.node.id, ref: c.node.ref }]] : []));
  return [[], ...chains(flow.nodes.get(node)?.scope ?? null, 0), ...single];
}

/** Compares the remembered progress with a fresh walk in every session a few conversations reach, at every question; returns the counts. */
function compareAll(g: GeneratedFlow, conversations: number[][]): { compared: number; proved: number; deep: number } {
  let compared = 0;
  let proved = 0;
  let deep = 0;
  const flow = compile(g);
  const questions = [...flow.nodes.values()].filter((c) => c.node.type === 'question').map((c) => c.node.id);
  const sessions: Session[] = [];
  for (const steps of conversations) {
    let s = start(flow, { id: 'memo', now: at(0) }).session;
    const played = [s];
    steps.forEach((r, i) => {
      s = turn(flow, s, inputOf(g, flow, s, r, i + 1)).session;
      played.push(s);
    });
    // as the engine holds it (carrying its answered rank) and as a store gives it back (without)
    for (const one of played) sessions.push(one, sessionFromJson(sessionToJson(one)));
  }
  for (const v of sessions) {
    if (v.node !== null && flow.nodes.get(v.node)?.node.type === 'question') {
      expect(progressAt(flow, v.answers, v.node, v).total).toBe(fresh(flow, v, v.node));
      compared++;
    }
    // the carried rank proves a key unanswered only when it is (engine: visit and commit skip the lookup then)
    for (const [key, rank] of flowIndex(flow).keyRank) {
      if (certainlyUnanswered(v, v.answers, rank)) {
        expect(v.answers.has(key)).toBe(false);
        proved++;
      }
    }
    // one session object asked for every question in turn, with its own stack
    for (const q of questions) {
      expect(progressAt(flow, v.answers, q, v).total).toBe(fresh(flow, v, q));
      compared++;
    }
  }
  // every question with each other stack, in every session in turn: walks remembered in one session meet other
  // answers, and (the memo holds one walk per node) the same frames
  for (const q of questions) {
    for (const stack of stacksFor(flow, q)) {
      for (const v of sessions) {
        const w = { ...v, stack };
        expect(progressAt(flow, w.answers, q, w).total).toBe(fresh(flow, w, q));
        compared++;
        if (stack.length > 0) deep++;
      }
    }
  }
  return { compared, proved, deep };
}

describe('the remembered route ahead', () => {
  const conversation = fc.array(fc.nat(), { minLength: 1, maxLength: 20 });

  it('gives the same progress total as a fresh walk, at every turn and every question', () => {
    let compared = 0;
    let proved = 0;
    fc.assert(fc.property(flowArb, fc.array(conversation, { minLength: 3, maxLength: 4 }), (g, conversations) => {
      const n = compareAll(g, conversations);
      compared += n.compared;
      proved += n.proved;
    }), { numRuns: 2 * RUNS });
    expect(compared).toBeGreaterThan(RUNS);
    expect(proved).toBeGreaterThan(RUNS);
  });

  it('gives the same total as a fresh walk on flows calling subgraphs from several places, nested, with any frames', () => {
    let deep = 0;
    fc.assert(fc.property(callFlowArb, fc.array(conversation, { minLength: 3, maxLength: 4 }), (g, conversations) => {
      deep += compareAll(g, conversations).deep;
    }), { numRuns: 2 * RUNS });
    expect(deep).toBeGreaterThan(RUNS);
  });

  it('is not reused when a guard ahead reads an answer that differs', () => {
    const doc = {
      version: 'v1', id: 'memo.guard', entry: 's0',
      nodes: [
        { id: 's0', type: 'question', key: 'k0', prompt: 'k0?', answer: { type: 'integer', min: 0, max: 100 } },
        { id: 's1', type: 'question', key: 'k1', prompt: 'k1?', answer: { type: 'boolean' } },
        { id: 's2', type: 'decision' },
        { id: 's3', type: 'question', key: 'k3', prompt: 'k3?', answer: { type: 'boolean' } },
        { id: 's4', type: 'question', key: 'k4', prompt: 'k4?', answer: { type: 'boolean' } },
        { id: 'n.done', type: 'terminal' },
      ],
      edges: [
        { from: 's0', to: 's1' }, { from: 's1', to: 's2' }, { from: 's2', to: 's4', guard: 'answers.k0 >= 50' },
        { from: 's2', to: 's3', guard: 'else' }, { from: 's3', to: 's4' }, { from: 's4', to: 'n.done' },
      ],
    };
    const r = compileText(JSON.stringify(doc), 'memo.flow.json');
    if (r.kind !== 'flow' || !r.flow) throw new Error('memo.flow.json does not compile');
    const flow = r.flow;
    const totals = [10, 90, 10].map((value) => {
      const s = turn(flow, start(flow, { now: at(0) }).session, {
        kind: 'message', text: String(value), now: at(1), proposal: { extractor: 'rules', updates: [{ key: 'k0', value }], unknown: [] },
      }).session;
      expect(s.node).toBe('s1');
      expect(progressAt(flow, s.answers, 's1', s).total).toBe(fresh(flow, s, 's1'));
      return progressAt(flow, s.answers, 's1', s).total;
    });
    // k0, k1, k3 and k4 below 50; k0, k1 and k4 from 50
    expect(totals).toEqual([4, 3, 4]);
  });

  it('is not kept from a node whose walk may return above its rank (a subgraph left without a chosen edge)', () => {
    // in sub, d2 has no edge for k0 below 1000: a walk from sq pops its frame and goes on at s2, which the flat graph
    // (d2 leads only to the terminal) ranks above sq; d1 lists sq's edge first so that Tarjan numbers s2 after them
    const doc = {
      version: 'v1', id: 'memo.trap', entry: 's0',
      nodes: [
        { id: 's0', type: 'question', key: 'k0', prompt: 'k0?', answer: { type: 'integer', min: 0, max: 100 } },
        { id: 's1', type: 'subgraph', ref: 'sub' },
        { id: 's2', type: 'question', key: 'k2', prompt: 'k2?', answer: { type: 'boolean' } },
        { id: 'n.done', type: 'terminal' },
      ],
      edges: [{ from: 's0', to: 's1' }, { from: 's1', to: 's2' }, { from: 's2', to: 'n.done' }],
      subgraphs: {
        sub: {
          nodes: [
            { id: 'd1', type: 'decision' },
            { id: 'sq', type: 'question', key: 'ksq', prompt: 'ksq?', answer: { type: 'boolean' } },
            { id: 'd2', type: 'decision' },
            { id: 't.end', type: 'terminal' },
          ],
          edges: [
            { from: 'd1', to: 'sq', guard: 'answers.k0 < 50' }, { from: 'd1', to: '__exit__', guard: 'else' },
            { from: 'sq', to: 'd2' }, { from: 'd2', to: 't.end', guard: 'answers.k0 > 1000' },
          ],
        },
      },
    };
    const r = compileText(JSON.stringify(doc), 'memo.flow.json');
    if (r.kind !== 'flow' || !r.flow) throw new Error(`memo.flow.json does not compile: ${JSON.stringify(r.diagnostics)}`);
    const flow = r.flow;
    const idx = flowIndex(flow);
    expect(idx.rank.get('s2')!).toBeGreaterThan(idx.rank.get('sq')!);
    expect(idx.records.get('sq')!.walkRanked).toBe(false);
    expect(idx.records.get('s2')!.walkRanked).toBe(true);
    const s = turn(flow, start(flow, { now: at(0) }).session, {
      kind: 'message', text: '10', now: at(1), proposal: { extractor: 'rules', updates: [{ key: 'k0', value: 10 }], unknown: [] },
    }).session;
    expect(s.node).toBe('sq');
    expect(s.stack).toEqual([{ node: 's1', ref: 'sub' }]);
    // the same node and frames, first with k2 unanswered, then answered (ranked above sq: "nothing answered ahead")
    const answeredAhead = { ...s, answers: s.answers.set('k2', { value: true, turn: 1, source: 'user', validation: 'passed' }) } as Session;
    expect(progressAt(flow, s.answers, 'sq', s).total).toBe(fresh(flow, s, 'sq'));
    expect(progressAt(flow, answeredAhead.answers, 'sq', answeredAhead).total).toBe(fresh(flow, answeredAhead, 'sq'));
    // k0 answered, ksq and k2 ahead; then k0 and k2 answered, ksq ahead (a walk remembered from the first would say 4)
    expect([fresh(flow, s, 'sq'), fresh(flow, answeredAhead, 'sq')]).toEqual([3, 3]);
  });
});
