// Zod-free on purpose: the widget and the console import these values at run
// time, and anything importing zod would pull it into the browser bundles.
// session.ts builds the `Status` schema from this list.

/** Every status a session can be in. */
export const STATUSES = ['active', 'waiting', 'completed', 'escalated', 'abandoned', 'error'] as const;

/** A session's status (the `Status` schema in session.ts infers the same type). */
export type StatusName = (typeof STATUSES)[number];

/** The statuses in which a session has ended: it takes no more answers (only `restart`). */
export const ENDED_STATUSES: readonly StatusName[] = ['completed', 'escalated', 'abandoned', 'error'];

const ended: ReadonlySet<string> = new Set(ENDED_STATUSES);

/** True when a session in this status has ended. */
export const isEnded = (status: StatusName): boolean => ended.has(status);

/**
 * Whether an urgent session (a red flag, a hazard) still goes first in the
 * operator console's list: until an operator has taken it, and while it is
 * not completed or abandoned. After that it keeps its "Urgent" badge but
 * sorts like any other session, so red flags already seen to do not stay on
 * top for ever.
 */
export const urgentFirst = (row: { urgent: unknown; status: StatusName; operator: boolean }): boolean =>
  Boolean(row.urgent) && !row.operator && row.status !== 'completed' && row.status !== 'abandoned';
