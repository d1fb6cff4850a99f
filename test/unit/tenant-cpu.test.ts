import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TenantCpu } from '../../server/conversation/tenant-cpu.ts';
import { loadConfig } from '../../server/config.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

describe('a tenant\'s share of the event loop', () => {
  it('drains at the budget\'s rate and refuses past the burst, per tenant', () => {
    let now = 0;
    const cpu = new TenantCpu({ msPerSecond: 100, burstMs: 50 }, () => now);
    cpu.charge('a', 80);
    expect(cpu.allows('a')).toEqual({ ok: false, retryAfterMs: 300 }); // 30 ms over, drained at 100 ms/s
    expect(cpu.allows('b')).toEqual({ ok: true });
    now = 200; // 20 ms drained: 60 ms, still over
    expect(cpu.allows('a').ok).toBe(false);
    now = 300; // 30 ms drained: at the burst
    expect(cpu.allows('a')).toEqual({ ok: true });
    now = 5_000;
    cpu.charge('a', 10);
    expect(cpu.allows('a')).toEqual({ ok: true }); // the old debt is gone
    expect(new TenantCpu({ msPerSecond: 0, burstMs: 0 }, () => now).allows('a')).toEqual({ ok: true });
  });
});

describe('the budget in the service', () => {
  let server: TestServer;
  let base = '';
  beforeAll(async () => {
    // a budget any turn overdraws (1 ms a second, no burst): one tenant's first turn spends it for a while
    server = await startTestServer({ store: 'memory', env: { TENANT_CPU: '1/0' } });
    base = `${server.url}/api/v1`;
  });
  afterAll(async () => {
    await server?.dispose();
  });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('refuses the tenant that spent its share as busy (429, retryable) and serves another tenant', async () => {
    const started = await post('/tenants/acme/sessions', { flow: 'flow.sales' }, { 'X-Questline-Key': 'pk_acme_demo' });
    expect(started.status).toBe(201);
    const { sessionId, token } = await started.json() as { sessionId: string; token: string };
    const refused = await post(`/sessions/${sessionId}/messages`, { text: 'I want to buy lights', clientId: 'c1' }, { Authorization: `Bearer ${token}` });
    expect(refused.status).toBe(429);
    expect((await refused.json() as { error: { code: string } }).error.code).toBe('busy');
    const again = await post('/tenants/acme/sessions', { flow: 'flow.sales' }, { 'X-Questline-Key': 'pk_acme_demo' });
    expect(again.status).toBe(429);
    const other = await post('/tenants/northside-clinic/sessions', { flow: 'flow.patient_intake', context: { clinic_id: 'north' } }, { 'X-Questline-Key': 'pk_northside_demo' });
    expect(other.status).toBe(201);
  });

  it('TENANT_CPU is ms/burst or 0', () => {
    expect(loadConfig({ TENANT_CPU: '400/1000' }).TENANT_CPU).toEqual({ msPerSecond: 400, burstMs: 1000 });
    expect(loadConfig({ TENANT_CPU: '0' }).TENANT_CPU).toEqual({ msPerSecond: 0, burstMs: 0 });
    expect(() => loadConfig({ TENANT_CPU: 'lots' })).toThrow(/TENANT_CPU/);
  });
});
