import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sampleActions } from '../../examples/sample-actions.ts';
import { TenantDirectory } from '../../server/catalog/tenants.ts';
import { ConversationService } from '../../server/conversation/service.ts';
import { TenantCpu } from '../../server/conversation/tenant-cpu.ts';
import { createRedisBackend } from '../../server/redis/index.ts';
import { funnelOf } from '../../server/store/funnel-report.ts';
import { rebuildCounts } from '../../server/store/funnel-rebuild.ts';
import { useTestRedis } from '../support/redis.ts';
import { ACME_SALES_SCRIPT } from '../support/scripts.ts';
import { must } from '../support/service.ts';

// The funnel's counters in Redis, shared by two server instances: the turns
// of one session alternate between them, each adds its turn's changes to the
// same hashes, and the totals are exact; a rebuild from the sessions in Redis
// agrees; a third backend opened later (a restart) reads the same counts.

const redis = useTestRedis();
const dir = mkdtempSync(join(tmpdir(), 'ql-funnel-redis-'));
cpSync('flows', dir, { recursive: true });
const tenantFile = join(dir, 'tenants', 'acme', 'tenant.json');
const acme = JSON.parse(readFileSync(tenantFile, 'utf8'));
writeFileSync(tenantFile, JSON.stringify({ ...acme, settings: { ...acme.settings, inactivity_s: 60 } }));
const tenants = TenantDirectory.load(dir);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('funnel counts in Redis', () => {
  it('add up across two instances, survive a reconnect, and a rebuild agrees', async () => {
    let t = Date.parse('2026-03-02T09:00:00Z');
    const env = { now: () => new Date(t).toISOString(), sleep: async () => {}, clock: () => 0 };
    const a = await createRedisBackend({ url: redis.url, prefix: 'fc1:' });
    const b = await createRedisBackend({ url: redis.url, prefix: 'fc1:' });
    const svc = [a, b].map((x) => new ConversationService({ store: x.store, lock: x.lock, counts: x.counts!, tenants, actions: sampleActions, tenantCpu: new TenantCpu({ msPerSecond: 0, burstMs: 0 }), // thousands of turns in a loop: no per-tenant CPU budget
    env }));
    for (let i = 0; i < 12; i++) {
      const s = must(await svc[i % 2]!.startSession({ tenant: 'acme', flow: 'flow.sales' }));
      const script = i % 3 === 0 ? ACME_SALES_SCRIPT : i % 3 === 1 ? ACME_SALES_SCRIPT.slice(0, 1) : [ACME_SALES_SCRIPT[0], 'huge', 'lots', 'zillions', 'Talk to a human'];
      for (const [k, text] of script.entries()) {
        t += 5_000;
        must(await svc[(i + k) % 2]!.message(s.sessionId, text, `${i}-${k}`));
      }
    }
    t += 3_600_000;
    expect((await svc[1]!.sweep()).length).toBe(8); // the idle ones ended and the escalated ones closed, by the other instance
    await a.close();
    await b.close();

    const c = await createRedisBackend({ url: redis.url, prefix: 'fc1:' });
    const f = funnelOf(await c.counts!.read('acme', 'flow.sales'), {}, []);
    expect(f).toMatchObject({ sessions: 12, completed: 4, escalated: 4, abandoned: 4, median_completion_s: 60 });
    expect(f.nodes.find((n) => n.id === 'q.court_size')).toMatchObject({ reached: 12, dropped: 4, escalated: 4, reasked: 4 });
    const r = await rebuildCounts(c.store, tenants.ids(), c.counts!, { check: true });
    expect(r.sessions).toBe(12);
    expect(r.differences).toEqual([]);
    await c.close();
  });
});
