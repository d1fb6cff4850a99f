/**
 * CPU per turn of the conversation service alone: the ConversationService
 * the server builds (LowdbStore on a temp DATA_DIR, the repository's flows,
 * the sample actions), driven in process without sockets. C concurrent
 * visitors play the sales script and restart on completion, for R rounds of
 * T turns each; a round's figure is process CPU (user + system, all threads)
 * / turns, and the report takes the minimum over rounds — on a shared
 * machine other processes only ever add time, so the minimum is the
 * figure least disturbed by them. Broadcasts go nowhere (that cost is
 * socket.io's, measured by bench:server).
 *
 *   npx tsx bench/server/turn-cost.ts [--rounds R] [--turns T] [--clients C] [--store lowdb|memory] [--json]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { systemCallEnv } from '../../server/conversation/actions.ts';
import { DirectoryArchive } from '../../server/catalog/registry.ts';
import { sampleActions } from '../../examples/sample-actions.ts';
import { ConversationService } from '../../server/conversation/service.ts';
import { TenantDirectory } from '../../server/catalog/tenants.ts';
import { LowdbStore } from '../../server/store/lowdb.ts';
import { MemoryStore } from '../../server/store/memory.ts';
import type { SessionStore } from '../../server/store/session-store.ts';
import { DEMO_FLOW, REPO_FLOWS, round, SALES_SCRIPT } from './common.ts';

const argv = process.argv.slice(2);
const num = (name: string, fallback: number) => {
  const at = argv.indexOf(name);
  const v = at >= 0 ? Number(argv[at + 1]) : fallback;
  if (!Number.isInteger(v) || v <= 0) throw new Error(`${name} needs a positive integer`);
  return v;
};
const rounds = num('--rounds', 7);
const turnsPerRound = num('--turns', 3_000);
const clients = num('--clients', 50);
const storeKind = argv.includes('--store') ? argv[argv.indexOf('--store') + 1] : 'lowdb';
if (storeKind !== 'lowdb' && storeKind !== 'memory') throw new Error('--store takes lowdb or memory');

const dataDir = mkdtempSync(join(tmpdir(), 'questline-turn-cost-'));
const store: SessionStore = storeKind === 'lowdb' ? await LowdbStore.open(dataDir) : new MemoryStore();
const tenants = TenantDirectory.load(REPO_FLOWS, new DirectoryArchive(join(dataDir, 'revisions')));
const service = new ConversationService({ store, tenants, actions: sampleActions, env: systemCallEnv, broadcast: () => {} });

let turns = 0;
let n = 0;
/** Starts a visitor's session. */
const start = async () => {
  const s = await service.startSession({ tenant: 'acme', flow: DEMO_FLOW });
  if (!s.ok) throw new Error(`start: ${s.error.code}`);
  return s.value.sessionId;
};
/** Plays the script on a started session (restarting it on completion) until `stopAt()`. */
const play = async (sessionId: string, stopAt: () => boolean) => {
  let step = 0;
  while (!stopAt()) {
    if (step >= SALES_SCRIPT.length) {
      const r = await service.command(sessionId, 'restart');
      if (!r.ok) throw new Error(`restart: ${r.error.code}`);
      step = 0;
      continue;
    }
    const r = await service.message(sessionId, SALES_SCRIPT[step]!, `c${n++}`);
    if (!r.ok) throw new Error(`message: ${r.error.code}`);
    turns++;
    step++;
  }
};
/**
 * A round: every visitor's session is started first, then all play at once.
 * (Without the wait, visitors whose start came back first ran every turn of
 * the round in one chain of microtasks — a cached commit never yields to the
 * event loop — while the others' starts waited on the thread pool.)
 */
const visitors = async (stopAt: () => boolean) => {
  const ids = await Promise.all(Array.from({ length: clients }, start));
  await Promise.all(ids.map((id) => play(id, stopAt)));
};

try {
  // warm-up: JIT, caches
  await visitors(() => turns >= turnsPerRound);
  const perTurnUs: number[] = [];
  for (let r = 0; r < rounds; r++) {
    turns = 0;
    const cpu = process.cpuUsage();
    const t = performance.now();
    await visitors(() => turns >= turnsPerRound);
    const used = process.cpuUsage(cpu);
    const wall = performance.now() - t;
    perTurnUs.push((used.user + used.system) / turns);
    if (!argv.includes('--json')) process.stderr.write(`round ${r + 1}: ${turns} turns in ${round(wall)} ms, ${round((used.user + used.system) / turns)} µs CPU per turn\n`);
  }
  const sorted = [...perTurnUs].sort((a, b) => a - b);
  const result = { store: storeKind, clients, rounds, turns_per_round: turnsPerRound, cpu_us_per_turn_min: round(sorted[0]!), cpu_us_per_turn_median: round(sorted[Math.floor(sorted.length / 2)]!) };
  process.stdout.write(argv.includes('--json') ? JSON.stringify(result) + '\n' : `service CPU per turn (${storeKind}, ${clients} concurrent visitors): min ${result.cpu_us_per_turn_min} µs, median ${result.cpu_us_per_turn_median} µs over ${rounds} rounds of ${turnsPerRound} turns\n`);
} finally {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
}
