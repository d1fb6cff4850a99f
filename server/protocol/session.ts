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

/** A date as YYYY-MM-DD. */
const IsoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

const inputBase = {
  /** The question's answer key. */
  key: z.string(),
  /** True once a reply at this question was not understood: a client offers the matching control (free text still works). */
  offer: z.boolean(),
  /** The question may be skipped: a client may offer "Not sure" and "Skip", which send `skip`. */
  optional: z.boolean(),
  /** The word that skips the question in the session's language (optional questions only). */
  skip: z.string().optional(),
};

/**
 * What the current question accepts, for a structured control: a date picker,
 * a phone field with a country selector, a number with a unit selector, or
 * option chips. Whatever the control, the client sends its value as the
 * visitor's text ("2027-01-15", "+49 30 1234567", "12 ft", an option's label),
 * so it goes through the same understanding and checks as typed text.
 */
export const InputHint = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('date'), ...inputBase, min: IsoDay.optional(), max: IsoDay.optional() }),
  z.object({
    kind: z.literal('phone'), ...inputBase,
    /** The country a number without a country code is read in (ISO 3166 alpha-2). */
    country: z.string().length(2),
    /** Countries with their calling codes, for the selector (sent with `offer` only). */
    countries: z.array(z.object({ code: z.string().length(2), dial: z.string() })).optional(),
  }),
  z.object({
    kind: z.literal('number'), ...inputBase,
    integer: z.boolean(), min: z.number().optional(), max: z.number().optional(),
    /** The unit the answer is kept in; `units` are the ones a client may offer, the first being it (each is understood and converted). */
    unit: z.string().optional(), units: z.array(z.string()).optional(),
    /** A money answer's currency (ISO 4217): amounts in another currency are asked again, not converted. */
    currency: z.string().optional(),
  }),
  z.object({
    kind: z.literal('options'), ...inputBase,
    options: z.array(z.object({ value: z.string(), label: z.string() })),
    multiple: z.boolean(),
  }),
]);
export type InputHint = z.infer<typeof InputHint>;

/** What a client is told about a session after each exchange (`session:state`). */
export const SessionState = z.object({
  status: Status,
  nodeId: z.string().nullable(),
  path: z.object({ active: z.string().nullable(), locked: z.boolean() }),
  progress: Progress,
  /** Set when a flow trigger marked the session urgent (e.g. a red-flag symptom): consoles list it first, with the reason. */
  urgent: z.object({ reason: z.string() }).optional(),
  /** The session's language (a BCP 47 tag, e.g. `de`): the widget shows its own texts in it, the console lists it. */
  locale: z.string().max(35).optional(),
  /** What the question being asked accepts (dates, phones, numbers, options); absent for text and when no question is open. */
  input: InputHint.optional(),
  /** An escalated conversation that an operator (or the inactivity setting) closed: it takes no more messages, only a new start. */
  closed: z.literal(true).optional(),
  /** A conversation that went idle and can be picked up again (within the tenant's `resume_s`): writing (or reconnecting) resumes it, answers kept. */
  resumable: z.literal(true).optional(),
});
export type SessionState = z.infer<typeof SessionState>;

/** Who wrote a transcript line. */
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

/** What kind of line it is. */
export const EntryKind = z.enum(['question', 'info', 'invalid', 'done', 'handoff', 'user', 'operator']);
export type EntryKind = z.infer<typeof EntryKind>;

/**
 * How a bot line must stand out: `alert` is safety advice after a red flag or
 * a hazard (the say of the node an `urgent` trigger goes to); a client shows
 * it as an alert (the widget: role="alert", a warning icon and a label, not
 * colour alone). Absent on every other line.
 */
export const MessageTone = z.enum(['alert']);
export type MessageTone = z.infer<typeof MessageTone>;

/** One line of a conversation as people saw it, numbered per session. */
export const TranscriptEntry = z.object({
  seq: z.number().int().positive(),
  at: z.string(),
  role: Role,
  text: z.string(),
  nodeId: z.string().nullable().optional(),
  kind: EntryKind.optional(),
  tone: MessageTone.optional(),
  quickReplies: z.array(z.string()).optional(),
  multiple: z.boolean().optional(),
  progress: Progress.optional(),
  clientId: z.string().optional(),
});
export type TranscriptEntry = z.infer<typeof TranscriptEntry>;
