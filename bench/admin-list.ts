/**
 * What the operator console's sessions list costs (GET /admin/sessions):
 * the list of 100 rows it refreshes every 5 s, and a search (`q`) that
 * matches nothing, so it reads its whole bound (SEARCH_SCAN sessions of the
 * tenant). Sessions are real ones (a few turns of the Acme sales script each,
 * through the conversation service) in a lowdb store on disk.
 * `npx tsx bench/admin-list.ts [--json] [--sessions N]`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sampleActions } from '../examples/sample-actions.ts';
import { TenantDirectory } from '../server/catalog/tenants.ts';
import { ConversationService } from '../server/conversation/service.ts';
import { TenantCpu } from '../server/conversation/tenant-cpu.ts';
import { LowdbStore } from '../server/store/lowdb.ts';
import { LastMessages, listSessions, SEARCH_SCAN } from '../server/transport/http/admin-views.ts';
import { ACME_SALES_SCRIPT } from '../test/support/scripts.ts';

const jsonMode = process.argv.includes('--json');
const at = process.argv.indexOf('--sessions');
const N = at > 0 ? Number(process.argv[at + 1]) : SEARCH_SCAN;

const dir = mkdtempSync(join(tmpdir(), 'ql-bench-admin-list-'));
const tenants = TenantDirectory.load('flows');
const store = await LowdbStore.open(dir);
const svc = new ConversationService({ store, tenants, actions: sampleActions, tenantCpu: new TenantCpu({ msPerSecond: 0, burstMs: 0 }) });
for (let i = 0; i < N; i++) {
  const started = await svc.startSession({ tenant: 'acme', flow: 'flow.sales' });
  if (!started.ok) throw new Error(started.error.message);
  for (const [j, text] of ACME_SALES_SCRIPT.slice(0, 1 + (i % 4)).entries()) {
    const r = await svc.message(started.value.sessionId, text, `b${j}`);
    if (!r.ok) throw new Error(r.error.message);
  }
}

/** Median of `runs` timings of `fn`, in ms. */
async function median(runs: number, fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(times.length / 2)]! * 10) / 10;
}

const lines = new LastMessages();
const listCold = await median(1, () => listSessions(store, tenants, { tenant: 'acme', limit: 100 }, new LastMessages()));
await listSessions(store, tenants, { tenant: 'acme', limit: 100 }, lines);
const listWarm = await median(5, () => listSessions(store, tenants, { tenant: 'acme', limit: 100 }, lines));
let scanned = 0;
const searchMiss = await median(3, async () => {
  scanned = (await listSessions(store, tenants, { tenant: 'acme', limit: 100, q: 'nobody-answered-this' }, lines)).search?.scanned ?? 0;
});
const searchHit = await median(3, () => listSessions(store, tenants, { tenant: 'acme', limit: 100, q: 'basketball' }, lines));
await store.close();
rmSync(dir, { recursive: true, force: true });

const result = { sessions: N, list_100_ms_first: listCold, list_100_ms_refresh: listWarm, search_miss_ms: searchMiss, search_scanned: scanned, search_hit_100_ms: searchHit };
if (jsonMode) console.log(JSON.stringify(result));
else {
  console.log(`the console's sessions list over ${N} sessions of one tenant (lowdb):`);
  console.log(`  list of 100, first / refreshed: ${listCold} / ${listWarm} ms`);
  console.log(`  search matching nothing (reads ${scanned}): ${searchMiss} ms`);
  console.log(`  search with 100 matches: ${searchHit} ms`);
}
