import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateFlow } from './engine/generate.ts';
import { REPO_FLOWS, REPO_ROOT } from './server/common.ts';

// `npm run -s bench:startup [-- --json] [--runs 5] [--questions 3000] [--versus start:source]`:
// how long `npm start` takes to answer /healthz and to serve every flow, with
// the repository's flows alone and with one more tenant whose flow has 3,000
// questions. Each run is a fresh `npm start` (PORT 0 is not used: a free port
// is picked per run) with a temporary DATA_DIR and FLOWS_DIR. `--versus SCRIPT`
// also times `npm run SCRIPT` (e.g. `start:source`, tsx compiling server/ at
// start, as `npm start` did before bin/start.mjs), interleaved with the others.

const args = process.argv.slice(2);
const json = args.includes('--json');
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const runs = option('runs', 5);
const versus = args.includes('--versus') ? args[args.indexOf('--versus') + 1] : undefined;
const questions = option('questions', 3000);

interface Run { healthzMs: number; servedMs: number; bigServedMs?: number }

/** A flows folder: the repository's, plus (with `big`) tenant `big` offering a generated flow of `questions` questions. */
function flowsDir(big: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'questline-startup-'));
  cpSync(REPO_FLOWS, dir, { recursive: true });
  if (big) {
    const flow = generateFlow(questions).json;
    writeFileSync(join(dir, 'global', 'big.flow.json'), JSON.stringify(flow));
    mkdirSync(join(dir, 'tenants', 'big'));
    writeFileSync(join(dir, 'tenants', 'big', 'tenant.json'), JSON.stringify({ id: 'big', name: 'Big', keys: ['pk_big_startup'], origins: [], flows: [flow.id] }));
  }
  return dir;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function ok(url: string, headers: Record<string, string> = {}): Promise<boolean> {
  try {
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}

let nextPort = 4700 + Math.floor(Math.random() * 200);

/** One `npm start`: ms until /healthz answers, until the demo tenant's flow serves, until the big tenant's does. */
async function once(flows: string, big: boolean, script = 'start'): Promise<Run> {
  const port = nextPort++;
  const data = mkdtempSync(join(tmpdir(), 'questline-startup-data-'));
  const t0 = performance.now();
  const child = spawn('npm', ['run', script, '--silent'], {
    cwd: REPO_ROOT, detached: true, stdio: 'ignore',
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: data, FLOWS_DIR: flows, LOG_LEVEL: 'warn', ADMIN_KEY: 'startup-bench-admin-key' },
  });
  const base = `http://127.0.0.1:${port}`;
  const run: Partial<Run> = {};
  try {
    while (run.healthzMs === undefined || run.servedMs === undefined || (big && run.bigServedMs === undefined)) {
      if (performance.now() - t0 > 120_000) throw new Error('no answer within 120 s');
      const at = Math.round(performance.now() - t0);
      if (run.healthzMs === undefined) { if (await ok(`${base}/healthz`)) run.healthzMs = at; }
      else if (run.servedMs === undefined) { if (await ok(`${base}/api/v1/tenants/acme/flows/flow.sales`, { 'X-Questline-Key': 'pk_acme_demo' })) run.servedMs = at; }
      else if (await ok(`${base}/api/v1/tenants/big/flows/bench.engine.n${questions}`, { 'X-Questline-Key': 'pk_big_startup' })) run.bigServedMs = at;
      await sleep(10);
    }
  } finally {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch { /* gone */ }
    await sleep(200);
    rmSync(data, { recursive: true, force: true });
  }
  return run as Run;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const plain = flowsDir(false);
const withBig = flowsDir(true);
const without: Run[] = [];
const withIt: Run[] = [];
const other: Run[] = [];
// the first start after an edit bundles server/ (bin/start.mjs); the runs time the start a developer repeats
await once(plain, false);
for (let i = 0; i < runs; i++) {
  // interleaved, so a busy moment on the machine falls on both
  without.push(await once(plain, false));
  withIt.push(await once(withBig, true));
  if (versus) other.push(await once(plain, false, versus));
  if (!json) process.stderr.write(`run ${i + 1}/${runs}: without ${JSON.stringify(without.at(-1))} with ${JSON.stringify(withIt.at(-1))}\n`);
}
rmSync(plain, { recursive: true, force: true });
rmSync(withBig, { recursive: true, force: true });

const result = {
  runs, questions,
  npm_start_healthz_ms: median(without.map((r) => r.healthzMs)),
  npm_start_served_ms: median(without.map((r) => r.servedMs)),
  with_big_flow_healthz_ms: median(withIt.map((r) => r.healthzMs)),
  with_big_flow_served_ms: median(withIt.map((r) => r.servedMs)),
  with_big_flow_big_served_ms: median(withIt.map((r) => r.bigServedMs!)),
  big_flow_healthz_delta_ms: median(withIt.map((r) => r.healthzMs)) - median(without.map((r) => r.healthzMs)),
  big_flow_served_delta_ms: median(withIt.map((r) => r.servedMs)) - median(without.map((r) => r.servedMs)),
  ...(versus ? { versus, versus_healthz_ms: median(other.map((r) => r.healthzMs)), versus_served_ms: median(other.map((r) => r.servedMs)) } : {}),
};
if (json) process.stdout.write(`${JSON.stringify(result)}\n`);
else console.table(result);
