import type { Status } from '../protocol/session.ts';

/** Something that must happen once a session ends (the webhook outbox). */
export interface Completion {
  sessionId: string;
  tenant: string;
  flowId: string;
  revision: string;
  status: Status;
  /**
   * A follow-up rather than an ending: `contact` — contact details the visitor
   * left after the session escalated (its `intake.escalated` went out before
   * them); delivered as `intake.contact` with everything collected.
   */
  event?: 'contact';
  outcome?: string;
  /** The session version that holds the ending: deliver only once it is committed. */
  version: number;
  answers: Record<string, unknown>;
  provenance: Record<string, unknown>;
  at: string;
}
