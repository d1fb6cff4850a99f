import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RateLimits } from '../../server/transport/rate-limits.ts';
import { redisLimiters } from '../../server/redis/rate-limits.ts';
import { useTestRedis } from '../support/redis.ts';

const redis = useTestRedis();

const settings = {
  perSocket: { points: 100, seconds: 60 }, perIp: { points: 5, seconds: 60 }, perTenant: { points: 100, seconds: 60 },
  startsPerIp: { points: 3, seconds: 60 }, connectsPerIp: { points: 100, seconds: 60 }, adminFailuresPerIp: { points: 2, seconds: 60 },
};

describe('rate limits in Redis', () => {
  it('counts an IP across two instances: 5 messages a minute in all, not 5 on each', async () => {
    const prefix = `r${randomUUID().slice(0, 8)}:`;
    const a = new RateLimits(settings, redisLimiters(redis.client(), prefix));
    const b = new RateLimits(settings, redisLimiters(redis.client(), prefix));
    const who = (client: string) => ({ client, ip: '203.0.113.9', tenant: 'acme' });
    const results = [];
    for (let i = 0; i < 6; i++) results.push(await (i % 2 ? a : b).message(who(`sock-${i % 2}`)));
    expect(results.slice(0, 5).every((r) => r.ok)).toBe(true);
    expect(results[5]).toMatchObject({ ok: false, scope: 'ip' });
    expect((results[5] as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(0);
    // another IP is not affected
    expect(await a.message({ client: 'x', ip: '198.51.100.1', tenant: 'acme' })).toEqual({ ok: true });
    expect(await redis.client().keys(`${prefix}rl:ip*`)).not.toEqual([]);
  });

  it('checks the IP and the tenant together, yet a message the IP limit refuses does not spend the tenant budget', async () => {
    const prefix = `r${randomUUID().slice(0, 8)}:`;
    const tight = { perTenant: { points: 6, seconds: 60 }, tenantFairShare: { points: 1, seconds: 60 }, perIp: { points: 3, seconds: 60 }, perSocket: { points: 100, seconds: 60 } };
    const a = new RateLimits(tight, redisLimiters(redis.client(), prefix));
    const b = new RateLimits(tight, redisLimiters(redis.client(), prefix));
    const flood = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).message({ client: 'a', ip: '203.0.113.1', tenant: 't' })));
    expect(flood.filter((r) => r.ok)).toHaveLength(3);
    expect(flood.filter((r) => !r.ok).every((r) => !r.ok && r.scope === 'ip')).toBe(true);
    // only 3 reached the tenant, so 3 are left, even for an address above its share
    for (let i = 0; i < 3; i++) expect(await a.message({ client: 'b', ip: '198.51.100.1', tenant: 't' })).toEqual({ ok: true });
    // now the budget is spent: an address within its share is still served, one above it is refused
    expect(await b.message({ client: 'c', ip: '198.51.100.2', tenant: 't' })).toEqual({ ok: true });
    expect(await b.message({ client: 'c', ip: '198.51.100.2', tenant: 't' })).toMatchObject({ ok: false, scope: 'tenant' });
  });

  it('shares new-session and admin-failure limits, and keeps the per-socket limit per instance', async () => {
    const prefix = `r${randomUUID().slice(0, 8)}:`;
    const a = new RateLimits({ ...settings, perSocket: { points: 1, seconds: 60 } }, redisLimiters(redis.client(), prefix));
    const b = new RateLimits({ ...settings, perSocket: { points: 1, seconds: 60 } }, redisLimiters(redis.client(), prefix));
    expect([await a.start('ip1'), await b.start('ip1'), await a.start('ip1')].every((r) => r.ok)).toBe(true);
    expect(await b.start('ip1')).toMatchObject({ ok: false });
    await a.adminFailed('ip2');
    expect(await b.adminBlocked('ip2')).toEqual({ ok: true });
    await b.adminFailed('ip2');
    expect(await a.adminBlocked('ip2')).toMatchObject({ ok: false, scope: 'admin' });
    // a socket id is local to its instance: the same id on the other instance has its own allowance
    expect(await a.message({ client: 's', ip: 'ip3', tenant: 't' })).toEqual({ ok: true });
    expect(await b.message({ client: 's', ip: 'ip3', tenant: 't' })).toEqual({ ok: true });
    expect(await a.message({ client: 's', ip: 'ip3', tenant: 't' })).toMatchObject({ ok: false, scope: 'client' });
  });
});
