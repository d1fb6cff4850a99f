import { readFileSync } from 'node:fs';
import type { SyncAdapter } from 'lowdb';
import type { EngineEvent } from '../engine/types.ts';
import { isObject, lastJsonLine, parseJsonLines, type JsonlAppender } from './lowdb-jsonl.ts';
import type { EventBatch } from './lowdb-read.ts';
import type { StoredSession, TranscriptEntry, TurnWrites } from './session-store.ts';

// A session's file as a lowdb adapter. The file is JSON Lines, appended to:
//
//   {"t":[entries]}       transcript entries of a turn
//   {"e":{seq,events}}    a turn's events
//   {"r":record}          a save; the last complete one is current
//
// lowdb's own file adapters (TextFile, JSONFile, DataFile) rewrite the
// whole file on every write (temp file, rename). This one appends: `write`
// puts a turn's transcript and event lines and its record line into the file
// with one write() system call, so a turn costs the same on a long session
// as on a new one. A crash can tear only the last line; `read` goes by the
// last complete record line, and readers count only history lines with a
// seq up to that record's (lowdb-read.ts).

/** What a session's `LowSync` holds: the current record, and the turn that saved it while it is being written. */
export interface SessionDoc {
  record: StoredSession;
  /** The histories of the turn being saved with `record`; written with it, then dropped from memory. */
  turn?: TurnWrites;
}

/** The parsed lines of a session file (lines that do not parse, torn by a crash, are skipped). */
export interface SessionFile {
  /** The last complete record line's record, or null. */
  record: StoredSession | null;
  transcript: TranscriptEntry[];
  events: EventBatch[];
}

/** The line of a save, of transcript entries, of a turn's events. */
export const recordLine = (r: StoredSession) => `{"r":${JSON.stringify(r)}}\n`;
export const transcriptLine = (entries: readonly TranscriptEntry[]) => `{"t":${JSON.stringify(entries)}}\n`;
export const eventsLine = (batch: { seq: number; events: readonly EngineEvent[] }) => `{"e":${JSON.stringify(batch)}}\n`;

/** The lines of a turn: its transcript entries, its events (under the record's seq), then the record. */
export function turnLines(record: StoredSession, turn: TurnWrites | undefined): string {
  let text = '';
  if (turn?.transcript.length) text += transcriptLine(turn.transcript);
  if (turn?.events.length) text += eventsLine({ seq: record.seq, events: turn.events });
  return text + recordLine(record);
}

/** Reads the text of a session file. */
export function parseSessionFile(text: string): SessionFile {
  const out: SessionFile = { record: null, transcript: [], events: [] };
  for (const v of parseJsonLines(text)) {
    if (!isObject(v)) continue;
    if (isObject(v.r)) out.record = v.r as unknown as StoredSession;
    else if (Array.isArray(v.t)) out.transcript.push(...(v.t as TranscriptEntry[]));
    else if (isObject(v.e)) out.events.push(v.e as unknown as EventBatch);
  }
  return out;
}

/** The last complete record of a session file's text, reading from the end. */
export function lastRecord(text: string): StoredSession | null {
  return lastJsonLine(text, (v) => (isObject(v) && isObject(v.r) ? (v.r as unknown as StoredSession) : undefined));
}

/**
 * lowdb's SyncAdapter for one session file: `write` appends a turn (one
 * write() through the store's shared appender, which bounds open files),
 * `read` finds the current record. Synchronous on purpose: LowdbStore checks
 * the version and writes in one step, and a failed write must be known
 * before anything else reads the cached record. (The store reads records
 * that are not cached asynchronously, with `lastRecord` over the file's
 * text, so a cold disk read does not block the event loop.)
 */
export class SessionFileAdapter implements SyncAdapter<SessionDoc> {
  /** The file's size after the last write (for compaction). */
  size = 0;

  constructor(
    private readonly appender: JsonlAppender,
    readonly file: string,
  ) {}

  read(): SessionDoc | null {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
    const record = lastRecord(text);
    return record ? { record } : null;
  }

  write(doc: SessionDoc): void {
    this.size = this.appender.appendTextSync(this.file, turnLines(doc.record, doc.turn));
  }
}
