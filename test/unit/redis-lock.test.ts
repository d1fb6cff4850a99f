import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LockTimeoutError, RedisTurnLock } from '../../server/redis/lock.ts';
import { sampleActions } from '../../examples/sample-actions.ts';
import { ConversationService } from '../../server/conversation/service.ts';
import { TenantDirectory } from '../../server/catalog/tenants.ts';
import { RedisStore } from '../../server/redis/store.ts';
import type { Extractor } from '../../server/extract/extractor.ts';
import { OfflineExtractor } from '../../server/extract/offline/index.ts';
import { useTestRedis } from '../support/redis.ts';

const redis = useTestRedis();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('RedisTurnLock', () => {
  it('lets one task of a key run at a time across two lock instances (two servers)', async () => {
    const prefix = `l${randomUUID().slice(0, 8)}:`;
    const a = new RedisTurnLock(redis.client(), { prefix });
    const b = new RedisTurnLock(redis.client(), { prefix });
    let active = 0;
    let most = 0;
    const order: number[] = [];
    const task = (n: number) => async () => {
      active++;
      most = Math.max(most, active);
      await sleep(5);
      order.push(n);
      active--;
      return n;
    };
    const results = await Promise.all(Array.from({ length: 20 }, (_, n) => (n % 2 ? a : b).run('session-1', task(n))));
    expect(results).toEqual(Array.from({ length: 20 }, (_, n) => n));
    expect(most).toBe(1);
    expect(order).toHaveLength(20);
    expect(a.stats.contended + b.stats.contended).toBeGreaterThan(0);
    // other keys do not wait
    let parallel = 0;
    let peak = 0;
    await Promise.all(['k1', 'k2', 'k3'].map((k) => a.run(k, async () => { parallel++; peak = Math.max(peak, parallel); await sleep(20); parallel--; })));
    expect(peak).toBe(3);
  });

  it('renews a held lock past its TTL, releases it afterwards, and a waiter then gets it', async () => {
    const prefix = `l${randomUUID().slice(0, 8)}:`;
    // the task outlasts the TTL several times over, so only renewals keep the lock; the TTL leaves room for a busy
    // machine's event loop (a renewal every 400 ms; a stall of more than 1.2 s would lose it)
    const a = new RedisTurnLock(redis.client(), { prefix, ttlMs: 1200 });
    const b = new RedisTurnLock(redis.client(), { prefix, ttlMs: 1200 });
    const log: string[] = [];
    const first = a.run('s', async () => { log.push('a in'); await sleep(3000); log.push('a out'); });
    await sleep(20);
    const second = b.run('s', async () => { log.push('b in'); });
    await Promise.all([first, second]);
    expect(log).toEqual(['a in', 'a out', 'b in']);
    expect(a.stats.lost).toBe(0);
    expect(await redis.client().exists(`${prefix}lock:s`)).toBe(0);
  });

  it('reports a lock lost while its task ran, and a waiter gives up after waitMs with a busy error', async () => {
    const prefix = `l${randomUUID().slice(0, 8)}:`;
    const lost: string[] = [];
    const a = new RedisTurnLock(redis.client(), { prefix, ttlMs: 1200, onLost: (k) => lost.push(k) });
    const b = new RedisTurnLock(redis.client(), { prefix, waitMs: 100 });
    const held = a.run('s', async () => {
      await sleep(30);
      await expect(b.run('s', async () => 'never')).rejects.toBeInstanceOf(LockTimeoutError);
      await redis.client().set(`${prefix}lock:s`, 'someone else');
      // the next renewal (every 400 ms) finds the key taken; a busy machine may be late, so wait for it, not a fixed time
      for (let waited = 0; lost.length === 0 && waited < 5000; waited += 20) await sleep(20);
    });
    await held;
    expect(lost).toEqual(['s']);
    // the release did not delete the other holder's key
    expect(await redis.client().get(`${prefix}lock:s`)).toBe('someone else');
    await expect(b.run('s', async () => 1)).rejects.toMatchObject({ code: 'busy' });
  });
});

describe('RedisTurnLock with a store to prime', () => {
  it("reads the session's record with the lock: the turn's load gets it without asking Redis, once", async () => {
    const prefix = `p${randomUUID().slice(0, 8)}:`;
    const client = redis.client();
    const store = new RedisStore(client, { prefix });
    const lock = new RedisTurnLock(client, { prefix, prime: store });
    const id = 'primed-session-1';
    const record = {
      id, tenant: 'acme', flowId: 'f', revision: 'r', tokenHash: 'h', version: 1, seq: 0, processed: [], status: 'active' as const,
      createdAt: '2026-11-27T00:00:00.000Z', updatedAt: '2026-11-27T00:00:00.000Z', session: {} as never,
    };
    expect(await store.create(record, { transcript: [], events: [] })).toEqual({ ok: true });
    const seen = await lock.run(id, async () => {
      // changed behind the store's back after the lock was taken: the primed copy is what the turn loads first
      await redis.client().hset(`${prefix}s:${id}`, 'rec', JSON.stringify({ ...record, version: 99 }));
      const first = await store.load(id);
      const second = await store.load(id);
      return [first?.version, second?.version];
    });
    expect(seen).toEqual([1, 99]);
    // a session that does not exist is primed as none; a record left unloaded is forgotten with the lock
    expect(await lock.run('primed-missing', () => store.load('primed-missing'))).toBeNull();
    await lock.run(id, async () => undefined);
    await redis.client().hset(`${prefix}s:${id}`, 'rec', JSON.stringify({ ...record, version: 7 }));
    expect((await store.load(id))?.version).toBe(7);
    // an id no store accepts still takes the lock (the load then refuses it, as without priming)
    expect(await lock.run('bad id!', async () => 'ran')).toBe('ran');
    expect(await redis.client().keys(`${prefix}lock:*`)).toEqual([]);
  });
});

describe('two conversation services on one Redis', () => {
  const tenants = TenantDirectory.load('flows');

  function server(prefix: string, writer: string) {
    const client = redis.client();
    const store = new RedisStore(client, { prefix });
    // as createRedisBackend builds them: the lock reads the record for the store in its acquire script
    return new ConversationService({ store, tenants, actions: sampleActions, lock: new RedisTurnLock(client, { prefix, prime: store }) });
  }

  it('serializes concurrent turns of one session sent to both: contiguous seqs, no conflict, nothing lost', async () => {
    const prefix = `c${randomUUID().slice(0, 8)}:`;
    const a = server(prefix, 'a');
    const b = server(prefix, 'b');
    const s = await a.startSession({ tenant: 'acme', flow: 'flow.sales' });
    if (!s.ok) throw new Error(s.error.message);
    const id = s.value.sessionId;
    // in any order these keep the session active (an ended session refuses messages: session_ended)
    const texts = ['Buy new LED lighting', 'back', 'restart', 'back', 'Buy new LED lighting', 'restart', 'back', 'restart'];
    const results = await Promise.all(texts.map((t, i) => (i % 2 ? a : b).message(id, t, `c-${i}`)));
    for (const r of results) expect(r.ok, JSON.stringify(r)).toBe(true);
    const store = new RedisStore(redis.client(), { prefix });
    const transcript = await store.transcript(id);
    expect(transcript.map((e) => e.seq)).toEqual(transcript.map((_, i) => i + 1));
    const users = transcript.filter((e) => e.role === 'user');
    expect(users.map((e) => e.clientId).sort()).toEqual(texts.map((_, i) => `c-${i}`).sort());
    const rec = await store.load(id);
    expect(rec!.version).toBe(1 + texts.length);
  });

  it('runs a message id once even when it reaches both servers at the same time', async () => {
    const prefix = `d${randomUUID().slice(0, 8)}:`;
    const a = server(prefix, 'a');
    const b = server(prefix, 'b');
    const s = await a.startSession({ tenant: 'acme', flow: 'flow.sales' });
    if (!s.ok) throw new Error(s.error.message);
    const id = s.value.sessionId;
    const [ra, rb] = await Promise.all([a.message(id, 'We want to buy LED lights', 'same'), b.message(id, 'We want to buy LED lights', 'same')]);
    if (!ra.ok || !rb.ok) throw new Error('a turn failed');
    expect([ra.value.duplicate, rb.value.duplicate].sort()).toEqual([false, true]);
    expect(ra.value.messages).toEqual(rb.value.messages);
    const transcript = await new RedisStore(redis.client(), { prefix }).transcript(id);
    expect(transcript.filter((e) => e.clientId === 'same')).toHaveLength(1);
  });

  it('fences a turn whose lock expired: the late turn fails with conflict and leaves nothing; its retry runs once', async () => {
    const prefix = `f${randomUUID().slice(0, 8)}:`;
    const offline = new OfflineExtractor();
    let stall: (() => Promise<void>) | undefined;
    const slow: Extractor = {
      name: 'offline',
      async extract(req) {
        const s = stall;
        stall = undefined;
        await s?.();
        return offline.extract(req);
      },
    };
    const mk = (writer: string, extractor?: Extractor) => {
      const client = redis.client();
      const store = new RedisStore(client, { prefix });
      return new ConversationService({
        store, tenants, actions: sampleActions,
        lock: new RedisTurnLock(client, { prefix, prime: store }), ...(extractor ? { extractorFor: () => extractor } : {}),
      });
    };
    const a = mk('a', slow);
    const b = mk('b');
    const s = await b.startSession({ tenant: 'acme', flow: 'flow.sales' });
    if (!s.ok) throw new Error(s.error.message);
    const id = s.value.sessionId;
    let fromB: Awaited<ReturnType<typeof b.message>> | undefined;
    // A's turn stalls past its lock (a pause longer than the TTL): the lock is gone and B runs a whole turn meanwhile
    stall = async () => {
      await redis.client().del(`${prefix}lock:${id}`);
      fromB = await b.message(id, 'We want to buy LED lights for a tennis court', 'from-b');
    };
    const fromA = await a.message(id, 'Something else entirely', 'from-a');
    expect(fromB).toMatchObject({ ok: true, value: { duplicate: false } });
    expect(fromA).toMatchObject({ ok: false, error: { code: 'conflict' } });
    const store = new RedisStore(redis.client(), { prefix });
    const after = await store.transcript(id);
    expect(after.map((e) => e.seq)).toEqual(after.map((_, i) => i + 1));
    expect(after.filter((e) => e.role === 'user').map((e) => e.clientId)).toEqual(['from-b']);
    expect(after.some((e) => e.clientId === 'from-a')).toBe(false);
    // the client retries A's message: it runs now, once
    const retry = await a.message(id, 'Something else entirely', 'from-a');
    expect(retry).toMatchObject({ ok: true, value: { duplicate: false } });
    expect((await a.message(id, 'Something else entirely', 'from-a'))).toMatchObject({ ok: true, value: { duplicate: true } });
    const final = await store.transcript(id);
    expect(final.filter((e) => e.role === 'user').map((e) => e.clientId)).toEqual(['from-b', 'from-a']);
    expect(final.map((e) => e.seq)).toEqual(final.map((_, i) => i + 1));
  });
});
