import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { start, turn } from '../../server/engine/engine.ts';
import { answerValues, sessionFromJson, sessionToJson, type Session } from '../../server/engine/session.ts';
import type { Input, TurnResult } from '../../server/engine/types.ts';
import type { CompiledFlow } from '../../server/flow/compiled-flow.ts';
import { canonicalJson } from '../../server/shared/canonical-json.ts';
import { compileText } from '../../server/flow/document.ts';
import { envNumber, recordTally } from '../reliability/tally.ts';
import { flowArb, oracleAccepts, turnsArb, type GeneratedFlow, type Step2 } from './flow-gen.ts';

// Properties of the engine over random valid flows (compiled by the real
// compiler) and random turn sequences. numRuns stays small for `npm test`;
// RELIABILITY_RUNS raises it for `npm run reliability`.

const RUNS = envNumber('RELIABILITY_RUNS', 60);
const T0 = Date.parse('2026-01-15T10:00:00Z');
const at = (i: number) => new Date(T0 + i * 60_000).toISOString();

const compiled = new WeakMap<GeneratedFlow, CompiledFlow>();
function compile(g: GeneratedFlow): CompiledFlow {
  const hit = compiled.get(g);
  if (hit) return hit;
  const r = compileText(JSON.stringify(g.doc), 'prop.flow.json');
  const errors = r.diagnostics.filter((d) => d.severity === 'error');
  if (r.kind !== 'flow' || !r.flow || errors.length) throw new Error(`generated flow does not compile: ${JSON.stringify(errors)}\n${JSON.stringify(g.doc)}`);
  compiled.set(g, r.flow);
  return r.flow;
}

/** The engine input of a generated step at time `i`. */
function inputOf(step: Step2, i: number): Input {
  const now = at(i);
  switch (step.kind) {
    case 'answer':
      return { kind: 'message', text: `answer ${i}`, now, proposal: { extractor: 'prop', updates: [{ key: step.key, value: step.value }], unknown: [] } };
    case 'answers':
      return { kind: 'message', text: `answers ${i}`, now, proposal: { extractor: 'prop', updates: step.updates, unknown: [] } };
    case 'unknown':
      return { kind: 'message', text: `unknown ${i}`, now, proposal: { extractor: 'prop', updates: [], unknown: [step.key] } };
    case 'command':
      return { kind: 'command', command: step.command, now };
    case 'operator':
      return { kind: 'operator', decision: step.decision, now };
  }
}

interface Run {
  results: TurnResult[];
  /** Inputs the engine refused by throwing (an operator decision for a session that is not waiting is refused this way). */
  thrown: Array<{ step: Step2; message: string }>;
}

/** Plays the steps; an exception is recorded, never swallowed silently. */
function play(flow: CompiledFlow, steps: Step2[]): Run {
  const results: TurnResult[] = [start(flow, { id: 'prop-session', now: at(0) })];
  const thrown: Run['thrown'] = [];
  steps.forEach((step, i) => {
    const before = results.at(-1)!.session;
    try {
      results.push(turn(flow, before, inputOf(step, i + 1)));
    } catch (e) {
      thrown.push({ step, message: (e as Error).message });
    }
  });
  return { results, thrown };
}

/** A property failure, tallied for the reliability runner before it fails the test. */
const violations = { validation: 0, node: 0, determinism: 0, back: 0, exceptions: 0 };

function checkCommitted(g: GeneratedFlow, s: Session): string | null {
  const specs = new Map(g.questions.map((q) => [q.key, q]));
  for (const [key, record] of s.answers) {
    const spec = specs.get(key);
    if (!spec) return `committed '${key}', which no question of the flow asks`;
    if (!oracleAccepts(spec, record.value)) return `committed ${JSON.stringify(record.value)} for ${key} (${JSON.stringify(spec)})`;
  }
  return null;
}

function checkNode(g: GeneratedFlow, s: Session): string | null {
  if (s.status === 'active' && (s.node === null || !g.questionNodes.includes(s.node))) return `active at ${s.node}, which is not a question`;
  if (s.status === 'waiting' && !s.pending) return 'waiting without a pending operator decision or action';
  if (s.status === 'completed' && s.node !== null && !g.terminalNodes.includes(s.node) && !g.questionNodes.includes(s.node)) return `completed at ${s.node}`;
  return null;
}

describe('engine properties over random flows and turns', () => {
  it('never commits a value that fails validation, and stays at a question, a terminal or a wait', () => {
    let turns = 0;
    fc.assert(
      fc.property(flowArb.chain((g) => fc.tuple(fc.constant(g), turnsArb(g))), ([g, steps]) => {
        const run = play(compile(g), steps);
        turns += run.results.length;
        // only an operator decision on a session that is not waiting may be refused, and with a reason
        const unexpected = run.thrown.filter((t) => t.step.kind !== 'operator');
        if (unexpected.length) violations.exceptions++;
        expect(unexpected).toEqual([]);
        for (const r of run.results) {
          const bad = checkCommitted(g, r.session);
          if (bad) violations.validation++;
          expect(bad).toBeNull();
          const where = checkNode(g, r.session);
          if (where) violations.node++;
          expect(where).toBeNull();
          // the stored form round-trips
          expect(sessionToJson(sessionFromJson(sessionToJson(r.session)))).toEqual(sessionToJson(r.session));
        }
      }),
      { numRuns: RUNS },
    );
    recordTally('property', { property_runs: RUNS, property_turns: turns, property_violations: violations.validation + violations.node + violations.exceptions });
  });

  it('gives a byte-identical trace and session for the same inputs, also after a store round trip', () => {
    fc.assert(
      fc.property(flowArb.chain((g) => fc.tuple(fc.constant(g), turnsArb(g, 15))), ([g, steps]) => {
        const flow = compile(g);
        const a = play(flow, steps);
        const b = play(flow, steps);
        const bytes = (r: Run) => JSON.stringify(r.results.map((x) => ({ s: sessionToJson(x.session), e: x.events, f: x.effects })));
        const same = bytes(a) === bytes(b);
        // each turn from the stored (JSON) form of the previous session gives the same result
        let viaStore = true;
        let session = start(flow, { id: 'prop-session', now: at(0) }).session;
        steps.forEach((step, i) => {
          const input = inputOf(step, i + 1);
          let direct: TurnResult | null = null;
          let stored: TurnResult | null = null;
          try {
            direct = turn(flow, session, input);
          } catch {
            direct = null;
          }
          try {
            stored = turn(flow, sessionFromJson(JSON.parse(JSON.stringify(sessionToJson(session)))), input);
          } catch {
            stored = null;
          }
          // the same state and trace; key order may differ after JSON.parse, so compare canonically
          if (canonicalJson(direct && { s: sessionToJson(direct.session), e: direct.events }) !== canonicalJson(stored && { s: sessionToJson(stored.session), e: stored.events })) viaStore = false;
          if (direct) session = direct.session;
        });
        if (!same || !viaStore) violations.determinism++;
        expect(same).toBe(true);
        expect(viaStore).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('returns to the same state when a message is undone with back and sent again', () => {
    let checked = 0;
    fc.assert(
      fc.property(flowArb.chain((g) => fc.tuple(fc.constant(g), turnsArb(g, 12))), ([g, steps]) => {
        const flow = compile(g);
        const run = play(flow, steps);
        // from every active state reached, replay each message step: M, then back, then M again
        for (const [i, r] of run.results.entries()) {
          if (r.session.status !== 'active') continue;
          for (const [j, step] of steps.entries()) {
            if (step.kind !== 'answer' && step.kind !== 'answers') continue;
            const m = inputOf(step, 100 + i * 10 + j);
            const s1 = turn(flow, r.session, m).session;
            if (s1.status !== 'active' || answerValues(s1) === answerValues(r.session)) continue;
            if (JSON.stringify(answerValues(s1)) === JSON.stringify(answerValues(r.session))) continue; // nothing committed
            const s2 = turn(flow, s1, { kind: 'command', command: 'back', now: at(200) }).session;
            const s3 = turn(flow, s2, { ...m, now: at(201) }).session;
            checked++;
            const same = JSON.stringify([answerValues(s3), s3.node, s3.status, s3.stack]) === JSON.stringify([answerValues(s1), s1.node, s1.status, s1.stack]);
            const undone = JSON.stringify(answerValues(s2)) === JSON.stringify(answerValues(r.session));
            if (!same || !undone) violations.back++;
            expect({ node: s2.node, answers: answerValues(s2) }).toEqual({ node: r.session.node, answers: answerValues(r.session) });
            expect({ node: s3.node, status: s3.status, answers: answerValues(s3) }).toEqual({ node: s1.node, status: s1.status, answers: answerValues(s1) });
          }
        }
      }),
      { numRuns: Math.max(10, Math.round(RUNS / 2)) },
    );
    expect(checked).toBeGreaterThan(0);
    recordTally('property', { back_checks: checked, property_violations: violations.back + violations.determinism });
  });

  // found by the first property: '' and [] were committed (validation: passed) for required questions, which `has()` then read as unanswered
  it('refuses an empty text answer and an empty multiple choice, also for required questions', () => {
    const r = compileText(JSON.stringify({
      version: 'v1', id: 'flow.empty', nodes: [
        { id: 'q.t', type: 'question', key: 't', prompt: 't?', answer: { type: 'text', max: 5 } },
        { id: 'q.m', type: 'question', key: 'm', prompt: 'm?', answer: { type: 'enum', options: ['a', 'b'], multiple: true } },
        { id: 'n.end', type: 'terminal' },
      ],
    }), 'empty.flow.json');
    if (r.kind !== 'flow' || !r.flow) throw new Error('fixture flow does not compile');
    const flow = r.flow;
    const msg = (key: string, value: unknown): Input => ({ kind: 'message', text: 'x', now: at(1), proposal: { extractor: 'prop', updates: [{ key, value }], unknown: [] } });
    const s0 = start(flow, { now: at(0) }).session;
    const t = turn(flow, s0, msg('t', '   '));
    expect(t.session.answers.has('t')).toBe(false);
    expect(t.events.map((e) => e.type)).toContain('validation_failed');
    const s1 = turn(flow, s0, msg('t', 'ok')).session;
    const m = turn(flow, s1, msg('m', []));
    expect(m.session.answers.has('m')).toBe(false);
    expect(m.session.node).toBe('q.m');
    expect(turn(flow, s1, msg('m', ['b'])).session.status).toBe('completed');
  });

  it('generates flows the compiler accepts, of every kind the generator knows', () => {
    const samples = fc.sample(flowArb, { numRuns: 200, seed: 42 });
    for (const g of samples) compile(g);
    const kinds = new Set(samples.flatMap((g) => (g.doc.nodes as Array<{ type: string }>).map((n) => n.type)));
    expect([...kinds].sort()).toEqual(['decision', 'question', 'subgraph', 'terminal']);
    expect(samples.some((g) => JSON.stringify(g.doc).includes('"interrupt"'))).toBe(true);
  });
});
