import type { EngineEvent } from '../engine/types.ts';
import { assertSessionId } from './lowdb-paths.ts';
import { committedEvents, committedTranscript, deepFreeze, summaryOf, type EventBatch } from './lowdb-read.ts';
import type { SaveResult, SessionStore, SessionSummary, StoredSession, TranscriptEntry } from './session-store.ts';

// A store in process memory, for tests and `questline chat`. It keeps
// histories as appended lists and reads them with the same commit-protocol
// code as LowdbStore, so the two cannot drift apart. Records go in as JSON
// (what a persistent store would keep: undefined fields dropped) and are
// frozen, so no caller can change stored state by reference; load() hands
// out the frozen record itself, as LowdbStore does.

interface Entry {
  record: StoredSession | null;
  transcript: TranscriptEntry[];
  events: EventBatch[];
  /** Creation order, to break createdAt ties in list() (later = newer). */
  order: number;
}

const asJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** A SessionStore in memory: nothing survives the process. */
export class MemoryStore implements SessionStore {
  readonly #sessions = new Map<string, Entry>();
  #created = 0;

  #entry(id: string): Entry {
    let e = this.#sessions.get(id);
    if (!e) {
      e = { record: null, transcript: [], events: [], order: 0 };
      this.#sessions.set(id, e);
    }
    return e;
  }

  async create(record: StoredSession): Promise<{ ok: true } | { ok: false; exists: true }> {
    assertSessionId(record.id);
    const e = this.#entry(record.id);
    if (e.record) return { ok: false, exists: true };
    e.record = deepFreeze(asJson(record));
    e.order = ++this.#created;
    return { ok: true };
  }

  async load(id: string): Promise<StoredSession | null> {
    assertSessionId(id);
    return this.#sessions.get(id)?.record ?? null;
  }

  async save(record: StoredSession, expected: number): Promise<SaveResult> {
    assertSessionId(record.id);
    const e = this.#sessions.get(record.id);
    if (!e?.record) return { ok: false, conflict: true, current: -1 };
    if (e.record.version !== expected) return { ok: false, conflict: true, current: e.record.version };
    e.record = deepFreeze(asJson({ ...record, version: expected + 1 }));
    return { ok: true, version: expected + 1 };
  }

  async appendTranscript(id: string, entries: readonly TranscriptEntry[]): Promise<void> {
    assertSessionId(id);
    if (entries.length > 0) this.#entry(id).transcript.push(...asJson(entries));
  }

  async transcript(id: string, after = 0): Promise<TranscriptEntry[]> {
    assertSessionId(id);
    const e = this.#sessions.get(id);
    if (!e?.record) return [];
    return structuredClone(committedTranscript(e.transcript, e.record.seq, after));
  }

  async appendEvents(id: string, seq: number, events: readonly EngineEvent[]): Promise<void> {
    assertSessionId(id);
    this.#entry(id).events.push({ seq, events: asJson([...events]) });
  }

  async events(id: string): Promise<EngineEvent[]> {
    assertSessionId(id);
    const e = this.#sessions.get(id);
    if (!e?.record) return [];
    return structuredClone(committedEvents(e.events, e.record.seq));
  }

  async list(tenant: string, opts: { status?: StoredSession['status']; limit?: number } = {}): Promise<SessionSummary[]> {
    const rows: Array<{ record: StoredSession; order: number }> = [];
    for (const { record, order } of this.#sessions.values()) {
      if (!record || record.tenant !== tenant) continue;
      if (opts.status !== undefined && record.status !== opts.status) continue;
      rows.push({ record, order });
    }
    rows.sort((a, b) =>
      a.record.createdAt < b.record.createdAt ? 1 : a.record.createdAt > b.record.createdAt ? -1 : b.order - a.order,
    );
    return rows.slice(0, Math.max(0, opts.limit ?? Infinity)).map((r) => summaryOf(r.record));
  }

  async delete(id: string): Promise<boolean> {
    assertSessionId(id);
    const existed = Boolean(this.#sessions.get(id)?.record);
    this.#sessions.delete(id);
    return existed;
  }

  async close(): Promise<void> {}
}
