import { setTimeout as delay } from 'node:timers/promises';
import type { SessionStore, StoredSession } from '../store/session-store.ts';
import { checkWebhookUrl, postWebhook } from './http.ts';
import { stderrLog, type DeliveryLog, type LogFields } from './log.ts';
import { intakeEvent, intakePayload } from './payload.ts';
import { signPayload } from './signature.ts';
import type { Outbox, OutboxEntry } from './outbox.ts';

// Delivery of finished intakes: the worker takes due entries from the outbox,
// checks that the ending was committed, POSTs the signed payload and records
// the outcome in the outbox before it looks at the entry again. A crash
// between a receiver's 2xx and the `delivered` record means one repeat on
// restart, which receivers de-duplicate by `X-Questline-Delivery`; in normal
// operation every ending is POSTed until exactly one attempt succeeds.

/** A tenant's webhook (tenant.json `webhook`). */
export interface Webhook { url: string; secret: string }

/** When to retry and when to give up. */
export interface RetryPolicy {
  /** The wait after the first failure; doubled after each further one. */
  baseMs: number;
  /** No wait is longer. */
  capMs: number;
  /** ± this fraction of the wait is random, so receivers coming back are not hit by every server at once. */
  jitter: number;
  /** Dead after this many failed attempts… */
  maxAttempts: number;
  /** …or when the next attempt would come this long after the enqueue. */
  maxAgeMs: number;
}

/**
 * 1 s, 2 s, 4 s … capped at 10 minutes, ±20 %; dead after 20 attempts (about
 * 1 h 47 min of retrying: ten doubling waits, then 10-minute ones) or a day.
 */
export const defaultRetry: RetryPolicy = { baseMs: 1_000, capMs: 600_000, jitter: 0.2, maxAttempts: 20, maxAgeMs: 86_400_000 };

/** The wait after the `failures`-th failed attempt (1-based). `random` returns [0, 1); 0.5 means no jitter. */
export function backoffDelay(failures: number, policy: RetryPolicy, random: () => number): number {
  const exp = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, failures - 1));
  const jittered = exp * (1 + policy.jitter * (2 * random() - 1));
  return Math.round(Math.min(policy.capMs, Math.max(0, jittered)));
}

export interface DeliveryWorkerOptions {
  outbox: Outbox;
  /** Only `load` is used: an ending is delivered once the store holds its version. */
  store: Pick<SessionStore, 'load'>;
  /** The tenant's webhook now; undefined = the tenant takes no deliveries (entries are marked delivered, skipped). */
  webhookFor: (tenant: string) => Webhook | undefined;
  log?: DeliveryLog;
  /** Epoch milliseconds. */
  now?: () => number;
  /** Waits between retries; must resolve early (or at least not hang) when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** [0, 1), for jitter. */
  random?: () => number;
  fetch?: typeof fetch;
  retry?: Partial<RetryPolicy>;
  /** A POST without a 2xx response by then failed (default 10 s). */
  timeoutMs?: number;
  /** POSTs at once (default 4); one at a time per session. */
  concurrency?: number;
  /** How long an ending whose session version is not in the store yet is rechecked before it is dropped (default 60 s). */
  commitGraceMs?: number;
  /** How often such an ending is rechecked (default 2 s). */
  recheckMs?: number;
  /** The longest the worker sleeps when idle (default 5 s); `wake()` ends the sleep early. */
  pollMs?: number;
}

const realSleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  delay(ms, undefined, signal ? { signal } : {}).then(() => undefined, () => undefined);

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** After an outbox write failed, leave the entry alone this long (not in a hot loop). */
const COOLDOWN_MS = 5_000;

/** Delivers outbox entries to tenants' webhooks, with retries; `start()` in the server, `drain()` in tests. */
export class DeliveryWorker {
  private readonly outbox: Outbox;
  private readonly log: DeliveryLog;
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly random: () => number;
  private readonly fetch: typeof fetch;
  private readonly retry: RetryPolicy;
  private readonly timeoutMs: number;
  private readonly concurrency: number;
  private readonly graceMs: number;
  private readonly recheckMs: number;
  private readonly pollMs: number;
  private readonly inflight = new Map<string, { sessionId: string; done: Promise<void> }>();
  private readonly cooldown = new Map<string, number>();
  private running = false;
  private loopDone: Promise<void> = Promise.resolve();
  private kicked = false;
  private wakeResolve: (() => void) | null = null;

  constructor(private readonly opts: DeliveryWorkerOptions) {
    this.outbox = opts.outbox;
    this.log = opts.log ?? stderrLog;
    this.now = opts.now ?? Date.now;
    this.sleep = opts.sleep ?? realSleep;
    this.random = opts.random ?? Math.random;
    this.fetch = opts.fetch ?? fetch;
    this.retry = { ...defaultRetry, ...opts.retry };
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.concurrency = Math.max(1, opts.concurrency ?? 4);
    this.graceMs = opts.commitGraceMs ?? 60_000;
    this.recheckMs = opts.recheckMs ?? 2_000;
    this.pollMs = opts.pollMs ?? 5_000;
  }

  /** Starts delivering in the background; idempotent. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loopDone = this.loop();
  }

  /** Stops taking entries and waits for the POSTs under way (each ends within the timeout). */
  async stop(): Promise<void> {
    this.running = false;
    this.kick();
    await this.loopDone;
    await Promise.allSettled([...this.inflight.values()].map((f) => f.done));
  }

  /** Looks at the outbox now (after an enqueue) instead of at the next poll. */
  wake(): void {
    this.kick();
  }

  /** Delivers the entries due now, once each, and waits for them (tests). */
  async tick(): Promise<void> {
    await this.launchDue();
    await Promise.allSettled([...this.inflight.values()].map((f) => f.done));
  }

  /** Works until no entry is pending, sleeping (the injected sleep) until each retry is due (tests). */
  async drain(): Promise<void> {
    for (;;) {
      const next = await this.launchDue();
      if (this.inflight.size > 0) {
        await Promise.race([...this.inflight.values()].map((f) => f.done));
        continue;
      }
      if (next === null) return;
      await this.sleep(Math.max(0, next - this.now()));
    }
  }

  private kick(): void {
    this.kicked = true;
    const resolve = this.wakeResolve;
    this.wakeResolve = null;
    resolve?.();
  }

  private async loop(): Promise<void> {
    while (this.running) {
      this.kicked = false;
      let next: number | null = null;
      try {
        next = await this.launchDue();
      } catch (e) {
        this.log('error', 'the outbox could not be read', { error: message(e) });
      }
      if (!this.running) break;
      if (this.kicked) continue;
      const wait = next === null ? this.pollMs : Math.min(this.pollMs, Math.max(0, next - this.now()));
      const abort = new AbortController();
      await Promise.race([this.sleep(wait, abort.signal), new Promise<void>((r) => (this.wakeResolve = r))]);
      abort.abort();
      this.wakeResolve = null;
    }
  }

  /** Launches due entries up to the concurrency limit; returns when the next not-yet-due entry is due. */
  private async launchDue(): Promise<number | null> {
    const now = this.now();
    const busy = new Set([...this.inflight.values()].map((f) => f.sessionId));
    let next: number | null = null;
    for (const e of await this.outbox.pending()) {
      if (this.inflight.has(e.id)) continue;
      const at = Math.max(e.nextAt, this.cooldown.get(e.id) ?? 0);
      if (at > now) {
        next = next === null ? at : Math.min(next, at);
        continue;
      }
      if (this.inflight.size >= this.concurrency || busy.has(e.sessionId)) continue;
      busy.add(e.sessionId);
      this.launch(e);
    }
    return next;
  }

  private launch(e: OutboxEntry): void {
    const done = this.deliver(e).then(
      () => void this.cooldown.delete(e.id),
      (err) => {
        this.cooldown.set(e.id, this.now() + COOLDOWN_MS);
        this.log('error', 'could not record a delivery attempt in the outbox', { ...fieldsOf(e), error: message(err) });
      },
    ).finally(() => {
      this.inflight.delete(e.id);
      this.kick();
    });
    this.inflight.set(e.id, { sessionId: e.sessionId, done });
  }

  /** One step for one entry: skip, drop, wait for the commit, or POST. */
  private async deliver(e: OutboxEntry): Promise<void> {
    const now = this.now();
    const fields = fieldsOf(e);
    const c = e.completion;
    if (!c) return; // pending entries always carry their completion
    const hook = this.opts.webhookFor(e.tenant);
    if (!hook) {
      await this.outbox.delivered(e.id, { at: now, attempts: e.attempts, skipped: 'no webhook' });
      this.log('info', 'tenant has no webhook: delivery skipped', fields);
      return;
    }
    const bad = checkWebhookUrl(hook.url);
    if (bad) {
      await this.outbox.dead(e.id, { at: now, attempts: e.attempts, reason: 'invalid_url', error: bad });
      this.log('error', `webhook of tenant ${e.tenant} refused: ${bad}`, fields);
      return;
    }

    let record: Awaited<ReturnType<SessionStore['load']>>;
    try {
      record = await this.opts.store.load(e.sessionId);
    } catch (err) {
      return this.failed(e, e.attempts + 1, now, `session store unavailable: ${message(err)}`);
    }
    if (!record || !vouchesFor(record, e)) {
      const why = record ? `the store holds version ${record.version} (${record.status}), the ending is version ${e.version} (${e.status})` : 'the session is not in the store';
      if (now - e.enqueuedAt >= this.graceMs) {
        await this.outbox.dead(e.id, { at: now, attempts: e.attempts, reason: 'uncommitted', error: `never committed: ${why}` });
        this.log('warn', 'dropped an ending whose session was never saved', { ...fields, why });
        return;
      }
      const nextAt = Math.min(now + this.recheckMs, e.enqueuedAt + this.graceMs);
      await this.outbox.attempted(e.id, { at: now, attempts: e.attempts, nextAt, error: `not committed yet: ${why}` });
      return;
    }

    const body = JSON.stringify(intakePayload(e.id, c));
    const timestamp = String(Math.floor(now / 1000));
    const headers = {
      'Content-Type': 'application/json',
      'User-Agent': 'Questline-Webhook/1',
      'X-Questline-Event': intakeEvent(c),
      'X-Questline-Delivery': e.id,
      'X-Questline-Timestamp': timestamp,
      'X-Questline-Signature': signPayload(hook.secret, timestamp, body),
    };
    const attempt = e.attempts + 1;
    const res = await postWebhook(this.fetch, hook.url, body, headers, this.timeoutMs, now);
    const at = this.now();
    if (res.ok) {
      await this.outbox.delivered(e.id, { at, attempts: attempt, httpStatus: res.httpStatus });
      this.log('info', 'delivered', { ...fields, attempt, httpStatus: res.httpStatus });
      return;
    }
    await this.failed(e, attempt, at, res.error, res.httpStatus, res.retryAfterMs);
  }

  /** Schedules the next attempt after a failure, or gives up. */
  private async failed(e: OutboxEntry, attempts: number, at: number, error: string, httpStatus?: number, retryAfterMs?: number): Promise<void> {
    const fields = { ...fieldsOf(e), attempt: attempts, error, httpStatus };
    const status = httpStatus !== undefined ? { httpStatus } : {};
    if (attempts >= this.retry.maxAttempts) {
      await this.outbox.dead(e.id, { at, attempts, reason: 'max_attempts', error, ...status });
      this.log('error', `delivery failed ${attempts} times: given up`, fields);
      return;
    }
    let wait = backoffDelay(attempts, this.retry, this.random);
    // a receiver asking for more time gets it, within the cap
    if (retryAfterMs !== undefined) wait = Math.min(this.retry.capMs, Math.max(wait, retryAfterMs));
    const nextAt = at + wait;
    if (nextAt - e.enqueuedAt > this.retry.maxAgeMs) {
      await this.outbox.dead(e.id, { at, attempts, reason: 'max_age', error, ...status });
      this.log('error', 'delivery still failing after the maximum age: given up', fields);
      return;
    }
    await this.outbox.attempted(e.id, { at, attempts, nextAt, error, ...status });
    this.log('warn', 'delivery failed; will retry', { ...fields, retryInMs: wait });
  }
}

/**
 * Whether the stored record proves the entry's ending was committed: it
 * names the entry (written before the commit, see hook.ts), or it holds that
 * ending itself (status and at least its version: an entry written again
 * from the record). Records saved before records named their deliveries
 * count by version alone. An entry written ahead of a commit that never
 * happened is vouched for by nothing and is dropped after the grace period.
 */
export function vouchesFor(record: Pick<StoredSession, 'version' | 'status' | 'deliveries'>, e: Pick<OutboxEntry, 'id' | 'version' | 'status'>): boolean {
  if (record.deliveries?.includes(e.id)) return true;
  if (record.version < e.version) return false;
  return record.deliveries === undefined || record.status === e.status;
}

/** What delivery logs about an entry: identifiers only, never answers. */
function fieldsOf(e: OutboxEntry): LogFields {
  return { delivery: e.id, tenant: e.tenant, session: e.sessionId, status: e.status };
}
