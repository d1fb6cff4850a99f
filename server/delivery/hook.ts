import { TIMED_OUT } from '../engine/expire.ts';
import { checkWebhookUrl } from './http.ts';
import { stderrLog, type DeliveryLog } from './log.ts';
import type { Webhook } from './delivery.ts';
import { entryId, type Outbox } from './outbox.ts';
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
 * Where the conversation service hands the deliveries a turn owes. The
 * ending and its delivery are one durable step: `prepare` writes the outbox
 * entry (durably) BEFORE the commit that ends the session, and that commit
 * names the entry in the record (`StoredSession.deliveries`); the worker
 * sends only entries a committed record vouches for, so a crash between the
 * two writes loses nothing acknowledged and sends nothing that was not.
 */
export interface DeliverySink {
  /**
   * Writes the delivery of `c` to the outbox, durably; resolves its entry id,
   * or null when the ending is not delivered (its status is not delivered, a
   * timed-out session of a tenant without partial leads, no webhook). Rejects
   * when the outbox cannot be written: the turn then fails, unacknowledged.
   */
  prepare(c: Completion): Promise<string | null>;
  /** The commit that names `ids` succeeded: send them now. */
  committed(ids: readonly string[]): void;
  /** The commit was refused (another save came first): the entries never happened. */
  abandoned(ids: readonly string[]): Promise<void>;
  /**
   * Makes sure an ending the store holds has its outbox entry (a retry
   * answered from the store, start-up reconciliation): `named` are the ids
   * the record names. Resolves the id of an entry it had to write again, or null.
   */
  ensure(c: Completion, named: readonly string[]): Promise<string | null>;
}

/**
 * The outbox behind the service's `DeliverySink`. A tenant webhook that is
 * not http(s) is refused at `prepare`: the entry is recorded dead
 * (`invalid_url`, visible to the admin) and an error is logged.
 */
export function deliverySink(outbox: Outbox, opts: DeliveryHookOptions): DeliverySink {
  const log = opts.log ?? stderrLog;
  const now = opts.now ?? Date.now;
  const fieldsOf = (c: Completion) => ({ tenant: c.tenant, session: c.sessionId, status: c.status, version: c.version });
  const delivered = (c: Completion): boolean => {
    if (opts.statuses && !opts.statuses.includes(c.status)) return false;
    if (isPartialLead(c) && !opts.partialLeads?.(c.tenant)) return false;
    // no webhook, nothing to deliver: no durable (fsynced) journal write on the turn's path
    return opts.webhookFor(c.tenant) !== undefined;
  };
  const write = async (c: Completion, why: string): Promise<{ id: string; created: boolean }> => {
    const at = now();
    const { entry, created } = await outbox.enqueue(c, at);
    if (!created) return { id: entry.id, created };
    const hook = opts.webhookFor(c.tenant);
    const bad = hook ? checkWebhookUrl(hook.url) : null;
    if (bad) {
      await outbox.dead(entry.id, { at, attempts: 0, reason: 'invalid_url', error: bad });
      log('error', `webhook of tenant ${c.tenant} refused: ${bad}; fix tenant.json`, { ...fieldsOf(c), delivery: entry.id });
    } else {
      log('info', why, { ...fieldsOf(c), delivery: entry.id });
    }
    return { id: entry.id, created };
  };
  return {
    async prepare(c) {
      if (!delivered(c)) return null;
      return (await write(c, 'ending written to the outbox before its commit')).id;
    },
    committed(ids) {
      if (ids.length > 0) opts.notify?.();
    },
    async abandoned(ids) {
      for (const id of ids) {
        // a pending entry only: one the worker already finished stays as it is
        await outbox.dead(id, { at: now(), attempts: 0, reason: 'uncommitted', error: 'the commit that would have ended the session was refused' }).catch(() => undefined);
      }
    },
    async ensure(c, named) {
      if (!delivered(c)) return null;
      // the ids the record names for this ending's status (a restarted session may have ended otherwise before)
      const base = entryId(c);
      const mine = named.filter((id) => id === base || id.startsWith(`${base}:`));
      const known = mine.length > 0 ? mine : [base];
      for (const id of known) if (await outbox.get(id)) return null;
      const { id, created } = await write(c, 'ending the store holds had no outbox entry: written now');
      if (!created) return null;
      opts.notify?.();
      return id;
    },
  };
}

/**
 * An `onComplete` that enqueues after the fact (embedders and tests that
 * wire the outbox by hand; the server uses `deliverySink`, which writes the
 * entry before the commit). It never throws: a failed enqueue is logged.
 */
export function deliveryHook(outbox: Outbox, opts: DeliveryHookOptions): (c: Completion) => Promise<void> {
  const log = opts.log ?? stderrLog;
  const sink = deliverySink(outbox, opts);
  return async (c) => {
    try {
      const id = await sink.prepare(c);
      if (id) sink.committed([id]);
      else if (opts.webhookFor(c.tenant) === undefined) log('info', 'tenant has no webhook: nothing to deliver', { tenant: c.tenant, session: c.sessionId, status: c.status, version: c.version });
    } catch (e) {
      log('error', 'could not enqueue a finished session for delivery', { tenant: c.tenant, session: c.sessionId, status: c.status, version: c.version, error: e instanceof Error ? e.message : String(e) });
    }
  };
}
