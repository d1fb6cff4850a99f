import type { SessionJson } from '../engine/session.ts';
import type { EngineEvent } from '../engine/types.ts';
import type { TranscriptEntry } from '../protocol/session.ts';
import type { FunnelFacts } from './funnel-facts.ts';

export type { TranscriptEntry } from '../protocol/session.ts';

/** A conversation as stored: the engine's session plus what the server needs around it. */
export interface StoredSession {
  id: string;
  tenant: string;
  flowId: string;
  revision: string;
  /** SHA-256 (hex) of the session token; the token itself is never stored. */
  tokenHash: string;
  /** Optimistic concurrency: incremented by every successful save. */
  version: number;
  /** The highest transcript sequence number committed with this version (see `SessionStore.commit`). */
  seq: number;
  /** What the funnel counts of this session (server/store/funnel-facts.ts); absent on records saved before it was kept. */
  insights?: FunnelFacts;
  /** Client message ids already processed, newest last (bounded), with the seq of the reply they got. */
  processed: Array<{ clientId: string; seq: number }>;
  status: SessionJson['status'];
  /**
   * Set while an operator holds an escalated session; `unanswered` is set by
   * a visitor message the operator has not replied to yet (when the first
   * came, how many), and cleared by the operator's reply.
   */
  operator?: { since: string; by?: string; unanswered?: { since: string; count: number } };
  /**
   * Visitor messages to an escalated session no operator holds yet, waiting
   * for a person (when the first came, how many); cleared by an operator's reply.
   */
  unanswered?: { since: string; count: number };
  createdAt: string;
  updatedAt: string;
  session: SessionJson;
  /**
   * A Studio preview (a chat with a draft): never delivered (webhooks,
   * export), left out of analytics, marked "Preview" in the console. Absent
   * means false.
   */
  preview?: boolean;
  /**
   * The outbox entries (webhook deliveries) the commits of this session
   * owed, newest last (bounded): each was written to the outbox before the
   * commit that names it, so this record is what makes it deliverable — an
   * entry no committed record names is never sent (docs/operations.md#durable-endings).
   * Absent on records saved before this field existed.
   */
  deliveries?: string[];
}

/** The result of a save: a conflict means someone else saved first (reload and retry). */
export type SaveResult = { ok: true; version: number } | { ok: false; conflict: true; current: number };

/** A page of stored sessions for admin listings, newest first. */
export interface SessionSummary {
  id: string;
  tenant: string;
  flowId: string;
  status: StoredSession['status'];
  createdAt: string;
  updatedAt: string;
  /** An escalated session that was closed (by an operator or the inactivity sweep): nothing waits on it. */
  closed?: true;
}

/** What a turn adds to a session's histories, saved in the same call as its record. */
export interface TurnWrites {
  /** Transcript entries of the turn, numbered above the stored `seq` and up to the record's `seq`. */
  transcript: readonly TranscriptEntry[];
  /** Trace events of the turn (stored under the record's `seq`). */
  events: readonly EngineEvent[];
}

/**
 * Where conversations live. Every implementation passes the same contract
 * suite (test/contract/session-store.contract.ts).
 *
 * A turn is saved in one call, `create` or `commit`: the record together
 * with the transcript entries and events of the turn, all or nothing. A
 * commit that fails its version check leaves no trace of the turn, and a
 * crash loses nothing that was acknowledged (a store that writes in steps
 * only counts history entries with `seq` ≤ the stored record's `seq`).
 */
export interface SessionStore {
  /** Stores a new session with its first turn; fails with `exists` if the id is taken (then nothing is written). */
  create(record: StoredSession, turn: TurnWrites): Promise<{ ok: true } | { ok: false; exists: true }>;
  /**
   * The stored record. Treat it as read-only: a store may hand out one frozen
   * object to every reader until the next save (LowdbStore and MemoryStore
   * do), so changing it throws; build a new record to save instead.
   */
  load(id: string): Promise<StoredSession | null>;
  /**
   * Saves a turn if the stored version is still `expected`: the record (its
   * saved version is `expected + 1`) with the turn's transcript entries and
   * events, all or nothing. The values inside `record` (its session,
   * processed list, operator) are handed over: a store may keep and freeze
   * them rather than copy them (LowdbStore does), so the caller must not
   * change them afterwards — build the next record anew, as the service does.
   */
  commit(record: StoredSession, expected: number, turn: TurnWrites): Promise<SaveResult>;
  /** Committed transcript entries with seq > `after` (default 0), in seq order. */
  transcript(id: string, after?: number): Promise<TranscriptEntry[]>;
  /** Committed trace events, in order. */
  events(id: string): Promise<EngineEvent[]>;
  /** Sessions of a tenant, newest first. */
  list(tenant: string, opts?: { status?: StoredSession['status']; limit?: number }): Promise<SessionSummary[]>;
  /**
   * Erases the session: its record, transcript and events (for privacy
   * requests and retention). Resolves true if it existed. Afterwards `load`
   * answers null and the histories read empty.
   */
  delete(id: string): Promise<boolean>;
  /** Resolves when the store takes a write now, rejects with why not (a full disk, an unreachable server); for /readyz. Absent: always ready. */
  ready?(): Promise<void>;
  /** Releases files, locks and connections. */
  close(): Promise<void>;
}

/** The admin listing's view of a record. */
export function summaryOf(r: StoredSession): SessionSummary {
  const closed = r.status === 'escalated' && r.session.handover?.closed !== undefined;
  return { id: r.id, tenant: r.tenant, flowId: r.flowId, status: r.status, createdAt: r.createdAt, updatedAt: r.updatedAt, ...(closed ? { closed: true } : {}) };
}
