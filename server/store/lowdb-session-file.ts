import { readFileSync } from 'node:fs';
import type { SyncAdapter } from 'lowdb';
import type { EngineEvent } from '../engine/types.ts';
import { isObject, parseJsonLines, type JsonlAppender } from './lowdb-jsonl.ts';
import type { EventBatch } from './lowdb-read.ts';
import { applyObjectPatch, objectPatch, type ObjectPatch } from './record-delta.ts';
import type { StoredSession, TranscriptEntry, TurnWrites } from './session-store.ts';

// A session's file as a lowdb adapter. The file is JSON Lines, appended to:
//
//   {"t":[entries]}       transcript entries of a turn
//   {"e":{seq,events}}    a turn's events
//   {"r":record}          a save, the whole record
//   {"d":{b,…patch}}      a save as a delta against the record of version b
//                         (record-delta.ts); the current record is the last
//                         complete "r" line with the "d" lines after it folded in
//
// lowdb's own file adapters (TextFile, JSONFile, DataFile) rewrite the
// whole file on every write (temp file, rename). This one appends: `write`
// puts a turn's transcript and event lines and its record line into the file
// with one write() system call, so a turn costs the same on a long session
// as on a new one. A crash can tear only the last line; `read` goes by the
// last complete record line, and readers count only history lines with a
// seq up to that record's (lowdb-read.ts).
//
// Most saves are delta lines: a turn changes a few hundred bytes of a record
// of several KB, so writing (and stringifying) only what changed costs less
// per turn, and files grow slower (fewer compactions). Every FULL_EVERY-th
// save of an open file, the first save after the record was read from disk,
// and every compaction write the whole record, so a reader folds at most a
// few dozen small lines. A delta line is applied only onto the record of
// version `b` it was made against; files with only "r" lines (earlier
// versions) read as before.

/** What a session's `LowSync` holds: the current record, and the turn that saved it while it is being written. */
export interface SessionDoc {
  record: StoredSession;
  /** The histories of the turn being saved with `record`; written with it, then dropped from memory. */
  turn?: TurnWrites;
  /** The record this save follows (the file's current one): the save may be written as a delta against it. */
  before?: StoredSession;
}

/** At most this many delta lines follow a whole record line that this process wrote. */
export const FULL_EVERY = 32;

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

/** The line of a save written as a delta against `before` (the record of the version it follows). */
export const deltaLine = (before: StoredSession, after: StoredSession) =>
  `{"d":${JSON.stringify({ b: before.version, ...objectPatch(before as unknown as Record<string, unknown>, after as unknown as Record<string, unknown>) })}}\n`;

/** A turn's transcript and event lines (its events under the record's seq); its record line follows them (a compaction keeps these). */
function historyLines(record: StoredSession, turn: TurnWrites | undefined): string {
  let text = '';
  if (turn?.transcript.length) text += transcriptLine(turn.transcript);
  if (turn?.events.length) text += eventsLine({ seq: record.seq, events: turn.events });
  return text;
}

/**
 * `record` with a delta line's patch folded in, when it was made against
 * this record's version; otherwise (or when it does not fit) `record` as it
 * is — such a line is not part of this record's history.
 */
function fold(record: StoredSession, d: unknown): StoredSession {
  if (!isObject(d) || d.b !== record.version) return record;
  const { b: _b, ...patch } = d;
  try {
    return applyObjectPatch(record as unknown as Record<string, unknown>, patch as ObjectPatch) as unknown as StoredSession;
  } catch {
    return record;
  }
}

/** Reads the text of a session file. */
export function parseSessionFile(text: string): SessionFile {
  const out: SessionFile = { record: null, transcript: [], events: [] };
  for (const v of parseJsonLines(text)) {
    if (!isObject(v)) continue;
    if (isObject(v.r)) out.record = v.r as unknown as StoredSession;
    else if (isObject(v.d)) out.record = out.record && fold(out.record, v.d);
    else if (Array.isArray(v.t)) out.transcript.push(...(v.t as TranscriptEntry[]));
    else if (isObject(v.e)) out.events.push(v.e as unknown as EventBatch);
  }
  return out;
}

/**
 * The current record of a session file's text: reading from the end, the
 * last complete whole-record line, with the delta lines after it folded in
 * order. Lines torn by a crash mid-append do not parse and are skipped;
 * transcript and event lines are passed over without parsing.
 */
export function lastRecord(text: string): StoredSession | null {
  const deltas: string[] = [];
  let end = text.length;
  while (end > 0) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    const line = text.slice(start, end).trim();
    end = start - 1;
    if (line === '' || line.startsWith('{"t":') || line.startsWith('{"e":')) continue;
    if (line.startsWith('{"d":')) {
      deltas.push(line);
      continue;
    }
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      continue; // torn by a crash mid-append: the line before it is the last committed one
    }
    if (!isObject(v) || !isObject(v.r)) continue;
    let record = v.r as unknown as StoredSession;
    for (let i = deltas.length - 1; i >= 0; i--) {
      let d: unknown;
      try {
        d = (JSON.parse(deltas[i]!) as { d: unknown }).d;
      } catch {
        continue; // torn
      }
      record = fold(record, d);
    }
    return record;
  }
  return null;
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
  /**
   * The length (UTF-16 units, about its bytes) of the record lines this
   * adapter appended since it was made or the file was compacted: about what
   * a compaction would drop (LowdbStore compacts only when it is half the file).
   */
  recordChars = 0;
  /** Delta lines this adapter wrote since its last whole record line (it writes the whole record first). */
  #deltas = FULL_EVERY;

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
    const delta = doc.before !== undefined && this.#deltas < FULL_EVERY;
    const record = delta ? deltaLine(doc.before!, doc.record) : recordLine(doc.record);
    this.size = this.appender.appendTextSync(this.file, historyLines(doc.record, doc.turn) + record);
    this.recordChars += record.length;
    this.#deltas = delta ? this.#deltas + 1 : 0;
  }
}
