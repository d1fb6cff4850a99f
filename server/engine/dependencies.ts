import type { Draft } from './draft.ts';

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
