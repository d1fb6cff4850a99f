/**
 * CPU per turn of long conversations through the conversation service and
 * LowdbStore: 10 sessions play the sales script 30 times each (restarting
 * in between, ~390 turns and ~840 transcript entries a session), one after
 * another; 6 such sets, minimum and median CPU (user + system) per turn.
 * Long sessions are where a session file passes the compaction size, which
 * turn-cost.ts (60 turns a session per round) never reaches. `--root DIR`
 * runs another checkout's code (for A/B against an earlier commit).
 *
 *   npx tsx bench/server/long-sessions.ts [--root DIR]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const argv = process.argv.slice(2);
const root = argv.includes('--root') ? resolve(argv[argv.indexOf('--root') + 1]!) : fileURLToPath(new URL('../../', import.meta.url));
const load = (path: string) => import(join(root, path));
const { systemCallEnv } = await load('server/conversation/actions.ts');
const { DirectoryArchive } = await load('server/catalog/registry.ts');
const { sampleActions } = await load('examples/sample-actions.ts');
const { ConversationService } = await load('server/conversation/service.ts');
const { TenantDirectory } = await load('server/catalog/tenants.ts');
const { LowdbStore } = await load('server/store/lowdb.ts');
const { DEMO_FLOW, REPO_FLOWS, SALES_SCRIPT } = await load('bench/server/common.ts');

const dataDir = mkdtempSync(join(tmpdir(), 'questline-long-sessions-'));
const store = await LowdbStore.open(dataDir);
const tenants = TenantDirectory.load(REPO_FLOWS, new DirectoryArchive(join(dataDir, 'revisions')));
const service = new ConversationService({ store, tenants, actions: sampleActions, env: systemCallEnv, broadcast: () => {} });
let n = 0;
const perTurnUs: number[] = [];
try {
  for (let set = 0; set < 6; set++) {
    const ids: string[] = [];
    for (let v = 0; v < 10; v++) {
      const s = await service.startSession({ tenant: 'acme', flow: DEMO_FLOW });
      if (!s.ok) throw new Error(`start: ${s.error.code}`);
      ids.push(s.value.sessionId);
    }
    let turns = 0;
    const cpu = process.cpuUsage();
    for (let cycle = 0; cycle < 30; cycle++) {
      for (const id of ids) {
        for (const text of SALES_SCRIPT) {
          const r = await service.message(id, text, `c${n++}`);
          if (!r.ok) throw new Error(`message: ${r.error.code}`);
          turns++;
        }
        const r = await service.command(id, 'restart');
        if (!r.ok) throw new Error(`restart: ${r.error.code}`);
      }
    }
    await new Promise((r) => setTimeout(r, 50)); // compactions in flight finish inside the measurement
    const used = process.cpuUsage(cpu);
    perTurnUs.push((used.user + used.system) / turns);
  }
  const sorted = [...perTurnUs].sort((a, b) => a - b);
  process.stdout.write(`long sessions (${root}): min ${sorted[0]!.toFixed(1)} µs, median ${sorted[3]!.toFixed(1)} µs CPU per turn\n`);
} finally {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
}
