/**
 * Import time of the package's entry points, side by side with zod (its own
 * dependency) and xstate: each import timed in a fresh `node` process (the
 * time of the `import()` itself, not Node's start-up), the processes
 * interleaved round by round so a busy machine slows all of them alike; the
 * median of each. The target (issue 32): `import('questline')` ≤ 2× `import('zod')`.
 * Each process also reports the CPU time of its `import()` (`cpu` in the
 * JSON): on a busy machine the wall times stretch with the load and their
 * ratio with them, the CPU times much less.
 * Measures the compiled package (dist/, as installed); `--build` (or a
 * missing dist/) builds it first.
 *
 * `npx tsx bench/import.ts [--rounds N] [--build] [--json]`
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const json = argv.includes('--json');
const rounds = Number(argv[argv.indexOf('--rounds') + 1]) || 15;
const TARGET = 2;

/** The specifiers timed, keyed as the issue names them. */
const SPECIFIERS = ['zod', 'questline', 'questline/server', 'xstate'] as const;

if (argv.includes('--build') || !existsSync(`${ROOT}dist/server/api/index.js`)) {
  execFileSync(process.execPath, ['bin/build.mjs'], { cwd: ROOT, stdio: json ? 'ignore' : 'inherit' });
}

/** Wall and CPU milliseconds one fresh process takes to import `spec` (resolved from the repository, as a dependant would: the built package). */
function once(spec: string): { wall: number; cpu: number } {
  const code = `const c = process.cpuUsage(); const t = performance.now(); await import(${JSON.stringify(spec)}); const w = performance.now() - t; const u = process.cpuUsage(c);`
    + ' process.stdout.write(JSON.stringify({ wall: w, cpu: (u.user + u.system) / 1000 }));';
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  if (r.status !== 0) throw new Error(`import('${spec}') failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as { wall: number; cpu: number };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const times: Record<string, Array<{ wall: number; cpu: number }>> = Object.fromEntries(SPECIFIERS.map((s) => [s, []]));
for (const s of SPECIFIERS) once(s); // warm the file cache
for (let i = 0; i < rounds; i++) for (const s of SPECIFIERS) times[s]!.push(once(s));

const medians = (of: 'wall' | 'cpu'): Record<string, number> =>
  Object.fromEntries(SPECIFIERS.map((s) => [s, Math.round(median(times[s]!.map((t) => t[of])) * 10) / 10]));
const ms = medians('wall');
const cpu = medians('cpu');
const ratio = Math.round((ms.questline! / ms.zod!) * 100) / 100;
const result = {
  bench: 'import', rounds, unit: 'ms (median)', ...ms,
  'questline/zod': ratio, 'questline/server/zod': Math.round((ms['questline/server']! / ms.zod!) * 100) / 100,
  cpu: { ...cpu, 'questline/zod': Math.round((cpu.questline! / cpu.zod!) * 100) / 100, 'questline/server/zod': Math.round((cpu['questline/server']! / cpu.zod!) * 100) / 100 },
  target: `questline/zod <= ${TARGET}`, met: ratio <= TARGET,
};
if (json) {
  console.log(JSON.stringify(result));
} else {
  console.log(`import time, median of ${rounds} fresh processes each (interleaved):`);
  for (const s of SPECIFIERS) console.log(`  import('${s}')`.padEnd(30) + `${ms[s]!.toFixed(1)} ms`.padEnd(12) + `(CPU ${cpu[s]!.toFixed(1)} ms)`);
  console.log(`  questline / zod = ${ratio} (target ≤ ${TARGET}: ${result.met ? 'met' : 'NOT met'}); in CPU time ${result.cpu['questline/zod']}`);
}
