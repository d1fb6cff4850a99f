import type { CompiledFlow } from '../flow/compiled-flow.ts';
import { visibleToVisitor } from '../flow/visibility.ts';
import type { Session } from '../engine/session.ts';

/**
 * The answers a visitor may see (`GET /api/v1/sessions/:id`): their own,
 * without `internal: true` questions and without action outputs (a CRM
 * lookup's account id and owner) unless the action says `internal: false`.
 * Exports and webhooks carry every answer.
 */
export function visitorAnswers(flow: CompiledFlow, s: Session): Record<string, unknown> {
  return Object.fromEntries([...s.answers].filter(([k, a]) => visibleToVisitor(flow, k, a.source === 'action')).map(([k, a]) => [k, a.value]));
}
