import { TIMED_OUT } from '../engine/expire.ts';
import { checkWebhookUrl } from './http.ts';
import { stderrLog, type DeliveryLog } from './log.ts';
import type { Webhook } from './delivery.ts';
import type { Outbox } from './outbox.ts';
import type { Completion } from './completion.ts';

export interface DeliveryHookOptions {
  /** The tenant's webhook (tenant.json `webhook`), checked at enqueue. */
  webhookFor: (tenant: string) => Webhook | undefined;
  /** Epoch milliseconds. */
  now?: () => number;
  log?: DeliveryLog;
  /** Called after a new ending is enqueued, e.g. `() => worker.wake()`, so it goes out at once. */
  notify?: () => void;
  /** The endings delivered (default all: completed, escalated, abandoned, error). */
  statuses?: readonly Completion['status'][];
  /** Whether a tenant wants partial leads (tenant.json `settings.partial_leads`); without it a session that timed out is not delivered. */
  partialLeads?: (tenant: string) => boolean;
}

/** Whether an ending is a partial lead: an idle session ended by the inactivity sweep with what it had collected. */
export const isPartialLead = (c: Pick<Completion, 'status' | 'outcome'>): boolean => c.status === 'abandoned' && c.outcome === TIMED_OUT;

/**
 * The service's `onComplete`: puts the ending in the outbox (durably) and wakes
 * the worker. A tenant webhook that is not http(s) is refused here: the entry is
 * recorded dead (`invalid_url`, visible to the admin) and an error is logged.
 * It never throws: the session is already saved and the visitor's turn
 * succeeded, so a failed enqueue is logged (with the session id) instead of
 * failing the turn.
 */
export function deliveryHook(outbox: Outbox, opts: DeliveryHookOptions): (c: Completion) => Promise<void> {
  const log = opts.log ?? stderrLog;
  const now = opts.now ?? Date.now;
  return async (c) => {
    if (opts.statuses && !opts.statuses.includes(c.status)) return;
    if (isPartialLead(c) && !opts.partialLeads?.(c.tenant)) return;
    const fields = { tenant: c.tenant, session: c.sessionId, status: c.status, version: c.version };
    // no webhook, nothing to deliver: skip the durable (fsynced) journal write on the turn's path
    if (!opts.webhookFor(c.tenant)) {
      log('info', 'tenant has no webhook: nothing to deliver', fields);
      return;
    }
    try {
      const at = now();
      const { entry, created } = await outbox.enqueue(c, at);
      if (!created) {
        log('info', 'ending already in the outbox', { ...fields, delivery: entry.id });
        return;
      }
      const hook = opts.webhookFor(c.tenant);
      const bad = hook ? checkWebhookUrl(hook.url) : null;
      if (bad) {
        await outbox.dead(entry.id, { at, attempts: 0, reason: 'invalid_url', error: bad });
        log('error', `webhook of tenant ${c.tenant} refused: ${bad}; fix tenant.json`, { ...fields, delivery: entry.id });
        return;
      }
      log('info', 'ending enqueued for delivery', { ...fields, delivery: entry.id });
      opts.notify?.();
    } catch (e) {
      log('error', 'could not enqueue a finished session for delivery', { ...fields, error: e instanceof Error ? e.message : String(e) });
    }
  };
}
