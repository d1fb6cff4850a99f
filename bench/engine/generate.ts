/**
 * Generated flows for the engine benchmark: N questions of mixed types in a
 * chain, a value-guarded branch every 5th question, `validate` rules, and a
 * terminal. The same flow is described three ways from one spec: as v1 flow
 * JSON for Questline, and as plain guard/validation closures that the XState
 * and LangGraph ports use, so every engine runs the same logic.
 */

export type BenchType = 'integer' | 'enum' | 'boolean' | 'text';

/** One question of the generated flow, with what every port needs to validate it. */
export interface BenchQuestion {
  index: number;
  /** Node id in the Questline flow (`n.q12`). */
  id: string;
  /** Answer key, also the state/node name in the peers (`q12`). */
  key: string;
  type: BenchType;
  min?: number;
  max?: number;
  options?: readonly string[];
  /** Carries the flow rule `validate: "value >= 0"`. */
  nonNegative: boolean;
}

/** Reads a committed answer (null when missing), as a guard sees it. */
export type Get = (key: string) => unknown;

/** An outgoing edge: `to` is a question key or END_KEY; `test` mirrors `guard` exactly. */
export interface BenchEdge {
  to: string;
  guard: string | 'else' | null;
  test?: (get: Get) => boolean;
}

/** The name of the terminal in every port. */
export const END_KEY = 'finish';

export interface BenchFlow {
  n: number;
  questions: readonly BenchQuestion[];
  /** Outgoing edges per question key, in file order. */
  edges: ReadonlyMap<string, readonly BenchEdge[]>;
  /** The v1 flow document. */
  json: Record<string, unknown>;
}

/** One scripted user turn: the proposed (already normalised) value and the message it came from. */
export interface ScriptTurn {
  key: string;
  value: unknown;
  text: string;
}

const SIZES = ['small', 'medium', 'large'] as const;

function typeAt(i: number): BenchType {
  switch (i % 5) {
    case 0: return 'integer'; // carries the value guard
    case 1: return 'enum';
    case 2: return 'boolean';
    case 3: return 'text';
    default: return 'integer'; // carries `validate: value >= 0`
  }
}

const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);

/**
 * The edges of question i. Every 5th question branches on its own value:
 * variant A goes on when `>= 10` and skips one question otherwise; variant B
 * (every other branch) skips ahead only when `>= 50 || answers.q(i-3) == false`
 * (a second, cross-key read) and otherwise takes `else` to the next question.
 * The script answers so that every question is asked: A takes its guard, B its else.
 */
function edgesOf(i: number, n: number): BenchEdge[] {
  const key = `q${i}`;
  const next = i + 1 < n ? `q${i + 1}` : END_KEY;
  const skip = i + 2 < n ? `q${i + 2}` : null;
  if (i % 5 !== 0 || skip === null) return [{ to: next, guard: null }];
  if ((i / 5) % 2 === 0) {
    return [
      { to: next, guard: `answers.${key} >= 10`, test: (get) => (num(get(key)) ?? -Infinity) >= 10 },
      { to: skip, guard: 'else' },
    ];
  }
  const other = `q${i - 3}`;
  return [
    { to: skip, guard: `answers.${key} >= 50 || answers.${other} == false`,
      test: (get) => (num(get(key)) ?? -Infinity) >= 50 || get(other) === false },
    { to: next, guard: 'else' },
  ];
}

/** Builds the flow with N questions. */
export function generateFlow(n: number): BenchFlow {
  const questions: BenchQuestion[] = [];
  const edges = new Map<string, BenchEdge[]>();
  const nodes: Record<string, unknown>[] = [];
  const edgeJson: Record<string, unknown>[] = [];
  const idOf = (key: string) => (key === END_KEY ? 'n.end' : `n.${key}`);
  for (let i = 0; i < n; i++) {
    const type = typeAt(i);
    const q: BenchQuestion = {
      index: i, id: `n.q${i}`, key: `q${i}`, type, nonNegative: i % 5 === 4,
      ...(type === 'integer' ? { min: 0, max: 1000 } : {}),
      ...(type === 'enum' ? { options: SIZES } : {}),
    };
    questions.push(q);
    const answer = type === 'integer' ? { type, min: q.min, max: q.max }
      : type === 'enum' ? { type, options: [...SIZES] } : { type };
    nodes.push({
      id: q.id, type: 'question', key: q.key, prompt: `Question ${i}?`, answer,
      ...(q.nonNegative ? { validate: 'value >= 0' } : {}),
    });
    const out = edgesOf(i, n);
    edges.set(q.key, out);
    for (const e of out) {
      edgeJson.push({ from: q.id, to: idOf(e.to), ...(e.guard !== null ? { guard: e.guard } : {}) });
    }
  }
  nodes.push({ id: 'n.end', type: 'terminal', outcome: 'completed', say: 'Thanks, all done.' });
  const json = { version: 'v1', id: `bench.engine.n${n}`, label: `engine bench, ${n} questions`, entry: 'n.q0', nodes, edges: edgeJson };
  return { n, questions, edges, json };
}

/** A valid value for question i; `salt` makes text answers distinct strings per session. */
function valueFor(q: BenchQuestion, salt: string): unknown {
  const i = q.index;
  switch (q.type) {
    case 'integer': return i % 5 === 0 ? 20 + (i % 20) : i % 100; // guard questions: >= 10 and < 50
    case 'enum': return SIZES[i % 3]!;
    case 'boolean': return true;
    case 'text': return `answer ${i}${salt}`;
  }
}

/** One proposal per question, in order: a full conversation of N turns. */
export function scriptFor(flow: BenchFlow, salt = ''): ScriptTurn[] {
  return flow.questions.map((q) => {
    const value = valueFor(q, salt);
    return { key: q.key, value, text: String(value) };
  });
}

/** The answers every engine must end with after the script. */
export function expectedAnswers(script: readonly ScriptTurn[]): Record<string, unknown> {
  return Object.fromEntries(script.map((t) => [t.key, t.value]));
}

/** Where a session stands after a script: the key of the question it waits on, or `done`; and its answers. */
export interface EndState {
  at: string;
  answers: Record<string, unknown>;
}

/** The same checks Questline's compiled schema and `validate` rule make: type, range/options, `value >= 0`. */
export function isValid(q: BenchQuestion, v: unknown): boolean {
  switch (q.type) {
    case 'integer':
      if (typeof v !== 'number' || !Number.isInteger(v)) return false;
      if ((q.min !== undefined && v < q.min) || (q.max !== undefined && v > q.max)) return false;
      return !q.nonNegative || v >= 0;
    case 'enum': return typeof v === 'string' && q.options!.includes(v);
    case 'boolean': return typeof v === 'boolean';
    case 'text': return typeof v === 'string' && v.trim().length > 0;
  }
}

/** Chooses the next key after `key` (first passing guard, else `else`), as every port routes. */
export function route(flow: BenchFlow, key: string, get: Get): string {
  const out = flow.edges.get(key)!;
  const hit = out.find((e) => e.guard === null || (e.guard !== 'else' && e.test!(get)));
  return (hit ?? out.find((e) => e.guard === 'else')!).to;
}
