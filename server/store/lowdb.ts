import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { EngineEvent } from '../engine/types.ts';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.ts';
import { isObject, JsonlAppender, lastJsonLine, lastJsonObject, parseJsonLines, readJsonl } from './lowdb-jsonl.ts';
import { LruCache } from '../shared/lru.ts';
import { KeyedMutex } from '../shared/mutex.ts';
import { assertSessionId, SESSION_ID_PATTERN, sessionPaths, tenantIndexPath, type SessionPaths } from './lowdb-paths.ts';
import { committedEvents, committedTranscript, deepFreeze, summaryOf, type EventBatch, type IndexEntry } from './lowdb-read.ts';
import type { SaveResult, SessionStore, SessionSummary, StoredSession, TranscriptEntry } from './session-store.ts';

// The embedded default store. On disk, under DATA_DIR:
//
//   .lock                          pid of the owning process
//   sessions/<shard>/<id>.jsonl    the session: JSON Lines, appended to —
//                                    {"t":[entries]}       transcript entries
//                                    {"e":{seq,events}}    a turn's events
//                                    {"r":record}          a save; the last complete one is current
//   tenants/<slug>-<hash>.jsonl    { id, flowId, createdAt } per created session, appended
//
// A turn is one write() of a few KB to the session's own file: the
// transcript entries and events the turn appended (kept in memory until
// then: appended lines only count once a save commits their seq, so there
// is nothing to lose by holding them) followed by the new record. One
// write is atomic for a crash of this process; a torn last line (power cut)
// does not parse and readers go by the record before it, which never counts
// the lines after it. Past COMPACT_BYTES, and past twice its size after the
// last compaction, the file is compacted in the background under the
// session's mutex: its transcript and event lines and the current record
// only (temp file, unlink, rename, all on the thread pool; a reader that
// finds no file takes the temp file, which is complete by then). So a turn
// costs the same with ten sessions stored or a million, old records do not
// pile up, and histories are never rewritten per turn. This process is the
// only writer (the .lock), so the record cache is never stale.
//
// One file per session rather than one each for record, transcript and
// events: creating a file is the most expensive thing the store does (on the
// development machine's ext4, 0.4-0.8 ms of system CPU, against ~6 µs for
// an append), so a session creates one file, on the thread pool, when it
// starts; and a turn is one system call instead of three.
//
// Why not lowdb's TextFile (temp file + rename over the record) per save:
// on ext4, renaming over an existing file forces the new file's data to be
// allocated and written out (auto_da_alloc), about 2 ms per save on the
// development machine against ~20 µs for an append.
//
// Writes to open files are synchronous system calls: small appends to the
// page cache (no fsync, as before: a killed process loses nothing that was
// acknowledged; a power cut is the OS's business), and a synchronous append
// costs microseconds where the async API costs thread-pool round trips and
// promise machinery. Opening and creating files, reads of records that are
// not cached and compactions are asynchronous (a cold disk read must not
// block every other conversation). With the record cached and the file
// open, a save is one synchronous step: version check and write cannot
// interleave with another.
//
// Cached records are frozen and shared: load() hands out the same object
// until the next save, never a copy; a reader that tries to change it gets
// a TypeError. A save keeps the values it was given (frozen), rather than a
// copy parsed back (SessionStore.save).
//
// Data directories of the earlier layout (three files a session:
// <id>.json, <id>.transcript.jsonl, <id>.events.jsonl) are read as they
// are, and each session is rewritten into its one file the first time it
// is used.

/** A session file longer than this (and than twice its size after its last compaction) is compacted. */
const COMPACT_BYTES = 256 * 1024;

/** Options of LowdbStore. */
export interface LowdbStoreOptions {
  /** How many session records to keep parsed in memory (LRU); default 10,000. */
  cacheSize?: number;
  /**
   * How many session files (and tenant indexes) to keep open between appends
   * (LRU; each is a file descriptor); default `defaultOpenFiles()`. The rest
   * are opened and closed around each append.
   */
  openFiles?: number;
}

/** The line of a save, of transcript entries, of a turn's events. */
const recordLine = (r: StoredSession) => `{"r":${JSON.stringify(r)}}\n`;
const transcriptLine = (entries: readonly TranscriptEntry[]) => `{"t":${JSON.stringify(entries)}}\n`;
const eventsLine = (batch: EventBatch) => `{"e":${JSON.stringify(batch)}}\n`;

/** The parsed lines of a session file (lines that do not parse, torn by a crash, are skipped). */
export interface SessionFile {
  /** The last complete record line's record, or null. */
  record: StoredSession | null;
  transcript: TranscriptEntry[];
  events: EventBatch[];
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
 * A session's file rebuilt from its lines: transcript and events as they
 * were (not parsed: a line torn by a crash is carried over and skipped by
 * readers as before), then the record.
 */
function compacted(text: string, record: StoredSession): string {
  let out = '';
  for (const line of text.split('\n')) if (line.startsWith('{"t":') || line.startsWith('{"e":')) out += line + '\n';
  return out + recordLine(record);
}

/** A session store in a data directory owned by this process: one appended file per session. */
export class LowdbStore implements SessionStore {
  readonly dataDir: string;
  #state: 'new' | 'opening' | 'open' | 'closed' = 'new';
  #lock: DataDirLock | null = null;
  readonly #cache: LruCache<string, StoredSession>;
  /** File names of recently used sessions (a path costs a SHA-256 and a few joins). */
  readonly #paths: LruCache<string, SessionPaths>;
  readonly #mutex = new KeyedMutex();
  readonly #appender: JsonlAppender;
  readonly #dirs = new Set<string>();
  /** Lines appended since the session's last save or create, written with it. */
  readonly #pending = new Map<string, string>();
  /** Sessions whose file is being compacted. */
  readonly #compacting = new Set<string>();
  /** A session file's size after its last compaction (it is compacted again past twice that). */
  readonly #compactedAt: LruCache<string, number>;

  constructor(dataDir: string, opts: LowdbStoreOptions = {}) {
    this.dataDir = resolve(dataDir);
    this.#cache = new LruCache(opts.cacheSize ?? 10_000);
    this.#appender = new JsonlAppender(opts.openFiles ?? defaultOpenFiles());
    this.#paths = new LruCache(Math.max(1_000, Math.min(opts.cacheSize ?? 10_000, 10_000)));
    this.#compactedAt = new LruCache(10_000);
  }

  /** Opens a store on `dataDir`, taking its lock. */
  static async open(dataDir: string, opts: LowdbStoreOptions = {}): Promise<LowdbStore> {
    return new LowdbStore(dataDir, opts).open();
  }

  /** Takes the data directory's lock (throws if another live process or store holds it) and creates its folders. */
  async open(): Promise<this> {
    if (this.#state !== 'new') throw new Error(`LowdbStore(${this.dataDir}) was already opened`);
    this.#state = 'opening';
    try {
      this.#lock = await acquireDataDirLock(this.dataDir);
      await mkdir(`${this.dataDir}/sessions`, { recursive: true });
      await mkdir(`${this.dataDir}/tenants`, { recursive: true });
    } catch (e) {
      this.#state = 'closed';
      await this.#lock?.release();
      throw e;
    }
    this.#state = 'open';
    return this;
  }

  async create(record: StoredSession): Promise<{ ok: true } | { ok: false; exists: true }> {
    this.#assertOpen();
    const id = record.id;
    const paths = this.#pathsOf(id);
    const text = recordLine(record);
    return this.#mutex.run(id, async () => {
      if (!this.#dirs.has(paths.dir)) {
        await mkdir(paths.dir, { recursive: true });
        this.#dirs.add(paths.dir);
      }
      // the file is created off the event loop (the costly part) and only if it does not exist (O_EXCL), which is
      // also the existence check; a compaction's temp file or the earlier layout need the full look
      const created = !this.#cache.peek(id) && !existsSync(paths.tmp) && !existsSync(paths.legacy.record) && (await this.#appender.createAsync(paths.file));
      if (!created) {
        if (await this.#current(id)) {
          // what was appended for this id belongs to no session of ours
          this.#pending.delete(id);
          return { ok: false, exists: true } as const;
        }
        // a file with no record in it: a create that never finished
        await this.#appender.openAsync(paths.file);
      }
      // index first: a crash before the record is written leaves an index line
      // that list() skips, never a session that list() cannot find
      const index = tenantIndexPath(this.dataDir, record.tenant);
      const entry: IndexEntry = { id, flowId: record.flowId, createdAt: record.createdAt };
      this.#appender.appendSync(index, [entry]);
      this.#writeRecord(id, paths, text);
      return { ok: true } as const;
    });
  }

  async load(id: string): Promise<StoredSession | null> {
    this.#assertOpen();
    assertSessionId(id);
    return this.#cache.get(id) ?? (await this.#mutex.run(id, () => this.#current(id)));
  }

  async save(record: StoredSession, expected: number): Promise<SaveResult> {
    this.#assertOpen();
    const id = record.id;
    const paths = this.#pathsOf(id);
    // the hot path: cached, nothing queued for this session — check and write in one synchronous step
    const cached = this.#mutex.busy(id) ? undefined : this.#cache.get(id);
    if (cached) return this.#saveOver(cached, paths, record, expected);
    return this.#mutex.run(id, async () => this.#saveOver(await this.#current(id), paths, record, expected));
  }

  /** The version check and the write, synchronously. */
  #saveOver(current: StoredSession | null, paths: SessionPaths, record: StoredSession, expected: number): SaveResult {
    if (!current || current.version !== expected) {
      // the lines appended for this turn are not committed by anything now
      this.#pending.delete(record.id);
      return { ok: false, conflict: true, current: current ? current.version : -1 };
    }
    const version = expected + 1;
    const saved = { ...record, version };
    // the record's values become the store's (SessionStore.save): cached frozen as they are, not parsed back
    this.#writeRecord(record.id, paths, recordLine(saved), saved);
    return { ok: true, version };
  }

  async appendTranscript(id: string, entries: readonly TranscriptEntry[]): Promise<void> {
    this.#assertOpen();
    assertSessionId(id);
    if (entries.length === 0) return;
    this.#pending.set(id, (this.#pending.get(id) ?? '') + transcriptLine(entries));
  }

  async transcript(id: string, after = 0): Promise<TranscriptEntry[]> {
    this.#assertOpen();
    const record = await this.#committed(id);
    if (!record) return [];
    return committedTranscript((await this.#readFile(id)).transcript, record.seq, after);
  }

  async appendEvents(id: string, seq: number, events: readonly EngineEvent[]): Promise<void> {
    this.#assertOpen();
    assertSessionId(id);
    this.#pending.set(id, (this.#pending.get(id) ?? '') + eventsLine({ seq, events: events as EngineEvent[] }));
  }

  async events(id: string): Promise<EngineEvent[]> {
    this.#assertOpen();
    const record = await this.#committed(id);
    if (!record) return [];
    return committedEvents((await this.#readFile(id)).events, record.seq);
  }

  /**
   * Reads the tenant's index (one line per created session), newest first,
   * and reads each record for its status until `limit` match: O(sessions of
   * the tenant) for the index, O(records visited) file reads for those not
   * cached. Admin listing is off the hot path; records read here are not
   * cached, so a listing never evicts the sessions in conversation.
   */
  async list(tenant: string, opts: { status?: StoredSession['status']; limit?: number } = {}): Promise<SessionSummary[]> {
    this.#assertOpen();
    const limit = opts.limit ?? Infinity;
    if (limit <= 0) return [];
    const lines = await readJsonl(tenantIndexPath(this.dataDir, tenant));
    const seen = new Map<string, { entry: IndexEntry; at: number }>();
    lines.forEach((line, at) => {
      const e = line as Partial<IndexEntry> | null;
      if (e && typeof e.id === 'string' && SESSION_ID_PATTERN.test(e.id) && typeof e.createdAt === 'string' && !seen.has(e.id)) seen.set(e.id, { entry: e as IndexEntry, at });
    });
    const order = [...seen.values()].sort(
      (a, b) => (a.entry.createdAt < b.entry.createdAt ? 1 : a.entry.createdAt > b.entry.createdAt ? -1 : b.at - a.at),
    );
    const out: SessionSummary[] = [];
    for (const { entry } of order) {
      if (out.length >= limit) break;
      const record = this.#cache.peek(entry.id) ?? (await this.#readRecord(entry.id));
      if (!record || record.tenant !== tenant) continue;
      if (opts.status !== undefined && record.status !== opts.status) continue;
      out.push(summaryOf(record));
    }
    return out;
  }

  /**
   * Removes the session's file first (the commit point: once it is gone the
   * session does not exist), then anything else of it. The tenant index
   * keeps its line; list() skips ids whose record is missing.
   */
  async delete(id: string): Promise<boolean> {
    this.#assertOpen();
    const paths = this.#pathsOf(id);
    return this.#mutex.run(id, async () => {
      const existed = (await this.#current(id)) !== null;
      this.#cache.delete(id);
      this.#pending.delete(id);
      this.#compactedAt.delete(id);
      for (const file of [paths.file, paths.tmp, paths.legacy.record, paths.legacy.transcript, paths.legacy.events]) {
        this.#appender.forget(file);
        rmSync(file, { force: true });
      }
      return existed;
    });
  }

  /** Waits for pending writes, then releases the data directory's lock; idempotent. */
  async close(): Promise<void> {
    if (this.#state === 'closed' || this.#state === 'new') {
      this.#state = 'closed';
      return;
    }
    this.#state = 'closed';
    await this.#mutex.idle();
    // lines appended with no save yet: written as they are (uncommitted until a save after reopening counts them)
    for (const [id, text] of this.#pending) {
      try {
        this.#appender.appendTextSync(this.#pathsOf(id).file, text);
      } catch {
        // not committed anyway: a turn that never saved is retried by its client
      }
    }
    this.#cache.clear();
    this.#paths.clear();
    this.#pending.clear();
    this.#compactedAt.clear();
    this.#appender.reset();
    await this.#lock?.release();
    this.#lock = null;
  }

  #assertOpen(): void {
    if (this.#state !== 'open') {
      throw new Error(`LowdbStore(${this.dataDir}) is ${this.#state === 'closed' ? 'closed' : 'not open: call open() first'}`);
    }
  }

  /** The stored record, from the cache or the file (then cached). Call only under the session's mutex. */
  async #current(id: string): Promise<StoredSession | null> {
    const hit = this.#cache.get(id);
    if (hit) return hit;
    const record = await this.#readRecord(id, true);
    if (record) this.#cache.set(id, deepFreeze(record));
    return record;
  }

  /** The record the readers go by: cached, or read under the mutex so no save is half-seen. */
  async #committed(id: string): Promise<StoredSession | null> {
    return this.#cache.get(id) ?? (await this.#mutex.run(id, () => this.#current(id)));
  }

  /**
   * The record on disk: the last complete record line of its file, or, when
   * there is no file, the temp file of a compaction that stopped between
   * unlink and rename, or a session of the earlier layout. With `repair`
   * (under the session's mutex) the compaction is finished and an
   * earlier-layout session is rewritten into its one file.
   */
  async #readRecord(id: string, repair = false): Promise<StoredSession | null> {
    const paths = this.#paths.peek(id) ?? sessionPaths(this.dataDir, id);
    let text = await readText(paths.file);
    if (text === null) {
      text = await readText(paths.tmp);
      // nothing to rename over, so no forced write-out
      if (text !== null && repair) renameSync(paths.tmp, paths.file);
      // outside the mutex (listing), a compaction may have renamed the temp file meanwhile
      else if (text === null && !repair) text = await readText(paths.file);
    }
    if (text !== null) return lastRecord(text);
    const legacy = await readLegacy(paths);
    if (legacy?.record && repair) await this.#migrate(paths, legacy);
    return legacy?.record ?? null;
  }

  /**
   * Everything in a session's file (or its earlier-layout files), read under
   * the session's mutex: a compaction renames the file under it, and a read
   * between its unlink and its rename would find neither file.
   */
  async #readFile(id: string): Promise<SessionFile> {
    const paths = this.#pathsOf(id);
    return this.#mutex.run(id, async () => {
      const text = (await readText(paths.file)) ?? (await readText(paths.tmp));
      if (text !== null) return parseSessionFile(text);
      return (await readLegacy(paths)) ?? { record: null, transcript: [], events: [] };
    });
  }

  /** Rewrites a session of the earlier layout into its one file (temp file, rename), then removes the old files. */
  async #migrate(paths: SessionPaths, old: SessionFile): Promise<void> {
    let text = old.transcript.length ? transcriptLine(old.transcript) : '';
    for (const batch of old.events) text += eventsLine(batch);
    text += recordLine(old.record!);
    await writeFile(paths.tmp, text);
    await rename(paths.tmp, paths.file);
    for (const file of Object.values(paths.legacy)) await unlink(file).catch(() => {});
  }

  /**
   * Writes the session's pending lines and the record's line in one append
   * (compacting a file that grew too long), then caches the record, frozen:
   * `owned` when the caller handed its record over (save), else parsed back
   * from the text (create: the caller keeps its object); forgets the cache
   * entry if the write fails.
   */
  #writeRecord(id: string, paths: SessionPaths, line: string, owned?: StoredSession): void {
    const pending = this.#pending.get(id);
    this.#pending.delete(id);
    try {
      const size = this.#appender.appendTextSync(paths.file, pending === undefined ? line : pending + line);
      if (size > Math.max(COMPACT_BYTES, 2 * (this.#compactedAt.peek(id) ?? 0))) this.#compact(id, paths);
    } catch (e) {
      this.#cache.delete(id);
      this.#appender.forget(paths.file);
      throw e;
    }
    this.#cache.set(id, deepFreeze(owned ?? (JSON.parse(line) as { r: StoredSession }).r));
  }

  /**
   * Rewrites the session's file as its transcript and event lines and its
   * current record, in the background under the session's mutex (saves
   * meanwhile wait for it): temp file, unlink, rename. Not a rename over the
   * file (see the top of this file); a crash after the unlink leaves the
   * complete temp file, which #readRecord falls back to. A failure leaves the
   * file as it was (still correct, just long).
   */
  #compact(id: string, paths: SessionPaths): void {
    if (this.#compacting.has(id)) return;
    this.#compacting.add(id);
    void this.#mutex.run(id, async () => {
      const record = this.#cache.peek(id);
      if (!record || this.#state !== 'open') return;
      const text = compacted(await readFile(paths.file, 'utf8'), record);
      await writeFile(paths.tmp, text);
      this.#appender.forget(paths.file);
      await unlink(paths.file);
      await rename(paths.tmp, paths.file);
      this.#compactedAt.set(id, Buffer.byteLength(text));
    }).catch(() => {
      // the next save that finds the file long tries again
    }).finally(() => this.#compacting.delete(id));
  }

  /** The files of a session (id checked), remembered for recently used sessions. */
  #pathsOf(id: string): SessionPaths {
    let p = this.#paths.get(id);
    if (!p) {
      p = sessionPaths(this.dataDir, id);
      this.#paths.set(id, p);
    }
    return p;
  }
}

/** A session of the earlier layout (three files), or null when it has none. */
async function readLegacy(paths: SessionPaths): Promise<SessionFile | null> {
  const text = await readText(paths.legacy.record);
  if (text === null) return null;
  return {
    record: lastJsonObject(text) as StoredSession | null,
    transcript: (await readJsonl(paths.legacy.transcript)) as TranscriptEntry[],
    events: (await readJsonl(paths.legacy.events)) as EventBatch[],
  };
}

/**
 * How many files a LowdbStore keeps open by default: a quarter of the
 * process's soft limit on open files (`ulimit -n`, read from
 * /proc/self/limits), between 256 and 8,192; 256 where the limit is unknown.
 * A live conversation appends to three files a turn, so with fewer handles
 * than three per active session every turn reopens (open, fstat, read of the
 * last byte, close) what the previous one closed — about a tenth of a turn's
 * CPU with 500 conversations at a time and 256 handles.
 */
export function defaultOpenFiles(limits = readLimits()): number {
  const soft = /^Max open files\s+(\d+|unlimited)/m.exec(limits ?? '')?.[1];
  if (soft === undefined) return 256;
  const n = soft === 'unlimited' ? Infinity : Number(soft);
  return Math.max(256, Math.min(8_192, Math.floor(n / 4)));
}

function readLimits(): string | null {
  try {
    return readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return null;
  }
}

/** A file's text, or null when it does not exist. */
async function readText(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}
