import { emit, type Draft } from './draft.ts';
import { applyVote } from './paths.ts';
import { askPath, routeDecision, run, special } from './traverse.ts';
import type { EventType } from './types.ts';

/** How many times the path prompt is asked at one decision when the flow does not say (`paths.max_attempts`). */
export const PATH_PROMPT_ATTEMPTS = 3;

/**
 * A reply to the path prompt that chose no path. The prompt is asked again
 * up to `paths.max_attempts` times in all; then the flow's `paths.default`
 * is locked and routed on, else the decision's `on: invalid` edge is followed
 * (the v0 migrator's route to the global questions), else the session
 * escalates. "Hmm, neither really" can never loop for ever.
 */
export function pathPromptMissed(d: Draft): void {
  const id = d.s.node!;
  const attempts = (d.s.pathAttempts ?? 0) + 1;
  const max = d.flow.source.paths?.max_attempts ?? PATH_PROMPT_ATTEMPTS;
  emit(d, 'validation_failed', { reason: 'no path chosen', attempt: attempts });
  if (attempts < max) {
    d.s.pathAttempts = attempts;
    askPath(d, id, d.flow.messages.not_caught);
    return;
  }
  d.s.pathAttempts = undefined;
  d.s.pending = undefined;
  const fallback = d.flow.source.paths?.default;
  if (fallback !== undefined) {
    const voted = applyVote(d.s.path, { path: fallback, confidence: 1 }, d.flow, { decisive: true });
    d.s.path = voted.state;
    for (const { type, ...detail } of voted.events) emit(d, type as EventType, { ...detail, default: true });
    run(d, routeDecision(d, d.flow.nodes.get(id)!));
    return;
  }
  run(d, special(d, id, 'invalid', `no path chosen after ${max} attempts`));
}
