/**
 * One server instance for `bench:server --store redis`: `startServer` as
 * `npm start` runs it with STORE=redis (REDIS_URL, REDIS_PREFIX from the
 * environment), the repository's flows, 127.0.0.1 and a free port, with the
 * bench's rate limits out of the way. IPC:
 *
 *   → { type: 'ready', url, pid }
 *   ← { type: 'window', at: 'start' }  note CPU time
 *   ← { type: 'window', at: 'end' } → { type: 'window-stats', cpu, eventLoopP99Ms, eventLoopMaxMs, turns, redisCommands }
 *                                      (turns: message turns it handled in the window; redisCommands: commands it sent to Redis in it, by name)
 *   ← { type: 'close' } → { type: 'closed' }
 *
 * Exits when the bench goes away (IPC disconnect).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { Redis } from 'ioredis';
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
// Counts this process's round trips to Redis: a command sent on its own is one, by name; the commands of one
// pipeline (ioredis's auto-pipelining: those issued in the same tick; each pipeline writes through its own
// stream object) are one together, counted under `pipeline` (commands run inside a Lua script are not sent);
// the socket.io adapter's reading connection sends one XREAD at a time (an auto-pipeline of one): it is
// counted under `xread`, so the turns' own round trips are `pipeline` (the total is the same either way)
const sent = new Map<string, number>();
const seen = new WeakSet<object>();
const pipelines = new WeakSet<object>();
const sendCommand = Redis.prototype.sendCommand;
Redis.prototype.sendCommand = function (this: Redis, command: Parameters<Redis['sendCommand']>[0], stream?: Parameters<Redis['sendCommand']>[1]) {
  if (!seen.has(command)) {
    seen.add(command);
    const name = stream === undefined || command.name === 'xread' ? command.name : pipelines.has(stream) ? undefined : 'pipeline';
    if (stream !== undefined) pipelines.add(stream);
    if (name !== undefined) sent.set(name, (sent.get(name) ?? 0) + 1);
  }
  return sendCommand.call(this, command, stream);
};
const server = await startServer(config, { rateLimits: BENCH_LIMITS });

/** Message turns this instance handled so far (its questline_turns_total, kind message). */
const messageTurns = async () => (await server.metrics.turns.get()).values.reduce((n, v) => n + (v.labels.kind === 'message' ? v.value : 0), 0);

let window: { cpu: NodeJS.CpuUsage; wall: number; delay: IntervalHistogram; sent: Map<string, number>; turns: number } | undefined;
let closing = false;
process.on('message', async (m: { type: string; at?: string }) => {
  if (m.type === 'window' && m.at === 'start') {
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    window = { cpu: process.cpuUsage(), wall: performance.now(), delay, sent: new Map(sent), turns: 0 };
    window.turns = await messageTurns();
  } else if (m.type === 'window' && m.at === 'end' && window) {
    const w = window;
    window = undefined;
    const used = process.cpuUsage(w.cpu);
    const wall = performance.now() - w.wall;
    const commands = Object.fromEntries([...sent].map(([k, n]) => [k, n - (w.sent.get(k) ?? 0)]).filter(([, n]) => (n as number) > 0));
    w.delay.disable();
    const turns = (await messageTurns()) - w.turns;
    send({
      type: 'window-stats', cpu: Math.round(((used.user + used.system) / 1000 / wall) * 1000) / 1000, turns,
      eventLoopP99Ms: Math.round(w.delay.percentile(99) / 1e4) / 100, eventLoopMaxMs: Math.round(w.delay.max / 1e4) / 100,
      redisCommands: commands,
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
