import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TenantDirectory } from '../../server/catalog/tenants.ts';
import { createQuestline, type Questline } from '../../server/questline.ts';
import { RELAXED_LIMITS, REPO_FLOWS } from '../support/server.ts';

// Start-up serves before the flows compile (npm start: TenantDirectory.open,
// then compileInBackground): a tenant's flow still loading answers a retryable
// 503 saying so, a broken one says why, and each is served once compiled.

let dir = '';
let catalog: TenantDirectory;
let questline: Questline;
let http: Server;
let base = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'questline-loading-'));
  cpSync(REPO_FLOWS, dir, { recursive: true });
  // a tenant whose flow has an error (a guard on an answer key no question asks)
  writeFileSync(join(dir, 'global', 'broken.flow.json'), JSON.stringify({ version: 'v1', id: 'flow.broken', entry: 'q.a',
    nodes: [{ id: 'q.a', type: 'question', key: 'a', prompt: 'A?' }, { id: 'n.end', type: 'terminal' }],
    edges: [{ from: 'q.a', to: 'n.end', guard: 'answers.nope == 1' }, { from: 'q.a', to: 'n.end', guard: 'else' }] }));
  mkdirSync(join(dir, 'tenants', 'broken'));
  writeFileSync(join(dir, 'tenants', 'broken', 'tenant.json'), JSON.stringify({ id: 'broken', name: 'Broken', keys: ['pk_broken_123'], origins: [], flows: ['flow.broken'] }));
  catalog = TenantDirectory.open(dir);
  questline = await createQuestline({ catalog, rateLimits: RELAXED_LIMITS, logger: (await import('../../server/observability/logger.ts')).createLogger('silent') });
  http = createServer(questline.handler);
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}/api/v1`;
});

afterAll(async () => {
  await questline?.close();
  await new Promise((r) => http?.close(r));
  rmSync(dir, { recursive: true, force: true });
});

const start = (tenant: string, key: string, flow: string) => fetch(`${base}/tenants/${tenant}/sessions`, {
  method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Questline-Key': key }, body: JSON.stringify({ flow }),
});

describe('flows compiled after the server serves', () => {
  it('answers a flow still loading with a retryable 503 that says so, then serves it once compiled', async () => {
    expect(catalog.loading()).toBeGreaterThan(0);
    const early = await start('acme', 'pk_acme_demo', 'flow.sales');
    expect(early.status).toBe(503);
    expect((await early.json() as { error: { code: string; message: string } }).error).toMatchObject({ code: 'flow_unavailable', message: expect.stringContaining('still loading') });
    const info = await fetch(`${base}/tenants/acme/flows/flow.sales`, { headers: { 'X-Questline-Key': 'pk_acme_demo' } });
    expect(info.status).toBe(503);
    expect(info.headers.get('retry-after')).toBe('1');

    const done: string[] = [];
    await catalog.compileInBackground((tenant, flow, served) => done.push(`${tenant}/${flow}:${served}`));
    expect(catalog.loading()).toBe(0);
    expect(done).toContain('acme/flow.sales:true');
    expect(done).toContain('broken/flow.broken:false');
    const late = await start('acme', 'pk_acme_demo', 'flow.sales');
    expect(late.status).toBe(201);
  });

  it('marks a flow that does not compile unavailable with its reason, not as loading', async () => {
    const res = await start('broken', 'pk_broken_123', 'flow.broken');
    expect(res.status).toBe(503);
    expect((await res.json() as { error: { message: string } }).error.message).toContain('does not compile');
    expect(catalog.unavailable('broken', 'flow.broken')).toMatchObject({ loading: false });
    expect(catalog.problems.join('\n')).toContain('flow.broken');
    const list = await (await fetch(`${base}/tenants/broken/flows`, { headers: { 'X-Questline-Key': 'pk_broken_123' } })).json() as { flows: Array<{ available: boolean; reason?: string }> };
    expect(list.flows[0]).toMatchObject({ available: false, reason: expect.stringContaining('does not compile') });
  });
});
