// A SessionStore of your own: here every session in a Map, kept as JSON text
// so no caller can change stored state by reference. Check yours with the
// contract suite every built-in store passes, in your vitest project:
//
//   import { sessionStoreContract } from 'questline/testing';
//   import { MapStore } from './custom-store.mjs';
//   sessionStoreContract('MapStore', async () => ({ store: new MapStore() }));
//
// and run Questline on it:
//
//   import { createEmbeddedBackend, createQuestline, MemoryOutbox } from 'questline/server';
//   const backend = await createEmbeddedBackend({ store: new MapStore(), outbox: new MemoryOutbox() });
//   const questline = await createQuestline({ flowsDir: 'flows', backend });
//
// Run: node examples/custom-store.mjs   (a smoke run of the store on its own)

/** Ids every store accepts: safe as file names and keys alike. */
const ID = /^[A-Za-z0-9_-]{8,64}$/;
const checkId = (id) => {
  if (typeof id !== 'string' || !ID.test(id)) throw Object.assign(new Error(`invalid session id ${JSON.stringify(String(id).slice(0, 80))}`), { code: 'invalid_session_id' });
};
const copy = (value) => JSON.parse(JSON.stringify(value));

/** Lines with seq ≤ the committed seq (and > after), the last write of each seq, in seq order. */
function committed(lines, seq, after = 0) {
  const bySeq = new Map();
  for (const line of lines) if (line.seq > after && line.seq <= seq) bySeq.set(line.seq, line.value);
  return [...bySeq.keys()].sort((a, b) => a - b).map((s) => bySeq.get(s));
}

/** @implements {import('questline').SessionStore} */
export class MapStore {
  #sessions = new Map(); // id → { record (JSON text), transcript: [{ seq, value }], events: [{ seq, value }], order }
  #created = 0;

  #entry(id) {
    let e = this.#sessions.get(id);
    if (!e) this.#sessions.set(id, (e = { record: null, transcript: [], events: [], order: 0 }));
    return e;
  }

  async create(record) {
    checkId(record.id);
    const e = this.#entry(record.id);
    if (e.record) return { ok: false, exists: true };
    e.record = JSON.stringify(record);
    e.order = ++this.#created;
    return { ok: true };
  }

  async load(id) {
    checkId(id);
    const text = this.#sessions.get(id)?.record;
    return text ? JSON.parse(text) : null;
  }

  // the version check is the whole concurrency story: one save per version wins
  async save(record, expected) {
    checkId(record.id);
    const e = this.#sessions.get(record.id);
    if (!e?.record) return { ok: false, conflict: true, current: -1 };
    const current = JSON.parse(e.record).version;
    if (current !== expected) return { ok: false, conflict: true, current };
    e.record = JSON.stringify({ ...record, version: expected + 1 });
    return { ok: true, version: expected + 1 };
  }

  // appended lines become visible once a save commits their seq (a crash in between loses nothing acknowledged)
  async appendTranscript(id, entries) {
    checkId(id);
    for (const entry of entries) this.#entry(id).transcript.push({ seq: entry.seq, value: copy(entry) });
  }

  async transcript(id, after = 0) {
    checkId(id);
    const e = this.#sessions.get(id);
    return e?.record ? copy(committed(e.transcript, JSON.parse(e.record).seq, after)) : [];
  }

  async appendEvents(id, seq, events) {
    checkId(id);
    this.#entry(id).events.push({ seq, value: copy(events) });
  }

  async events(id) {
    checkId(id);
    const e = this.#sessions.get(id);
    return e?.record ? copy(committed(e.events, JSON.parse(e.record).seq).flat()) : [];
  }

  async list(tenant, opts = {}) {
    const rows = [...this.#sessions.values()]
      .filter((e) => e.record)
      .map((e) => ({ record: JSON.parse(e.record), order: e.order }))
      .filter(({ record }) => record.tenant === tenant && (opts.status === undefined || record.status === opts.status))
      // newest first; creation order breaks ties
      .sort((a, b) => (a.record.createdAt < b.record.createdAt ? 1 : a.record.createdAt > b.record.createdAt ? -1 : b.order - a.order));
    return rows.slice(0, Math.max(0, opts.limit ?? Infinity))
      .map(({ record: r }) => ({ id: r.id, tenant: r.tenant, flowId: r.flowId, status: r.status, createdAt: r.createdAt, updatedAt: r.updatedAt }));
  }

  async delete(id) {
    checkId(id);
    const existed = Boolean(this.#sessions.get(id)?.record);
    this.#sessions.delete(id);
    return existed;
  }

  async close() {}
}

if (import.meta.url === (await import('node:url')).pathToFileURL(process.argv[1] ?? '').href) {
  const store = new MapStore();
  const record = { id: 'session_0001', tenant: 'demo', flowId: 'flow.contact', version: 1, seq: 0, status: 'active', createdAt: new Date().toISOString() };
  console.log(JSON.stringify({ created: await store.create(record), saved: await store.save({ ...record, seq: 1 }, 1), listed: (await store.list('demo')).length }));
}
