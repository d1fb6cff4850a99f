import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RedisStore } from '../../server/redis/store.ts';
import { useTestRedis } from '../support/redis.ts';
import { event, line, NO_TURN, sessionStoreContract, storedSession } from '../../server/testing/session-store.contract.ts';

const redis = useTestRedis();

/** Each harness gets its own key prefix on the shared test Redis. */
sessionStoreContract('RedisStore', async () => {
  const prefix = `t${randomUUID().slice(0, 8)}:`;
  let current = await RedisStore.connect(redis.url, { prefix });
  return {
    store: current,
    reopen: async () => {
      await current.close();
      current = await RedisStore.connect(redis.url, { prefix });
      return current;
    },
    cleanup: async () => {
      await current.close();
    },
  };
});

describe('RedisStore across servers', () => {
  it('commits only the turn of the server that won the version race: the loser leaves no line behind', async () => {
    const prefix = `x${randomUUID().slice(0, 8)}:`;
    const a = await RedisStore.connect(redis.url, { prefix });
    const b = await RedisStore.connect(redis.url, { prefix });
    try {
      const rec = storedSession('session-race-1');
      await a.create(rec, NO_TURN);
      // both load version 1 and run the same turn; B commits first
      expect(await b.commit({ ...rec, seq: 1 }, 1, { transcript: [line(1, 'from B')], events: [event('node_enter', 1)] })).toEqual({ ok: true, version: 2 });
      expect(await a.commit({ ...rec, seq: 1 }, 1, { transcript: [line(1, 'from A (stale)')], events: [event('node_enter', 9)] })).toEqual({ ok: false, conflict: true, current: 2 });
      expect((await a.transcript(rec.id)).map((e) => e.text)).toEqual(['from B']);
      expect(await a.events(rec.id)).toEqual([event('node_enter', 1)]);
      expect(await b.commit({ ...rec, seq: 2, version: 2 }, 2, { transcript: [line(2, 'B again')], events: [] })).toEqual({ ok: true, version: 3 });
      expect((await b.transcript(rec.id)).map((e) => e.text)).toEqual(['from B', 'B again']);
      expect(await redis.client().keys(`${prefix}tp:*`)).toEqual([]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('keeps working when Redis forgot its scripts (a restart or SCRIPT FLUSH)', async () => {
    const prefix = `z${randomUUID().slice(0, 8)}:`;
    const s = await RedisStore.connect(redis.url, { prefix });
    try {
      const rec = storedSession('session-flush-1');
      expect(await s.create(rec, NO_TURN)).toEqual({ ok: true });
      await redis.client().script('FLUSH');
      expect(await s.commit({ ...rec, seq: 1 }, 1, { transcript: [line(1)], events: [] })).toEqual({ ok: true, version: 2 });
      expect((await s.transcript(rec.id)).map((e) => e.seq)).toEqual([1]);
    } finally {
      await s.close();
    }
  });

  it('keeps everything under its prefix', async () => {
    const prefix = `y${randomUUID().slice(0, 8)}:`;
    const s = await RedisStore.connect(redis.url, { prefix });
    try {
      await s.create(storedSession('session-prefix-1', { seq: 1 }), { transcript: [line(1)], events: [event('node_enter', 0)] });
      const keys = await redis.client().keys('*session-prefix-1*');
      expect(keys.length).toBeGreaterThan(0);
      for (const k of keys) expect(k.startsWith(prefix)).toBe(true);
    } finally {
      await s.close();
    }
  });
});
