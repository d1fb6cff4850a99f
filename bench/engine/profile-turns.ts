/**
 * Drives Questline's `turn` alone on a bench:engine flow, for a CPU profile:
 * `node --import tsx --cpu-prof --cpu-prof-dir=/tmp/prof bench/engine/profile-turns.ts 2000`
 * (N = 20, 200 or 2000; the largest .cpuprofile is the main thread's). Prints the p50/p99 µs per turn.
 */
import { generateFlow, scriptFor } from './generate.ts';
import { compileBenchFlow, inputsFor, questlineTime } from './questline.ts';

const n = Number(process.argv[2] ?? 20);
const bench = generateFlow(n);
const { flow } = compileBenchFlow(bench);
const inputs = inputsFor(scriptFor(bench));
questlineTime(flow, inputs, 5_000, 1_000); // warm-up, untimed
const r = questlineTime(flow, inputs, 400_000, 8_000);
process.stdout.write(`N=${n} ${JSON.stringify(r.samples.percentilesUs())} over ${r.samples.count} turns\n`);
