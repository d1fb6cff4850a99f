import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// The reliability runner (bench/reliability.ts) runs the suite's vitest files
// with RELIABILITY_TALLY_DIR set; each check adds what it tried and what went
// wrong to `<dir>/<name>.json`, and the runner sums the files into its table.
// Under plain `npm test` the variable is unset and nothing is written.

/** Counters of one check, summed across calls. */
export type Tally = Record<string, number>;

/** Adds `counts` to the tally file `name` when the runner asked for tallies. */
export function recordTally(name: string, counts: Tally): void {
  const dir = process.env.RELIABILITY_TALLY_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name.replace(/[^a-z0-9_-]/gi, '_')}.json`);
  let current: Tally = {};
  try {
    current = JSON.parse(readFileSync(file, 'utf8')) as Tally;
  } catch {
    current = {};
  }
  for (const [k, v] of Object.entries(counts)) current[k] = (current[k] ?? 0) + v;
  writeFileSync(file, JSON.stringify(current));
}

/** A number from the environment, or the fallback. */
export function envNumber(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
}
