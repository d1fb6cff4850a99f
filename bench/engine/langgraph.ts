/**
 * The generated flow as a LangGraph.js StateGraph: an Annotation state with an
 * answers record, one node per question that waits with `interrupt()` and
 * validates the resumed value (re-asking on a bad one), conditional edges with
 * the same guards, compiled with a MemorySaver. A session is a thread; each
 * turn is `invoke(new Command({ resume: value }))`.
 */
import { Annotation, Command, END, interrupt, MemorySaver, START, StateGraph } from '@langchain/langgraph';
import { END_KEY, isValid, route, type BenchFlow, type EndState, type ScriptTurn } from './generate.ts';
import { heapUsed, Samples, type TimedRun } from './stats.ts';

const State = Annotation.Root({
  answers: Annotation<Record<string, unknown>>({ reducer: (a, b) => ({ ...a, ...b }), default: () => ({}) }),
  done: Annotation<boolean>({ reducer: (_a, b) => b, default: () => false }),
});
type S = typeof State.State;
type Update = typeof State.Update;
type Config = { configurable: { thread_id: string } };

/** The parts of the compiled graph the bench uses. */
export interface BenchGraph {
  invoke(input: Update | Command, config: Config): Promise<unknown>;
  getState(config: Config): Promise<{ values: S; next: readonly string[] }>;
  checkpointer: MemorySaver;
}

// StateGraph types node names as literals added one call at a time; a graph
// built from data in a loop goes through this loose view of the same builder.
interface LooseBuilder {
  addNode(name: string, fn: (s: S) => Update): LooseBuilder;
  addEdge(from: string, to: string): LooseBuilder;
  addConditionalEdges(from: string, path: (s: S) => string, targets: string[]): LooseBuilder;
  compile(opts: { checkpointer: MemorySaver }): unknown;
}

/** Builds and compiles the graph once per flow. */
export function buildGraph(bench: BenchFlow): BenchGraph {
  const g = new StateGraph(State) as unknown as LooseBuilder;
  for (const q of bench.questions) {
    g.addNode(q.key, () => {
      let value: unknown = interrupt({ key: q.key });
      while (!isValid(q, value)) value = interrupt({ key: q.key, invalid: true });
      return { answers: { [q.key]: value } };
    });
  }
  g.addNode(END_KEY, () => ({ done: true }));
  g.addEdge(START, bench.questions[0]!.key);
  for (const q of bench.questions) {
    const out = bench.edges.get(q.key)!;
    if (out.length === 1 && out[0]!.guard === null) g.addEdge(q.key, out[0]!.to);
    else g.addConditionalEdges(q.key, (s) => route(bench, q.key, (k) => s.answers[k] ?? null), [...new Set(out.map((e) => e.to))]);
  }
  g.addEdge(END_KEY, END);
  const checkpointer = new MemorySaver();
  const compiled = g.compile({ checkpointer }) as Omit<BenchGraph, 'checkpointer'>;
  return {
    invoke: (input, config) => compiled.invoke(input, config),
    getState: (config) => compiled.getState(config),
    checkpointer,
  };
}

const configOf = (threadId: string): Config => ({ configurable: { thread_id: threadId } });

/** Runs the first `turns` turns untimed and says where the thread stands: the question waited on, or `done`. */
export async function langgraphState(graph: BenchGraph, script: readonly ScriptTurn[], turns: number, threadId: string): Promise<EndState> {
  const config = configOf(threadId);
  await graph.invoke({ answers: {} }, config);
  for (const t of script.slice(0, turns)) await graph.invoke(new Command({ resume: t.value }), config);
  const state = await graph.getState(config);
  await graph.checkpointer.deleteThread(threadId);
  const at = state.values.done === true && state.next.length === 0 ? 'done' : state.next.length === 1 ? state.next[0]! : `next ${state.next.join(',')}`;
  return { at, answers: { ...state.values.answers } };
}

/**
 * Times each resume (await included) over conversations of `turns` turns
 * (the whole script, or its first turns when capped), deleting each thread
 * after; once `maxMs` has passed it stops, mid-conversation unless it is the first.
 */
export async function langgraphTime(graph: BenchGraph, script: readonly ScriptTurn[], turns: number, maxTurns: number, maxMs: number): Promise<TimedRun> {
  const samples = new Samples(maxTurns);
  const t0 = performance.now();
  let conversations = 0;
  while (!samples.full && performance.now() - t0 < maxMs) {
    const threadId = `t${conversations}`;
    const config = configOf(threadId);
    await graph.invoke({ answers: {} }, config);
    for (let i = 0; i < turns && !samples.full && (conversations === 0 || performance.now() - t0 < maxMs); i++) {
      const resume = new Command({ resume: script[i]!.value });
      const a = process.hrtime.bigint();
      await graph.invoke(resume, config);
      const b = process.hrtime.bigint();
      samples.push(Number(b - a));
    }
    await graph.checkpointer.deleteThread(threadId);
    conversations++;
  }
  return { samples, conversations, turnsPerConversation: turns, wallMs: performance.now() - t0 };
}

/** Heap bytes per thread (its MemorySaver checkpoints and writes) after `answered` turns, over `count` threads. */
export async function langgraphMemory(graph: BenchGraph, scripts: (i: number) => readonly ScriptTurn[], count: number, answered: number): Promise<number> {
  const before = heapUsed();
  for (let s = 0; s < count; s++) {
    const config = configOf(`m${s}`);
    await graph.invoke({ answers: {} }, config);
    for (const t of scripts(s).slice(0, answered)) await graph.invoke(new Command({ resume: t.value }), config);
  }
  const after = heapUsed();
  const last = await graph.getState(configOf(`m${count - 1}`));
  if (Object.keys(last.values.answers).length !== answered) throw new Error('langgraph memory threads did not reach the answer count');
  return (after - before) / count;
}
