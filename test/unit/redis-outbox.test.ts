import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DeliveryWorker } from '../../server/delivery/delivery.ts';
import { RedisOutbox, type RedisOutboxOptions } from '../../server/redis/outbox.ts';
import { completion, outboxContract } from '../../server/testing/outbox.contract.ts';
import type { StoredSession } from '../../server/store/session-store.ts';
import { useTestRedis } from '../support/redis.ts';

const redis = useTestRedis();

const T0 = Date.parse('2026-01-15T10:00:00Z');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const box = (prefix = `o${randomUUID().slice(0, 8)}:`, opts: RedisOutboxOptions = {}) => new RedisOutbox(redis.client(), { prefix, ...opts });

outboxContract('RedisOutbox', async () => {
  const prefix = `o${randomUUID().slice(0, 8)}:`;
  return { outbox: box(prefix), reopen: async () => box(prefix) };
});

describe('RedisOutbox erasure', () => {
  it('leaves nothing of an erased session in Redis', async () => {
    const prefix = `o${randomUUID().slice(0, 8)}:`;
    const b = box(prefix);
    await b.enqueue(completion('gone', { status: 'escalated' }), T0);
    await b.enqueue(completion('gone'), T0 + 1);
    await b.enqueue(completion('kept'), T0 + 2);
    await b.delivered('gone:escalated', { at: T0 + 3, attempts: 1, httpStatus: 200 });
    expect(await b.forgetSession('gone', T0 + 4)).toBe(2);
    const c = redis.client();
    const keys = await c.keys(`${prefix}*`);
    for (const k of keys) {
      const type = await c.type(k);
      const dump = type === 'hash' ? JSON.stringify(await c.hgetall(k)) : type === 'zset' ? JSON.stringify(await c.zrange(k, '0', '-1')) : String(await c.get(k));
      expect(dump, k).not.toContain('gone');
    }
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
