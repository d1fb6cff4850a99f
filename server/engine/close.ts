import type { CompiledFlow } from '../flow/compiled-flow.ts';
import { draftOf, emit } from './draft.ts';
import { ENDED, finish } from './traverse.ts';
import type { Session } from './session.ts';
import type { TurnResult } from './types.ts';

/** The outcome of a conversation an operator closed before the flow reached its end. */
export const CLOSED_BY_OPERATOR = 'closed';

/** Who ends a conversation a person was answering: an operator, or the host's inactivity sweep. */
export type ClosedBy = 'operator' | 'inactivity';

/** Whether an escalated session was closed (it then takes no more messages, only `restart`). */
export const isClosed = (s: Pick<Session, 'status' | 'handover'>): boolean => s.status === 'escalated' && s.handover?.closed !== undefined;

/**
 * Ends a conversation a person was answering. An escalated session stays
 * `escalated` (the lead it is) and is marked closed; an active or waiting one
 * (an operator took it over) ends `abandoned` with outcome `closed`. The
 * visitor is told ("Our team has closed this conversation", or the idle line
 * when the host's inactivity setting ended it). A session that has already
 * ended otherwise, or was closed, is returned unchanged (no effects).
 */
export function closeSession(flow: CompiledFlow, session: Session, now: string, by: ClosedBy): TurnResult {
  if (isClosed(session) || (ENDED.has(session.status) && session.status !== 'escalated')) return { session, effects: [], events: [] };
  const d = draftOf(flow, session);
  d.s.now = now;
  const nodeId = session.node ?? flow.entry;
  d.effects.push({ type: 'say', nodeId, kind: 'done', text: by === 'operator' ? flow.messages.handover_closed : flow.messages.idle_closed });
  if (session.status === 'escalated') {
    d.s.handover = { ...d.s.handover, closed: { at: now, by } };
    emit(d, 'handover', { closed: by });
  } else {
    finish(d, 'abandoned', CLOSED_BY_OPERATOR, { reason: by });
  }
  return { session: d.s, effects: d.effects, events: d.events };
}
