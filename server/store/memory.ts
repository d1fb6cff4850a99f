import type { EngineEvent } from '../engine/types.ts';
import { deepFreeze } from '../shared/deep-freeze.ts';
import { jsonCopy } from './json-copy.ts';
import { assertSessionId } from './session-id.ts';
import { summaryOf, type SaveResult, type SessionStore, type SessionSummary, type StoredSession, type TranscriptEntry, type TurnWrites } from './session-store.ts';

// A store in process memory, for tests and `questline chat`. A turn is
// saved in one synchronous step (version check, record, histories), so a
// commit that loses the version check leaves nothing behind. A created
// record goes in as JSON (what a persistent store would keep: undefined
// fields dropped; the caller keeps its object). A committed record's values
// are handed over (SessionStore.commit) and kept frozen as they are, not
// copied through JSON — as LowdbStore does; a JSON round trip of every save
// made this store no cheaper per turn than the file store. Either way no
// caller can change stored state by reference; load() hands out the frozen
// record itself. A turn's transcript entries and events are copied (small),
// as JSON would copy them but without the text in between (json-copy.ts).

interface Entry {
  record: StoredSession;
  transcript: TranscriptEntry[];
  events: EngineEvent[];
  /** Creation order, to break createdAt ties in list() (later = newer). */
  order: number;
}

/** A SessionStore in memory: nothing survives the process. */
export class MemoryStore implements SessionStore {
  readonly #sessions = new Map<string, Entry>();
  #created = 0;

  async create(record: StoredSession, turn: TurnWrites): Promise<{ ok: true } | { ok: false; exists: true }> {
    assertSessionId(record.id);
    if (this.#sessions.has(record.id)) return { ok: false, exists: true };
    this.#sessions.set(record.id, {
      record: deepFreeze(jsonCopy(record)),
      transcript: [...jsonCopy(turn.transcript)],
      events: [...jsonCopy(turn.events)],
      order: ++this.#created,
    });
    return { ok: true };
  }

  async load(id: string): Promise<StoredSession | null> {
    assertSessionId(id);
    return this.#sessions.get(id)?.record ?? null;
  }

  async commit(record: StoredSession, expected: number, turn: TurnWrites): Promise<SaveResult> {
    assertSessionId(record.id);
    const e = this.#sessions.get(record.id);
    if (!e) return { ok: false, conflict: true, current: -1 };
    if (e.record.version !== expected) return { ok: false, conflict: true, current: e.record.version };
    e.record = deepFreeze({ ...record, version: expected + 1 });
    if (turn.transcript.length > 0) e.transcript.push(...jsonCopy(turn.transcript));
    if (turn.events.length > 0) e.events.push(...jsonCopy(turn.events));
    return { ok: true, version: expected + 1 };
  }

  async transcript(id: string, after = 0): Promise<TranscriptEntry[]> {
    assertSessionId(id);
    const entries = this.#sessions.get(id)?.transcript ?? [];
    return structuredClone(after > 0 ? entries.filter((t) => t.seq > after) : entries);
  }

  async events(id: string): Promise<EngineEvent[]> {
    assertSessionId(id);
    return structuredClone(this.#sessions.get(id)?.events ?? []);
  }

  async list(tenant: string, opts: { status?: StoredSession['status']; limit?: number } = {}): Promise<SessionSummary[]> {
    const rows: Entry[] = [];
    for (const e of this.#sessions.values()) {
      if (e.record.tenant !== tenant) continue;
      if (opts.status !== undefined && e.record.status !== opts.status) continue;
      rows.push(e);
    }
    rows.sort((a, b) =>
      a.record.createdAt < b.record.createdAt ? 1 : a.record.createdAt > b.record.createdAt ? -1 : b.order - a.order,
    );
    return rows.slice(0, Math.max(0, opts.limit ?? Infinity)).map((r) => summaryOf(r.record));
  }

  async delete(id: string): Promise<boolean> {
    assertSessionId(id);
    return this.#sessions.delete(id);
  }

  async close(): Promise<void> {}
}
