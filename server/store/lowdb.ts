import { close as fsClose, existsSync, open as fsOpen, read as fsRead, readFileSync, renameSync, rmSync } from 'node:fs';
import { chmod, mkdir, readFile, unlink } from 'node:fs/promises';
import { promisify } from 'node:util';
import { resolve } from 'node:path';
import { LowSync } from 'lowdb';
import { TextFile } from 'lowdb/node';
import type { EngineEvent } from '../engine/types.ts';
import { deepFreeze } from '../shared/deep-freeze.ts';
import { LruCache } from '../shared/lru.ts';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.ts';
import { jsonCopy } from './json-copy.ts';
import { JsonlAppender, lastJsonObject, readJsonl, PRIVATE_DIR, PRIVATE_FILE } from './lowdb-jsonl.ts';
import { assertSessionId, SESSION_ID_PATTERN, sessionPaths, tenantIndexPath, type SessionPaths } from './lowdb-paths.ts';
import { committedEvents, committedTranscript, type EventBatch, type IndexEntry } from './lowdb-read.ts';
import { eventsLine, lastRecord, parseSessionFile, recordLine, SessionFileAdapter, transcriptLine, type SessionDoc, type SessionFile } from './lowdb-session-file.ts';
import { summaryOf, type SaveResult, type SessionStore, type SessionSummary, type StoredSession, type TranscriptEntry, type TurnWrites } from './session-store.ts';
import { KeyedMutex } from './turn-lock.ts';
import { probeWrite } from './probe-write.ts';

export { lastRecord, parseSessionFile, type SessionFile } from './lowdb-session-file.ts';

// The embedded default store, built on lowdb. On disk, under DATA_DIR:
//
//   .lock                          pid of the owning process
//   sessions/<shard>/<id>.jsonl    the session: JSON Lines, appended to —
//                                    {"t":[entries]}       transcript entries
//                                    {"e":{seq,events}}    a turn's events
//                                    {"r":record}          a save, the whole record
//                                    {"d":{b,…patch}}      a save as a delta against version b
//                                                          (current: the last "r" line, "d" lines after it folded in)
//   tenants/<slug>-<hash>.jsonl    { id, flowId, createdAt } per created session, appended
//
// How it sits on lowdb: every session in use is a `LowSync<SessionDoc>`
// (kept in an LRU) whose data is the current record, over a
// SessionFileAdapter — lowdb's SyncAdapter interface implemented as an
// append to the session's JSON Lines file (lowdb-session-file.ts). A turn
// is `low.data = { record, turn, before }; low.write()`: one write(), the
// turn's transcript and event lines followed by its record line — mostly a
// delta against the record before (lowdb-session-file.ts, record-delta.ts),
// a few hundred bytes instead of several KB — after the version check in the
// same synchronous step. Whole-file rewrites
// (compaction, migration of the earlier layout) go through lowdb's own
// `TextFile` adapter and its steno writer (temp file, then rename).
//
// What does not sit on lowdb, and why:
// - The per-turn write is not lowdb's JSONFile/TextFile: those rewrite the
//   whole file per write (temp file + rename over it). On ext4 a rename over
//   an existing file forces the new file's data out (auto_da_alloc), about
//   2 ms per save on the development machine against ~20 µs for an append,
//   and the cost grows with the history. Hence the appending adapter.
// - The tenant index is an append log (one line per created session) written
//   through the same appender (lowdb-jsonl.ts), not a lowdb document: a
//   document rewritten per created session would cost O(sessions) per create.
// - Records that are not cached are read asynchronously (readFile +
//   lastRecord) rather than with LowSync.read(), which would block the event
//   loop on a cold disk read.
//
// A write is atomic for a crash of this process; a torn last line (power
// cut) does not parse and readers go by the record before it, which never
// counts the history lines after it (lowdb-read.ts). Past COMPACT_BYTES, and
// past twice its size after the last compaction, the file is compacted in
// the background when the record lines written to it since it was opened or
// last compacted make up at least half of it (so a compaction at least
// halves the file: with delta lines a record line is ~40% of a sales-script
// turn, and rewriting a file to save a third of it cost more CPU per turn,
// amortised, than the saved bytes were worth) — read and rebuilt while the
// session's turns go on, then, under the session's mutex, the lines they
// appended meanwhile added and the file replaced (#compact): its transcript
// and event lines and the current record, written by lowdb's TextFile (steno: temp file
// `.<id>.jsonl.tmp`, then rename over the file, on the thread pool; a crash
// before the rename leaves the old file whole). So a turn costs the same
// with ten sessions stored or a million, old records do not pile up, and
// histories are never rewritten per turn. This process is the only writer
// (the .lock), so the cached records are never stale.
//
// One file per session rather than one each for record, transcript and
// events: creating a file is the most expensive thing the store does (on the
// development machine's ext4, 0.4-0.8 ms of system CPU, against ~6 µs for
// an append), so a session creates one file, on the thread pool, when it
// starts; and a turn is one system call instead of three.
//
// Writes to open files are synchronous system calls: small appends to the
// page cache (no fsync: a killed process loses nothing that was
// acknowledged; a power cut is the OS's business), and a synchronous append
// costs microseconds where the async API costs thread-pool round trips and
// promise machinery. Opening and creating files, reads of records that are
// not cached and compactions are asynchronous. With the record cached and
// the file open, a commit is one synchronous step: version check and write
// cannot interleave with another.
//
// Cached records are frozen and shared: load() hands out the same object
// until the next save, never a copy; a reader that tries to change it gets
// a TypeError. A commit keeps the values it was given (frozen), rather than
// a copy parsed back (SessionStore.commit).
//
// Data directories of the earlier layout (three files a session:
// <id>.json, <id>.transcript.jsonl, <id>.events.jsonl) are read as they
// are, and each session is rewritten into its one file the first time it
// is used. A compaction of earlier versions (unlink, then rename) that
// stopped in between leaves only the temp file, which is read and renamed.

const openFd = promisify(fsOpen);
const readFd = promisify(fsRead);
const closeFd = promisify(fsClose);

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

/** The first bytes of a transcript line and of an events line (ASCII: the same as bytes and as text). */
const HISTORY_STARTS = [Buffer.from('{"t":'), Buffer.from('{"e":')];
const NEWLINE = 0x0a;

/**
 * A session's file rebuilt from its lines: transcript and events as they
 * were (not parsed, nor decoded: a line torn by a crash is carried over
 * byte for byte and skipped by readers as before), then the record. Works on
 * the file's bytes: a compaction reads a few hundred KB, and decoding them
 * into a string, splitting it and encoding the result again cost more than
 * the rest of the rebuild.
 */
function compacted(bytes: Buffer, record: StoredSession): Buffer {
  const parts: Buffer[] = [];
  for (let start = 0; start < bytes.length;) {
    const nl = bytes.indexOf(NEWLINE, start);
    const end = nl < 0 ? bytes.length : nl + 1;
    if (HISTORY_STARTS.some((h) => bytes.compare(h, 0, h.length, start, Math.min(start + h.length, end)) === 0)) {
      parts.push(bytes.subarray(start, end));
      if (nl < 0) parts.push(Buffer.from('\n')); // a last line without its newline, as the text rebuild wrote it
    }
    start = end;
  }
  parts.push(Buffer.from(recordLine(record), 'utf8'));
  return Buffer.concat(parts);
}

/** A session's lowdb document over its file's adapter: what the store caches per session in use. */
type SessionLow = LowSync<SessionDoc> & { adapter: SessionFileAdapter };

const newLow = (adapter: SessionFileAdapter, record: StoredSession): SessionLow =>
  new LowSync<SessionDoc>(adapter, { record }) as SessionLow;

/** A session store in a data directory owned by this process: one appended file per session. */
export class LowdbStore implements SessionStore {
  readonly dataDir: string;
  #state: 'new' | 'opening' | 'open' | 'closed' = 'new';
  #lock: DataDirLock | null = null;
  /** The lowdb documents of recently used sessions (LRU): their current records, frozen. */
  readonly #cache: LruCache<string, SessionLow>;
  /** File names of recently used sessions (a path costs a SHA-256 and a few joins). */
  readonly #paths: LruCache<string, SessionPaths>;
  readonly #mutex = new KeyedMutex();
  readonly #appender: JsonlAppender;
  readonly #dirs = new Set<string>();
  /** Sessions whose file is being compacted. */
  readonly #compacting = new Set<string>();
  /** The compactions under way (close() waits for them: their read happens outside the session's mutex). */
  readonly #compactions = new Set<Promise<void>>();
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
      // owner only whatever the umask: mkdir's mode is masked, and the folders may already exist
      for (const dir of [this.dataDir, `${this.dataDir}/sessions`, `${this.dataDir}/tenants`]) {
        await mkdir(dir, { recursive: true, mode: PRIVATE_DIR });
        await chmod(dir, PRIVATE_DIR);
      }
    } catch (e) {
      this.#state = 'closed';
      await this.#lock?.release();
      throw e;
    }
    this.#state = 'open';
    return this;
  }

  async create(record: StoredSession, turn: TurnWrites): Promise<{ ok: true } | { ok: false; exists: true }> {
    this.#assertOpen();
    const id = record.id;
    const paths = this.#pathsOf(id);
    // the caller keeps its object: the store caches a copy (what a read of the file would give)
    const own = jsonCopy(record);
    return this.#mutex.run(id, async () => {
      if (!this.#dirs.has(paths.dir)) {
        await mkdir(paths.dir, { recursive: true, mode: PRIVATE_DIR });
        this.#dirs.add(paths.dir);
      }
      // the file is created off the event loop (the costly part) and only if it does not exist (O_EXCL), which is
      // also the existence check; a compaction's temp file or the earlier layout need the full look
      const created = !this.#cache.peek(id) && !existsSync(paths.tmp) && !existsSync(paths.legacy.record) && (await this.#appender.createAsync(paths.file));
      if (!created) {
        if (await this.#current(id)) return { ok: false, exists: true } as const;
        // a file with no record in it: a create that never finished
        await this.#appender.openAsync(paths.file);
      }
      // index first: a crash before the record is written leaves an index line
      // that list() skips, never a session that list() cannot find
      const index = tenantIndexPath(this.dataDir, record.tenant);
      const entry: IndexEntry = { id, flowId: record.flowId, createdAt: record.createdAt };
      this.#appender.appendSync(index, [entry]);
      this.#write(id, paths, newLow(new SessionFileAdapter(this.#appender, paths.file), own), own, turn);
      return { ok: true } as const;
    });
  }

  async load(id: string): Promise<StoredSession | null> {
    this.#assertOpen();
    assertSessionId(id);
    return (this.#cache.get(id) ?? (await this.#mutex.run(id, () => this.#current(id))))?.data.record ?? null;
  }

  async commit(record: StoredSession, expected: number, turn: TurnWrites): Promise<SaveResult> {
    this.#assertOpen();
    const id = record.id;
    const paths = this.#pathsOf(id);
    // the hot path: cached, nothing queued for this session — check and write in one synchronous step
    const cached = this.#mutex.busy(id) ? undefined : this.#cache.get(id);
    if (cached) return this.#commitOver(cached, paths, record, expected, turn);
    return this.#mutex.run(id, async () => this.#commitOver(await this.#current(id), paths, record, expected, turn));
  }

  /** The version check and the write, synchronously. */
  #commitOver(low: SessionLow | null, paths: SessionPaths, record: StoredSession, expected: number, turn: TurnWrites): SaveResult {
    const current = low?.data.record;
    if (!low || !current || current.version !== expected) return { ok: false, conflict: true, current: current ? current.version : -1 };
    const version = expected + 1;
    // the record's values become the store's (SessionStore.commit): cached frozen as they are, not parsed back
    this.#write(record.id, paths, low, { ...record, version }, turn);
    return { ok: true, version };
  }

  async transcript(id: string, after = 0): Promise<TranscriptEntry[]> {
    this.#assertOpen();
    const record = await this.#committed(id);
    if (!record) return [];
    return committedTranscript((await this.#readFile(id)).transcript, record.seq, after);
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
      const record = this.#cache.peek(entry.id)?.data.record ?? (await this.#readRecord(entry.id));
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
      this.#compactedAt.delete(id);
      for (const file of [paths.file, paths.tmp, paths.legacy.record, paths.legacy.transcript, paths.legacy.events]) {
        this.#appender.forget(file);
        rmSync(file, { force: true });
      }
      return existed;
    });
  }

  /** Resolves when the data directory takes a write now (a probe file written, fsynced, removed); rejects with ENOSPC, EROFS… otherwise. */
  async ready(): Promise<void> {
    this.#assertOpen();
    await probeWrite(`${this.dataDir}/.ready-probe`);
  }

  /** Waits for pending writes, then releases the data directory's lock; idempotent. */
  async close(): Promise<void> {
    if (this.#state === 'closed' || this.#state === 'new') {
      this.#state = 'closed';
      return;
    }
    this.#state = 'closed';
    // a compaction under way finishes (its first part holds no mutex); no commit can come in meanwhile
    await Promise.allSettled([...this.#compactions]);
    await this.#mutex.idle();
    this.#cache.clear();
    this.#paths.clear();
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

  /** The session's document, from the cache or its file (then cached). Call only under the session's mutex. */
  async #current(id: string): Promise<SessionLow | null> {
    const hit = this.#cache.get(id);
    if (hit) return hit;
    const record = await this.#readRecord(id, true);
    if (!record) return null;
    const low = newLow(new SessionFileAdapter(this.#appender, this.#pathsOf(id).file), deepFreeze(record));
    this.#cache.set(id, low);
    return low;
  }

  /** The record the readers go by: cached, or read under the mutex so no commit is half-seen. */
  async #committed(id: string): Promise<StoredSession | null> {
    return (this.#cache.get(id) ?? (await this.#mutex.run(id, () => this.#current(id))))?.data.record ?? null;
  }

  /**
   * The record on disk: the last complete record line of its file, or, when
   * there is no file, the temp file of a compaction (of earlier versions)
   * that stopped between unlink and rename, or a session of the earlier
   * layout. With `repair` (under the session's mutex) the compaction is
   * finished and an earlier-layout session is rewritten into its one file.
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
   * the session's mutex: a compaction renames over the file under it.
   */
  async #readFile(id: string): Promise<SessionFile> {
    const paths = this.#pathsOf(id);
    return this.#mutex.run(id, async () => {
      const text = (await readText(paths.file)) ?? (await readText(paths.tmp));
      if (text !== null) return parseSessionFile(text);
      return (await readLegacy(paths)) ?? { record: null, transcript: [], events: [] };
    });
  }

  /** Rewrites a session of the earlier layout into its one file (lowdb's TextFile: temp file, rename), then removes the old files. */
  async #migrate(paths: SessionPaths, old: SessionFile): Promise<void> {
    let text = old.transcript.length ? transcriptLine(old.transcript) : '';
    for (const batch of old.events) text += eventsLine(batch);
    text += recordLine(old.record!);
    await new TextFile(paths.file).write(text);
    await chmod(paths.file, PRIVATE_FILE); // steno writes with the umask's mode
    for (const file of Object.values(paths.legacy)) await unlink(file).catch(() => {});
  }

  /**
   * Saves a turn through the session's lowdb document: its data becomes the
   * record with the turn, `write()` appends them in one write() (compacting
   * a file that grew too long), then the turn is dropped from memory and the
   * record stays cached, frozen. A failed write forgets the cached document
   * (the file's tail is unknown) before anyone else can read it.
   */
  #write(id: string, paths: SessionPaths, low: SessionLow, record: StoredSession, turn: TurnWrites): void {
    const before = low.data.record;
    low.data = before === record ? { record, turn } : { record, turn, before };
    try {
      low.write();
    } catch (e) {
      this.#cache.delete(id);
      this.#appender.forget(paths.file);
      throw e;
    }
    low.data = { record: deepFreeze(record) };
    // a commit has just taken it from the cache (a get: the most recent already); a create brings it
    if (this.#cache.peek(id) !== low) this.#cache.set(id, low);
    if (low.adapter.size > Math.max(COMPACT_BYTES, 2 * (this.#compactedAt.peek(id) ?? 0)) && 2 * low.adapter.recordChars >= low.adapter.size) this.#compact(id, paths);
  }

  /**
   * Rewrites the session's file as its transcript and event lines and its
   * current record, in the background, without holding up the session's
   * turns for most of it:
   * - outside the session's mutex, the file up to its size as of now is read
   *   (on the thread pool) and rebuilt with the record cached now — commits
   *   write synchronously, so that size and that record belong together;
   *   turns meanwhile go on appending after that size;
   * - then, under the mutex (commits meanwhile wait), the lines appended
   *   since are read and put after the rebuilt part, and lowdb's TextFile
   *   writes the whole (steno: temp file, then rename over the file, on the
   *   thread pool). The delta lines of those turns follow the record they
   *   were made against, as before.
   * The forced write-out of a rename over a file (see the top of this file) is
   * paid here once per compaction. A crash before the rename leaves the old
   * file whole; a failure leaves it as it was (still correct, just long); a
   * session whose cached document changed meanwhile (a failed write, a
   * delete, an eviction) is left alone.
   */
  #compact(id: string, paths: SessionPaths): void {
    const low = this.#cache.peek(id);
    if (!low || this.#compacting.has(id)) return;
    this.#compacting.add(id);
    const record = low.data.record;
    const upTo = low.adapter.size;
    const job: Promise<void> = (async () => {
      const head = compacted(await readBytes(paths.file, 0, upTo), record);
      await this.#mutex.run(id, async () => {
        // not after close() let go of the directory, nor over a session whose cached document changed
        if (this.#lock === null || this.#cache.peek(id) !== low) return;
        const size = low.adapter.size;
        const bytes = size > upTo ? Buffer.concat([head, await readBytes(paths.file, upTo, size - upTo)]) : head;
        this.#appender.forget(paths.file);
        // lowdb's TextFile hands what it writes to steno's Writer, whose writeFile takes bytes as well as text
        await new TextFile(paths.file).write(bytes as unknown as string);
        await chmod(paths.file, PRIVATE_FILE);
        this.#compactedAt.set(id, bytes.length);
        low.adapter.recordChars = 0;
      });
    })().catch(() => {
      // the next commit that finds the file long tries again
    }).finally(() => {
      this.#compacting.delete(id);
      this.#compactions.delete(job);
    });
    this.#compactions.add(job);
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

/**
 * `length` bytes of a file from `position` (fewer when the file is shorter):
 * through a plain descriptor (the callback API on the thread pool), which
 * costs the event loop less than a FileHandle of fs/promises.
 */
async function readBytes(file: string, position: number, length: number): Promise<Buffer> {
  const fd = await openFd(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(length);
    const { bytesRead } = await readFd(fd, buf, 0, length, position);
    return buf.subarray(0, bytesRead);
  } finally {
    await closeFd(fd);
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
