import { z } from 'zod';
import { ROLES } from './roles.ts';
import { STATUSES } from './statuses.ts';

// What a client sees of a session: its status, the state after each
// exchange and the transcript lines. Browser-safe (zod only): the widget and
// the operator console import these types from here.

/** A session's status. */
export const Status = z.enum(STATUSES);
export type Status = z.infer<typeof Status>;

export { ENDED_STATUSES, isEnded } from './statuses.ts';

/** Answered / total questions on the visitor's route. */
export const Progress = z.object({ answered: z.number().int().nonnegative(), total: z.number().int().nonnegative() });
export type Progress = z.infer<typeof Progress>;

/** What a client is told about a session after each exchange (`session:state`). */
export const SessionState = z.object({
  status: Status,
  nodeId: z.string().nullable(),
  path: z.object({ active: z.string().nullable(), locked: z.boolean() }),
  progress: Progress,
  /** Set when a flow trigger marked the session urgent (e.g. a red-flag symptom): consoles list it first, with the reason. */
  urgent: z.object({ reason: z.string() }).optional(),
  /** The locale the session speaks (a flow with `locales`): the widget's own texts follow it. */
  locale: z.string().optional(),
});
export type SessionState = z.infer<typeof SessionState>;

/** Who wrote a transcript line. */
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

/** What kind of line it is. */
export const EntryKind = z.enum(['question', 'info', 'invalid', 'done', 'handoff', 'user', 'operator']);
export type EntryKind = z.infer<typeof EntryKind>;

/** One line of a conversation as people saw it, numbered per session. */
export const TranscriptEntry = z.object({
  seq: z.number().int().positive(),
  at: z.string(),
  role: Role,
  text: z.string(),
  nodeId: z.string().nullable().optional(),
  kind: EntryKind.optional(),
  quickReplies: z.array(z.string()).optional(),
  multiple: z.boolean().optional(),
  progress: Progress.optional(),
  clientId: z.string().optional(),
});
export type TranscriptEntry = z.infer<typeof TranscriptEntry>;
