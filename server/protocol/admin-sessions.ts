import { z } from 'zod';
import { LIMITS } from './limits.ts';
import { Role, Status } from './session.ts';

// The operator console's sessions list (`GET /api/v1/admin/sessions`): one
// row per session with what the person answering needs to pick the next
// conversation — who the visitor is, what they wrote last, how long they have
// waited — so the console never reads whole transcripts to draw the list.

/** The query of the sessions list: filters, a search text, and how many rows. */
export const SessionListQuery = z.object({
  tenant: z.string().max(200).optional(),
  status: Status.optional(),
  flow: z.string().max(200).optional(),
  /** Matches a visitor's name, email, phone (digits compared, spacing ignored), any answer's text, or the session id. */
  q: z.string().trim().max(LIMITS.searchChars).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
export type SessionListQuery = z.infer<typeof SessionListQuery>;

/** Who the visitor is, from their answers: a name-kind answer and the flow's contact keys (null until answered). */
export const VisitorLabel = z.object({
  name: z.string().nullable(),
  /** The first answered contact key's value (an email, a phone number). */
  contact: z.string().nullable(),
});
export type VisitorLabel = z.infer<typeof VisitorLabel>;

/** One row of the sessions list. */
export const SessionRow = z.object({
  id: z.string(),
  tenant: z.string(),
  flowId: z.string(),
  revision: z.string(),
  status: Status,
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The node the conversation is at (the question asked, or the node waited on). */
  nodeId: z.string().nullable(),
  /** Whether an operator holds the conversation (the bot is quiet until hand-back). */
  operator: z.boolean(),
  /** Visitor messages no person has replied to yet: since when, and how many (null when none). */
  unanswered: z.object({ since: z.string(), count: z.number().int().positive() }).nullable(),
  /** Answers committed (validation passed). */
  answered: z.number().int().nonnegative(),
  /** The session's language, when it has one. */
  locale: z.string().optional(),
  /** Set when a flow trigger marked the session urgent (a red flag, a hazard): the reason operators see (null when not). */
  urgent: z.object({ reason: z.string() }).nullable(),
  /** A Studio preview (a chat with a draft): the console marks it "Preview". */
  preview: z.boolean().optional(),
  /** An escalated session an operator (or the inactivity setting) closed: nobody is waited for, it no longer sorts first. */
  closed: z.literal(true).optional(),
  visitor: VisitorLabel,
  /** The last line a person wrote (the visitor or an operator; the bot's last line when no person has yet), its text cut to LIMITS.previewChars; null before any. */
  lastMessage: z.object({ role: Role, text: z.string(), at: z.string() }).nullable(),
  /**
   * Since when the visitor has waited for a person: the first unanswered
   * message, else (escalated with no operator holding it, or waiting at an
   * interrupt) the last update; null when nobody is waited for.
   */
  waitingSince: z.string().nullable(),
});
export type SessionRow = z.infer<typeof SessionRow>;

/** The answer of `GET /api/v1/admin/sessions`. */
export const SessionList = z.object({
  sessions: z.array(SessionRow),
  /** With `q`: how many sessions were read to search, and whether the read stopped at its bound before the oldest. */
  search: z.object({ scanned: z.number().int().nonnegative(), complete: z.boolean() }).optional(),
});
export type SessionList = z.infer<typeof SessionList>;
