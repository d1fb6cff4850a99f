import type { CompiledNode } from '../flow/compiled-flow.ts';
import { emit, holds, type Draft } from './draft.ts';

// v1 `dependencies` (flow-ir.md): a question is not asked, nor a volunteered
// answer to it committed, before the keys it depends on are answered. In a
// graph a question can be reached before its dependencies (the author put it
// first, or a route skipped them): the missing dependency is asked first, as
// a detour, and the conversation then comes back to the question. A
// dependency whose question does not apply (its `when` is false) does not
// hold the question back. The order of keys is precomputed per flow
// (flowIndex.dependencyOrder), so a question without dependencies costs one
// map lookup.

/**
 * The keys a question depends on (`dependencies`) that are still unanswered,
 * counting `alsoNow` (keys this message answers) as answered. A volunteered
 * answer whose dependencies are missing is not committed: it will be asked
 * in its turn (flow-ir.md `dependencies`).
 */
export function missingDependencies(d: Draft, key: string, alsoNow: ReadonlySet<string>): string[] {
  const q = d.idx.questionByKey.get(key)?.node;
  if (q?.type !== 'question' || !q.dependencies) return [];
  return q.dependencies.filter((k) => !d.s.answers.has(k) && !alsoNow.has(k));
}

/** The question to ask before `c` can be: its first unanswered dependency (dependencies of dependencies first) whose question applies. */
export function pendingDependency(d: Draft, c: CompiledNode): CompiledNode | undefined {
  const order = d.idx.dependencyOrder.get(c.node.id);
  if (!order) return undefined;
  for (const key of order) {
    if (d.s.answers.has(key)) continue;
    const q = d.idx.questionByKey.get(key);
    // a never-asked dependency (v0's optional questions) holds nothing back: it is only ever volunteered
    if (q && !(q.node.type === 'question' && q.node.never_ask) && (!q.when || holds(d, q.when))) return q;
  }
  return undefined;
}

/**
 * Leaves `c` for its dependency `q`: records where to come back to (a
 * `dependency` event) and makes `q` the question the session is at. The
 * caller asks it.
 */
export function startDetour(d: Draft, c: CompiledNode, q: CompiledNode): void {
  if (c.node.type !== 'question' || q.node.type !== 'question') return;
  emit(d, 'dependency', { key: c.node.key, asks: q.node.key, at: q.node.id }, c.node.id);
  d.s.detour = { node: c.node.id, stack: d.s.stack };
  d.s.node = q.node.id;
  d.s.attempts = 0;
  d.s.assessing = undefined;
}

/** Ends the detour: back in the waiting question's subgraph frames; returns that question's node, to visit again. */
export function endDetour(d: Draft): string {
  const t = d.s.detour!;
  d.s.detour = undefined;
  d.s.stack = t.stack;
  emit(d, 'node_exit', { to: t.node, detour: true });
  return t.node;
}
