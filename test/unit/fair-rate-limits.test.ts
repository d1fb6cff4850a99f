import { describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS, RateLimits } from '../../server/transport/rate-limits.ts';

// The tenant's shared limit, fairly: one window's flood from many addresses
// spends the tenant's budget, yet a visitor at a person's pace is still served.

describe('fair tenant limits', () => {
  it('serves a real visitor while 15 flooding addresses have spent the tenant budget (default limits)', async () => {
    const limits = new RateLimits(DEFAULT_RATE_LIMITS);
    const refusedByTenant: string[] = [];
    for (let n = 0; n < 15; n++) {
      const ip = `203.0.113.${n + 1}`;
      for (let s = 0; s < 4; s++) {
        // 4 sockets per address, 5 each: the per-IP limit (20) is the bound
        for (let m = 0; m < 5; m++) {
          const r = await limits.message({ client: `s-${ip}-${s}`, ip, tenant: 'acme' });
          if (!r.ok && r.scope === 'tenant') refusedByTenant.push(ip);
        }
      }
    }
    // 15 × 20 = 300 > 200: the flood did reach the tenant's limit
    expect(refusedByTenant.length).toBeGreaterThan(0);
    const visitor = await limits.message({ client: 'visitor-socket', ip: '198.51.100.7', tenant: 'acme' });
    expect(visitor).toEqual({ ok: true });
  });

  it('still refuses an address above its share once the tenant budget is spent', async () => {
    const limits = new RateLimits({ perTenant: { points: 10, seconds: 60 }, tenantFairShare: { points: 3, seconds: 60 }, perIp: { points: 100, seconds: 60 }, perSocket: { points: 100, seconds: 60 } });
    for (let i = 0; i < 10; i++) await limits.message({ client: 'a', ip: '203.0.113.1', tenant: 't' });
    expect(await limits.message({ client: 'a', ip: '203.0.113.1', tenant: 't' })).toMatchObject({ ok: false, scope: 'tenant' });
    // another tenant's budget is its own
    expect(await limits.message({ client: 'b', ip: '203.0.113.1', tenant: 'other' })).toEqual({ ok: true });
  });

  it('checks the per-IP limit before the tenant: a refused message does not spend the tenant budget', async () => {
    const limits = new RateLimits({ perTenant: { points: 5, seconds: 60 }, tenantFairShare: { points: 1, seconds: 60 }, perIp: { points: 2, seconds: 60 }, perSocket: { points: 100, seconds: 60 } });
    for (let i = 0; i < 10; i++) await limits.message({ client: 'a', ip: '203.0.113.1', tenant: 't' });
    // only 2 reached the tenant, so 3 are left for others even above their share
    for (let i = 0; i < 3; i++) expect(await limits.message({ client: `b${i}`, ip: `198.51.100.${i}`, tenant: 't' })).toEqual({ ok: true });
  });
});

describe('the tenant ceiling', () => {
  it('holds above the fair share: 15 addresses each under their share get no more than 2 × the tenant limit', async () => {
    // the probe's case: 15 addresses, each below its fair share of 10, through a 50/s tenant limit
    const limits = new RateLimits({ perTenant: { points: 50, seconds: 60 }, tenantFairShare: { points: 10, seconds: 60 }, perIp: { points: 100, seconds: 60 }, perSocket: { points: 100, seconds: 60 } });
    let admitted = 0;
    for (let round = 0; round < 9; round++) {
      for (let n = 0; n < 15; n++) if ((await limits.message({ client: `s${n}`, ip: `203.0.113.${n + 1}`, tenant: 't' })).ok) admitted++;
    }
    expect(admitted).toBe(100);
    // refusals do not count against the ceiling: another tenant is untouched, and a lower ceiling can be set
    expect(await limits.message({ client: 'x', ip: '198.51.100.1', tenant: 'other' })).toEqual({ ok: true });
    const strict = new RateLimits({ perTenant: { points: 50, seconds: 60 }, tenantCeiling: { points: 50, seconds: 60 }, perIp: { points: 100, seconds: 60 }, perSocket: { points: 100, seconds: 60 } });
    let n2 = 0;
    for (let i = 0; i < 135; i++) if ((await strict.message({ client: `c${i % 15}`, ip: `203.0.113.${(i % 15) + 1}`, tenant: 't' })).ok) n2++;
    expect(n2).toBe(50);
  });
});

describe('admin failures', () => {
  it('lets the right key through after the wrong ones have used up the address', async () => {
    const limits = new RateLimits({ adminFailuresPerIp: { points: 3, seconds: 60 } });
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await limits.admin('203.0.113.5', false));
    expect(results.slice(0, 3)).toEqual(Array(3).fill({ ok: false, limited: false, retryAfterMs: 0 }));
    expect(results[4]).toMatchObject({ ok: false, limited: true });
    expect(await limits.admin('203.0.113.5', true)).toEqual({ ok: true });
  });
});

describe('reads', () => {
  it('limits resumes and transcript reads per session and per address', async () => {
    const limits = new RateLimits({ readsPerSession: { points: 2, seconds: 60 }, readsPerIp: { points: 3, seconds: 60 } });
    expect(await limits.read({ ip: 'a', session: 's1' })).toEqual({ ok: true });
    expect(await limits.read({ ip: 'b', session: 's1' })).toEqual({ ok: true });
    expect(await limits.read({ ip: 'c', session: 's1' })).toMatchObject({ ok: false, scope: 'session' });
    expect(await limits.read({ ip: 'a', session: 's2' })).toEqual({ ok: true });
    expect(await limits.read({ ip: 'a', session: 's3' })).toEqual({ ok: true });
    expect(await limits.read({ ip: 'a', session: 's4' })).toMatchObject({ ok: false, scope: 'ip' });
  });
});
