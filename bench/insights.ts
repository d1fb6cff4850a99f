/**
 * What keeping the funnel counts costs a turn: the facts folded from the
 * turn's events, the two tallies and their difference (CPU, in the turn's
 * path), and the counts file's append (lowdb). Turns are the Acme sales
 * script's, recorded once through the conversation service.
 * `npx tsx bench/insights.ts [--json]`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sampleActions } from '../examples/sample-actions.ts';
import { TenantDirectory } from '../server/catalog/tenants.ts';
import { ConversationService } from '../server/conversation/service.ts';
import { TenantCpu } from '../server/conversation/tenant-cpu.ts';
import type { EngineEvent } from '../server/engine/types.ts';
import { FileFunnelCounts } from '../server/store/funnel-counts-file.ts';
import { foldEvents } from '../server/store/funnel-facts.ts';
import { tallyDelta, tallyOf, turnDelta } from '../server/store/funnel-tally.ts';
import { MemoryStore } from '../server/store/memory.ts';
import type { StoredSession } from '../server/store/session-store.ts';
import { ACME_SALES_SCRIPT } from '../test/support/scripts.ts';

const jsonMode = process.argv.includes('--json');

// one conversation's turns: each saved record with the events of its turn
const tenants = TenantDirectory.load('flows');
const store = new MemoryStore();
const turns: Array<{ before: StoredSession | null; after: StoredSession; events: EngineEvent[] }> = [];
const svc = new ConversationService({ store, tenants, actions: sampleActions, tenantCpu: new TenantCpu({ msPerSecond: 0, burstMs: 0 }) });
const started = await svc.startSession({ tenant: 'acme', flow: 'flow.sales' });
if (!started.ok) throw new Error(started.error.message);
const id = started.value.sessionId;
let before: StoredSession | null = null;
let seen = 0;
for (const [i, text] of ['', ...ACME_SALES_SCRIPT].entries()) {
  if (i > 0) {
    const r = await svc.message(id, text, `b${i}`);
    if (!r.ok) throw new Error(r.error.message);
  }
  const after = (await store.load(id))!;
  const all = await store.events(id);
  turns.push({ before, after, events: all.slice(seen) });
  seen = all.length;
  before = after;
}

const ROUNDS = 20_000;
// warm up, then time the counting of every turn of the conversation, ROUNDS times
let sink = 0;
const count = () => {
  for (const t of turns) {
    // what the service does per turn: fold the turn's events into the facts, then the turn's counter changes
    const facts = foldEvents(t.before?.insights, t.events);
    sink += turnDelta(t.before, facts === t.after.insights ? t.after : { ...t.after, insights: facts }).length;
  }
};
for (let i = 0; i < 500; i++) count();
let t0 = performance.now();
for (let i = 0; i < ROUNDS; i++) count();
const countingUs = ((performance.now() - t0) * 1000) / (ROUNDS * turns.length);

// the counts file: one append per turn
const dir = mkdtempSync(join(tmpdir(), 'ql-bench-insights-'));
const file = FileFunnelCounts.open(dir);
const deltas = turns.map((t) => tallyDelta(t.before ? tallyOf(t.before) : null, tallyOf(t.after)));
const APPENDS = 20_000;
t0 = performance.now();
for (let i = 0; i < APPENDS; i++) await file.add(deltas[i % deltas.length]!);
const appendUs = ((performance.now() - t0) * 1000) / APPENDS;
await file.close();
rmSync(dir, { recursive: true, force: true });

const result = { turns: turns.length, counting_us_per_turn: Math.round(countingUs * 100) / 100, file_append_us_per_turn: Math.round(appendUs * 100) / 100, changes_per_turn: Math.round((deltas.reduce((a, d) => a + d.length, 0) / deltas.length) * 10) / 10, sink: sink > 0 };
if (jsonMode) console.log(JSON.stringify(result));
else {
  console.log(`funnel counts per turn (${turns.length} turns of the Acme sales script):`);
  console.log(`  counting (facts, tallies, difference): ${result.counting_us_per_turn} µs`);
  console.log(`  counts file append (lowdb):            ${result.file_append_us_per_turn} µs`);
  console.log(`  counters changed per turn:             ${result.changes_per_turn}`);
}
