/**
 * Questline under the bench: the flow compiled once, one `turn` per scripted
 * proposal. A turn here is exactly the engine's work after extraction:
 * validate the proposed value, commit it, traverse guarded edges to the next
 * question, and push the `back` checkpoint.
 */
import { start, turn } from '../../server/engine/engine.ts';
import { answerValues, type Session } from '../../server/engine/session.ts';
import type { Input } from '../../server/engine/types.ts';
import type { CompiledFlow } from '../../server/flow/compiled-flow.ts';
import { compileText } from '../../server/flow/document.ts';
import type { BenchFlow, EndState, ScriptTurn } from './generate.ts';
import { heapUsed, Samples, type TimedRun } from './stats.ts';

const NOW = '2025-01-06T09:00:00Z';

type MessageInput = Extract<Input, { kind: 'message' }>;

/** Compiles the generated flow; throws with the diagnostics when the compiler reports an error. */
export function compileBenchFlow(bench: BenchFlow): { flow: CompiledFlow; warnings: number } {
  const res = compileText(JSON.stringify(bench.json), `bench-n${bench.n}.flow.json`);
  const errors = res.diagnostics.filter((d) => d.severity === 'error');
  if (res.kind !== 'flow' || !res.flow || errors.length > 0) {
    throw new Error(`generated flow (N=${bench.n}) does not compile:\n${JSON.stringify(errors.slice(0, 10), null, 2)}`);
  }
  return { flow: res.flow, warnings: res.diagnostics.length - errors.length };
}

/** The script as engine inputs, built before timing so the timed call is `turn` alone. */
export function inputsFor(script: readonly ScriptTurn[]): MessageInput[] {
  return script.map((t) => ({
    kind: 'message', text: t.text, now: NOW,
    proposal: { extractor: 'bench', updates: [{ key: t.key, value: t.value }], unknown: [] },
  }));
}

/** Runs the first `turns` turns untimed and says where the session stands: the question waited on, or `done`. */
export function questlineState(flow: CompiledFlow, inputs: readonly MessageInput[], turns: number): EndState {
  let session = start(flow, { now: NOW }).session;
  for (const input of inputs.slice(0, turns)) session = turn(flow, session, input).session;
  const at = session.status === 'completed' ? 'done'
    : session.status === 'active' && session.node ? session.node.replace(/^n\./, '') : `status ${session.status}`;
  return { at, answers: answerValues(session) };
}

/**
 * Runs whole conversations until `maxTurns` turns are timed or `maxMs` has
 * passed (finishing the conversation in progress), timing each `turn` call.
 */
export function questlineTime(flow: CompiledFlow, inputs: readonly MessageInput[], maxTurns: number, maxMs: number): TimedRun {
  const samples = new Samples(maxTurns);
  const t0 = performance.now();
  let conversations = 0;
  while (!samples.full && performance.now() - t0 < maxMs) {
    let session = start(flow, { now: NOW }).session;
    for (let i = 0; i < inputs.length; i++) {
      const a = process.hrtime.bigint();
      session = turn(flow, session, inputs[i]!).session;
      const b = process.hrtime.bigint();
      samples.push(Number(b - a));
    }
    if (session.status !== 'completed') throw new Error(`questline conversation ended ${session.status}`);
    conversations++;
  }
  return { samples, conversations, turnsPerConversation: inputs.length, wallMs: performance.now() - t0 };
}

/** Heap bytes per live `Session` value after `answered` turns, over `count` sessions. */
export function questlineMemory(flow: CompiledFlow, scripts: (i: number) => readonly ScriptTurn[], count: number, answered: number): number {
  const live: Session[] = new Array(count);
  const before = heapUsed();
  for (let s = 0; s < count; s++) {
    const inputs = inputsFor(scripts(s).slice(0, answered));
    let session = start(flow, { now: NOW, id: `s${s}` }).session;
    for (const input of inputs) session = turn(flow, session, input).session;
    live[s] = session;
  }
  const after = heapUsed();
  if (live.some((s) => s.answers.size !== answered)) throw new Error('questline memory sessions did not reach the answer count');
  return (after - before) / count;
}
