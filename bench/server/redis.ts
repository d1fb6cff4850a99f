/**
 * `npm run bench:server -- --store redis [--instances N] [--json] [--quick] [--clients C] [--seconds S]`
 *
 * Redis scale-out: a private redis-server (127.0.0.1, no persistence), then
 * two runs, each on a fresh key prefix: 1 server instance, then N (default 2),
 * every instance its own process (bench/server/redis-server-child.ts,
 * startServer with STORE=redis). The load is the same in both runs: C
 * socket.io clients (default 200) split over two load-generator processes
 * (bench/server/load.ts, closed loop: the next message as soon as the
 * previous turn's ack came), each process's clients on one instance (with one
 * instance, both on it), so the load generator's share of the CPU is the same
 * in both runs. 4 s warm-up, S seconds (12) measured. turns/s = the sum of
 * each load process's turns completed in its window; p50/p99 pooled over
 * every turn sent in the windows; Redis CPU from INFO over the window.
 *
 * On a machine with fewer cores than instances + Redis + load generators,
 * the instances share cores and the ratio says how much of a second core a
 * second instance found, not how Questline scales on separate machines.
 */
import { Redis } from 'ioredis';
import { availableParallelism } from 'node:os';
import { startTestRedis } from '../../test/support/redis.ts';
import {
  progress, round, spawnChild, summarize,
  type Child, type LatencySummary, type LoadChildMessage, type LoadJob, type ServerChildMessage,
} from './common.ts';

interface RunResult {
  instances: number;
  turnsPerS: number;
  latency: LatencySummary;
  errors: number;
  completed: number;
  serverCpu: number[];
  loadCpu: number[];
  redisCpu: number;
  /** Redis commands executed in the window by name, per message turn (INFO commandstats deltas: the ones Lua scripts run included). */
  commands: Record<string, number>;
  commandsPerTurn: number;
  /** Round trips of the servers per message turn (counted in the instances' ioredis clients): a command sent alone by name, a pipeline's commands together under `pipeline`, the adapter reader's XREADs under `xread`. */
  roundTrips: Record<string, number>;
  roundTripsPerTurn: number;
  /** Server CPU (all instances) per turn, ms. */
  serverCpuMsPerTurn: number;
}

/** Commands sent per message turn, by name (summed over instances), and their total. */
function sentPerTurn(perInstance: Array<Record<string, number>>, turns: number): { roundTrips: Record<string, number>; roundTripsPerTurn: number } {
  const sum = new Map<string, number>();
  for (const counts of perInstance) for (const [k, n] of Object.entries(counts)) sum.set(k, (sum.get(k) ?? 0) + n);
  const total = [...sum.values()].reduce((a, b) => a + b, 0);
  const sorted = [...sum].sort((a, b) => b[1] - a[1]);
  return { roundTrips: Object.fromEntries(sorted.map(([k, n]) => [k, round(n / Math.max(1, turns))])), roundTripsPerTurn: round(total / Math.max(1, turns)) };
}

function usage(msg: string): never {
  process.stderr.write(`bench:server: ${msg}\nusage: npm run bench:server -- --store redis [--instances N] [--json] [--quick] [--clients C] [--seconds S]\n`);
  process.exit(2);
}

/** Runs the Redis bench; returns the exit code. */
export async function runRedisBench(argv: readonly string[]): Promise<number> {
  const value = (name: string): string | undefined => {
    const at = argv.indexOf(name);
    return at < 0 ? undefined : argv[at + 1];
  };
  const number = (name: string): number | undefined => {
    const v = value(name);
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0) usage(`${name} needs a positive integer`);
    return n;
  };
  const known = new Set(['--store', '--instances', '--json', '--quick', '--clients', '--seconds']);
  for (const [i, a] of argv.entries()) {
    if (a.startsWith('--') && !known.has(a)) usage(`unknown option ${a} with --store redis`);
    if (!a.startsWith('--') && !['--store', '--instances', '--clients', '--seconds'].includes(argv[i - 1] ?? '')) usage(`unexpected argument ${a}`);
  }
  if (value('--store') !== 'redis') usage('--store takes redis (the default lowdb bench runs without --store)');
  const json = argv.includes('--json');
  const quick = argv.includes('--quick');
  const instances = number('--instances') ?? 2;
  const clients = number('--clients') ?? (quick ? 40 : 200);
  const warmupMs = quick ? 1_000 : 4_000;
  const measureMs = (number('--seconds') ?? (quick ? 3 : 12)) * 1000;
  const loaders = Math.max(2, instances);

  const children = new Set<Child<{ type: string }>>();
  const redis = await startTestRedis();
  const info = new Redis(redis.url);
  const redisCpu = async () => {
    const text = await info.info('cpu');
    const get = (k: string) => Number(text.match(new RegExp(`${k}:([0-9.]+)`))?.[1] ?? 0);
    return get('used_cpu_user') + get('used_cpu_sys');
  };

  /** Calls per command so far (INFO commandstats): what Redis executed, pipelined or not, Lua scripts' commands included. */
  const commandCalls = async (): Promise<Record<string, number>> => {
    const text = await info.info('commandstats');
    const out: Record<string, number> = {};
    for (const m of text.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) out[m[1]!] = Number(m[2]);
    return out;
  };

  const run = async (n: number): Promise<RunResult> => {
    const prefix = `bench${n}:`;
    progress(`redis: ${n} instance(s), ${clients} clients over ${loaders} load processes, ${warmupMs / 1000} s warm-up + ${measureMs / 1000} s measured`);
    const servers: Array<Child<ServerChildMessage> & { url: string }> = [];
    try {
      for (let i = 0; i < n; i++) {
        const child = spawnChild<ServerChildMessage>('./redis-server-child.ts', { env: { REDIS_URL: redis.url, REDIS_PREFIX: prefix } });
        children.add(child);
        const ready = await child.next('ready', 60_000);
        servers.push(Object.assign(child, { url: ready.url }));
      }
      const loads: Array<Child<LoadChildMessage>> = [];
      let cpuAtStart = 0;
      let cpuAtEnd = 0;
      let callsAtStart: Record<string, number> = {};
      let callsAtEnd: Record<string, number> = {};
      let windowStart = 0;
      let redisWindowMs = 1;
      for (let i = 0; i < loaders; i++) {
        const share = Math.floor(clients / loaders) + (i < clients % loaders ? 1 : 0);
        const job: LoadJob = { mode: 'steady', url: servers[i % n]!.url, clients: share, warmupMs, measureMs, thinkMs: 0 };
        const load = spawnChild<LoadChildMessage>('./load.ts', { args: [JSON.stringify(job)] });
        children.add(load);
        if (i === 0) {
          // the first load process's window stands for the run's: the servers and Redis are measured over it
          load.proc.on('message', (m: LoadChildMessage) => {
            if (m.type !== 'window') return;
            for (const s of servers) s.send({ type: 'window', at: m.at });
            if (m.at === 'start') {
              windowStart = performance.now();
              void redisCpu().then((c) => (cpuAtStart = c));
              void commandCalls().then((c) => (callsAtStart = c));
            } else {
              redisWindowMs = performance.now() - windowStart;
              void redisCpu().then((c) => (cpuAtEnd = c));
              void commandCalls().then((c) => (callsAtEnd = c));
            }
          });
        }
        loads.push(load);
      }
      const stats = servers.map((s) => s.next('window-stats', warmupMs + measureMs + 180_000));
      const done = await Promise.all(loads.map((l) => l.next('steady-done', warmupMs + measureMs + 180_000)));
      const serverStats = await Promise.all(stats);
      await Promise.all(loads.map((l) => l.exited));
      const turnsPerS = done.reduce((s, d) => s + d.turns / (d.windowMs / 1000), 0);
      // message turns the instances counted in their own windows (the load processes' windows differ a little): the per-turn denominator
      const turns = serverStats.reduce((n, st) => n + (st.turns ?? 0), 0);
      // the two INFO calls of this bench are not the servers'
      const deltas: Array<[string, number]> = Object.entries(callsAtEnd).map(([k, v]) => [k, v - (callsAtStart[k] ?? 0) - (k === 'info' ? 2 : 0)]);
      const commands: Record<string, number> = Object.fromEntries(deltas.filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]));
      const commandsTotal = Object.values(commands).reduce((a, b) => a + b, 0);
      const errors = done.reduce((s, d) => s + d.errors, 0);
      const firstError = done.find((d) => d.firstError)?.firstError;
      if (errors) progress(`  ${errors} errors; first: ${firstError}`);
      const result: RunResult = {
        instances: n, turnsPerS: round(turnsPerS), latency: summarize(done.flatMap((d) => d.samples)), errors,
        completed: done.reduce((s, d) => s + d.completed, 0), serverCpu: serverStats.map((s) => s.cpu), loadCpu: done.map((d) => d.clientCpu),
        redisCpu: round((cpuAtEnd - cpuAtStart) / (redisWindowMs / 1000)),
        commands: Object.fromEntries(Object.entries(commands).map(([k, v]) => [k, round(v / Math.max(1, turns))])),
        commandsPerTurn: round(commandsTotal / Math.max(1, turns)),
        ...sentPerTurn(serverStats.map((st) => st.redisCommands ?? {}), turns),
        serverCpuMsPerTurn: round((serverStats.reduce((a, st) => a + st.cpu, 0) * 1000) / turnsPerS),
      };
      progress(`  ${result.turnsPerS} turns/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms; server CPU ${result.serverCpu.map((c) => `${round(c * 100)}%`).join(' + ')} of a core (${result.serverCpuMsPerTurn} ms per turn), Redis ${round(result.redisCpu * 100)}%; Redis round trips per turn ${result.roundTripsPerTurn} (${Object.entries(result.roundTrips).map(([k, v]) => `${k} ${v}`).join(', ')}), commands executed per turn ${result.commandsPerTurn} (${Object.entries(result.commands).map(([k, v]) => `${k} ${v}`).join(', ')}); load ${result.loadCpu.map((c) => `${round(c * 100)}%`).join(' + ')}`);
      return result;
    } finally {
      for (const s of servers) {
        s.send({ type: 'close' });
        const timer = setTimeout(() => s.kill(), 20_000);
        await s.exited;
        clearTimeout(timer);
        children.delete(s);
      }
    }
  };

  const stop = async () => {
    for (const c of children) c.kill();
    info.disconnect();
    await redis.stop();
  };
  process.once('SIGINT', () => void stop().then(() => process.exit(130)));
  try {
    const t0 = Date.now();
    const one = await run(1);
    const many = await run(instances);
    const ratio = round(many.turnsPerS / one.turnsPerS);
    const result = {
      redis_1_turns_per_s: one.turnsPerS,
      redis_1_p50_ms: one.latency.p50,
      redis_1_p99_ms: one.latency.p99,
      [`redis_${instances}_turns_per_s`]: many.turnsPerS,
      [`redis_${instances}_p50_ms`]: many.latency.p50,
      [`redis_${instances}_p99_ms`]: many.latency.p99,
      scaling_ratio: ratio,
      redis_1_server_cpu_ms_per_turn: one.serverCpuMsPerTurn,
      redis_1_round_trips_per_turn: one.roundTripsPerTurn,
      notes: {
        mode: quick ? 'quick (smoke-run sizes)' : 'full',
        machine: { cpus: availableParallelism(), node: process.version },
        clients, load_processes: loaders, closed_loop: true, warmup_s: warmupMs / 1000, measured_s: measureMs / 1000, instances,
        redis_round_trips: 'round trips the server instances made to Redis in the window (counted in their ioredis clients: a command sent alone is one, by name; the commands one auto-pipeline wrote together are one, under pipeline; the socket.io adapter\'s reading connection\'s XREADs, one each, under xread; restarts and lock renewals included) / message turns completed in it',
        redis_commands: 'INFO commandstats deltas over the window / message turns: every command Redis executed, those run inside Lua scripts (commit, lock release, rate limits) included',
        scaling_ratio: `turns/s with ${instances} instances / turns/s with 1, same clients and load processes`,
        runs: [one, many].map((r) => ({
          instances: r.instances, turns_per_s: r.turnsPerS, p50_ms: r.latency.p50, p90_ms: r.latency.p90, p99_ms: r.latency.p99, max_ms: r.latency.max,
          turns_measured: r.latency.count, errors: r.errors, conversations_completed: r.completed,
          server_cpu_cores: r.serverCpu, redis_cpu_cores: r.redisCpu, load_cpu_cores: r.loadCpu,
          server_cpu_ms_per_turn: r.serverCpuMsPerTurn, redis_round_trips_per_turn: r.roundTripsPerTurn, redis_round_trips_per_turn_by_command: r.roundTrips,
          redis_commands_per_turn: r.commandsPerTurn, redis_commands_per_turn_by_name: r.commands,
        })),
        caveat: availableParallelism() < instances + 2
          ? `${availableParallelism()} CPUs for ${instances} instances, Redis and ${loaders} load processes: they share cores, so the ratio is bounded by the CPU left over, not by Questline`
          : undefined,
        wall_s: round((Date.now() - t0) / 1000),
      },
    };
    if (json) process.stdout.write(JSON.stringify(result) + '\n');
    else {
      const rows = [
        ['instances', 'turns/s', 'p50 ms', 'p99 ms', 'server CPU (cores)', 'Redis CPU', 'errors'],
        ...[one, many].map((r) => [String(r.instances), String(r.turnsPerS), String(r.latency.p50), String(r.latency.p99), r.serverCpu.join(' + '), String(r.redisCpu), String(r.errors)]),
      ];
      const w = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
      const line = (r: string[]) => r.map((c, i) => c.padEnd(w[i]!)).join('  ').trimEnd();
      process.stdout.write([
        `Questline on Redis (${quick ? 'quick' : 'full'}; ${availableParallelism()} CPUs, Node ${process.version}; ${clients} clients, closed loop, over ${loaders} load processes)`,
        '',
        line(rows[0]!), line(w.map((n) => '-'.repeat(n))), ...rows.slice(1).map(line),
        '',
        `scaling ratio (${instances} instances / 1): ${ratio}`,
        ...(result.notes.caveat ? [result.notes.caveat] : []),
        `took ${result.notes.wall_s} s`,
        '',
      ].join('\n'));
    }
    return 0;
  } catch (e) {
    process.stderr.write(`bench:server --store redis: ${(e as Error).stack}\n`);
    return 1;
  } finally {
    await stop();
  }
}
