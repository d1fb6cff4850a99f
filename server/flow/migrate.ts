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
  const optional = q.required === false;
  return {
    id,
    type: 'question',
    key: q.key,
    prompt: q.prompt ?? label ?? q.key,
    ...(label !== undefined ? { label } : {}),
    ...(answer ? { answer } : {}),
    required: !optional,
    // v0's contract: an optional question is filled only when the visitor volunteers it, never asked
    ...(optional ? { never_ask: true } : {}),
    ...(priority !== undefined ? { priority } : {}),
    ...(dependencies ? { dependencies } : {}),
    ...(when ? { when } : {}),
    ...(validate ? { validate } : {}),
    ...(invalid_prompt ? { invalid_prompt } : {}),
    ...(pii ? { pii } : {}),
  };
}

/** The segment of the node ids of a path's questions asked after the path prompt (`q.KEY_PATH.after_prompt.KEY`). */
export const AFTER_PROMPT = 'after_prompt';

/**
 * v0 checklist → v1 graph, asking what v0 would ask next: the lowest-priority
 * required question not answered yet of the checklist in force (the global
 * one while no path is voted; the global one merged with the path's once a
 * path is tentative or locked). Optional questions are never asked
 * (`never_ask`): each sequence ends with them, so they stay open to an
 * answer volunteered at any question. Without paths: one sequence. With
 * paths: the questions the global and every path's checklist start with
 * alike; then `n.hub`, which follows the voted path into that path's
 * checklist (`q.PATH.KEY`) or, while no path is voted, goes on (`on:
 * no_path`) through the remaining global questions (`q.KEY`); a path voted
 * on the way comes back to `n.hub` (the engine's route memo). Only when every
 * global question is answered and no path is voted is the path prompt asked
 * (`n.route`), routing into the questions the path adds
 * (`q.PATH.after_prompt.KEY`); when the prompt is exhausted the checklist
 * completes on what it has (`on: invalid` to `n.done`).
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
  const asked = (qs: readonly V0Question[]) => checklistOrder(qs).filter((q) => q.required !== false);
  const volunteered = (qs: readonly V0Question[]) => checklistOrder(qs).filter((q) => q.required === false);
  const nodes: Node[] = [];
  const edges: NonNullable<FlowV1['edges']> = [];
  /** Places questions as a sequence of nodes `prefix + key` ending at `end`; returns the first id (or `end`). */
  const sequence = (qs: readonly V0Question[], prefix: string, end: string, path?: string): string => {
    const ids = qs.map((q) => `${prefix}${q.key}`);
    qs.forEach((q, i) => {
      nodes.push(questionNode(q, ids[i]!));
      origin.set(ids[i]!, at(q.key, path));
      edges.push({ from: ids[i]!, to: ids[i + 1] ?? end });
    });
    return ids[0] ?? end;
  };
  const done = () => {
    nodes.push({ id: 'n.done', type: 'terminal', outcome: 'completed' });
    origin.set('n.done', ['questions']);
  };

  if (pathNames.length === 0) {
    const entry = sequence([...asked(v0.questions), ...volunteered(v0.questions)], 'q.', 'n.done');
    done();
    return { flow: { ...header, ...(entry !== 'n.done' ? { entry } : {}), nodes, edges }, origin };
  }

  const merged = new Map(pathNames.map((p) => [p, mergeByKey(v0.questions, v0.paths![p]!.questions ?? [])]));
  const globals = asked(v0.questions);
  const bySequence = [globals, ...pathNames.map((p) => asked(merged.get(p)!))];
  // the questions the global checklist and every path's start with alike: the next one is the same whatever the path
  let shared = 0;
  while (bySequence.every((seq) => seq[shared] && JSON.stringify(seq[shared]) === JSON.stringify(globals[shared]))) shared++;
  const prefix = globals.slice(0, shared);
  const rest = globals.slice(shared);
  const inGlobalPhase = new Set(globals.map((q) => q.key));
  const pathRoute = (name: string, firstOf: (p: string) => string) => {
    const cases = Object.fromEntries(pathNames.map((p) => [p, firstOf(p)]));
    // the last path is the default: a path is always one of the declared ones, so a last
    // guard that could be false would be an arm no conversation can reach
    const last = pathNames[pathNames.length - 1]!;
    const { [last]: fallback, ...named } = cases;
    return { id: name, type: 'decision' as const, label: name === 'n.hub' ? 'Which path, if any yet?' : 'Which path?', routes: { on: 'path', cases: named, default: fallback! } };
  };

  const entry = sequence(prefix, 'q.', rest.length > 0 ? 'n.hub' : 'n.route');
  const hubAt = nodes.length;
  if (rest.length > 0) {
    // no path voted yet: the global questions go on, in their order
    const globalStart = sequence(rest, 'q.', 'n.route');
    edges.push({ from: 'n.hub', to: globalStart, on: 'no_path', label: 'No path voted yet' });
  }
  // every global question answered, still no path: the path prompt; then the questions the path adds
  const routeAt = nodes.length;
  const afterPrompt = new Map<string, string>();
  for (const p of pathNames) {
    const qs = merged.get(p)!;
    const ids = rest.length > 0 ? `q.${p}.${AFTER_PROMPT}.` : `q.${p}.`;
    afterPrompt.set(p, sequence([...asked(qs), ...volunteered(qs)].filter((q) => !inGlobalPhase.has(q.key)), ids, 'n.done', p));
  }
  nodes.splice(routeAt, 0, pathRoute('n.route', (p) => afterPrompt.get(p)!));
  origin.set('n.route', ['paths']);
  // the path prompt exhausted: every global question is answered, so the checklist completes on what it has
  edges.push({ from: 'n.route', to: 'n.done', on: 'invalid', label: 'No path chosen' });
  if (rest.length > 0) {
    // a path voted: its whole checklist from here on (answered questions are passed)
    const hubStart = new Map<string, string>();
    for (const p of pathNames) {
      const qs = merged.get(p)!;
      hubStart.set(p, sequence([...asked(qs).slice(shared), ...volunteered(qs)], `q.${p}.`, 'n.done', p));
    }
    nodes.splice(hubAt, 0, pathRoute('n.hub', (p) => hubStart.get(p)!));
    origin.set('n.hub', ['paths']);
  }
  done();
  const options = Object.fromEntries(
    pathNames.map((p) => {
      const { label, examples } = v0.paths![p]!;
      return [p, { ...(label ? { label } : {}), ...(examples ? { examples } : {}) }];
    }),
  );
  return {
    flow: {
      ...header,
      entry,
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
