import type { CompiledFlow } from '../flow/compiled-flow.ts';
import { draftOf, emit } from './draft.ts';
import { reask } from './engine.ts';
import { TIMED_OUT } from './expire.ts';
import type { Session } from './session.ts';
import type { TurnResult } from './types.ts';

/** Whether a session ended only because it went idle (the inactivity sweep): a returning visitor may pick it up again. */
export const timedOut = (s: Pick<Session, 'status' | 'outcome'>): boolean => s.status === 'abandoned' && s.outcome === TIMED_OUT;

/**
 * A visitor comes back to a session that went idle: it is active again where
 * it stood, answers kept (a `resumed` event, `by: "visitor"`). `greet`: the
 * bot says "Welcome back" and asks the question (or review, or path prompt)
 * again — a reconnecting widget; without it the session is only reopened,
 * for the visitor's message to be read as usual. The host decides whether
 * the return is in time (the tenant's `resume_s`). Any other session is
 * returned unchanged.
 */
export function reopen(flow: CompiledFlow, session: Session, now: string, greet: boolean): TurnResult {
  if (!timedOut(session)) return { session, effects: [], events: [] };
  const d = draftOf(flow, session);
  d.s.now = now;
  Object.assign(d.s, { status: 'active', outcome: undefined });
  emit(d, 'resumed', { by: 'visitor' });
  if (greet) {
    d.effects.push({ type: 'say', nodeId: session.node ?? flow.entry, kind: 'info', text: flow.messages.welcome_back });
    reask(d);
  }
  return { session: d.s, effects: d.effects, events: d.events };
}
