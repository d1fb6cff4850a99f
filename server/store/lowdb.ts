import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { EngineEvent } from '../engine/types.ts';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.ts';
import { JsonlAppender, lastJsonObject, readJsonl } from './lowdb-jsonl.ts';
import { LruCache } from './lowdb-lru.ts';
import { KeyedMutex } from './lowdb-mutex.ts';
import { assertSessionId, SESSION_ID_PATTERN, sessionPaths, tenantIndexPath, type SessionPaths } from './lowdb-paths.ts';
import { committedEvents, committedTranscript, deepFreeze, summaryOf, type EventBatch, type IndexEntry } from './lowdb-read.ts';
import type { SaveResult, SessionStore, SessionSummary, StoredSession, TranscriptEntry } from './session-store.ts';

// The embedded default store. On disk, under DATA_DIR:
//
//   .lock                                     pid of the owning process
//   sessions/<shard>/<id>.json                the record: one JSON line per save, the last complete line current
//   sessions/<shard>/<id>.transcript.jsonl    transcript entries, appended
//   sessions/<shard>/<id>.events.jsonl        { seq, events } batches, appended
//   tenants/<slug>-<hash>.jsonl               { id, flowId, createdAt } per created session, appended
//
// A save appends the whole record as one line to the session's own file:
// one write() of a few KB, atomic for a crash of this process (a torn last
// line does not parse and readers take the line before it). Past 64 KB the
// file is compacted to its last line in the background, under the session's
// mutex (temp file, unlink, rename, all on the thread pool; a reader that
// finds no record file takes the temp file, which is complete by then).
// So a turn costs the same with ten sessions stored or a million, and the
// record file stays small; histories grow by appends and are never
// rewritten. This process is the only writer (the .lock), so the record
// cache is never stale.
//
// Why not lowdb's TextFile (temp file + rename over the record) per save:
// on ext4, renaming over an existing file forces the new file's data to be
// allocated and written out (auto_da_alloc), about 2 ms per save on the
// development machine against ~20 µs for an append.
//
// Writes are synchronous system calls: a turn's writes are a few small
// appends to the page cache (no fsync, as before: a killed process loses
// nothing that was acknowledged; a power cut is the OS's business), and a
// synchronous append costs microseconds where the async API costs thread-pool
// round trips and promise machinery. Reads of records that are not cached
// stay asynchronous (a cold disk read must not block every other
// conversation). With the record cached, a save is one synchronous step:
// version check and write cannot interleave with another.
//
// Cached records are frozen and shared: load() hands out the same object
// until the next save, never a copy; a reader that tries to change it gets
// a TypeError.

/** A record file longer than this is compacted to its last line. */
const COMPACT_BYTES = 64 * 1024;

/** Options of LowdbStore. */
export interface LowdbStoreOptions {
  /** How many session records to keep parsed in memory (LRU); default 10,000. */
  cacheSize?: number;
  /**
   * How many append-only files (records, transcripts, events) to keep open
   * between appends (LRU; each is a file descriptor); default 256. The rest
   * are opened and closed around each append.
   */
  openFiles?: number;
}

/** A session store in a data directory owned by this process: one file per session plus append-only histories. */
export class LowdbStore implements SessionStore {
  readonly dataDir: string;
  #state: 'new' | 'opening' | 'open' | 'closed' = 'new';
  #lock: DataDirLock | null = null;
  readonly #cache: LruCache<string, StoredSession>;
  /** File names of recently used sessions (a path costs a SHA-256 and four joins). */
  readonly #paths: LruCache<string, SessionPaths>;
  readonly #mutex = new KeyedMutex();
  readonly #appender: JsonlAppender;
  readonly #dirs = new Set<string>();
  /** Sessions whose record file is being compacted. */
  readonly #compacting = new Set<string>();

  constructor(dataDir: string, opts: LowdbStoreOptions = {}) {
    this.dataDir = resolve(dataDir);
    this.#cache = new LruCache(opts.cacheSize ?? 10_000);
    this.#appender = new JsonlAppender(opts.openFiles ?? 256);
    this.#paths = new LruCache(Math.max(1_000, Math.min(opts.cacheSize ?? 10_000, 10_000)));
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
    const text = JSON.stringify(record);
    return this.#mutex.run(id, async () => {
      if (await this.#current(id)) return { ok: false, exists: true } as const;
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
    if (!current) return { ok: false, conflict: true, current: -1 };
    if (current.version !== expected) return { ok: false, conflict: true, current: current.version };
    const version = expected + 1;
    this.#writeRecord(record.id, paths, JSON.stringify({ ...record, version }));
    return { ok: true, version };
  }

  async appendTranscript(id: string, entries: readonly TranscriptEntry[]): Promise<void> {
    this.#assertOpen();
    const paths = this.#pathsOf(id);
    if (entries.length === 0) return;
    this.#ensureDir(paths.dir);
    this.#appender.appendSync(paths.transcript, entries);
  }

  async transcript(id: string, after = 0): Promise<TranscriptEntry[]> {
    this.#assertOpen();
    const paths = this.#pathsOf(id);
    const record = await this.#committed(id);
    if (!record) return [];
    return committedTranscript(await readJsonl(paths.transcript), record.seq, after);
  }

  async appendEvents(id: string, seq: number, events: readonly EngineEvent[]): Promise<void> {
    this.#assertOpen();
    const paths = this.#pathsOf(id);
    const batch: EventBatch = { seq, events: events as EngineEvent[] };
    this.#ensureDir(paths.dir);
    this.#appender.appendSync(paths.events, [batch]);
  }

  async events(id: string): Promise<EngineEvent[]> {
    this.#assertOpen();
    const paths = this.#pathsOf(id);
    const record = await this.#committed(id);
    if (!record) return [];
    return committedEvents(await readJsonl(paths.events), record.seq);
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
   * Removes the record first (the commit point: once it is gone the session
   * does not exist), then its histories. The tenant index keeps its line;
   * list() skips ids whose record is missing.
   */
  async delete(id: string): Promise<boolean> {
    this.#assertOpen();
    const paths = this.#pathsOf(id);
    return this.#mutex.run(id, async () => {
      const existed = (await this.#current(id)) !== null;
      this.#cache.delete(id);
      for (const file of [paths.tmp, paths.record, paths.transcript, paths.events]) {
        rmSync(file, { force: true });
        this.#appender.forget(file);
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
    this.#cache.clear();
    this.#paths.clear();
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
   * The record on disk: the last complete line of its file, or, when there
   * is no file, the temp file of a compaction that stopped between unlink
   * and rename. A file with no complete line is a create that never finished.
   */
  async #readRecord(id: string, repair = false): Promise<StoredSession | null> {
    const paths = this.#paths.peek(id) ?? sessionPaths(this.dataDir, id);
    let text = await readText(paths.record);
    if (text === null) {
      text = await readText(paths.tmp);
      // under the session's mutex: finish the compaction (nothing to rename over, so no forced write-out)
      if (text !== null && repair) renameSync(paths.tmp, paths.record);
    }
    return text === null ? null : (lastJsonObject(text) as StoredSession | null);
  }

  /**
   * Appends the record's line (compacting a file that grew past
   * COMPACT_BYTES), then caches what was written — parsed back from the
   * text, so no caller's object is shared, and frozen; forgets the cache
   * entry if the write fails.
   */
  #writeRecord(id: string, paths: SessionPaths, text: string): void {
    this.#ensureDir(paths.dir);
    try {
      const size = this.#appender.appendTextSync(paths.record, text + '\n');
      if (size > COMPACT_BYTES) this.#compact(id, paths);
    } catch (e) {
      this.#cache.delete(id);
      this.#appender.forget(paths.record);
      throw e;
    }
    this.#cache.set(id, deepFreeze(JSON.parse(text) as StoredSession));
  }

  /**
   * Rewrites the record file as its current record, in the background under
   * the session's mutex (saves meanwhile wait for it): temp file, unlink,
   * rename. Not a rename over the file (see the top of this file); a crash
   * after the unlink leaves the complete temp file, which #readRecord falls
   * back to. A failure leaves the file as it was (still correct, just long).
   */
  #compact(id: string, paths: SessionPaths): void {
    if (this.#compacting.has(id)) return;
    this.#compacting.add(id);
    void this.#mutex.run(id, async () => {
      const record = this.#cache.peek(id);
      if (!record || this.#state !== 'open') return;
      await writeFile(paths.tmp, JSON.stringify(record) + '\n');
      this.#appender.forget(paths.record);
      await unlink(paths.record);
      await rename(paths.tmp, paths.record);
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

  #ensureDir(dir: string): void {
    if (this.#dirs.has(dir)) return;
    mkdirSync(dir, { recursive: true });
    this.#dirs.add(dir);
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
