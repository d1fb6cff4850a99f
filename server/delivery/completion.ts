import type { Status } from '../protocol/session.ts';

/** Something that must happen once a session ends (the webhook outbox). */
export interface Completion {
  sessionId: string;
  tenant: string;
  flowId: string;
  revision: string;
  status: Status;
  outcome?: string;
  /** The session version that holds the ending: deliver only once it is committed. */
  version: number;
  answers: Record<string, unknown>;
  provenance: Record<string, unknown>;
  at: string;
}
