import type { SessionJson } from '../engine/session.ts';
import type { EngineEvent } from '../engine/types.ts';
import type { TranscriptEntry } from '../protocol/session.ts';

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
  /** The highest transcript sequence number committed with this version (see `appendTranscript`). */
  seq: number;
  /** Client message ids already processed, newest last (bounded), with the seq of the reply they got. */
  processed: Array<{ clientId: string; seq: number }>;
  status: SessionJson['status'];
  /**
   * Set while an operator holds an escalated session; `unanswered` is set by
   * a visitor message the operator has not replied to yet (when the first
   * came, how many), and cleared by the operator's reply.
   */
  operator?: { since: string; by?: string; unanswered?: { since: string; count: number } };
  createdAt: string;
  updatedAt: string;
  session: SessionJson;
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
}

/**
 * Where conversations live. Every implementation passes the same contract
 * suite (test/contract/session-store.contract.ts).
 *
 * Commit protocol: a turn first appends its transcript entries and events
 * (numbered above the stored `seq`), then saves the session with the new `seq`
 * under a version check. Readers only see entries with `seq` ≤ the stored
 * `seq`, and an entry appended twice under one `seq` reads once (the later
 * write wins), so a crash between the two steps loses nothing acknowledged
 * and duplicates nothing.
 */
export interface SessionStore {
  /** Stores a new session; fails with `exists` if the id is taken. */
  create(record: StoredSession): Promise<{ ok: true } | { ok: false; exists: true }>;
  /**
   * The stored record. Treat it as read-only: a store may hand out one frozen
   * object to every reader until the next save (LowdbStore and MemoryStore
   * do), so changing it throws; build a new record to save instead.
   */
  load(id: string): Promise<StoredSession | null>;
  /**
   * Saves if the stored version is still `expected`; the saved version is
   * `expected + 1`. The values inside `record` (its session, processed list,
   * operator) are handed over: a store may keep and freeze them rather than
   * copy them (LowdbStore does), so the caller must not change them
   * afterwards — build the next record anew, as the service does.
   */
  save(record: StoredSession, expected: number): Promise<SaveResult>;
  /** Appends transcript entries (each with its seq). */
  appendTranscript(id: string, entries: readonly TranscriptEntry[]): Promise<void>;
  /** Committed transcript entries with seq > `after` (default 0), in seq order. */
  transcript(id: string, after?: number): Promise<TranscriptEntry[]>;
  /** Appends trace events of a turn, tagged with the seq the turn committed. */
  appendEvents(id: string, seq: number, events: readonly EngineEvent[]): Promise<void>;
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
  /** Releases files, locks and connections. */
  close(): Promise<void>;
}
