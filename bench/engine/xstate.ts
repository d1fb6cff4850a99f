/**
 * The generated flow as an XState v5 machine: one state per question, an
 * ANSWER event whose transitions carry the same validation (type, range,
 * options, `value >= 0`) and the same edge guards as closures, committing with
 * `assign`. A session is an actor; its checkpoint is `getPersistedSnapshot()`.
 */
import { assign, createActor, setup, type Actor } from 'xstate';
import { END_KEY, isValid, type BenchFlow, type EndState, type Get, type ScriptTurn } from './generate.ts';
import { heapUsed, Samples, type TimedRun } from './stats.ts';

interface Ctx {
  answers: Record<string, unknown>;
  attempts: number;
}
type AnswerEvent = { type: 'ANSWER'; value: unknown };

/** Builds the machine once per flow. */
export function buildMachine(bench: BenchFlow) {
  const s = setup({ types: { context: {} as Ctx, events: {} as AnswerEvent } });
  // A rejected value re-asks: no state change, one more attempt (never taken by the script).
  const reject = { actions: assign({ attempts: ({ context }: { context: Ctx }) => context.attempts + 1 }) };
  const states: Record<string, object> = {};
  for (const q of bench.questions) {
    const key = q.key;
    // The guard runs before `assign`, so the answer being given is read from the event.
    const getter = (context: Ctx, value: unknown): Get => (k) => (k === key ? value : context.answers[k] ?? null);
    const commit = assign({
      answers: ({ context, event }: { context: Ctx; event: AnswerEvent }) => ({ ...context.answers, [key]: event.value }),
      attempts: 0,
    });
    const out = bench.edges.get(key)!;
    const ordered = [...out.filter((e) => e.guard !== 'else'), ...out.filter((e) => e.guard === 'else')];
    const transitions = ordered.map((e) => ({
      target: e.to,
      actions: commit,
      guard: e.test
        ? ({ context, event }: { context: Ctx; event: AnswerEvent }) => isValid(q, event.value) && e.test!(getter(context, event.value))
        : ({ event }: { event: AnswerEvent }) => isValid(q, event.value),
    }));
    states[key] = { on: { ANSWER: [...transitions, reject] } };
  }
  states[END_KEY] = { type: 'final' };
  return s.createMachine({
    id: `bench_n${bench.n}`,
    initial: bench.questions[0]!.key,
    context: { answers: {}, attempts: 0 },
    // Generated states: XState's per-state typing cannot follow a runtime-built record.
    states: states as never,
  });
}

export type BenchMachine = ReturnType<typeof buildMachine>;

/** Runs the first `turns` turns untimed and says where the actor stands: the question waited on, or `done`. */
export function xstateState(machine: BenchMachine, script: readonly ScriptTurn[], turns: number): EndState {
  const actor = createActor(machine).start();
  for (const t of script.slice(0, turns)) actor.send({ type: 'ANSWER', value: t.value });
  const snap = actor.getSnapshot();
  actor.stop();
  const at = snap.status === 'done' ? 'done' : snap.status === 'active' ? String(snap.value) : `status ${snap.status}`;
  return { at, answers: { ...snap.context.answers } };
}

/** Times send + getPersistedSnapshot per turn, over whole conversations (one actor each). */
export function xstateTime(machine: BenchMachine, script: readonly ScriptTurn[], maxTurns: number, maxMs: number): TimedRun {
  const samples = new Samples(maxTurns);
  const events: AnswerEvent[] = script.map((t) => ({ type: 'ANSWER', value: t.value }));
  const t0 = performance.now();
  let conversations = 0;
  let checkpoint: unknown = null;
  while (!samples.full && performance.now() - t0 < maxMs) {
    const actor = createActor(machine).start();
    for (let i = 0; i < events.length; i++) {
      const a = process.hrtime.bigint();
      actor.send(events[i]!);
      checkpoint = actor.getPersistedSnapshot();
      const b = process.hrtime.bigint();
      samples.push(Number(b - a));
    }
    if ((checkpoint as { status?: string }).status !== 'done') throw new Error('xstate conversation did not finish');
    actor.stop();
    conversations++;
  }
  return { samples, conversations, turnsPerConversation: events.length, wallMs: performance.now() - t0 };
}

/** Heap bytes per live actor (with its last persisted snapshot) after `answered` turns. */
export function xstateMemory(machine: BenchMachine, scripts: (i: number) => readonly ScriptTurn[], count: number, answered: number): number {
  const live: Array<{ actor: Actor<BenchMachine>; checkpoint: unknown }> = new Array(count);
  const before = heapUsed();
  for (let s = 0; s < count; s++) {
    const actor = createActor(machine).start();
    let checkpoint: unknown = null;
    for (const t of scripts(s).slice(0, answered)) {
      actor.send({ type: 'ANSWER', value: t.value });
      checkpoint = actor.getPersistedSnapshot();
    }
    live[s] = { actor, checkpoint };
  }
  const after = heapUsed();
  if (live.some((l) => Object.keys((l.actor.getSnapshot().context as Ctx).answers).length !== answered)) {
    throw new Error('xstate memory actors did not reach the answer count');
  }
  return (after - before) / count;
}
