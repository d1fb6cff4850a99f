import { z } from 'zod';
import { Status } from '../protocol/session.ts';
import type { Completion } from './completion.ts';

// The body POSTed to a tenant's webhook: one ending of one session, with every
// answer and where it came from. It goes to the business that owns the answers,
// so it carries them all; logs never do.

/** The webhook body (receivers may parse with this schema). */
export const IntakePayload = z.object({
  /** `intake.completed`, `intake.escalated`, `intake.abandoned`, `intake.error`, or the follow-up `intake.contact`. */
  event: z.string(),
  /** The same across retries of one ending (also `X-Questline-Delivery`): receivers de-duplicate on it. */
  deliveryId: z.string(),
  sessionId: z.string(),
  tenant: z.string(),
  flow: z.object({ id: z.string(), revision: z.string() }),
  status: Status,
  /** The terminal's custom outcome, or null. */
  outcome: z.string().nullable(),
  answers: z.record(z.string(), z.unknown()),
  /** Per answer: turn, source, extractor, confidence, validation. */
  provenance: z.record(z.string(), z.unknown()),
  /** When the session ended (ISO 8601). */
  completedAt: z.string(),
});
export type IntakePayload = z.infer<typeof IntakePayload>;

/** The event name of an ending or a follow-up (`X-Questline-Event`). */
export const intakeEvent = (c: Pick<Completion, 'status' | 'event'>): string => `intake.${c.event ?? c.status}`;

/** The webhook body of an outbox entry. */
export function intakePayload(deliveryId: string, c: Completion): IntakePayload {
  return {
    event: intakeEvent(c), deliveryId, sessionId: c.sessionId, tenant: c.tenant,
    flow: { id: c.flowId, revision: c.revision }, status: c.status, outcome: c.outcome ?? null,
    answers: c.answers, provenance: c.provenance, completedAt: c.at,
  };
}
