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
import { performance } from 'node:perf_hooks';
import { round } from './common.ts';
import { serviceVisitors } from './service-visitors.ts';

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

const visitors = await serviceVisitors(storeKind, clients);

try {
  // warm-up: JIT, caches
  await visitors.play(turnsPerRound);
  const perTurnUs: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const cpu = process.cpuUsage();
    const t = performance.now();
    const turns = await visitors.play(turnsPerRound);
    const used = process.cpuUsage(cpu);
    const wall = performance.now() - t;
    perTurnUs.push((used.user + used.system) / turns);
    if (!argv.includes('--json')) process.stderr.write(`round ${r + 1}: ${turns} turns in ${round(wall)} ms, ${round((used.user + used.system) / turns)} µs CPU per turn\n`);
  }
  const sorted = [...perTurnUs].sort((a, b) => a - b);
  const result = { store: storeKind, clients, rounds, turns_per_round: turnsPerRound, cpu_us_per_turn_min: round(sorted[0]!), cpu_us_per_turn_median: round(sorted[Math.floor(sorted.length / 2)]!) };
  process.stdout.write(argv.includes('--json') ? JSON.stringify(result) + '\n' : `service CPU per turn (${storeKind}, ${clients} concurrent visitors): min ${result.cpu_us_per_turn_min} µs, median ${result.cpu_us_per_turn_median} µs over ${rounds} rounds of ${turnsPerRound} turns\n`);
} finally {
  await visitors.close();
}
