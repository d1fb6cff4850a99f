import type { EngineEvent } from '../engine/types.ts';
import type { SessionSummary, StoredSession, TranscriptEntry } from './session-store.ts';

// The commit protocol on the read side, shared by the stores that keep
// histories as appended lines: only seqs up to the stored `seq` count, and
// when a seq was written more than once the last write wins.

/** One line of a tenant index: written once when a session is created. */
export interface IndexEntry {
  id: string;
  flowId: string;
  createdAt: string;
}

/** One line of an events file: the events of the turn that committed `seq`. */
export interface EventBatch {
  seq: number;
  events: EngineEvent[];
}

const isSeq = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/** Transcript entries with after < seq ≤ committed, the last write of each seq, in seq order. */
export function committedTranscript(lines: readonly unknown[], committed: number, after = 0): TranscriptEntry[] {
  const bySeq = new Map<number, TranscriptEntry>();
  for (const line of lines) {
    const seq = (line as { seq?: unknown } | null)?.seq;
    if (isSeq(seq) && seq > after && seq <= committed) bySeq.set(seq, line as TranscriptEntry);
  }
  return [...bySeq.keys()].sort((a, b) => a - b).map((seq) => bySeq.get(seq)!);
}

/** Events of batches with seq ≤ committed, the last batch of each seq, in seq order. */
export function committedEvents(lines: readonly unknown[], committed: number): EngineEvent[] {
  const bySeq = new Map<number, EngineEvent[]>();
  for (const line of lines) {
    const b = line as Partial<EventBatch> | null;
    if (b && isSeq(b.seq) && b.seq <= committed && Array.isArray(b.events)) bySeq.set(b.seq, b.events);
  }
  return [...bySeq.keys()].sort((a, b) => a - b).flatMap((seq) => bySeq.get(seq)!);
}

/** The admin listing's view of a record. */
export function summaryOf(r: StoredSession): SessionSummary {
  return { id: r.id, tenant: r.tenant, flowId: r.flowId, status: r.status, createdAt: r.createdAt, updatedAt: r.updatedAt };
}

/**
 * Freezes a JSON value and everything in it, so a record the store hands
 * out many times (shared, not copied) cannot be changed by a reader: an
 * assignment throws (ES modules are strict) instead of silently changing
 * what every later reader sees. Iterative, so depth costs no stack.
 */
export function deepFreeze<T>(value: T): T {
  const todo: unknown[] = [value];
  while (todo.length > 0) {
    const v = todo.pop();
    if (v === null || typeof v !== 'object' || Object.isFrozen(v)) continue;
    Object.freeze(v);
    if (Array.isArray(v)) for (const x of v) todo.push(x);
    else for (const k in v) todo.push((v as Record<string, unknown>)[k]);
  }
  return value;
}
