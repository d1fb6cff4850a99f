import type { CompiledFlow } from '../flow/compiled-flow.ts';
import { flowIndex } from './flow-index.ts';
import type { Session } from './session.ts';
import type { Progress } from './types.ts';

/**
 * Answered questions and the estimated total of those that still apply: the
 * answers so far plus the questions on the longest route ahead of `at`
 * (computed once per flow, so this costs nothing per turn).
 */
export function progressAt(flow: CompiledFlow, answers: Session['answers'], at: string | null): Progress {
  const idx = flowIndex(flow);
  let answered = answers.size;
  for (const k of idx.feedbackKeys.keys()) if (answers.has(k)) answered -= 1; // feedback is not an answer
  return { answered, total: answered + (at ? idx.remaining.get(at) ?? 0 : 0) };
}
