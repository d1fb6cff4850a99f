import { describe, expect, it } from 'vitest';
import { createRedisBackend } from '../../server/redis/index.ts';
import { RedisTurnLock } from '../../server/redis/lock.ts';
import { RedisOutbox } from '../../server/redis/outbox.ts';
import { RedisStore } from '../../server/redis/store.ts';
import { useTestRedis } from '../support/redis.ts';

const redis = useTestRedis();

describe('Redis backend', () => {
  it('builds every shared piece on one connection under one prefix, and close() quits that connection', async () => {
    const backend = await createRedisBackend({ url: redis.url, prefix: 'rb1:' });
    expect(backend.kind).toBe('redis');
    expect(backend.store).toBeInstanceOf(RedisStore);
    expect(backend.lock).toBeInstanceOf(RedisTurnLock);
    expect(backend.outbox).toBeInstanceOf(RedisOutbox);
    expect(backend.attachSockets).toBeTypeOf('function');
    const store = backend.store as RedisStore;
    expect(store.prefix).toBe('rb1:');
    // the limiters count in the same Redis, under the same prefix
    await backend.limiters!({ points: 5, seconds: 60 }, 'ip').consume('203.0.113.7');
    const probe = redis.client();
    expect(await probe.keys('rb1:rl:ip*')).toHaveLength(1);
    // the turn lock takes its key there too, while the task runs
    const held = await backend.lock.run('s-1', async () => probe.keys('rb1:*'));
    expect(held.some((k) => k.includes('s-1'))).toBe(true);
    await backend.close();
    // quit() is acknowledged before the socket finishes closing
    await new Promise<void>((done) => (store.client.status === 'end' ? done() : store.client.once('end', () => done())));
    expect(store.client.status).toBe('end');
  });

  it('rejects when Redis does not answer, leaving nothing open', async () => {
    await expect(createRedisBackend({ url: 'redis://127.0.0.1:1' })).rejects.toThrow();
  });
});
