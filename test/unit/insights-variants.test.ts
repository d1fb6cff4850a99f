import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sampleActions } from '../../examples/sample-actions.ts';
import { Tenant } from '../../server/catalog/tenant.ts';
import { DirectoryArchive } from '../../server/catalog/registry.ts';
import { TenantDirectory } from '../../server/catalog/tenants.ts';
import { ConversationService } from '../../server/conversation/service.ts';
import { TenantCpu } from '../../server/conversation/tenant-cpu.ts';
import { MemoryFunnelCounts } from '../../server/store/funnel-counts.ts';
import { funnelOf, revisionsOf } from '../../server/store/funnel-report.ts';
import { MemoryStore } from '../../server/store/memory.ts';
import { ACME_SALES_SCRIPT } from '../support/scripts.ts';
import { must } from '../support/service.ts';

// Variants: Acme's sales flow served as two revisions side by side — the
// current one and an earlier one (tenant.json `variants`) — to new sessions,
// sticky per visitor; the funnel counts each revision apart.

const root = mkdtempSync(join(tmpdir(), 'ql-variants-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const archive = new DirectoryArchive(join(root, 'revisions'));

// revision A: the flows as shipped (archived when loaded)
const before = TenantDirectory.load('flows', archive);
const revisionA = before.flow('acme', 'flow.sales')!.revision;
// revision B: the same flow with another title, current; Acme serves A to 30 % of its visitors
const flows = join(root, 'flows');
cpSync('flows', flows, { recursive: true });
const salesFile = join(flows, 'global', 'sales.flow.json');
writeFileSync(salesFile, readFileSync(salesFile, 'utf8').replace('Brightfield Sports Lighting — sales and support intake', 'Brightfield Sports Lighting — quick quote'));
const tenantFile = join(flows, 'tenants', 'acme', 'tenant.json');
writeFileSync(tenantFile, JSON.stringify({ ...JSON.parse(readFileSync(tenantFile, 'utf8')), variants: { 'flow.sales': { revision: revisionA, share: 0.3 } } }));
const tenants = TenantDirectory.load(flows, archive);

describe('variants: two revisions of a flow side by side', () => {
  it('start a share of visitors on the variant, the same visitor always on the same one, and the funnel counts them apart', async () => {
    const revisionB = tenants.flow('acme', 'flow.sales')!.revision;
    expect(revisionB).not.toBe(revisionA);
    const store = new MemoryStore();
    const counts = new MemoryFunnelCounts();
    let t = Date.parse('2026-03-02T09:00:00Z');
    const svc = new ConversationService({ store, tenants, actions: sampleActions, tenantCpu: new TenantCpu({ msPerSecond: 0, burstMs: 0 }), // thousands of turns in a loop: no per-tenant CPU budget
    counts, env: { now: () => new Date((t += 1000)).toISOString(), sleep: async () => {}, clock: () => 0 } });

    const on = new Map<string, string>();
    for (let i = 0; i < 400; i++) {
      const visitor = `visitor-${i.toString().padStart(4, '0')}`;
      const s = must(await svc.startSession({ tenant: 'acme', flow: 'flow.sales', visitor }));
      const revision = (await store.load(s.sessionId))!.revision;
      on.set(visitor, revision);
      // the variant's visitors complete; the others stop after the first answer
      const script = revision === revisionA ? ACME_SALES_SCRIPT : ACME_SALES_SCRIPT.slice(0, 1);
      for (const [k, text] of script.entries()) must(await svc.message(s.sessionId, text, `${i}-${k}`));
    }
    const onA = [...on.values()].filter((r) => r === revisionA).length;
    expect(onA).toBeGreaterThan(400 * 0.2);
    expect(onA).toBeLessThan(400 * 0.4);
    // sticky: each visitor comes back to the same revision
    for (const [visitor, revision] of [...on].slice(0, 60)) {
      const again = must(await svc.startSession({ tenant: 'acme', flow: 'flow.sales', visitor }));
      expect((await store.load(again.sessionId))!.revision).toBe(revision);
    }

    const tally = await counts.read('acme', 'flow.sales');
    expect(revisionsOf(tally).map((r) => r.revision).sort()).toEqual([revisionA, revisionB].sort());
    const a = funnelOf(tally, { revision: revisionA }, []);
    const b = funnelOf(tally, { revision: revisionB }, []);
    const returnedA = [...on].slice(0, 60).filter(([, r]) => r === revisionA).length;
    expect(a).toMatchObject({ sessions: onA + returnedA, completed: onA });
    expect(b).toMatchObject({ sessions: 460 - onA - returnedA, completed: 0 });
  }, 120_000);

  it('serves only the current revision without variants, and refuses a variant that is not a revision hash', async () => {
    const svc = new ConversationService({ store: new MemoryStore(), tenants: before, actions: sampleActions });
    const s = must(await svc.startSession({ tenant: 'acme', flow: 'flow.sales', visitor: 'visitor-0001' }));
    expect(s.state.status).toBe('active');
    const bad = Tenant().safeParse({ id: 'x', name: 'X', keys: ['pk_x_demo1'], origins: [], flows: ['flow.sales'], variants: { 'flow.sales': { revision: 'latest', share: 2 } } });
    expect(bad.success ? [] : bad.error.issues.map((i) => i.path.join('.'))).toEqual(['variants.flow.sales.revision', 'variants.flow.sales.share']);
  });
});
