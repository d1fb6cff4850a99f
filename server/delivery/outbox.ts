import { z } from 'zod';
import { Status } from '../protocol/session.ts';
import type { Completion } from './completion.ts';

// The webhook outbox: every ending of a session waits here until its receiver
// acknowledged it (or it is declared dead). Its state is a fold over journal
// records, so the memory implementation and the file journal share one state
// machine (`OutboxState`) and can never disagree about what a record means.
// Times are epoch milliseconds from the caller's clock.

/** A session ending as the outbox keeps it (the service's `Completion`). */
export const CompletionJson = z.object({
  sessionId: z.string().min(1),
  tenant: z.string().min(1),
  flowId: z.string(),
  revision: z.string(),
  status: Status,
  outcome: z.string().optional(),
  version: z.number().int(),
  answers: z.record(z.string(), z.unknown()),
  provenance: z.record(z.string(), z.unknown()),
  at: z.string(),
});

/** Why an entry was given up. */
export const DeadReason = z.enum(['max_attempts', 'max_age', 'uncommitted', 'invalid_url']);
export type DeadReason = z.infer<typeof DeadReason>;

/** One journal line. Each carries absolute state (attempts, nextAt), so replaying a record twice changes nothing. */
export const JournalRecord = z.discriminatedUnion('t', [
  z.object({ t: z.literal('enqueued'), id: z.string().min(1), at: z.number(), completion: CompletionJson }),
  z.object({
    t: z.literal('attempted'), id: z.string().min(1), at: z.number(), attempts: z.number().int().nonnegative(),
    nextAt: z.number(), error: z.string(), httpStatus: z.number().int().optional(),
  }),
  z.object({
    t: z.literal('delivered'), id: z.string().min(1), at: z.number(), attempts: z.number().int().nonnegative(),
    httpStatus: z.number().int().optional(), skipped: z.string().optional(),
    /** Written by compaction only: what is kept of a delivered entry whose `enqueued` line is gone. */
    tombstone: z.object({ sessionId: z.string(), tenant: z.string(), status: Status, version: z.number().int(), enqueuedAt: z.number() }).optional(),
  }),
  z.object({
    t: z.literal('dead'), id: z.string().min(1), at: z.number(), attempts: z.number().int().nonnegative(),
    reason: DeadReason, error: z.string(), httpStatus: z.number().int().optional(),
  }),
  /** The session was erased (privacy request, retention): the entry and its answers are gone. */
  z.object({ t: z.literal('forgotten'), id: z.string().min(1), at: z.number() }),
]);
export type JournalRecord = z.infer<typeof JournalRecord>;

// The journal's completion must stay the service's `Completion`, in both directions.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const completionMatches: Same<z.infer<typeof CompletionJson>, Completion> = true;
void completionMatches;

/** Where an entry is: waiting for (another) attempt, acknowledged, or given up. */
export type EntryState = 'pending' | 'delivered' | 'dead';

/** One ending in the outbox. */
export interface OutboxEntry {
  /** `${sessionId}:${status}` (a later ending after a restart: `…:${version}`); also the `X-Questline-Delivery` header. */
  id: string;
  sessionId: string;
  tenant: string;
  status: Completion['status'];
  version: number;
  state: EntryState;
  /** HTTP attempts made so far. */
  attempts: number;
  enqueuedAt: number;
  /** When a pending entry is due next. */
  nextAt: number;
  lastError?: string;
  lastHttpStatus?: number;
  finishedAt?: number;
  /** Delivered without an HTTP call, and why (e.g. the tenant has no webhook). */
  skipped?: string;
  deadReason?: DeadReason;
  /** What is delivered; null once delivered (the outbox keeps no answers it no longer needs). */
  completion: Completion | null;
}

/** What an attempt that did not succeed leaves behind. */
export interface AttemptFailure { at: number; attempts: number; nextAt: number; error: string; httpStatus?: number }
/** What a success leaves behind. */
export interface DeliveryDone { at: number; attempts: number; httpStatus?: number; skipped?: string }
/** Why and when an entry was given up. */
export interface Death { at: number; attempts: number; reason: DeadReason; error: string; httpStatus?: number }

/**
 * The persisted queue the delivery worker works from. One worker per outbox;
 * every mutation is durable when its promise resolves.
 */
export interface Outbox {
  /** Adds an ending, due now; a no-op (`created: false`) when the same ending is already there. */
  enqueue(c: Completion, now: number): Promise<{ entry: OutboxEntry; created: boolean }>;
  /** Pending entries, earliest `nextAt` first (ties in enqueue order). */
  pending(): Promise<OutboxEntry[]>;
  get(id: string): Promise<OutboxEntry | undefined>;
  /** Every entry (pending, delivered, dead), in enqueue order, for the admin. */
  list(filter?: { state?: EntryState }): Promise<OutboxEntry[]>;
  attempted(id: string, f: AttemptFailure): Promise<void>;
  delivered(id: string, d: DeliveryDone): Promise<void>;
  dead(id: string, d: Death): Promise<void>;
  /**
   * Erases every entry of a session, pending or finished, with its answers (the
   * session was erased: an undelivered ending is not sent, and nothing of it
   * stays on disk); resolves with how many entries there were.
   */
  forgetSession(sessionId: string, now: number): Promise<number>;
  /** Resolves when the outbox takes a write now, rejects with why not (for /readyz); absent: always ready. */
  ready?(): Promise<void>;
  close(): Promise<void>;
}

/** An entry without its id and answers: what the transitions below change. */
export type EntryMeta = Omit<OutboxEntry, 'completion' | 'id'>;

// The transitions of a pending entry, shared by every outbox (the journal's
// fold here and RedisOutbox) so they cannot drift apart.

/** A failed or deferred attempt: due again at `nextAt`. */
export function applyAttempt(e: EntryMeta, f: AttemptFailure): void {
  e.attempts = f.attempts;
  e.nextAt = f.nextAt;
  e.lastError = f.error;
  if (f.httpStatus !== undefined) e.lastHttpStatus = f.httpStatus;
  else delete e.lastHttpStatus;
}

/** A success (the caller drops the answers it no longer needs). */
export function applyDelivered(e: EntryMeta, d: DeliveryDone): void {
  e.state = 'delivered';
  e.attempts = d.attempts;
  e.finishedAt = d.at;
  delete e.lastError;
  if (d.httpStatus !== undefined) e.lastHttpStatus = d.httpStatus;
  if (d.skipped) e.skipped = d.skipped;
}

/** Given up, with the reason. */
export function applyDeath(e: EntryMeta, d: Death): void {
  e.state = 'dead';
  e.attempts = d.attempts;
  e.finishedAt = d.at;
  e.deadReason = d.reason;
  e.lastError = d.error;
  if (d.httpStatus !== undefined) e.lastHttpStatus = d.httpStatus;
}

/** The entry id of an ending: the session and the status it ended with. */
export const entryId = (c: Pick<Completion, 'sessionId' | 'status' | 'event'>): string => `${c.sessionId}:${c.event ?? c.status}`;

const copy = (e: OutboxEntry): OutboxEntry => ({ ...e });

/** The outbox's state as a fold over journal records; shared by every implementation. */
export class OutboxState {
  /** Insertion order is enqueue order (a replaced entry moves to the end). */
  readonly entries = new Map<string, OutboxEntry>();

  /**
   * The record that enqueueing `c` would write, or the existing entry when it is
   * the same ending. A session restarted after it ended can end the same way
   * again at a higher version: that is a new intake and gets its own id. An
   * entry dropped as uncommitted never happened, so the same ending replaces it.
   */
  enqueueRecord(c: Completion, now: number): { record: JournalRecord & { t: 'enqueued' } } | { existing: OutboxEntry } {
    let id = entryId(c);
    const first = this.entries.get(id);
    if (first && c.version > first.version && first.deadReason !== 'uncommitted') id = `${id}:${c.version}`;
    const existing = this.entries.get(id);
    if (existing && existing.deadReason !== 'uncommitted') return { existing: copy(existing) };
    return { record: { t: 'enqueued', id, at: now, completion: c } };
  }

  /** Applies one record; records that do not fit the current state are ignored (replay is tolerant). */
  apply(r: JournalRecord): void {
    const e = this.entries.get(r.id);
    switch (r.t) {
      case 'enqueued': {
        if (e && e.deadReason !== 'uncommitted') return;
        const c = r.completion;
        this.entries.delete(r.id);
        this.entries.set(r.id, {
          id: r.id, sessionId: c.sessionId, tenant: c.tenant, status: c.status, version: c.version, state: 'pending',
          attempts: 0, enqueuedAt: r.at, nextAt: r.at, completion: c,
        });
        return;
      }
      case 'attempted':
        if (!e || e.state !== 'pending') return;
        applyAttempt(e, r);
        return;
      case 'delivered': {
        if (!e) {
          if (!r.tombstone) return;
          const t = r.tombstone;
          this.entries.set(r.id, {
            id: r.id, sessionId: t.sessionId, tenant: t.tenant, status: t.status, version: t.version, state: 'delivered',
            attempts: r.attempts, enqueuedAt: t.enqueuedAt, nextAt: r.at, finishedAt: r.at, completion: null,
            ...(r.httpStatus !== undefined ? { lastHttpStatus: r.httpStatus } : {}), ...(r.skipped ? { skipped: r.skipped } : {}),
          });
          return;
        }
        if (e.state !== 'pending') return;
        applyDelivered(e, r);
        e.completion = null;
        return;
      }
      case 'forgotten':
        this.entries.delete(r.id);
        return;
      case 'dead':
        if (!e || e.state !== 'pending') return;
        applyDeath(e, r);
        return;
    }
  }

  /** Checks that a transition applies to a pending entry (a programming error otherwise). */
  requirePending(id: string): OutboxEntry {
    const e = this.entries.get(id);
    if (!e) throw new Error(`outbox: no entry ${id}`);
    if (e.state !== 'pending') throw new Error(`outbox: entry ${id} is already ${e.state}`);
    return e;
  }

  pending(): OutboxEntry[] {
    const order = new Map([...this.entries.keys()].map((k, i) => [k, i]));
    return [...this.entries.values()].filter((e) => e.state === 'pending')
      .sort((a, b) => a.nextAt - b.nextAt || order.get(a.id)! - order.get(b.id)!).map(copy);
  }

  get(id: string): OutboxEntry | undefined {
    const e = this.entries.get(id);
    return e && copy(e);
  }

  list(filter?: { state?: EntryState }): OutboxEntry[] {
    return [...this.entries.values()].filter((e) => !filter?.state || e.state === filter.state).map(copy);
  }

  /**
   * The records that rebuild this state: pending and dead entries in full,
   * delivered entries as tombstones (the newest `keepDelivered`; older ones are
   * forgotten, since the service never hands the same ending over again).
   */
  snapshot(keepDelivered: number, keepSince = -Infinity): JournalRecord[] {
    const forget = this.oldDelivered(keepDelivered, keepSince);
    const out: JournalRecord[] = [];
    for (const e of this.entries.values()) {
      if (e.state === 'delivered') {
        if (forget.has(e.id)) continue;
        out.push({
          t: 'delivered', id: e.id, at: e.finishedAt ?? e.nextAt, attempts: e.attempts,
          ...(e.lastHttpStatus !== undefined ? { httpStatus: e.lastHttpStatus } : {}), ...(e.skipped ? { skipped: e.skipped } : {}),
          tombstone: { sessionId: e.sessionId, tenant: e.tenant, status: e.status, version: e.version, enqueuedAt: e.enqueuedAt },
        });
        continue;
      }
      out.push({ t: 'enqueued', id: e.id, at: e.enqueuedAt, completion: e.completion! });
      if (e.state === 'pending' && (e.attempts > 0 || e.lastError !== undefined)) {
        out.push({
          t: 'attempted', id: e.id, at: e.nextAt, attempts: e.attempts, nextAt: e.nextAt, error: e.lastError ?? '',
          ...(e.lastHttpStatus !== undefined ? { httpStatus: e.lastHttpStatus } : {}),
        });
      }
      if (e.state === 'dead') {
        out.push({
          t: 'dead', id: e.id, at: e.finishedAt ?? e.nextAt, attempts: e.attempts, reason: e.deadReason ?? 'max_attempts', error: e.lastError ?? '',
          ...(e.lastHttpStatus !== undefined ? { httpStatus: e.lastHttpStatus } : {}),
        });
      }
    }
    return out;
  }
  /** Drops what `snapshot(keepDelivered, keepSince)` leaves out, so memory matches the compacted journal. */
  forgetDelivered(keepDelivered: number, keepSince = -Infinity): void {
    for (const id of this.oldDelivered(keepDelivered, keepSince)) this.entries.delete(id);
  }

  /** Delivered entries past the newest `keepDelivered` that finished before `keepSince` (epoch ms). */
  private oldDelivered(keepDelivered: number, keepSince: number): Set<string> {
    const delivered = [...this.entries.values()].filter((e) => e.state === 'delivered');
    return new Set(delivered.slice(0, Math.max(0, delivered.length - keepDelivered)).filter((e) => (e.finishedAt ?? e.nextAt) < keepSince).map((e) => e.id));
  }
}

/**
 * The outbox operations over an OutboxState: every change is one journal
 * record. Implementations decide only how a record is kept (`keep`) and how
 * changes are ordered (`exclusive`).
 */
export abstract class RecordingOutbox implements Outbox {
  protected readonly state = new OutboxState();

  /** Makes a record permanent and applies it to the state. */
  protected abstract keep(r: JournalRecord): Promise<void>;

  /** Runs a state change with no other change in between. */
  protected abstract exclusive<T>(task: () => Promise<T>): Promise<T>;

  /** Enqueues `c`; resolves once the record is kept. */
  enqueue(c: Completion, now: number): Promise<{ entry: OutboxEntry; created: boolean }> {
    return this.exclusive(async () => {
      const next = this.state.enqueueRecord(c, now);
      if ('existing' in next) return { entry: next.existing, created: false };
      await this.keep(next.record);
      return { entry: this.state.get(next.record.id)!, created: true };
    });
  }

  /** Pending entries, earliest due first. */
  async pending(): Promise<OutboxEntry[]> {
    return this.state.pending();
  }

  /** One entry by id. */
  async get(id: string): Promise<OutboxEntry | undefined> {
    return this.state.get(id);
  }

  /** Every entry, in enqueue order. */
  async list(filter?: { state?: EntryState }): Promise<OutboxEntry[]> {
    return this.state.list(filter);
  }

  /** Records a failed (or deferred) attempt. */
  attempted(id: string, f: AttemptFailure): Promise<void> {
    return this.finish({ t: 'attempted', id, ...f });
  }

  /** Records a success. */
  delivered(id: string, d: DeliveryDone): Promise<void> {
    return this.finish({ t: 'delivered', id, ...d });
  }

  /** Gives an entry up. */
  dead(id: string, d: Death): Promise<void> {
    return this.finish({ t: 'dead', id, ...d });
  }

  forgetSession(sessionId: string, now: number): Promise<number> {
    return this.exclusive(async () => {
      const ids = [...this.state.entries.values()].filter((e) => e.sessionId === sessionId).map((e) => e.id);
      for (const id of ids) await this.keep({ t: 'forgotten', id, at: now });
      if (ids.length > 0) await this.purge();
      return ids.length;
    });
  }

  /** After entries were forgotten: make sure no copy of their answers stays where records are kept. */
  protected async purge(): Promise<void> {}

  abstract close(): Promise<void>;

  private finish(r: Extract<JournalRecord, { t: 'attempted' | 'delivered' | 'dead' }>): Promise<void> {
    return this.exclusive(async () => {
      this.state.requirePending(r.id);
      await this.keep(r);
    });
  }
}

/** An outbox in memory (tests, and servers that accept losing undelivered endings on a crash). */
export class MemoryOutbox extends RecordingOutbox {
  protected async keep(r: JournalRecord): Promise<void> {
    this.state.apply(r);
  }

  protected exclusive<T>(task: () => Promise<T>): Promise<T> {
    return task(); // every change is synchronous up to its only await, which resolves at once
  }

  /** Nothing to release. */
  async close(): Promise<void> {}
}
