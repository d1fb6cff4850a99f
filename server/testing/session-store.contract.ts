import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { start } from '../engine/engine.ts';
import { sessionToJson } from '../engine/session.ts';
import type { EngineEvent } from '../engine/types.ts';
import type { CompiledFlow } from '../flow/compiled-flow.ts';
import { compileText } from '../flow/document.ts';
import type { SessionStore, StoredSession, TranscriptEntry, TurnWrites } from '../store/session-store.ts';

// One suite, every SessionStore: each implementation's test file calls
// sessionStoreContract with a factory for a fresh, empty store.

/** A turn that adds nothing to the histories. */
export const NO_TURN: TurnWrites = { transcript: [], events: [] };

/** What a contract test gets: a fresh store, and optionally a way to reopen it on the same data. */
export interface StoreHarness {
  store: SessionStore;
  /** Closes `store` and returns a new instance over the same data (persistent stores only). */
  reopen?: () => Promise<SessionStore>;
  /** Closes whatever is open and removes the data. */
  cleanup?: () => Promise<void>;
}

const NOW = '2026-01-15T10:00:00Z';

let flow: CompiledFlow | undefined;

/** A two-node flow, compiled once. */
function tinyFlow(): CompiledFlow {
  if (flow) return flow;
  const doc = {
    version: 'v1',
    id: 'flow.store',
    nodes: [
      { id: 'q.name', type: 'question', key: 'name', prompt: 'Your name?' },
      { id: 'n.end', type: 'terminal' },
    ],
  };
  const r = compileText(JSON.stringify(doc), 'store.flow.json');
  if (r.kind !== 'flow' || !r.flow) throw new Error(`fixture flow does not compile: ${JSON.stringify(r.diagnostics)}`);
  return (flow = r.flow);
}

/** A valid stored session: the engine's started session plus the server's fields. */
export function storedSession(id: string, over: Partial<StoredSession> = {}): StoredSession {
  const f = tinyFlow();
  const session = sessionToJson(start(f, { id, now: NOW, context: { locale: 'en' } }).session);
  return {
    id,
    tenant: 'acme',
    flowId: f.id,
    revision: f.revision,
    tokenHash: 'a'.repeat(64),
    version: 1,
    seq: 0,
    processed: [],
    status: session.status,
    createdAt: NOW,
    updatedAt: NOW,
    session,
    ...over,
  };
}

/** A bot transcript line. */
export const line = (seq: number, text = `line ${seq}`, extra: Partial<TranscriptEntry> = {}): TranscriptEntry => ({
  seq,
  at: NOW,
  role: 'bot',
  text,
  nodeId: 'q.name',
  kind: 'question',
  ...extra,
});

/** An engine event. */
export const event = (type: EngineEvent['type'], turn: number, extra: Record<string, unknown> = {}): EngineEvent => ({
  type,
  turn,
  node: 'q.name',
  ...extra,
});

/** Ids no store may accept: path tricks, separators, bad lengths, odd characters. */
export const HOSTILE_IDS = [
  '',
  'short',
  '../../../etc/passwd',
  '..',
  'abc/def/ghi',
  'abc\\defghi',
  'x'.repeat(65),
  'has spaces in it',
  'nul\0byte-id',
  'ééééééééé',
  'session.json',
];

/** Registers the SessionStore contract tests for one implementation. */
export function sessionStoreContract(name: string, makeStore: () => Promise<StoreHarness>): void {
  describe(`SessionStore contract: ${name}`, () => {
    let h: StoreHarness;
    let store: SessionStore;
    /** Unique per test, so stores backed by a shared server do not see each other's data. */
    let p: string;
    const id = (n: number | string) => `${p}_${n}`;
    const tenant = (t: string) => `${t}-${p}`;

    beforeEach(async () => {
      h = await makeStore();
      store = h.store;
      p = randomUUID().replace(/-/g, '').slice(0, 12);
    });
    afterEach(async () => {
      await (h.cleanup ? h.cleanup() : store.close());
    });

    /** Commits a turn with its transcript entries and events, as the service does. */
    async function turn(rec: StoredSession, entries: TranscriptEntry[], events: EngineEvent[] = []): Promise<StoredSession> {
      const seq = Math.max(rec.seq, ...entries.map((e) => e.seq));
      const r = await store.commit({ ...rec, seq }, rec.version, { transcript: entries, events });
      if (!r.ok) throw new Error(`commit conflicted at ${r.current}`);
      return { ...rec, seq, version: r.version };
    }

    it('loads what was created, deeply equal and not shared with the caller', async () => {
      const rec = storedSession(id(1));
      expect(await store.create(rec, NO_TURN)).toEqual({ ok: true });
      const loaded = await store.load(rec.id);
      expect(loaded).toStrictEqual(rec);
      expect(loaded).not.toBe(rec);
      expect(loaded!.session).not.toBe(rec.session);
      rec.session.context.locale = 'changed by caller';
      // a store may hand out a frozen shared record: then a reader's change throws instead
      const frozenOrCopy = (change: () => unknown) => {
        try {
          change();
        } catch (e) {
          expect(e).toBeInstanceOf(TypeError);
        }
      };
      frozenOrCopy(() => (loaded!.session.context.locale = 'changed by reader'));
      frozenOrCopy(() => loaded!.processed.push({ clientId: 'c1', seq: 1 }));
      const again = await store.load(rec.id);
      expect(again!.session.context.locale).toBe('en');
      expect(again!.processed).toEqual([]);
    });

    it('refuses to create an id twice and keeps the first record', async () => {
      const rec = storedSession(id(1));
      await store.create(rec, NO_TURN);
      expect(await store.create(storedSession(id(1), { tenant: 'other', version: 7 }), NO_TURN)).toEqual({ ok: false, exists: true });
      expect(await store.load(rec.id)).toStrictEqual(rec);
    });

    it('commits with the current version: returns version + 1 and stores the new data', async () => {
      const rec = storedSession(id(1));
      await store.create(rec, NO_TURN);
      const next = { ...rec, status: 'completed' as const, updatedAt: '2026-01-15T10:05:00Z', processed: [{ clientId: 'c1', seq: 2 }] };
      expect(await store.commit(next, 1, NO_TURN)).toEqual({ ok: true, version: 2 });
      expect(await store.load(rec.id)).toStrictEqual({ ...next, version: 2 });
      expect(await store.commit({ ...next, seq: 3 }, 2, NO_TURN)).toEqual({ ok: true, version: 3 });
      expect((await store.load(rec.id))!.seq).toBe(3);
    });

    it('refuses a commit with a stale version, reports the current one and writes nothing', async () => {
      const rec = storedSession(id(1));
      await store.create(rec, NO_TURN);
      await store.commit({ ...rec, seq: 1 }, 1, NO_TURN);
      expect(await store.commit({ ...rec, status: 'abandoned', seq: 9 }, 1, NO_TURN)).toEqual({ ok: false, conflict: true, current: 2 });
      expect(await store.commit({ ...rec, status: 'abandoned', seq: 9 }, 5, NO_TURN)).toEqual({ ok: false, conflict: true, current: 2 });
      const stored = await store.load(rec.id);
      expect(stored).toStrictEqual({ ...rec, seq: 1, version: 2 });
    });

    it('lets exactly one of concurrent commits with the same expected version win', async () => {
      const rec = storedSession(id(1));
      await store.create(rec, NO_TURN);
      const results = await Promise.all(
        [1, 2, 3, 4, 5].map((n) => store.commit({ ...rec, updatedAt: `2026-01-15T10:0${n}:00Z`, seq: n }, 1, NO_TURN)),
      );
      const won = results.flatMap((r, i) => (r.ok ? [i + 1] : []));
      expect(won).toHaveLength(1);
      expect(results.filter((r) => !r.ok)).toEqual(Array(4).fill({ ok: false, conflict: true, current: 2 }));
      const stored = await store.load(rec.id);
      expect(stored!.version).toBe(2);
      expect(stored!.seq).toBe(won[0]);
    });

    it('treats a commit to a session that was never created as a conflict (current -1)', async () => {
      expect(await store.commit(storedSession(id('never')), 1, NO_TURN)).toEqual({ ok: false, conflict: true, current: -1 });
      expect(await store.load(id('never'))).toBeNull();
    });

    it('keeps stored state apart from the objects passed to commit', async () => {
      const rec = storedSession(id(1));
      await store.create(rec, NO_TURN);
      const next = { ...rec, seq: 1, session: structuredClone(rec.session) };
      const entry = line(1, 'hello', { quickReplies: ['a', 'b'] });
      const ev = event('node_enter', 0);
      await store.commit(next, 1, { transcript: [entry], events: [ev] });
      // what commit was given is the store's now: it either copied it, or keeps it frozen (a change throws)
      try {
        next.session.context.locale = 'mutated';
      } catch (e) {
        expect(e).toBeInstanceOf(TypeError);
      }
      entry.quickReplies!.push('c');
      ev.node = 'mutated';
      expect((await store.load(rec.id))!.session.context.locale).toBe('en');
      const read = await store.transcript(rec.id);
      expect(read[0]!.quickReplies).toEqual(['a', 'b']);
      read[0]!.text = 'mutated';
      expect((await store.transcript(rec.id))[0]!.text).toBe('hello');
      expect((await store.events(rec.id))[0]!.node).toBe('q.name');
    });

    it('reads the committed transcript in seq order, after a given seq', async () => {
      let rec = storedSession(id(1));
      await store.create(rec, NO_TURN);
      rec = await turn(rec, [line(1, 'Your name?')]);
      rec = await turn(rec, [line(2, 'Ada', { role: 'user', kind: 'user', clientId: 'c1' }), line(3, 'Thanks, Ada.', { kind: 'done' })]);
      const all = await store.transcript(rec.id);
      expect(all.map((e) => e.seq)).toEqual([1, 2, 3]);
      expect(all[1]).toStrictEqual(line(2, 'Ada', { role: 'user', kind: 'user', clientId: 'c1' }));
      expect((await store.transcript(rec.id, 1)).map((e) => e.text)).toEqual(['Ada', 'Thanks, Ada.']);
      expect(await store.transcript(rec.id, 3)).toEqual([]);
    });

    it('creates a session with its first turn: the record, transcript and events at once', async () => {
      const rec = storedSession(id(1), { seq: 1 });
      expect(await store.create(rec, { transcript: [line(1, 'Your name?')], events: [event('node_enter', 0)] })).toEqual({ ok: true });
      expect((await store.transcript(rec.id)).map((e) => e.text)).toEqual(['Your name?']);
      expect(await store.events(rec.id)).toEqual([event('node_enter', 0)]);
    });

    it('writes nothing of a create that finds the id taken: neither record nor transcript nor events', async () => {
      const rec = storedSession(id(1), { seq: 1 });
      await store.create(rec, { transcript: [line(1, 'first')], events: [event('node_enter', 0)] });
      const again = storedSession(id(1), { seq: 2, tenant: 'other' });
      expect(await store.create(again, { transcript: [line(1, 'second'), line(2, 'second')], events: [event('completed', 9)] })).toEqual({ ok: false, exists: true });
      expect(await store.load(rec.id)).toStrictEqual(rec);
      expect((await store.transcript(rec.id)).map((e) => e.text)).toEqual(['first']);
      expect(await store.events(rec.id)).toEqual([event('node_enter', 0)]);
    });

    it('shows nothing of a turn whose commit fails its version check, neither its transcript nor its events', async () => {
      let rec = storedSession(id(1));
      await store.create(rec, NO_TURN);
      rec = await turn(rec, [line(1, 'Your name?')], [event('node_enter', 0)]);
      const stale = { transcript: [line(2, 'Ada (stale)'), line(3, 'reply (stale)')], events: [event('answer_set', 1, { key: 'name', stale: true })] };
      expect(await store.commit({ ...rec, seq: 3 }, rec.version - 1, stale)).toEqual({ ok: false, conflict: true, current: rec.version });
      expect((await store.transcript(rec.id)).map((e) => e.text)).toEqual(['Your name?']);
      expect(await store.events(rec.id)).toEqual([event('node_enter', 0)]);
      // the winning turn of the same seqs reads alone, also after a reopen
      rec = await turn(rec, [line(2, 'Ada'), line(3, 'Thanks, Ada.')], [event('answer_set', 1, { key: 'name' })]);
      if (h.reopen) store = await h.reopen();
      expect((await store.transcript(rec.id)).map((e) => e.text)).toEqual(['Your name?', 'Ada', 'Thanks, Ada.']);
      expect(await store.events(rec.id)).toEqual([event('node_enter', 0), event('answer_set', 1, { key: 'name' })]);
    });

    it('lets only the winner of concurrent commits add its turn to the histories', async () => {
      const rec = storedSession(id(1));
      await store.create(rec, NO_TURN);
      const results = await Promise.all(
        [1, 2, 3, 4].map((n) => store.commit({ ...rec, seq: 1 }, 1, { transcript: [line(1, `from ${n}`)], events: [event('node_enter', n)] })),
      );
      const winner = results.findIndex((r) => r.ok) + 1;
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect((await store.transcript(rec.id)).map((e) => e.text)).toEqual([`from ${winner}`]);
      expect(await store.events(rec.id)).toEqual([event('node_enter', winner)]);
    });

    it('reads only committed events, in seq order', async () => {
      let rec = storedSession(id(1));
      await store.create(rec, NO_TURN);
      rec = await turn(rec, [line(1)], [event('node_enter', 0), event('guard', 0, { result: true })]);
      rec = await turn(rec, [line(2), line(3)], [event('answer_set', 1, { key: 'name' }), event('completed', 1)]);
      expect((await store.events(rec.id)).map((e) => e.type)).toEqual(['node_enter', 'guard', 'answer_set', 'completed']);
      expect((await store.events(rec.id))[2]).toStrictEqual(event('answer_set', 1, { key: 'name' }));
      rec = await turn(rec, [line(4)], [event('node_enter', 2)]);
      expect((await store.events(rec.id)).map((e) => e.type)).toEqual(['node_enter', 'guard', 'answer_set', 'completed', 'node_enter']);
    });

    it("lists only the tenant's sessions, newest first, with their current status", async () => {
      const acme = tenant('acme');
      await store.create(storedSession(id('b'), { tenant: acme, createdAt: '2026-01-15T10:02:00Z' }), NO_TURN);
      await store.create(storedSession(id('c'), { tenant: acme, createdAt: '2026-01-15T10:03:00Z', flowId: 'flow.other' }), NO_TURN);
      await store.create(storedSession(id('a'), { tenant: acme, createdAt: '2026-01-15T10:01:00Z' }), NO_TURN);
      await store.create(storedSession(id('z'), { tenant: tenant('globex'), createdAt: '2026-01-15T10:09:00Z' }), NO_TURN);
      const b = (await store.load(id('b')))!;
      await store.commit({ ...b, status: 'completed', updatedAt: '2026-01-15T10:08:00Z' }, b.version, NO_TURN);
      expect(await store.list(acme)).toEqual([
        { id: id('c'), tenant: acme, flowId: 'flow.other', status: 'active', createdAt: '2026-01-15T10:03:00Z', updatedAt: NOW },
        { id: id('b'), tenant: acme, flowId: 'flow.store', status: 'completed', createdAt: '2026-01-15T10:02:00Z', updatedAt: '2026-01-15T10:08:00Z' },
        { id: id('a'), tenant: acme, flowId: 'flow.store', status: 'active', createdAt: '2026-01-15T10:01:00Z', updatedAt: NOW },
      ]);
      expect((await store.list(tenant('globex'))).map((s) => s.id)).toEqual([id('z')]);
    });

    it('filters the listing by status and limits it', async () => {
      const acme = tenant('acme');
      for (let n = 1; n <= 5; n++) {
        const status = n % 2 === 0 ? 'escalated' : 'active';
        await store.create(storedSession(id(n), { tenant: acme, status, createdAt: `2026-01-15T10:0${n}:00Z` }), NO_TURN);
      }
      expect((await store.list(acme, { status: 'escalated' })).map((s) => s.id)).toEqual([id(4), id(2)]);
      expect((await store.list(acme, { status: 'active', limit: 2 })).map((s) => s.id)).toEqual([id(5), id(3)]);
      expect((await store.list(acme, { limit: 3 })).map((s) => s.id)).toEqual([id(5), id(4), id(3)]);
      expect(await store.list(acme, { status: 'completed' })).toEqual([]);
    });

    it('answers null and empty lists for unknown sessions and tenants', async () => {
      expect(await store.load(id('unknown'))).toBeNull();
      expect(await store.transcript(id('unknown'))).toEqual([]);
      expect(await store.events(id('unknown'))).toEqual([]);
      expect(await store.list(tenant('nobody'))).toEqual([]);
    });

    it('refuses hostile session ids in every method', async () => {
      for (const bad of HOSTILE_IDS) {
        const rec = storedSession(bad);
        await expect(store.create(rec, NO_TURN), bad).rejects.toThrow(/session id/);
        await expect(store.load(bad), bad).rejects.toThrow(/session id/);
        await expect(store.commit(rec, 1, NO_TURN), bad).rejects.toThrow(/session id/);
        await expect(store.transcript(bad), bad).rejects.toThrow(/session id/);
        await expect(store.events(bad), bad).rejects.toThrow(/session id/);
      }
      expect(await store.list('acme')).toEqual([]);
    });

    it('deletes a session with its transcript and events, and says whether it existed', async () => {
      const acme = tenant('acme');
      let rec = storedSession(id(1), { tenant: acme });
      const other = storedSession(id(2), { tenant: acme });
      await store.create(rec, NO_TURN);
      await store.create(other, NO_TURN);
      rec = await turn(rec, [line(1, 'secret answer')], [event('answer_set', 1, { key: 'name' })]);
      expect(await store.delete(rec.id)).toBe(true);
      expect(await store.load(rec.id)).toBeNull();
      expect(await store.transcript(rec.id)).toEqual([]);
      expect(await store.events(rec.id)).toEqual([]);
      expect((await store.list(acme)).map((s) => s.id)).toEqual([other.id]);
      expect(await store.delete(rec.id)).toBe(false);
      expect(await store.delete(id('never'))).toBe(false);
      expect(await store.load(other.id)).toStrictEqual(other);
      // the id can be used again and starts from an empty history
      expect(await store.create(storedSession(rec.id, { tenant: acme }), NO_TURN)).toEqual({ ok: true });
      expect(await store.transcript(rec.id)).toEqual([]);
      await expect(store.delete('../../etc/passwd')).rejects.toThrow(/session id/);
    });

    it('keeps a deleted session deleted across close and reopen', async (ctx) => {
      if (!h.reopen) return ctx.skip();
      let rec = storedSession(id(1));
      await store.create(rec, NO_TURN);
      rec = await turn(rec, [line(1)], [event('node_enter', 0)]);
      expect(await store.delete(rec.id)).toBe(true);
      store = await h.reopen();
      expect(await store.load(rec.id)).toBeNull();
      expect(await store.transcript(rec.id)).toEqual([]);
      expect(await store.events(rec.id)).toEqual([]);
    });

    it('round-trips a 1 MB transcript entry', async () => {
      let rec = storedSession(id(1));
      await store.create(rec, NO_TURN);
      const big = 'ü€ line\n"quoted"\t'.repeat(2 ** 20 / 16).slice(0, 2 ** 20);
      rec = await turn(rec, [line(1, big, { role: 'user', kind: 'user' }), line(2, 'after')]);
      const read = await store.transcript(rec.id);
      expect(read).toHaveLength(2);
      expect(read[0]!.text.length).toBe(2 ** 20);
      expect(read[0]!.text === big).toBe(true);
      expect(read[1]!.text).toBe('after');
    });

    it('says it is ready (ready() resolves) while it takes writes, and leaves no trace of the check', async () => {
      if (!store.ready) return;
      await store.ready();
      await store.ready();
      expect(await store.list(tenant('acme'))).toEqual([]);
    });

    it('commits the deliveries a record names with it, all or nothing, and keeps them across later commits and reopen', async () => {
      // the ending and its webhook delivery are one durable step: the record that ends a session names the outbox entry
      let rec = storedSession(id(1), { deliveries: [] });
      await store.create(rec, NO_TURN);
      const ended = { ...rec, status: 'completed' as const, seq: 1, deliveries: [`${rec.id}:completed`] };
      expect(await store.commit({ ...ended, deliveries: ['stale'] }, 7, NO_TURN)).toEqual({ ok: false, conflict: true, current: 1 });
      expect((await store.load(rec.id))!.deliveries).toEqual([]);
      expect(await store.commit(ended, 1, { transcript: [line(1)], events: [] })).toEqual({ ok: true, version: 2 });
      rec = { ...ended, version: 2 };
      expect(await store.load(rec.id)).toStrictEqual(rec);
      const restarted = { ...rec, status: 'active' as const, seq: 2, deliveries: [...rec.deliveries!] };
      expect(await store.commit(restarted, 2, { transcript: [line(2)], events: [] })).toEqual({ ok: true, version: 3 });
      if (h.reopen) store = await h.reopen();
      expect(await store.load(rec.id)).toStrictEqual({ ...restarted, version: 3 });
    });

    it('keeps records, transcripts, events and listings across close and reopen', async (ctx) => {
      if (!h.reopen) return ctx.skip();
      const acme = tenant('acme');
      let rec = storedSession(id(1), { tenant: acme });
      await store.create(rec, NO_TURN);
      rec = await turn(rec, [line(1), line(2)], [event('node_enter', 0)]);
      store = await h.reopen();
      expect(await store.load(rec.id)).toStrictEqual(rec);
      expect((await store.transcript(rec.id)).map((e) => e.seq)).toEqual([1, 2]);
      expect(await store.events(rec.id)).toEqual([event('node_enter', 0)]);
      expect((await store.list(acme)).map((s) => s.id)).toEqual([rec.id]);
      expect(await store.create(storedSession(rec.id), NO_TURN)).toEqual({ ok: false, exists: true });
      expect(await store.commit(rec, 1, NO_TURN)).toEqual({ ok: false, conflict: true, current: rec.version });
      expect(await store.commit({ ...rec, seq: 3 }, rec.version, { transcript: [line(3, 'after reopen')], events: [] })).toEqual({ ok: true, version: rec.version + 1 });
      expect((await store.transcript(rec.id)).map((e) => e.text)).toEqual(['line 1', 'line 2', 'after reopen']);
    });
  });
}
