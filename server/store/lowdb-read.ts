import type { EngineEvent } from '../engine/types.ts';
import type { TranscriptEntry } from './session-store.ts';

// The read side of LowdbStore's session files: only seqs up to the stored
// record's `seq` count (lines of a write torn by a crash, whose record line
// did not make it, are not committed), and when a seq was written more than
// once (the turn retried after such a crash) the last write wins.

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
