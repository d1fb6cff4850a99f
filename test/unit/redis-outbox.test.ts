import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DeliveryWorker } from '../../server/delivery/delivery.ts';
import { RedisOutbox, type RedisOutboxOptions } from '../../server/redis/outbox.ts';
import type { Completion } from '../../server/delivery/completion.ts';
import type { StoredSession } from '../../server/store/session-store.ts';
import { useTestRedis } from '../support/redis.ts';

const redis = useTestRedis();

const T0 = Date.parse('2026-01-15T10:00:00Z');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function completion(sessionId = 's1', over: Partial<Completion> = {}): Completion {
  return {
    sessionId, tenant: 'acme', flowId: 'flow.sales', revision: 'rev1', status: 'completed', version: 2,
    answers: { email: `${sessionId}@acme.example`, tags: [], nested: {} }, provenance: {}, at: '2026-01-15T10:00:00.000Z', ...over,
  };
}

const box = (prefix = `o${randomUUID().slice(0, 8)}:`, opts: RedisOutboxOptions = {}) => new RedisOutbox(redis.client(), { prefix, ...opts });

describe('RedisOutbox (the outbox contract of test/unit/delivery-outbox.test.ts)', () => {
  it('enqueues an ending as pending and due now, with id session:status, and keeps the completion byte for byte', async () => {
    const b = box();
    const { entry, created } = await b.enqueue(completion(), T0);
    expect(created).toBe(true);
    expect(entry).toMatchObject({ id: 's1:completed', sessionId: 's1', tenant: 'acme', status: 'completed', version: 2, state: 'pending', attempts: 0, enqueuedAt: T0, nextAt: T0 });
    expect(entry.completion).toStrictEqual(completion());
  });

  it('treats the same ending enqueued twice as one, and keeps escalation and completion apart', async () => {
    const b = box();
    await b.enqueue(completion(), T0);
    const again = await b.enqueue(completion(), T0 + 5);
    expect(again.created).toBe(false);
    expect(again.entry.enqueuedAt).toBe(T0);
    await b.enqueue(completion('s1', { status: 'escalated' }), T0 + 6);
    expect((await b.list()).map((e) => e.id)).toEqual(['s1:completed', 's1:escalated']);
  });

  it('forgets every entry of an erased session (its answers leave Redis) and leaves the others', async () => {
    const prefix = `o${randomUUID().slice(0, 8)}:`;
    const b = box(prefix);
    await b.enqueue(completion('gone', { status: 'escalated' }), T0);
    await b.enqueue(completion('gone'), T0 + 1);
    await b.enqueue(completion('kept'), T0 + 2);
    await b.delivered('gone:escalated', { at: T0 + 3, attempts: 1, httpStatus: 200 });
    expect(await b.forgetSession('gone', T0 + 4)).toBe(2);
    expect((await b.list()).map((e) => e.id)).toEqual(['kept:completed']);
    expect((await b.pending()).map((e) => e.id)).toEqual(['kept:completed']);
    const c = redis.client();
    const keys = await c.keys(`${prefix}*`);
    for (const k of keys) {
      const type = await c.type(k);
      const dump = type === 'hash' ? JSON.stringify(await c.hgetall(k)) : type === 'zset' ? JSON.stringify(await c.zrange(k, '0', '-1')) : String(await c.get(k));
      expect(dump, k).not.toContain('gone');
    }
    expect(await b.forgetSession('gone', T0 + 5)).toBe(0);
  });

  it('orders pending entries by when they are due, then by enqueue order', async () => {
    const b = box(undefined, { now: () => T0 });
    for (const s of ['a', 'b', 'c']) await b.enqueue(completion(s), T0);
    await b.attempted('a:completed', { at: T0, attempts: 1, nextAt: T0 + 1_000, error: 'HTTP 500', httpStatus: 500 });
    expect((await b.pending()).map((e) => e.id)).toEqual(['b:completed', 'c:completed', 'a:completed']);
    expect(await b.get('a:completed')).toMatchObject({ attempts: 1, lastError: 'HTTP 500', lastHttpStatus: 500, nextAt: T0 + 1_000 });
  });

  it('forgets the answers of a delivered entry, keeps a dead one, and refuses transitions of finished entries', async () => {
    const b = box();
    await b.enqueue(completion(), T0);
    await b.delivered('s1:completed', { at: T0 + 10, attempts: 1, httpStatus: 200 });
    expect(await b.pending()).toEqual([]);
    expect(await b.get('s1:completed')).toMatchObject({ state: 'delivered', finishedAt: T0 + 10, completion: null });
    expect((await b.enqueue(completion(), T0 + 20)).created).toBe(false);
    await b.enqueue(completion('s2'), T0);
    await b.dead('s2:completed', { at: T0 + 10, attempts: 12, reason: 'max_attempts', error: 'HTTP 500' });
    expect(await b.list({ state: 'dead' })).toEqual([expect.objectContaining({ id: 's2:completed', deadReason: 'max_attempts', completion: completion('s2') })]);
    await expect(b.attempted('s2:completed', { at: T0, attempts: 13, nextAt: T0, error: 'x' })).rejects.toThrow(/already dead/);
  });

  it('lets the same ending replace one dropped as never committed; a later ending of a restarted session gets its own id', async () => {
    const b = box();
    await b.enqueue(completion(), T0);
    await b.dead('s1:completed', { at: T0 + 10, attempts: 0, reason: 'uncommitted', error: 'never committed' });
    const again = await b.enqueue(completion(), T0 + 20);
    expect(again).toMatchObject({ created: true, entry: { id: 's1:completed', state: 'pending', enqueuedAt: T0 + 20 } });
    await b.delivered('s1:completed', { at: T0, attempts: 1 });
    expect((await b.enqueue(completion('s1', { version: 7 }), T0 + 1)).entry.id).toBe('s1:completed:7');
    expect((await b.enqueue(completion('s1', { version: 7 }), T0 + 2)).created).toBe(false);
    expect((await b.enqueue(completion('s1', { version: 1 }), T0 + 3)).created).toBe(false);
  });
});

describe('RedisOutbox leases', () => {
  it('hands a due entry to one instance; the other sees it due only when the lease ends', async () => {
    const prefix = `o${randomUUID().slice(0, 8)}:`;
    let now = T0;
    const a = box(prefix, { instance: 'a', leaseMs: 60_000, now: () => now });
    const b = box(prefix, { instance: 'b', leaseMs: 60_000, now: () => now });
    await a.enqueue(completion(), T0);
    expect((await a.pending()).map((e) => [e.id, e.nextAt])).toEqual([['s1:completed', T0]]);
    expect((await b.pending()).map((e) => [e.id, e.nextAt])).toEqual([['s1:completed', T0 + 60_000]]);
    // b cannot record an outcome while a holds the lease
    await expect(b.delivered('s1:completed', { at: now, attempts: 1 })).rejects.toThrow(/another instance/);
    // a crashed: after the lease b takes over and delivers
    now = T0 + 60_001;
    expect((await b.pending()).map((e) => [e.id, e.nextAt])).toEqual([['s1:completed', T0]]);
    await b.delivered('s1:completed', { at: now, attempts: 1 });
    await expect(a.delivered('s1:completed', { at: now, attempts: 1 })).rejects.toThrow(/already delivered/);
    expect(await a.get('s1:completed')).toMatchObject({ state: 'delivered' });
  });

  it('two workers on two instances deliver every ending exactly once to a real receiver', async () => {
    const prefix = `o${randomUUID().slice(0, 8)}:`;
    const received: string[] = [];
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received.push(String(req.headers['x-questline-delivery']));
        setTimeout(() => res.end('ok'), 5);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const store = { load: async (id: string) => ({ id, version: 99 }) as unknown as StoredSession };
    const workers = ['a', 'b'].map((instance) => new DeliveryWorker({
      outbox: box(prefix, { instance }), store, webhookFor: () => ({ url, secret: 's3cret' }), log: () => {}, pollMs: 20, concurrency: 4,
    }));
    try {
      const enq = box(prefix, { instance: 'enqueuer' });
      for (let i = 0; i < 40; i++) await enq.enqueue(completion(`sess-${i}`), Date.now());
      for (const w of workers) w.start();
      const deadline = Date.now() + 10_000;
      while ((await enq.list({ state: 'delivered' })).length < 40 && Date.now() < deadline) await sleep(25);
      await sleep(200); // a double delivery would show up here
      expect(received).toHaveLength(40);
      expect(new Set(received).size).toBe(40);
      expect((await enq.list({ state: 'pending' }))).toEqual([]);
    } finally {
      for (const w of workers) await w.stop();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

describe('RedisOutbox retention', () => {
  it('forgets delivered entries after keepDeliveredMs, listing included', async () => {
    const prefix = `o${randomUUID().slice(0, 8)}:`;
    const b = box(prefix, { keepDeliveredMs: 1_000 });
    await b.enqueue(completion('old'), T0);
    await b.delivered('old:completed', { at: T0, attempts: 1 });
    await b.enqueue(completion('new'), T0 + 5_000);
    await b.delivered('new:completed', { at: T0 + 5_000, attempts: 1 });
    // the second delivery dropped the first one's listing entry; its hash expires on its own in Redis
    expect(await redis.client().zrangebyscore(`${prefix}ob:all`, '-inf', '+inf')).toEqual(['new:completed']);
    expect(await redis.client().pttl(`${prefix}ob:e:new:completed`)).toBeGreaterThan(0);
    await sleep(1_100);
    expect(await b.get('old:completed')).toBeUndefined();
    expect((await b.list()).map((e) => e.id)).toEqual([]);
  });
});
