/**
 * Bytes allocated per turn by the conversation service alone (the in-process
 * turns of bench/server/turn-cost.ts: C concurrent visitors play the sales
 * script on the service the server builds, no sockets). For each of R rounds
 * of T turns the V8 heap's growth between collections is summed
 * (`v8.GCProfiler`: used heap before each collection minus used heap after
 * the previous one) and divided by the turns; so are the bytes scavenges
 * moved to the old generation (what outlived two young collections: with
 * many visitors, a turn's new session state waits for the visitor's next
 * turn). The report takes the median over rounds. With `--sites N` one more round runs under
 * the inspector's sampling heap profiler (every object sampled, collected or
 * not) and the N functions that allocate most are listed with their share.
 *
 * `--survivors` leaves out the objects young collections freed, so the
 * sites are those of what outlived them (promoted, or still alive at the
 * end); `--save FILE` writes that round's profile (`.heapprofile`, for
 * Chrome DevTools' Memory tab).
 *
 * `--read FILE` only summarises a saved profile (the server's, too: see
 * BENCH_SERVER_HEAP_PROFILE in server-child.ts), per turn with `--turns T`.
 *
 *   npx tsx --expose-gc bench/server/alloc.ts [--rounds R] [--turns T] [--clients C] [--store lowdb|memory] [--sites N [--survivors] [--save FILE]] [--json]
 *   npx tsx bench/server/alloc.ts --read FILE [--sites N] [--turns T]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { relative } from 'node:path';
import v8 from 'node:v8';
import { REPO_ROOT, round } from './common.ts';
import { serviceVisitors } from './service-visitors.ts';

const argv = process.argv.slice(2);
const num = (name: string, fallback: number) => {
  const at = argv.indexOf(name);
  const v = at >= 0 ? Number(argv[at + 1]) : fallback;
  if (!Number.isInteger(v) || v < 0) throw new Error(`${name} needs a non-negative integer`);
  return v;
};
const rounds = num('--rounds', 5);
const turnsPerRound = num('--turns', 3_000);
const clients = num('--clients', 50);
const sites = num('--sites', 0);
const survivors = argv.includes('--survivors');
const json = argv.includes('--json');
const storeKind = argv.includes('--store') ? argv[argv.indexOf('--store') + 1] : 'lowdb';
if (storeKind !== 'lowdb' && storeKind !== 'memory') throw new Error('--store takes lowdb or memory');
const gc = (globalThis as { gc?: () => void }).gc;

/** Heap bytes allocated while `run` ran: the used heap's growth between collections, summed. */
async function allocated(run: () => Promise<number>): Promise<{ bytes: number; promoted: number; turns: number; collections: number }> {
  gc?.();
  const startUsed = v8.getHeapStatistics().used_heap_size;
  const profiler = new v8.GCProfiler();
  profiler.start();
  const turns = await run();
  const endUsed = v8.getHeapStatistics().used_heap_size;
  const { statistics } = profiler.stop();
  let bytes = 0;
  let promoted = 0;
  let after = startUsed;
  for (const s of statistics) {
    bytes += Math.max(0, s.beforeGC.heapStatistics.usedHeapSize - after);
    after = s.afterGC.heapStatistics.usedHeapSize;
    if (s.gcType === 'Scavenge') promoted += oldUsed(s.afterGC.heapSpaceStatistics) - oldUsed(s.beforeGC.heapSpaceStatistics);
  }
  bytes += Math.max(0, endUsed - after);
  return { bytes, promoted, turns, collections: statistics.length };
}

/** Bytes in the old generation (old space and large objects). */
const oldUsed = (spaces: ReadonlyArray<{ spaceName: string; spaceUsedSize: number }>) =>
  spaces.reduce((sum, s) => sum + (s.spaceName === 'old_space' || s.spaceName === 'large_object_space' ? s.spaceUsedSize : 0), 0);

interface ProfileNode { callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; selfSize: number; children: ProfileNode[] }

/** The functions allocating most in one round, by sampled self bytes per turn. */
async function topSites(visitors: Awaited<ReturnType<typeof serviceVisitors>>, count: number) {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: !survivors });
  const turns = await visitors.play(turnsPerRound);
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: ProfileNode } };
  session.disconnect();
  if (argv.includes('--save')) writeFileSync(argv[argv.indexOf('--save') + 1]!, JSON.stringify(profile));
  return summarize(profile, turns, count);
}

/** A sampled heap profile by function and by file (KB per turn over `turns`). */
function summarize(profile: { head: ProfileNode }, turns: number, count: number) {
  const bySite = new Map<string, number>();
  const byFile = new Map<string, number>();
  let total = 0;
  // A native function's bytes (a Map, a sort, an iterator) are charged to it
  // and to the script function that called it, the frame worth changing.
  const walk = (node: ProfileNode, caller: { site: string; file: string }) => {
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    const file = url.startsWith('file://') ? relative(REPO_ROOT, new URL(url).pathname).replace(/^(\.\.\/)+main\//, '') : url;
    const here = file
      ? { site: `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}:${columnNumber + 1}`, file: file.startsWith('node_modules/') ? file.split('/').slice(0, file.startsWith('node_modules/@') ? 3 : 2).join('/') : file }
      : { site: `${caller.site} → ${functionName || '(native)'}`, file: caller.file };
    bySite.set(here.site, (bySite.get(here.site) ?? 0) + node.selfSize);
    byFile.set(here.file, (byFile.get(here.file) ?? 0) + node.selfSize);
    total += node.selfSize;
    for (const c of node.children) walk(c, file ? here : caller);
  };
  walk(profile.head, { site: '(root)', file: '(native)' });
  const top = (m: Map<string, number>) =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, count).map(([name, b]) => ({ name, kb_per_turn: round(b / turns / 1024), share: round(b / total) }));
  return { sampled_kb_per_turn: round(total / turns / 1024), functions: top(bySite), files: top(byFile) };
}

if (argv.includes('--read')) {
  // a saved profile (--save, or the server's under BENCH_SERVER_HEAP_PROFILE): shares only, per turn when --turns is given
  const profile = JSON.parse(readFileSync(argv[argv.indexOf('--read') + 1]!, 'utf8')) as { head: ProfileNode };
  print(summarize(profile, argv.includes('--turns') ? turnsPerRound : 1, sites || 40), argv.includes('--turns') ? 'KB/turn' : 'KB');
  process.exit(0);
}

/** Prints a summary's tables. */
function print(s: ReturnType<typeof summarize>, unit: string): void {
  process.stdout.write(`\nsampled ${s.sampled_kb_per_turn} ${unit}; by file:\n`);
  for (const f of s.files) process.stdout.write(`  ${String(f.kb_per_turn).padStart(9)} ${unit}  ${(f.share * 100).toFixed(1).padStart(5)}%  ${f.name}\n`);
  process.stdout.write('by function:\n');
  for (const f of s.functions) process.stdout.write(`  ${String(f.kb_per_turn).padStart(9)} ${unit}  ${(f.share * 100).toFixed(1).padStart(5)}%  ${f.name}\n`);
}

const visitors = await serviceVisitors(storeKind, clients);
try {
  await visitors.play(turnsPerRound); // warm-up: JIT, caches
  const perTurn: number[] = [];
  const promotedPerTurn: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const { bytes, promoted, turns, collections } = await allocated(() => visitors.play(turnsPerRound));
    perTurn.push(bytes / turns / 1024);
    promotedPerTurn.push(promoted / turns / 1024);
    if (!json) process.stderr.write(`round ${r + 1}: ${turns} turns, ${collections} collections, ${round(bytes / turns / 1024)} KB allocated and ${round(promoted / turns / 1024)} KB promoted per turn\n`);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const result = {
    store: storeKind,
    clients,
    rounds,
    turns_per_round: turnsPerRound,
    kb_per_turn_median: round(median(perTurn)),
    kb_per_turn_min: round(Math.min(...perTurn)),
    promoted_kb_per_turn_median: round(median(promotedPerTurn)),
    ...(sites > 0 ? { sites: await topSites(visitors, sites) } : {}),
  };
  if (json) process.stdout.write(JSON.stringify(result) + '\n');
  else {
    process.stdout.write(`service allocation per turn (${storeKind}, ${clients} concurrent visitors): median ${result.kb_per_turn_median} KB, min ${result.kb_per_turn_min} KB (promoted by scavenges: median ${result.promoted_kb_per_turn_median} KB) over ${rounds} rounds of ${turnsPerRound} turns\n`);
    if (result.sites) print(result.sites, 'KB/turn');
  }
} finally {
  await visitors.close();
}
