import type { DocPath } from './load.ts';
import type { FlowV0, FlowV1, Node, V0Question } from './schema.ts';

/** A migrated flow and, per generated node id, the v0 document path it came from. */
export interface Migration {
  flow: FlowV1;
  origin: Map<string, DocPath>;
}

const NO_PRIORITY = Number.POSITIVE_INFINITY;

/**
 * Orders a checklist the way v0 picks its next question: repeatedly the lowest
 * `priority` question (ties by key) whose dependencies are already placed.
 * Questions caught in a dependency cycle or waiting on an unknown key go last,
 * in the same order; the compiler reports those as errors.
 */
export function checklistOrder(questions: readonly V0Question[]): V0Question[] {
  const rank = (a: V0Question, b: V0Question) =>
    (a.priority ?? NO_PRIORITY) - (b.priority ?? NO_PRIORITY) || a.key.localeCompare(b.key);
  const byKey = new Map(questions.map((q) => [q.key, q]));
  // Kahn's algorithm over known dependencies, always taking the best-ranked ready question
  const waiting = new Map<string, number>();
  const unlocks = new Map<string, string[]>();
  for (const q of questions) {
    const deps = [...new Set(q.dependencies ?? [])].filter((d) => d !== q.key);
    waiting.set(q.key, deps.length);
    for (const d of deps) {
      if (!byKey.has(d)) continue; // unknown: never satisfied, the compiler reports it
      const list = unlocks.get(d) ?? [];
      list.push(q.key);
      unlocks.set(d, list);
    }
  }
  const ready = questions.filter((q) => waiting.get(q.key) === 0).sort(rank);
  const out: V0Question[] = [];
  while (ready.length > 0) {
    const q = ready.shift()!;
    out.push(q);
    for (const k of unlocks.get(q.key) ?? []) {
      const left = waiting.get(k)! - 1;
      waiting.set(k, left);
      if (left === 0) {
        const next = byKey.get(k)!;
        const at = ready.findIndex((r) => rank(next, r) < 0);
        ready.splice(at < 0 ? ready.length : at, 0, next);
      }
    }
  }
  const placed = new Set(out.map((q) => q.key));
  return [...out, ...[...questions].sort(rank).filter((q) => !placed.has(q.key))];
}

/** Merges a path's partial questions over the global ones by key, field by field. */
function mergeByKey(base: readonly V0Question[], over: ReadonlyArray<Partial<V0Question> & { key: string }>): V0Question[] {
  const merged = new Map(base.map((q) => [q.key, { ...q }]));
  for (const q of over) merged.set(q.key, { ...(merged.get(q.key) ?? { prompt: q.key }), ...q } as V0Question);
  return [...merged.values()];
}

function questionNode(q: V0Question, id: string): Node {
  const { priority, dependencies, when, answer, validate, invalid_prompt, pii, label } = q;
  return {
    id,
    type: 'question',
    key: q.key,
    prompt: q.prompt ?? label ?? q.key,
    ...(label !== undefined ? { label } : {}),
    ...(answer ? { answer } : {}),
    required: q.required ?? true,
    ...(priority !== undefined ? { priority } : {}),
    ...(dependencies ? { dependencies } : {}),
    ...(when ? { when } : {}),
    ...(validate ? { validate } : {}),
    ...(invalid_prompt ? { invalid_prompt } : {}),
    ...(pii ? { pii } : {}),
  };
}

/** The id segment of the questions asked when no path is ever chosen (`q.no_path.KEY`). */
export const NO_PATH = 'no_path';

/**
 * v0 checklist → v1 graph. Without paths: the checklist order as a sequence.
 * With paths: the questions every path starts with alike, then a decision
 * that routes on the locked `path` (asking `prompt` until one locks) into one
 * sequence per path of the rest of its merged checklist; when the path
 * prompt is exhausted without a path, the decision's `on: invalid` edge runs
 * the global questions not asked yet, so the checklist still completes.
 */
export function migrateV0(v0: FlowV0): Migration {
  const origin = new Map<string, DocPath>();
  const at = (key: string, path?: string): DocPath => {
    const own = path ? (v0.paths?.[path]?.questions ?? []).findIndex((q) => q.key === key) : -1;
    if (path && own >= 0) return ['paths', path, 'questions', own];
    const i = v0.questions.findIndex((q) => q.key === key);
    return i >= 0 ? ['questions', i] : ['questions'];
  };
  const header = {
    version: 'v1' as const,
    id: v0.id,
    ...(v0.label ? { label: v0.label } : {}),
    description: `Migrated from the v0 checklist ${v0.id}.`,
  };
  const pathNames = Object.keys(v0.paths ?? {}).sort();

  if (pathNames.length === 0) {
    const nodes: Node[] = checklistOrder(v0.questions).map((q) => {
      origin.set(`q.${q.key}`, at(q.key));
      return questionNode(q, `q.${q.key}`);
    });
    nodes.push({ id: 'n.done', type: 'terminal', outcome: 'completed' });
    origin.set('n.done', ['questions']);
    return { flow: { ...header, nodes }, origin };
  }

  // Questions every path asks first, identically, are asked before the route:
  // v0 would ask them before any path is known too.
  const sequences = pathNames.map((p) => checklistOrder(mergeByKey(v0.questions, v0.paths![p]!.questions ?? [])));
  let shared = 0;
  while (sequences.every((seq) => seq[shared] && JSON.stringify(seq[shared]) === JSON.stringify(sequences[0]![shared]))) shared++;

  const nodes: Node[] = [];
  const edges: NonNullable<FlowV1['edges']> = [];
  const prefix = sequences[0]!.slice(0, shared);
  prefix.forEach((q, i) => {
    nodes.push(questionNode(q, `q.${q.key}`));
    origin.set(`q.${q.key}`, at(q.key));
    edges.push({ from: `q.${q.key}`, to: prefix[i + 1] ? `q.${prefix[i + 1]!.key}` : 'n.route' });
  });
  const cases: Record<string, string> = {};
  pathNames.forEach((p, n) => {
    const seq = sequences[n]!.slice(shared);
    const ids = seq.map((q) => `q.${p}.${q.key}`);
    seq.forEach((q, i) => {
      nodes.push(questionNode(q, ids[i]!));
      origin.set(ids[i]!, at(q.key, p));
      edges.push({ from: ids[i]!, to: ids[i + 1] ?? 'n.done' });
    });
    cases[p] = ids[0] ?? 'n.done';
  });
  // the last path is the default: a path is always one of the declared ones, so a last
  // guard that could be false would be an arm no conversation can reach
  const last = pathNames[pathNames.length - 1]!;
  const { [last]: fallback, ...named } = cases;
  nodes.splice(prefix.length, 0, { id: 'n.route', type: 'decision', label: 'Which path?', routes: { on: 'path', cases: named, default: fallback! } });
  // no path ever chosen (the path prompt exhausted): the global questions not asked yet, then done
  const asked = new Set(prefix.map((q) => q.key));
  const globals = checklistOrder(v0.questions).filter((q) => !asked.has(q.key));
  const globalIds = globals.map((q) => `q.${NO_PATH}.${q.key}`);
  globals.forEach((q, i) => {
    nodes.push(questionNode(q, globalIds[i]!));
    origin.set(globalIds[i]!, at(q.key));
    edges.push({ from: globalIds[i]!, to: globalIds[i + 1] ?? 'n.done' });
  });
  edges.push({ from: 'n.route', to: globalIds[0] ?? 'n.done', on: 'invalid', label: 'No path chosen' });
  nodes.push({ id: 'n.done', type: 'terminal', outcome: 'completed' });
  origin.set('n.route', ['paths']).set('n.done', ['questions']);
  const options = Object.fromEntries(
    pathNames.map((p) => {
      const { label, examples } = v0.paths![p]!;
      return [p, { ...(label ? { label } : {}), ...(examples ? { examples } : {}) }];
    }),
  );
  return {
    flow: {
      ...header,
      entry: prefix[0] ? `q.${prefix[0].key}` : 'n.route',
      paths: {
        policy: { lock_threshold: 2, allow_switch_before_lock: true, ...v0.policy },
        prompt: v0.prompt ?? `Which of these fits best: ${pathNames.map((p) => v0.paths![p]!.label ?? p).join(', ')}?`,
        options,
      },
      nodes,
      edges,
    },
    origin,
  };
}
