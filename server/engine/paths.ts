import type { CompiledFlow } from '../flow/compiled-flow.ts';
import type { PathState } from './session.ts';
import type { EventType } from './types.ts';

/** A flow's path policy with defaults applied (threshold 2, switching allowed, no decay). */
export interface PathPolicy {
  lockThreshold: number;
  allowSwitchBeforeLock: boolean;
  /** Share of their score that the other paths lose on each turn (0 = none). */
  decay: number;
  /** Votes below this confidence are ignored. */
  minConfidence: number;
}

/** The policy of a flow. */
export function pathPolicy(flow: CompiledFlow): PathPolicy {
  const p = flow.source.paths?.policy ?? {};
  return {
    lockThreshold: p.lock_threshold ?? 2,
    allowSwitchBeforeLock: p.allow_switch_before_lock ?? true,
    decay: p.decay ?? 0,
    minConfidence: p.min_confidence ?? 0,
  };
}

/** A path event before the caller adds turn and node. */
export type PathEvent = { type: EventType } & Record<string, unknown>;

/** The empty path state of a new session. */
export const NO_PATH: PathState = Object.freeze({ scores: Object.freeze({}) as Record<string, number>, tentative: null, locked: false });

const round = (n: number) => Math.round(n * 1000) / 1000;

/**
 * Applies one turn's vote (or none) with hysteresis: scores accumulate
 * (each vote weighs its confidence, clamped to 0..1, so `lock_threshold: N`
 * locks after N clear votes), the other paths decay, a different path may take
 * over before the lock when allowed, and the path locks once its score reaches
 * the threshold. After the lock, votes change nothing. `decisive` (an answer
 * to the path prompt) locks at once. Returns the new state and the events that
 * explain it (without turn and node, which the caller adds).
 */
export function applyVote(
  state: PathState,
  vote: { path: string; confidence?: number } | undefined,
  flow: CompiledFlow,
  opts: { decisive?: boolean } = {},
): { state: PathState; events: PathEvent[] } {
  const events: PathEvent[] = [];
  const options = flow.source.paths?.options ?? {};
  if (state.locked || !flow.source.paths) {
    if (vote) events.push({ type: 'path_vote', path: vote.path, ignored: state.locked ? 'path already locked' : 'flow has no paths' });
    return { state, events };
  }
  const policy = pathPolicy(flow);
  const scores: Record<string, number> = { ...state.scores };
  let voted: string | null = null;
  if (vote) {
    // a vote weighs its confidence: a clear vote 1, a model's 0.7 less; never more than one vote
    const confidence = Math.min(1, Math.max(0, vote.confidence ?? 1));
    if (!Object.hasOwn(options, vote.path)) {
      events.push({ type: 'path_vote', path: vote.path, confidence, ignored: 'not a declared path' });
    } else if (confidence < policy.minConfidence && !opts.decisive) {
      events.push({ type: 'path_vote', path: vote.path, confidence, ignored: `confidence below ${policy.minConfidence}` });
    } else {
      voted = vote.path;
      const weight = opts.decisive ? policy.lockThreshold : confidence;
      scores[voted] = round((scores[voted] ?? 0) + weight);
      events.push({ type: 'path_vote', path: voted, confidence, weight, scores: { ...scores }, threshold: policy.lockThreshold });
    }
  }
  if (policy.decay > 0) {
    for (const p of Object.keys(scores)) if (p !== voted) scores[p] = round(scores[p]! * (1 - policy.decay));
  }
  let tentative = state.tentative;
  if (voted && voted !== tentative) {
    const lead = tentative === null || scores[voted]! > (scores[tentative] ?? 0);
    if (lead && (tentative === null || policy.allowSwitchBeforeLock || opts.decisive)) {
      events.push({ type: 'path_switch', from: tentative, to: voted, scores: { ...scores } });
      tentative = voted;
    }
  }
  const locked = tentative !== null && (scores[tentative] ?? 0) >= policy.lockThreshold;
  if (locked) {
    events.push({ type: 'path_lock', path: tentative, scores: { ...scores }, threshold: policy.lockThreshold,
      reason: opts.decisive ? 'answered the path question' : `score reached ${policy.lockThreshold}` });
  }
  return { state: { scores, tentative, locked }, events };
}
