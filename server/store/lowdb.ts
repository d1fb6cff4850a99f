import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { TextFile } from 'lowdb/node';
import type { EngineEvent } from '../engine/types.ts';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.ts';
import { JsonlAppender, readJsonl } from './lowdb-jsonl.ts';
import { LruCache } from './lowdb-lru.ts';
import { KeyedMutex } from './lowdb-mutex.ts';
import { assertSessionId, SESSION_ID_PATTERN, sessionPaths, tenantIndexPath } from './lowdb-paths.ts';
import { committedEvents, committedTranscript, summaryOf, type EventBatch, type IndexEntry } from './lowdb-read.ts';
import type { SaveResult, SessionStore, SessionSummary, StoredSession, TranscriptEntry } from './session-store.ts';

// The embedded default store. On disk, under DATA_DIR:
//
//   .lock                                     pid of the owning process
//   sessions/<shard>/<id>.json                the record, rewritten atomically by each save
//   sessions/<shard>/<id>.transcript.jsonl    transcript entries, appended
//   sessions/<shard>/<id>.events.jsonl        { seq, events } batches, appended
//   tenants/<slug>-<hash>.jsonl               { id, flowId, createdAt } per created session, appended
//
// A save rewrites one small file (through lowdb's TextFile adapter: steno's
// temp file + rename), so a turn costs the same with ten sessions stored or
// a million; histories grow by appends and are never rewritten. This process
// is the only writer (the .lock), so the record cache is never stale.

/** Options of LowdbStore. */
export interface LowdbStoreOptions {
  /** How many session records to keep parsed in memory (LRU); default 10,000. */
  cacheSize?: number;
}

/** A session store in a data directory owned by this process: one file per session plus append-only histories. */
export class LowdbStore implements SessionStore {
  readonly dataDir: string;
  #state: 'new' | 'opening' | 'open' | 'closed' = 'new';
  #lock: DataDirLock | null = null;
  readonly #cache: LruCache<string, StoredSession>;
  readonly #mutex = new KeyedMutex();
  readonly #appender = new JsonlAppender();
  readonly #dirs = new Set<string>();

  constructor(dataDir: string, opts: LowdbStoreOptions = {}) {
    this.dataDir = resolve(dataDir);
    this.#cache = new LruCache(opts.cacheSize ?? 10_000);
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
    const paths = sessionPaths(this.dataDir, id);
    const text = JSON.stringify(record);
    return this.#mutex.run(id, async () => {
      if (await this.#current(id)) return { ok: false, exists: true } as const;
      // index first: a crash before the record is written leaves an index line
      // that list() skips, never a session that list() cannot find
      const index = tenantIndexPath(this.dataDir, record.tenant);
      const entry: IndexEntry = { id, flowId: record.flowId, createdAt: record.createdAt };
      await this.#mutex.run(`\0tenant:${index}`, () => this.#appender.append(index, [entry]));
      await this.#writeRecord(id, paths.dir, paths.record, text);
      return { ok: true } as const;
    });
  }

  async load(id: string): Promise<StoredSession | null> {
    this.#assertOpen();
    assertSessionId(id);
    const hit = this.#cache.get(id);
    const record = hit ?? (await this.#mutex.run(id, () => this.#current(id)));
    return record ? structuredClone(record) : null;
  }

  async save(record: StoredSession, expected: number): Promise<SaveResult> {
    this.#assertOpen();
    const id = record.id;
    const paths = sessionPaths(this.dataDir, id);
    return this.#mutex.run(id, async (): Promise<SaveResult> => {
      const current = await this.#current(id);
      if (!current) return { ok: false, conflict: true, current: -1 };
      if (current.version !== expected) return { ok: false, conflict: true, current: current.version };
      const version = expected + 1;
      await this.#writeRecord(id, paths.dir, paths.record, JSON.stringify({ ...record, version }));
      return { ok: true, version };
    });
  }

  async appendTranscript(id: string, entries: readonly TranscriptEntry[]): Promise<void> {
    this.#assertOpen();
    const paths = sessionPaths(this.dataDir, id);
    if (entries.length === 0) return;
    await this.#mutex.run(id, async () => {
      await this.#ensureDir(paths.dir);
      await this.#appender.append(paths.transcript, entries);
    });
  }

  async transcript(id: string, after = 0): Promise<TranscriptEntry[]> {
    this.#assertOpen();
    const paths = sessionPaths(this.dataDir, id);
    const record = await this.#committed(id);
    if (!record) return [];
    return committedTranscript(await readJsonl(paths.transcript), record.seq, after);
  }

  async appendEvents(id: string, seq: number, events: readonly EngineEvent[]): Promise<void> {
    this.#assertOpen();
    const paths = sessionPaths(this.dataDir, id);
    const batch: EventBatch = { seq, events: [...events] };
    await this.#mutex.run(id, async () => {
      await this.#ensureDir(paths.dir);
      await this.#appender.append(paths.events, [batch]);
    });
  }

  async events(id: string): Promise<EngineEvent[]> {
    this.#assertOpen();
    const paths = sessionPaths(this.dataDir, id);
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

  /** Waits for pending writes, then releases the data directory's lock; idempotent. */
  async close(): Promise<void> {
    if (this.#state === 'closed' || this.#state === 'new') {
      this.#state = 'closed';
      return;
    }
    this.#state = 'closed';
    await this.#mutex.idle();
    this.#cache.clear();
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
    const record = await this.#readRecord(id);
    if (record) this.#cache.set(id, record);
    return record;
  }

  /** The record the readers go by: cached, or read under the mutex so no save is half-seen. */
  async #committed(id: string): Promise<StoredSession | null> {
    return this.#cache.get(id) ?? (await this.#mutex.run(id, () => this.#current(id)));
  }

  async #readRecord(id: string): Promise<StoredSession | null> {
    const file = sessionPaths(this.dataDir, id).record;
    const text = await new TextFile(file).read();
    if (text === null) return null;
    try {
      return JSON.parse(text) as StoredSession;
    } catch (e) {
      throw new Error(`session file ${file} is not valid JSON: ${(e as Error).message}`);
    }
  }

  /** Writes the record file atomically, then caches what was written; forgets the cache entry if the write fails. */
  async #writeRecord(id: string, dir: string, file: string, text: string): Promise<void> {
    await this.#ensureDir(dir);
    try {
      await new TextFile(file).write(text);
    } catch (e) {
      this.#cache.delete(id);
      throw e;
    }
    this.#cache.set(id, JSON.parse(text) as StoredSession);
  }

  async #ensureDir(dir: string): Promise<void> {
    if (this.#dirs.has(dir)) return;
    await mkdir(dir, { recursive: true });
    this.#dirs.add(dir);
  }
}
