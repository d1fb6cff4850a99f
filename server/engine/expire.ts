import type { CompiledFlow } from '../flow/compiled-flow.ts';
import { draftOf } from './draft.ts';
import { ENDED, finish } from './traverse.ts';
import type { Session } from './session.ts';
import type { TurnResult } from './types.ts';

/** The outcome of a session ended because nobody wrote for too long. */
export const TIMED_OUT = 'timed_out';

/**
 * Ends an idle session: status `abandoned`, outcome `timed_out`, with a line
 * the visitor sees if they come back — that they can write to pick up where
 * they left off when the host lets them (`resumable`: the tenant's
 * `resume_s`), else that they can start a new conversation. The host decides
 * when (its inactivity setting and clock); the engine only records the
 * ending. A session that has already ended is returned unchanged.
 */
export function expire(flow: CompiledFlow, session: Session, now: string, idleSeconds: number, resumable = false): TurnResult {
  if (ENDED.has(session.status)) return { session, effects: [], events: [] };
  const d = draftOf(flow, session);
  d.s.now = now;
  d.effects.push({ type: 'say', nodeId: session.node ?? flow.entry, kind: 'done',
    text: resumable ? flow.messages.idle_paused : flow.messages.idle_closed });
  finish(d, 'abandoned', TIMED_OUT, { reason: 'inactivity', idleSeconds });
  return { session: d.s, effects: d.effects, events: d.events };
}
