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

/** @implements {import('questline').SessionStore} */
export class MapStore {
  #sessions = new Map(); // id → { record (JSON text), transcript: [entry], events: [event], order }
  #created = 0;

  // a turn arrives whole (record, transcript lines, events): nothing is staged between calls
  async create(record, turn) {
    checkId(record.id);
    if (this.#sessions.get(record.id)) return { ok: false, exists: true };
    this.#sessions.set(record.id, {
      record: JSON.stringify(record), transcript: copy(turn.transcript), events: copy(turn.events), order: ++this.#created,
    });
    return { ok: true };
  }

  async load(id) {
    checkId(id);
    const text = this.#sessions.get(id)?.record;
    return text ? JSON.parse(text) : null;
  }

  // the version check is the whole concurrency story: one commit per version wins, and a losing one writes nothing
  async commit(record, expected, turn) {
    checkId(record.id);
    const e = this.#sessions.get(record.id);
    if (!e) return { ok: false, conflict: true, current: -1 };
    const current = JSON.parse(e.record).version;
    if (current !== expected) return { ok: false, conflict: true, current };
    e.record = JSON.stringify({ ...record, version: expected + 1 });
    e.transcript.push(...copy(turn.transcript));
    e.events.push(...copy(turn.events));
    return { ok: true, version: expected + 1 };
  }

  async transcript(id, after = 0) {
    checkId(id);
    return copy((this.#sessions.get(id)?.transcript ?? []).filter((entry) => entry.seq > after));
  }

  async events(id) {
    checkId(id);
    return copy(this.#sessions.get(id)?.events ?? []);
  }

  async list(tenant, opts = {}) {
    const rows = [...this.#sessions.values()]
      .map((e) => ({ record: JSON.parse(e.record), order: e.order }))
      .filter(({ record }) => record.tenant === tenant && (opts.status === undefined || record.status === opts.status))
      // newest first; creation order breaks ties
      .sort((a, b) => (a.record.createdAt < b.record.createdAt ? 1 : a.record.createdAt > b.record.createdAt ? -1 : b.order - a.order));
    return rows.slice(0, Math.max(0, opts.limit ?? Infinity))
      .map(({ record: r }) => ({ id: r.id, tenant: r.tenant, flowId: r.flowId, status: r.status, createdAt: r.createdAt, updatedAt: r.updatedAt }));
  }

  async delete(id) {
    checkId(id);
    const existed = this.#sessions.has(id);
    this.#sessions.delete(id);
    return existed;
  }

  async close() {}
}

if (import.meta.url === (await import('node:url')).pathToFileURL(process.argv[1] ?? '').href) {
  const store = new MapStore();
  const record = { id: 'session_0001', tenant: 'demo', flowId: 'flow.contact', version: 1, seq: 0, status: 'active', createdAt: new Date().toISOString() };
  const line = { seq: 1, at: record.createdAt, role: 'bot', text: 'Hello!' };
  console.log(JSON.stringify({ created: await store.create(record, { transcript: [], events: [] }), saved: await store.commit({ ...record, seq: 1 }, 1, { transcript: [line], events: [] }), transcript: (await store.transcript('session_0001')).length, listed: (await store.list('demo')).length }));
}
