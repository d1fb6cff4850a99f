import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RedisStore } from '../../server/redis/store.ts';
import { useTestRedis } from '../support/redis.ts';
import { line, sessionStoreContract, storedSession } from '../../server/api/session-store.contract.ts';

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
  it("commits only the saving server's appends: a server that lost the version race leaves no line behind", async () => {
    const prefix = `x${randomUUID().slice(0, 8)}:`;
    const a = await RedisStore.connect(redis.url, { prefix, writer: 'server-a' });
    const b = await RedisStore.connect(redis.url, { prefix, writer: 'server-b' });
    try {
      const rec = storedSession('session-race-1');
      await a.create(rec);
      // both load version 1 and run the same turn; B appends and commits first, A appends late
      await b.appendTranscript(rec.id, [line(1, 'from B')]);
      await a.appendTranscript(rec.id, [line(1, 'from A (stale)')]);
      expect(await b.save({ ...rec, seq: 1 }, 1)).toEqual({ ok: true, version: 2 });
      expect(await a.save({ ...rec, seq: 1 }, 1)).toEqual({ ok: false, conflict: true, current: 2 });
      expect((await a.transcript(rec.id)).map((e) => e.text)).toEqual(['from B']);
      // A's stale line appended after the commit does not show at the next commit either
      await a.appendTranscript(rec.id, [line(1, 'from A, later')]);
      await b.appendTranscript(rec.id, [line(2, 'B again')]);
      expect(await b.save({ ...rec, seq: 2, version: 2 }, 2)).toEqual({ ok: true, version: 3 });
      expect((await b.transcript(rec.id)).map((e) => e.text)).toEqual(['from B', 'B again']);
      expect(await redis.client().hlen(`${prefix}tp:${rec.id}`)).toBe(0);
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
      expect(await s.create(rec)).toEqual({ ok: true });
      await redis.client().script('FLUSH');
      await s.appendTranscript(rec.id, [line(1)]);
      expect(await s.save({ ...rec, seq: 1 }, 1)).toEqual({ ok: true, version: 2 });
      expect((await s.transcript(rec.id)).map((e) => e.seq)).toEqual([1]);
    } finally {
      await s.close();
    }
  });

  it('keeps everything under its prefix', async () => {
    const prefix = `y${randomUUID().slice(0, 8)}:`;
    const s = await RedisStore.connect(redis.url, { prefix });
    try {
      await s.create(storedSession('session-prefix-1'));
      await s.appendTranscript('session-prefix-1', [line(1)]);
      const keys = await redis.client().keys('*session-prefix-1*');
      expect(keys.length).toBeGreaterThan(0);
      for (const k of keys) expect(k.startsWith(prefix)).toBe(true);
    } finally {
      await s.close();
    }
  });
});
