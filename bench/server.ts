/**
 * The server under load: a real server (startServer, LowdbStore on a temp
 * DATA_DIR, the repository's flows; bench/server/server-child.ts) in one
 * child process, socket.io-client visitors (bench/server/load.ts) in another,
 * this process orchestrating over IPC.
 *
 *   npm run bench:server [-- --json] [-- --quick] [-- --clients N] [-- --seconds S] [-- --rate R]
 *                        [-- --idle N] [-- --profile] [-- --only throughput|memory|sessions]
 *
 * 1. Throughput: N clients (500) each play the sales script on the demo
 *    tenant, sending the next message as soon as the previous turn completed
 *    (closed loop) and restarting the session when it completes (every tenth
 *    time starting a new one, bench/server/load.ts); 6 s warm-up,
 *    S seconds (18) measured: turns/s and p50/p99 turn latency. Turn latency =
 *    message emitted → its ack; the server acks after the save, and after the
 *    turn's bot messages went out on the same websocket, so they have arrived
 *    (details in bench/server/load.ts). With every client always waiting,
 *    mean latency = clients / throughput (Little's law), so this run gives
 *    the maximum throughput, not the latency. Then the latency: the same
 *    clients, open loop — together they offer R messages/s (`--rate R`;
 *    default half the measured maximum), each on its own Poisson schedule
 *    whatever the server's pace, latency counted from the scheduled moment
 *    (so a slow server is not excused by clients that waited for it).
 * 2. Memory per idle session: server RSS and heapUsed+external (forced GCs,
 *    over IPC) before and after M clients (1,000) connect, start a session
 *    each and sit idle; (after − before) / M.
 * 3. Stored sessions: two data directories seeded with 1k and 100k sessions
 *    (real session files copied under new ids into the shard layout); 50
 *    clients, half of them returning visitors resuming random stored sessions
 *    on new connections, think time 300 ms ±50% (about a third of capacity, so
 *    p50 is service time rather than queueing), 10 s per run; runs alternate
 *    1k, 100k, 1k, 100k on freshly started servers; samples pooled per size.
 *
 *    Then the floor: the same load generator, clients and script, closed loop,
 *    against a bare socket.io server (bench/server/floor-child.ts) that
 *    replays per turn the events and ack Questline sent for that step
 *    (captured from the server under test by one visitor first) and does
 *    nothing else. The closed loop's measured time (18 s a side) is three
 *    windows per side, Questline and the floor taking turns (Q F Q F Q F;
 *    6 s warm-up before each side's first, 2 s before the others), so a
 *    drift of the machine falls on both: turns_per_s and floor_turns_per_s
 *    are the medians of their windows, floor_ratio the median of the three
 *    pairwise ratios (notes.floor.windows lists them).
 * `--memory-store` runs the server with STORE=memory instead of the
 * LowdbStore (stored sessions then start empty: the 1k/100k part is not
 * meaningful with it).
 * `--replay-turns` is a diagnostic (bench/server/replay-turns.ts): turns
 * another visitor already took skip the extractor and the engine, the rest
 * runs, so floor_ratio reads as if those two were free.
 * `--profile` takes a V8 CPU profile of the server (the profiler --cpu-prof
 * uses, started and stopped over node:inspector exactly around the first measured
 * closed-loop window) and prints where its time went (stderr; summary in
 * notes.cpu_profile). `--memory-outbox` is a diagnostic: startServer given
 * the LowdbStore as an override keeps the webhook outbox in memory instead of
 * its fsynced journal. BENCH_SERVER_NODE_ARGS (environment) adds node flags to
 * the server child only, e.g. `--trace-gc` to see its collector's pauses. The
 * paced run reports the server's event-loop delay too (notes.paced
 * server_event_loop_delay_p99_ms / _max_ms) and the load process's
 * (load_event_loop_delay_…): a stall of the server's thread shows in the
 * first, a stall of the client (which delays the turns it times) in the
 * second, a stall of the whole machine in both. monitorEventLoopDelay's
 * figures include its 10 ms sampling interval. BENCH_PROFILE_PACED=1 also takes
 * a CPU profile of the server over the paced window (its file is printed;
 * gaps in its samples are time the server's thread was not running).
 * BENCH_STALLS=1 (Linux) prints, for each window, the server's event-loop
 * stalls over 10 ms and where their time went: the main thread running
 * (collector pauses apart), waiting for a CPU, or neither (bench/server/stalls.ts).
 * Timing is never asserted anywhere.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  progress, REPO_FLOWS, round, sleep, spawnChild, summarize,
  type Child, type LatencySummary, type LoadChildMessage, type LoadJob, type ServerChildMessage,
} from './server/common.ts';
import { formatProfile, summarizeProfile, type ProfileRow, type ProfileSummary } from './server/profile.ts';
import { makeTemplates, seedSessions, type SessionTemplate } from './server/seed.ts';

// --- options ----------------------------------------------------------------

const argv = process.argv.slice(2);
// --store redis [--instances N]: 1 vs N instances on one Redis (bench/server/redis.ts)
if (argv.includes('--store')) process.exit(await (await import('./server/redis.ts')).runRedisBench(argv));
const flag = (name: string) => argv.includes(name);
const option = (name: string): number | undefined => {
  const at = argv.indexOf(name);
  if (at < 0) return undefined;
  const v = Number(argv[at + 1]);
  if (!Number.isFinite(v) || v <= 0) usage(`${name} needs a positive number`);
  return v;
};
function usage(msg: string): never {
  process.stderr.write(`bench:server: ${msg}\nusage: npm run bench:server -- [--json] [--quick] [--clients N] [--seconds S] [--rate R] [--idle N] [--profile] [--memory-outbox] [--memory-store] [--replay-turns] [--only throughput|memory|sessions]\n`);
  process.exit(2);
}
const known = new Set(['--json', '--quick', '--profile', '--memory-outbox', '--memory-store', '--replay-turns', '--clients', '--seconds', '--idle', '--only', '--rate']);
for (const [i, a] of argv.entries()) {
  if (a.startsWith('--') && !known.has(a)) usage(`unknown option ${a}`);
  if (!a.startsWith('--') && !['--clients', '--seconds', '--idle', '--only', '--rate'].includes(argv[i - 1] ?? '')) usage(`unexpected argument ${a}`);
}
/** Offered messages/s of the paced (open-loop) latency run; default half the measured closed-loop maximum. */
const pacedRate = option('--rate');
const json = flag('--json');
const quick = flag('--quick');
const profile = flag('--profile');
/** Diagnostic: the webhook outbox in memory rather than the fsynced journal (startServer does that when handed a store). */
const memoryOutbox = flag('--memory-outbox');
/** STORE=memory instead of the durable LowdbStore (sessions live and die with the process): the store's share of a turn. */
const memoryStore = flag('--memory-store');
const replayTurns = flag('--replay-turns');
if (memoryStore && memoryOutbox) usage('--memory-store and --memory-outbox do not go together');
const onlyAt = argv.indexOf('--only');
const only = onlyAt >= 0 ? argv[onlyAt + 1] : undefined;
if (only !== undefined && !['throughput', 'memory', 'sessions'].includes(only)) usage('--only takes throughput, memory or sessions');
const runs = (phase: string) => only === undefined || only === phase;

const P = {
  clients: option('--clients') ?? (quick ? 50 : 500),
  warmupMs: quick ? 700 : 6_000,
  /** Closed-loop time measured per side, split over `pairs` windows that alternate between Questline and the floor. */
  measureMs: (option('--seconds') ?? (quick ? 2 : 18)) * 1000,
  pairs: quick ? 1 : 3,
  /** Warm-up of every window after each side's first (the server is warm by then; the load process's clients are new). */
  pairWarmupMs: quick ? 700 : 2_000,
  /** Long enough for the paced clients' fast-forward (a random number of script steps at full speed, so they spread over the script) to finish. */
  pacedWarmupMs: quick ? 1_200 : 8_000,
  pacedMeasureMs: quick ? 1_500 : 10_000,
  idleClients: option('--idle') ?? (quick ? 100 : 1_000),
  stored: quick ? [1_000, 2_000] : [1_000, 100_000],
  storedClients: quick ? 20 : 50,
  /** Think time between turns (±50%): about 125-150 turns/s offered, a third of what the server can do, so p50 is service time, not queueing. */
  storedThinkMs: quick ? 120 : 300,
  /** Share of those clients that resume stored sessions rather than start new ones. */
  storedReturning: 0.5,
  storedWarmupMs: quick ? 700 : 3_000,
  /** Runs per size, alternating small and large. */
  storedRounds: quick ? 1 : 2,
  storedMeasureMs: quick ? 1_500 : 10_000,
};

// --- children ---------------------------------------------------------------

const children = new Set<Child<{ type: string }>>();
const temps: string[] = [];
const cleanup = () => {
  for (const c of children) c.kill();
  for (const d of temps) rmSync(d, { recursive: true, force: true });
};
process.on('SIGINT', () => {
  cleanup();
  process.exit(130);
});

const tempDir = (what: string) => {
  const d = mkdtempSync(join(tmpdir(), `questline-bench-${what}-`));
  temps.push(d);
  return d;
};

type ServerChild = Child<ServerChildMessage> & { url: string };

async function startServerChild(dataDir: string, opts: { gc?: boolean } = {}): Promise<ServerChild> {
  const nodeArgs = [...(opts.gc ? ['--expose-gc'] : []), ...(process.env.BENCH_SERVER_NODE_ARGS ? process.env.BENCH_SERVER_NODE_ARGS.split(' ') : [])];
  const child = spawnChild<ServerChildMessage>('./server-child.ts', { nodeArgs, env: { DATA_DIR: dataDir, FLOWS_DIR: REPO_FLOWS, ...(memoryOutbox ? { BENCH_OUTBOX: 'memory' } : {}), ...(memoryStore ? { BENCH_STORE: 'memory' } : {}), ...(replayTurns ? { BENCH_REPLAY_TURNS: '1' } : {}) } });
  children.add(child);
  const ready = await child.next('ready', 60_000);
  return Object.assign(child, { url: ready.url });
}

async function stopServerChild(child: ServerChild): Promise<void> {
  child.send({ type: 'close' });
  const timer = setTimeout(() => child.kill(), 20_000);
  await child.exited;
  clearTimeout(timer);
  children.delete(child);
}

async function memory(child: ServerChild): Promise<Extract<ServerChildMessage, { type: 'mem' }>> {
  child.send({ type: 'mem' });
  return child.next('mem', 30_000);
}

async function startFloorChild(capture: string): Promise<ServerChild> {
  const child = spawnChild<ServerChildMessage>('./floor-child.ts', { env: { CAPTURE: capture } });
  children.add(child);
  const ready = await child.next('ready', 60_000);
  return Object.assign(child, { url: ready.url });
}

function startLoad(job: LoadJob): Child<LoadChildMessage> {
  const child = spawnChild<LoadChildMessage>('./load.ts', { args: [JSON.stringify(job)] });
  children.add(child);
  void child.exited.then(() => children.delete(child));
  return child;
}

interface SteadyResult {
  load: Extract<LoadChildMessage, { type: 'steady-done' }>;
  server: Extract<ServerChildMessage, { type: 'window-stats' }>;
}

/** Runs a steady load against `server`; the load child marks its measurement window, which the server child measures (and profiles). */
async function steady(server: ServerChild, job: Omit<Extract<LoadJob, { mode: 'steady' }>, 'mode' | 'url'>, profileDir?: string): Promise<SteadyResult> {
  const load = startLoad({ mode: 'steady', url: server.url, ...job });
  load.proc.on('message', (m: LoadChildMessage) => {
    if (m.type === 'window') server.send({ type: 'window', at: m.at, ...(m.at === 'start' && profileDir ? { profileDir } : {}) });
  });
  const stats = server.next('window-stats', job.warmupMs + job.measureMs + 120_000);
  const done = await load.next('steady-done', job.warmupMs + job.measureMs + 120_000);
  await load.exited;
  if (done.errors) progress(`  ${done.errors} errors; first: ${done.firstError}`);
  return { load: done, server: await stats };
}

const round2 = round;
const lat = (l: LatencySummary) => `p50 ${l.p50} ms, p99 ${l.p99} ms (n=${l.count})`;

// --- phases -------------------------------------------------------------------

interface Throughput {
  clients: number;
  turnsPerS: number;
  latency: LatencySummary;
  restartLatency: LatencySummary;
  completed: number;
  errors: number;
  clientCpu: number;
  /** Server CPU (share of a core) in the median window. */
  serverCpu: number;
  /** Server CPU per turn over all of Questline's windows (CPU time / turns). */
  serverCpuMsPerTurn: number;
  eventLoopP99Ms: number;
  eventLoopMaxMs: number;
  paced: { offeredTurnsPerS: number; turnsPerS: number; thinkMs: number; latency: LatencySummary; errors: number; serverCpu: number; rateFromFlag: boolean; eventLoopP99Ms: number; eventLoopMaxMs: number; clientEventLoopP99Ms: number; clientEventLoopMaxMs: number };
  byStep: LatencySummary[];
  /** The same closed loop against the bare socket.io server replaying Questline's packets (bench/server/floor-child.ts). */
  floor: { turnsPerS: number; ratio: number; latency: LatencySummary; serverCpu: number; serverCpuMsPerTurn: number; errors: number; packetsPerTurn: number; bytesPerTurn: number };
  /** Questline's and the floor's windows in the order they ran, in pairs. */
  windows: { questline_turns_per_s: number; floor_turns_per_s: number; ratio: number }[];
  profile?: { file: string; summary: ProfileSummary };
}

/** The median of `xs` (the lower middle one of an even count). */
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

async function throughput(): Promise<Throughput> {
  const dataDir = tempDir('throughput');
  const profileDir = profile ? mkdtempSync(join(tmpdir(), 'questline-bench-profile-')) : undefined;
  const server = await startServerChild(dataDir);
  const captureFile = join(tempDir('capture'), 'capture.json');
  let floorServer: ServerChild | undefined;
  try {
    // what Questline sends per turn, for the floor server to replay (one visitor, one pass of the script)
    const cap = startLoad({ mode: 'capture', url: server.url, file: captureFile });
    const captured = await cap.next('captured', 60_000);
    await cap.exited;
    progress(`captured Questline's packets: ${captured.packetsPerTurn} socket.io packets per message turn (events + ack), ${captured.bytesPerTurn} bytes of JSON`);
    // the transport floor: the same load generator, clients and script against a bare socket.io server sending the same packets
    floorServer = await startFloorChild(captureFile);
    const windowMs = Math.round(P.measureMs / P.pairs);
    progress(`closed loop, ${P.clients} clients: Questline and the floor (a bare socket.io server replaying those packets) take turns, ${P.pairs} window(s) each of ${windowMs / 1000} s measured ` +
      `(the first of each after ${P.warmupMs / 1000} s of warm-up, the others after ${P.pairWarmupMs / 1000} s)`);
    const rate = (r: SteadyResult) => r.load.turns / (r.load.windowMs / 1000);
    const qs: SteadyResult[] = [];
    const fs: SteadyResult[] = [];
    for (let i = 0; i < P.pairs; i++) {
      const warmupMs = i === 0 ? P.warmupMs : P.pairWarmupMs;
      const q = await steady(server, { clients: P.clients, warmupMs, measureMs: windowMs, thinkMs: 0 }, i === 0 ? profileDir : undefined);
      qs.push(q);
      const qTurns = rate(q);
      progress(`  Questline ${i + 1}: ${round(qTurns)} turns/s, ${lat(q.load.latency)}; ${q.load.restarts} restarts or new sessions; server CPU ${round(q.server.cpu * 100)}% of a core, ${round((q.server.cpu * 1000) / qTurns)} ms per turn, event-loop delay p99 ${q.server.eventLoopP99Ms} ms; load process CPU ${round(q.load.clientCpu * 100)}%; connect+start ${q.load.connectMs} ms`);
      const f = await steady(floorServer, { clients: P.clients, warmupMs, measureMs: windowMs, thinkMs: 0 });
      fs.push(f);
      const fTurns = rate(f);
      progress(`  floor ${i + 1}: ${round(fTurns)} turns/s, ${lat(f.load.latency)}; server CPU ${round(f.server.cpu * 100)}% of a core, ${round((f.server.cpu * 1000) / fTurns)} ms per turn; ratio ${round(qTurns / fTurns)}`);
    }
    const turnsPerS = median(qs.map(rate));
    const floorTurnsPerS = median(fs.map(rate));
    const ratios = qs.map((q, i) => rate(q) / rate(fs[i]!));
    // CPU per turn over all windows of a side: CPU-seconds / turns
    const cpuPerTurn = (rs: SteadyResult[]) => rs.reduce((a, r) => a + r.server.cpu * (r.load.windowMs / 1000), 0) / rs.reduce((a, r) => a + r.load.turns, 0);
    const r = qs.find((q) => rate(q) === turnsPerS)!;
    progress(`  by script step (p50/p99 ms, Questline's median window): ${r.load.byStep.map((x, i) => `${i + 1}: ${x.p50}/${x.p99}`).join(', ')}; restart ${r.load.restartLatency.p50}/${r.load.restartLatency.p99}`);
    progress(`  Questline ${round(turnsPerS)} turns/s (median), floor ${round(floorTurnsPerS)} turns/s (median); floor_ratio ${round(median(ratios))} (median of ${ratios.map(round).join(', ')})`);
    await stopServerChild(floorServer);
    floorServer = undefined;
    // the same clients, open loop at a stated rate: the latency of a server that keeps up with its load
    const offered = pacedRate ?? Math.max(1, Math.round(turnsPerS / 2));
    const thinkMs = Math.round((P.clients / offered) * 1000);
    progress(`paced: ${P.clients} clients, open loop, ${offered} messages/s offered (Poisson per client, mean gap ${thinkMs} ms${pacedRate ? '' : '; half the measured maximum'}), ${P.pacedWarmupMs / 1000} s warm-up + ${P.pacedMeasureMs / 1000} s measured`);
    const { load: paced, server: ps } = await steady(server, { clients: P.clients, warmupMs: P.pacedWarmupMs, measureMs: P.pacedMeasureMs, thinkMs: 0, rate: offered }, process.env.BENCH_PROFILE_PACED ? mkdtempSync(join(tmpdir(), 'questline-paced-profile-')) : undefined);
    const pacedAchieved = paced.turns / (paced.windowMs / 1000);
    if (ps.profile) progress(`CPU profile of the server during the paced window: ${ps.profile}`);
    progress(`  by script step (p50/p99 ms): ${paced.byStep.map((x, i) => `${i + 1}: ${x.p50}/${x.p99}`).join(', ')}`);
    progress(`  ${round(pacedAchieved)} turns/s, ${lat(paced.latency)}; server CPU ${round(ps.cpu * 100)}% of a core, ${round((ps.cpu * 1000) / pacedAchieved)} ms per turn, event-loop delay p99 ${ps.eventLoopP99Ms} ms, max ${ps.eventLoopMaxMs} ms; the load process's p99 ${paced.clientEventLoopP99Ms} ms, max ${paced.clientEventLoopMaxMs} ms`);
    await stopServerChild(server);
    const first = qs[0]!.server;
    let prof: Throughput['profile'];
    if (first.profile) {
      prof = { file: first.profile, summary: summarizeProfile(first.profile, 30) };
      progress(`CPU profile of the server during the first measured closed-loop window: ${first.profile}\n${formatProfile(prof.summary)}`);
    }
    const f0 = fs.find((f) => rate(f) === floorTurnsPerS)!;
    return {
      clients: P.clients, turnsPerS: round(turnsPerS), latency: summarize(qs.flatMap((q) => q.load.samples)),
      restartLatency: r.load.restartLatency, completed: qs.reduce((a, q) => a + q.load.completed, paced.completed),
      errors: qs.reduce((a, q) => a + q.load.errors, paced.errors), clientCpu: r.load.clientCpu, serverCpuMsPerTurn: cpuPerTurn(qs) * 1000,
      serverCpu: r.server.cpu, eventLoopP99Ms: r.server.eventLoopP99Ms, eventLoopMaxMs: Math.max(...qs.map((q) => q.server.eventLoopMaxMs)),
      paced: { offeredTurnsPerS: round(offered), turnsPerS: round(pacedAchieved), thinkMs, latency: paced.latency, errors: paced.errors, serverCpu: ps.cpu, rateFromFlag: pacedRate !== undefined, eventLoopP99Ms: ps.eventLoopP99Ms, eventLoopMaxMs: ps.eventLoopMaxMs, clientEventLoopP99Ms: paced.clientEventLoopP99Ms, clientEventLoopMaxMs: paced.clientEventLoopMaxMs },
      byStep: r.load.byStep,
      floor: {
        turnsPerS: round(floorTurnsPerS), ratio: round(median(ratios)), latency: summarize(fs.flatMap((f) => f.load.samples)), serverCpu: f0.server.cpu,
        serverCpuMsPerTurn: cpuPerTurn(fs) * 1000, errors: fs.reduce((a, f) => a + f.load.errors, 0), packetsPerTurn: captured.packetsPerTurn, bytesPerTurn: captured.bytesPerTurn,
      },
      windows: qs.map((q, i) => ({ questline_turns_per_s: round(rate(q)), floor_turns_per_s: round(rate(fs[i]!)), ratio: round(ratios[i]!) })),
      ...(prof ? { profile: prof } : {}),
    };
  } finally {
    server.kill();
    floorServer?.kill();
  }
}

interface Memory {
  clients: number;
  connected: number;
  kbRss: number;
  kbHeap: number;
  /** heapUsed + external (Buffers and other off-heap memory V8 accounts for). */
  kbHeapExternal: number;
  /** Of the heap per session, what disconnecting freed (the socket's share); the rest stays with the stored session (record cache, metrics). */
  kbHeapFreedOnDisconnect: number;
  rssBeforeMb: number;
  rssAfterMb: number;
  gc: boolean;
}

async function idleMemory(): Promise<Memory> {
  const dataDir = tempDir('memory');
  const server = await startServerChild(dataDir, { gc: true });
  try {
    progress(`memory: warming the server up (20 clients, ${quick ? 1 : 2} s), then ${P.idleClients} idle sessions`);
    await steady(server, { clients: 20, warmupMs: 500, measureMs: quick ? 500 : 1_500, thinkMs: 0 });
    await sleep(500);
    const before = await memory(server);
    const load = startLoad({ mode: 'idle', url: server.url, clients: P.idleClients });
    const ready = await load.next('idle-ready', 120_000);
    if (ready.errors) progress(`  ${ready.errors} errors; first: ${ready.firstError}`);
    await sleep(quick ? 300 : 1_000);
    const after = await memory(server);
    load.send({ type: 'release' });
    await load.next('idle-closed', 30_000);
    await load.exited;
    await sleep(quick ? 300 : 1_000);
    const released = await memory(server);
    await stopServerChild(server);
    const n = ready.started;
    const kb = (a: number, b: number) => round((a - b) / n / 1024);
    const m: Memory = {
      clients: P.idleClients, connected: after.sockets, kbRss: kb(after.usage.rss, before.usage.rss), kbHeap: kb(after.usage.heapUsed, before.usage.heapUsed),
      kbHeapExternal: kb(after.usage.heapUsed + after.usage.external, before.usage.heapUsed + before.usage.external),
      kbHeapFreedOnDisconnect: kb(after.usage.heapUsed, released.usage.heapUsed),
      rssBeforeMb: round(before.usage.rss / 2 ** 20), rssAfterMb: round(after.usage.rss / 2 ** 20), gc: after.gc,
    };
    progress(`  ${ready.started} sessions started on ${ready.connected} sockets (${ready.connectMs} ms); RSS ${m.rssBeforeMb} → ${m.rssAfterMb} MB: ${m.kbRss} KB/session RSS, ${m.kbHeap} KB/session heap, ${m.kbHeapExternal} KB heap+external (${m.kbHeapFreedOnDisconnect} KB freed on disconnect)`);
    return m;
  } finally {
    server.kill();
  }
}

interface Stored {
  sessions: number;
  seedMs: number;
  /** Pooled over the rounds. */
  latency: LatencySummary;
  resumeLatency: LatencySummary;
  /** p50 of each round, in order. */
  roundP50s: number[];
  turnsPerS: number;
  serverCpu: number;
  errors: number;
}

/**
 * Two data directories, seeded with P.stored[0] and P.stored[1] sessions;
 * runs alternate between them (small, large, small, large …), each on a freshly
 * started server, and each size's samples are pooled. Returning visitors of
 * each run resume sessions of their directory that no earlier run touched.
 */
async function storedSessions(): Promise<Stored[]> {
  const scratch = tempDir('resumable');
  const templates: SessionTemplate[] = await makeTemplates();
  const sizes = P.stored.map((count) => {
    const dataDir = tempDir(`stored-${count}`);
    const seeded = seedSessions(dataDir, count, templates);
    progress(`stored sessions: seeded ${count} sessions in ${seeded.ms} ms (${seeded.active.length} active, resumable)`);
    const share = Math.floor(seeded.active.length / P.storedRounds);
    return { count, dataDir, seedMs: seeded.ms, chunks: Array.from({ length: P.storedRounds }, (_, r) => seeded.active.slice(r * share, (r + 1) * share)), runs: [] as SteadyResult[] };
  });
  for (let round = 0; round < P.storedRounds; round++) {
    for (const size of sizes) {
      const file = join(scratch, `resumable-${size.count}-${round}.json`);
      writeFileSync(file, JSON.stringify(size.chunks[round]));
      const server = await startServerChild(size.dataDir);
      try {
        const run = await steady(server, {
          clients: P.storedClients, warmupMs: P.storedWarmupMs, measureMs: P.storedMeasureMs, thinkMs: P.storedThinkMs, returning: { file, share: P.storedReturning },
        });
        await stopServerChild(server);
        progress(`  round ${round + 1}, ${size.count} stored: ${round2(run.load.turns / (run.load.windowMs / 1000))} turns/s, ${lat(run.load.latency)}; resume of a stored session ${lat(run.load.resumeLatency)}; server CPU ${round2(run.server.cpu * 100)}% of a core`);
        size.runs.push(run);
      } finally {
        server.kill();
      }
    }
  }
  return sizes.map((size) => {
    const turns = size.runs.reduce((n, r) => n + r.load.turns, 0);
    const windowS = size.runs.reduce((n, r) => n + r.load.windowMs / 1000, 0);
    return {
      sessions: size.count, seedMs: size.seedMs,
      latency: summarize(size.runs.flatMap((r) => r.load.samples)),
      resumeLatency: pooledResume(size.runs),
      roundP50s: size.runs.map((r) => r.load.latency.p50),
      turnsPerS: round2(turns / windowS),
      serverCpu: round2(size.runs.reduce((n, r) => n + r.server.cpu, 0) / size.runs.length),
      errors: size.runs.reduce((n, r) => n + r.load.errors, 0),
    };
  });
}

/** Resume latencies are summarised per run; pooled here as the count-weighted p50 (the runs are alike). */
function pooledResume(runs: SteadyResult[]): LatencySummary {
  const count = runs.reduce((n, r) => n + r.load.resumeLatency.count, 0);
  const w = (f: (l: LatencySummary) => number) => round2(runs.reduce((n, r) => n + f(r.load.resumeLatency) * r.load.resumeLatency.count, 0) / Math.max(1, count));
  return { count, p50: w((l) => l.p50), p90: w((l) => l.p90), p99: w((l) => l.p99), max: Math.max(...runs.map((r) => r.load.resumeLatency.max)), mean: w((l) => l.mean) };
}

// --- report -------------------------------------------------------------------

const TARGETS = { turnsPerS: 2_000, p99Ms: 10, pacedP99Ms: 5, floorRatio: 0.5, ratio: 1.2, kbPerIdle: 50 };
const topRows = (r: ProfileRow[], n: number) => r.slice(0, n).map((x) => `${x.pct}% ${x.name}`);

try {
  const t0 = Date.now();
  const tp = runs('throughput') ? await throughput() : undefined;
  const mem = runs('memory') ? await idleMemory() : undefined;
  const st = runs('sessions') ? await storedSessions() : undefined;
  const small = st?.[0];
  const large = st?.[1];
  const ratio = small && large ? round(large.latency.p50 / small.latency.p50) : null;
  const kbPerIdle = mem ? Math.max(mem.kbRss, mem.kbHeapExternal) : null;
  const met = {
    turns_per_s: tp ? tp.turnsPerS >= TARGETS.turnsPerS : null,
    floor_ratio: tp ? tp.floor.ratio >= TARGETS.floorRatio : null,
    /** The closed loop's p99 (bound by Little's law: see notes.throughput.littles_law). */
    p99_ms: tp ? tp.latency.p99 <= TARGETS.p99Ms : null,
    /** The latency reading: p99 of the open-loop run at paced_rate. */
    paced_p99_ms: tp ? tp.paced.latency.p99 <= TARGETS.pacedP99Ms : null,
    ratio_100k_1k: ratio === null ? null : ratio <= TARGETS.ratio,
    kb_per_idle_session: kbPerIdle === null ? null : kbPerIdle <= TARGETS.kbPerIdle,
  };
  const result = {
    turns_per_s: tp?.turnsPerS ?? null,
    floor_turns_per_s: tp?.floor.turnsPerS ?? null,
    floor_ratio: tp?.floor.ratio ?? null,
    p50_ms: tp?.latency.p50 ?? null,
    p99_ms: tp?.latency.p99 ?? null,
    paced_rate: tp?.paced.offeredTurnsPerS ?? null,
    paced_p50_ms: tp?.paced.latency.p50 ?? null,
    paced_p99_ms: tp?.paced.latency.p99 ?? null,
    server_cpu_ms_per_turn: tp ? round(tp.serverCpuMsPerTurn) : null,
    kb_per_idle_session: kbPerIdle,
    p50_ms_1k_sessions: small?.latency.p50 ?? null,
    p50_ms_100k_sessions: large?.latency.p50 ?? null,
    ratio_100k_1k: ratio,
    notes: {
      mode: `${quick ? 'quick (smoke-run sizes, not the targets\' conditions)' : 'full'}${memoryOutbox ? '; DIAGNOSTIC: webhook outbox in memory (--memory-outbox)' : ''}${memoryStore ? '; STORE=memory (--memory-store)' : ''}${replayTurns ? '; DIAGNOSTIC: turns replayed without extractor and engine (--replay-turns)' : ''}`,
      machine: { cpus: (await import('node:os')).availableParallelism(), node: process.version },
      stored_sizes: P.stored,
      targets: { turns_per_s: `>= ${TARGETS.turnsPerS}`, floor_ratio: `>= ${TARGETS.floorRatio}`, p99_ms: `<= ${TARGETS.p99Ms}`, paced_p99_ms: `<= ${TARGETS.pacedP99Ms}`, ratio_100k_1k: `<= ${TARGETS.ratio}`, kb_per_idle_session: `<= ${TARGETS.kbPerIdle}` },
      met,
      turn_latency: 'message emitted -> its ack, client clock; the ack follows the save and the turn\'s bot messages on the same websocket (in order), so all bot messages of the turn have arrived; a turn without a new bot:message is an error',
      ...(tp ? {
        throughput: {
          clients: tp.clients, closed_loop: true, warmup_s: P.warmupMs / 1000, later_windows_warmup_s: P.pairWarmupMs / 1000, windows: P.pairs, measured_s: P.measureMs / 1000, p90_ms: tp.latency.p90, max_ms: tp.latency.max, mean_ms: tp.latency.mean,
          restart_p50_ms: tp.restartLatency.p50, conversations_completed: tp.completed, errors: tp.errors,
          server_cpu_cores: tp.serverCpu, server_cpu_ms_per_turn: round(tp.serverCpuMsPerTurn), server_event_loop_delay_p99_ms: tp.eventLoopP99Ms, server_event_loop_delay_max_ms: tp.eventLoopMaxMs,
          load_process_cpu_cores: tp.clientCpu,
          by_script_step_p50_p99_ms: tp.byStep.map((x) => [x.p50, x.p99]),
          littles_law: `with ${tp.clients} clients always waiting on a turn, mean latency = ${tp.clients} / throughput: ${round((tp.clients / tp.turnsPerS) * 1000)} ms at the measured rate; p99 <= ${TARGETS.p99Ms} ms in this closed loop would need >= ${round(tp.clients / (TARGETS.p99Ms / 1000))} turns/s`,
        },
        floor: {
          method: 'the same load generator, clients and script (closed loop, same warm-up and windows) against a bare socket.io server on /chat (bench/server/floor-child.ts) that replays, per turn, the events and ack Questline sent for that script step (captured from the server under test by one visitor before the run) and does nothing else. Questline and the floor take turns (Q F Q F Q F, both servers up throughout, only one loaded at a time), so a drift of the machine falls on both; turns_per_s and floor_turns_per_s are the medians of their windows, floor_ratio the median of the windows\' pairwise ratios',
          windows: tp.windows,
          turns_per_s: tp.floor.turnsPerS, p50_ms: tp.floor.latency.p50, p99_ms: tp.floor.latency.p99, errors: tp.floor.errors,
          server_cpu_cores: tp.floor.serverCpu, server_cpu_ms_per_turn: round(tp.floor.serverCpuMsPerTurn),
          packets_per_turn: tp.floor.packetsPerTurn, json_bytes_per_turn: tp.floor.bytesPerTurn,
        },
        paced: {
          clients: tp.clients, offered_turns_per_s: tp.paced.offeredTurnsPerS, think_ms: tp.paced.thinkMs, turns_per_s: tp.paced.turnsPerS,
          p50_ms: tp.paced.latency.p50, p99_ms: tp.paced.latency.p99, errors: tp.paced.errors, server_cpu_cores: tp.paced.serverCpu,
          p90_ms: tp.paced.latency.p90, max_ms: tp.paced.latency.max, turns_measured: tp.paced.latency.count,
          server_cpu_ms_per_turn: round((tp.paced.serverCpu * 1000) / tp.paced.turnsPerS),
          server_event_loop_delay_p99_ms: tp.paced.eventLoopP99Ms, server_event_loop_delay_max_ms: tp.paced.eventLoopMaxMs,
          load_event_loop_delay_p99_ms: tp.paced.clientEventLoopP99Ms, load_event_loop_delay_max_ms: tp.paced.clientEventLoopMaxMs,
          method: `open loop: ${tp.clients} connected clients offer ${tp.paced.offeredTurnsPerS} messages/s together (${tp.paced.rateFromFlag ? '--rate' : 'default: half the measured closed-loop maximum'}), each on a Poisson schedule with mean gap think_ms, independent of replies; a message whose slot comes while the client's previous turn runs waits for it, and latency counts from the slot`,
          measured_s: P.pacedMeasureMs / 1000,
        },
        ...(tp.profile ? {
          cpu_profile: {
            file: tp.profile.file, main_thread_busy_pct: tp.profile.summary.busyPct,
            by_area: topRows(tp.profile.summary.selfByArea, 12),
            by_server_file: topRows(tp.profile.summary.byServerFile, 15),
            by_server_function: topRows(tp.profile.summary.byServerFunction, 15),
          },
        } : {}),
      } : {}),
      ...(mem ? {
        memory: {
          idle_sessions: mem.clients, sockets_connected: mem.connected, kb_rss_per_session: mem.kbRss, kb_heap_per_session: mem.kbHeap,
          kb_heap_freed_on_disconnect: mem.kbHeapFreedOnDisconnect, rss_before_mb: mem.rssBeforeMb, rss_after_mb: mem.rssAfterMb, forced_gc: mem.gc,
          headline: "kb_per_idle_session = max(RSS delta, heapUsed+external delta) / sessions, both after forced GCs",
        },
      } : {}),
      ...(st ? {
        stored_sessions: st.map((s) => ({
          stored: s.sessions, seed_ms: s.seedMs, clients: P.storedClients, returning_share: P.storedReturning, think_ms: P.storedThinkMs,
          runs: P.storedRounds, measured_s_per_run: P.storedMeasureMs / 1000, round_p50_ms: s.roundP50s,
          turns_per_s: s.turnsPerS, p50_ms: s.latency.p50, p99_ms: s.latency.p99, turns_measured: s.latency.count,
          resume_p50_ms: s.resumeLatency.p50, resume_p99_ms: s.resumeLatency.p99, resumes: s.resumeLatency.count, server_cpu_cores: s.serverCpu, errors: s.errors,
        })),
      } : {}),
      wall_s: round((Date.now() - t0) / 1000),
    },
  };

  if (json) process.stdout.write(JSON.stringify(result) + '\n');
  else {
    const yes = (b: boolean | null) => (b === null ? 'n/a' : b ? 'met' : 'MISSED');
    const rows: Array<[string, string, string, string]> = [['figure', 'value', 'target', '']];
    const v = (x: number | null, unit = '') => (x === null ? 'n/a' : `${x}${unit}`);
    rows.push([`turns/s (${P.clients} clients, closed loop)`, v(result.turns_per_s), `>= ${TARGETS.turnsPerS}`, yes(met.turns_per_s)]);
    if (tp) rows.push([`transport floor (bare socket.io, same packets: ${tp.floor.packetsPerTurn} per turn)`, `${tp.floor.turnsPerS} turns/s; ratio ${result.floor_ratio}`, `ratio >= ${TARGETS.floorRatio}`, yes(met.floor_ratio)]);
    rows.push(['p50 turn latency', v(result.p50_ms, ' ms'), '', '']);
    rows.push(['p99 turn latency', v(result.p99_ms, ' ms'), `<= ${TARGETS.p99Ms} ms`, yes(met.p99_ms)]);
    if (tp) {
      const last = tp.byStep.at(-1)!;
      const others = tp.byStep.slice(0, -1).map((x) => x.p50).sort((a, b) => a - b);
      rows.push(['  the completing turn (11th message): p50 / p99', `${last.p50} / ${last.p99} ms`, '', '']);
      rows.push(['  messages 1-10: median of their p50s', `${others[Math.floor(others.length / 2)]} ms`, '', '']);
      rows.push(['  server CPU per turn (all threads)', `${round(tp.serverCpuMsPerTurn)} ms`, '', '']);
      rows.push([`paced: ${tp.paced.offeredTurnsPerS} msg/s offered, open loop (${tp.clients} clients): p50 / p99`, `${tp.paced.latency.p50} / ${tp.paced.latency.p99} ms`, `p99 <= ${TARGETS.pacedP99Ms} ms`, yes(met.paced_p99_ms)]);
    }
    rows.push([`memory per idle session (${P.idleClients})`, v(result.kb_per_idle_session, ' KB'), `<= ${TARGETS.kbPerIdle} KB`, yes(met.kb_per_idle_session)]);
    if (mem) rows.push(['  RSS / heapUsed per session', `${mem.kbRss} / ${mem.kbHeap} KB`, '', '']);
    const storedRow = (x: Stored | undefined, n: number) => [
      `p50 turn latency, ${n} stored sessions`, x ? `${x.latency.p50} ms (p99 ${x.latency.p99}; resume p50 ${x.resumeLatency.p50})` : 'n/a', '', '',
    ] as [string, string, string, string];
    rows.push(storedRow(small, P.stored[0]!));
    rows.push(storedRow(large, P.stored[1]!));
    rows.push([`ratio ${P.stored[1]} / ${P.stored[0]}`, v(result.ratio_100k_1k), `<= ${TARGETS.ratio}`, yes(met.ratio_100k_1k)]);
    const w = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i]!.length)));
    const line = (r: string[]) => r.map((c, i) => c.padEnd(w[i]!)).join('  ').trimEnd();
    process.stdout.write([
      `Questline server under load (${result.notes.mode}; ${result.notes.machine.cpus} CPUs, Node ${process.version}; server and load generator in separate processes)`,
      '',
      line(rows[0]!),
      line(w.map((n) => '-'.repeat(n))),
      ...rows.slice(1).map(line),
      '',
      ...(tp ? [`throughput run: ${tp.completed} conversations completed, ${tp.errors} errors; server used ${round(tp.serverCpu * 100)}% of a core in its median window (event-loop delay p99 ${tp.eventLoopP99Ms} ms), the load generator ${round(tp.clientCpu * 100)}%`,
        `closed loop: mean latency = clients / throughput (${round((tp.clients / tp.turnsPerS) * 1000)} ms here), so p99 <= ${TARGETS.p99Ms} ms needs >= ${round(tp.clients / (TARGETS.p99Ms / 1000))} turns/s with ${tp.clients} clients`] : []),
      ...(st ? [`stored sessions: ${P.storedClients} clients (half resume random stored sessions), think time ${P.storedThinkMs} ms ±50%, ${P.storedRounds} × ${P.storedMeasureMs / 1000} s per size, alternating, fresh server each run`] : []),
      'turn latency: message emitted → its ack (sent after the save, and after the turn\'s bot messages on the same websocket)',
      `took ${result.notes.wall_s} s`,
      '',
    ].join('\n'));
  }
} catch (e) {
  process.stderr.write(`bench:server: ${(e as Error).stack}\n`);
  process.exitCode = 1;
} finally {
  cleanup();
}
