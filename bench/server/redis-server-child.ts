/**
 * One server instance for `bench:server --store redis`: `startServer` as
 * `npm start` runs it with STORE=redis (REDIS_URL, REDIS_PREFIX from the
 * environment), the repository's flows, 127.0.0.1 and a free port, with the
 * bench's rate limits out of the way. IPC:
 *
 *   → { type: 'ready', url, pid }
 *   ← { type: 'window', at: 'start' }  note CPU time
 *   ← { type: 'window', at: 'end' } → { type: 'window-stats', cpu, eventLoopP99Ms, eventLoopMaxMs }
 *   ← { type: 'close' } → { type: 'closed' }
 *
 * Exits when the bench goes away (IPC disconnect).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { loadConfig } from '../../server/config.ts';
import { startServer } from '../../server/main.ts';
import { BENCH_LIMITS, REPO_FLOWS, type ServerChildMessage } from './common.ts';

const send = (m: ServerChildMessage) => process.send?.(m);
if (!process.env.REDIS_URL || !process.send) {
  process.stderr.write('redis-server-child: run by bench/server.ts --store redis (REDIS_URL and an IPC channel)\n');
  process.exit(2);
}
// flow revisions are archived under DATA_DIR; sessions live in Redis
const dataDir = mkdtempSync(join(tmpdir(), 'questline-bench-redis-instance-'));
const config = loadConfig({
  PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, FLOWS_DIR: REPO_FLOWS, STORE: 'redis', REDIS_URL: process.env.REDIS_URL,
  REDIS_PREFIX: process.env.REDIS_PREFIX ?? 'bench:', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
});
const server = await startServer(config, { rateLimits: BENCH_LIMITS });

let window: { cpu: NodeJS.CpuUsage; wall: number; delay: IntervalHistogram } | undefined;
let closing = false;
process.on('message', (m: { type: string; at?: string }) => {
  if (m.type === 'window' && m.at === 'start') {
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    window = { cpu: process.cpuUsage(), wall: performance.now(), delay };
  } else if (m.type === 'window' && m.at === 'end' && window) {
    const w = window;
    window = undefined;
    const used = process.cpuUsage(w.cpu);
    w.delay.disable();
    send({
      type: 'window-stats', cpu: Math.round(((used.user + used.system) / 1000 / (performance.now() - w.wall)) * 1000) / 1000,
      eventLoopP99Ms: Math.round(w.delay.percentile(99) / 1e4) / 100, eventLoopMaxMs: Math.round(w.delay.max / 1e4) / 100,
    });
  } else if (m.type === 'close' && !closing) {
    closing = true;
    void server.close().finally(() => {
      rmSync(dataDir, { recursive: true, force: true });
      send({ type: 'closed' });
      process.disconnect();
      process.exit(0);
    });
  }
});
process.on('disconnect', () => {
  if (!closing) {
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(1);
  }
});

send({ type: 'ready', url: server.url, pid: process.pid });
