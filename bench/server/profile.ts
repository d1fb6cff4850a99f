/**
 * Summarises a V8 `.cpuprofile` (from `node --cpu-prof`): where the server's
 * CPU time went, by function (self and inclusive) and by file or package.
 * `npx tsx bench/server/profile.ts FILE.cpuprofile [--top N]` prints it too.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from './common.ts';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** One row of a summary: a name, ms and share of all sampled time. */
export interface ProfileRow {
  name: string;
  ms: number;
  pct: number;
}

export interface ProfileSummary {
  totalMs: number;
  /** Share of samples spent outside JS idle: (total - idle) / total. */
  busyPct: number;
  selfByFunction: ProfileRow[];
  inclusiveByFunction: ProfileRow[];
  selfByFile: ProfileRow[];
  /** Self time grouped into layers: socket.io/engine.io/ws, store (fs), engine, extractor, zod, GC, … */
  selfByArea: ProfileRow[];
  /**
   * Each sample charged to the nearest frame of the server's own code on its
   * stack (server/…), so native calls, node internals and npm packages count
   * for the server file that called them; GC and idle stay apart. Async
   * continuations start new stacks, so a function's share is the work done in
   * its own frames and what they call synchronously.
   */
  byServerFile: ProfileRow[];
  /** The same, by server function. */
  byServerFunction: ProfileRow[];
}

const ROOT = `file://${REPO_ROOT}`;

/** A short name for a script url: repo-relative path, or the npm package. */
function fileOf(url: string): string {
  if (!url) return '(native)';
  if (url.startsWith('node:')) return url;
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    const pkg = rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
    return `npm:${pkg}`;
  }
  return url.startsWith(ROOT) ? url.slice(ROOT.length) : url;
}

function functionKey(f: CallFrame): string {
  const name = f.functionName || '(anonymous)';
  if (!f.url) return name;
  const file = f.url.startsWith(ROOT) ? f.url.slice(ROOT.length) : fileOf(f.url) + (f.url.includes('/node_modules/') ? `/${f.url.split('/').pop()}` : '');
  return `${name} ${file}:${f.lineNumber + 1}`;
}

/** The layer a frame belongs to, for the coarse breakdown. */
function areaOf(f: CallFrame): string {
  const name = f.functionName;
  if (name === '(garbage collector)') return 'GC';
  if (name === '(idle)') return 'idle';
  if (name === '(program)') return 'V8/native (program)';
  const file = fileOf(f.url);
  if (/npm:(socket\.io|engine\.io|ws|socket\.io-parser|socket\.io-adapter|@socket\.io)/.test(file)) return 'socket.io / engine.io / ws';
  if (file === 'npm:zod') return 'zod (payload and session parsing)';
  if (file === 'npm:pino' || file === 'npm:prom-client' || file === 'npm:rate-limiter-flexible') return `${file.slice(4)}`;
  if (file === 'npm:lowdb' || file === 'npm:steno') return 'lowdb/steno (record writes)';
  if (file.startsWith('npm:')) return file;
  if (file.startsWith('server/store/')) return 'server/store';
  if (file.startsWith('server/engine/')) return 'server/engine';
  if (file.startsWith('server/extract/')) return 'server/extract';
  if (file.startsWith('server/conversation/')) return 'server/conversation';
  if (file.startsWith('server/transport/')) return 'server/transport';
  if (file.startsWith('server/')) return file.split('/').slice(0, 2).join('/');
  if (file.startsWith('node:fs') || file.startsWith('node:internal/fs')) return 'node fs';
  if (file.startsWith('node:internal/stream') || file.startsWith('node:net') || file.startsWith('node:internal/net') || file.startsWith('node:stream')) return 'node net/streams';
  if (file.startsWith('node:')) return 'node (other internals)';
  if (file === '(native)') return name ? `native: ${name}` : 'native';
  return file;
}

const top = (m: Map<string, number>, total: number, n: number): ProfileRow[] =>
  [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).map(([name, us]) => ({ name, ms: Math.round(us / 100) / 10, pct: Math.round((us / total) * 1000) / 10 }));

/** Reads and summarises a profile. */
export function summarizeProfile(file: string, n = 25): ProfileSummary {
  const p = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const node of p.nodes) {
    byId.set(node.id, node);
    for (const c of node.children ?? []) parent.set(c, node.id);
  }
  const selfUs = new Map<number, number>();
  let total = 0;
  p.samples.forEach((id, i) => {
    const dt = p.timeDeltas[i] ?? 0;
    selfUs.set(id, (selfUs.get(id) ?? 0) + dt);
    total += dt;
  });
  const selfFn = new Map<string, number>();
  const selfFile = new Map<string, number>();
  const selfArea = new Map<string, number>();
  const incl = new Map<string, number>();
  const byServerFile = new Map<string, number>();
  const byServerFn = new Map<string, number>();
  let idle = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    const f = node.callFrame;
    if (f.functionName === '(idle)') idle += us;
    const key = functionKey(f);
    selfFn.set(key, (selfFn.get(key) ?? 0) + us);
    const file = f.url ? fileOf(f.url) : f.functionName || '(native)';
    selfFile.set(file, (selfFile.get(file) ?? 0) + us);
    const area = areaOf(f);
    selfArea.set(area, (selfArea.get(area) ?? 0) + us);
    // charged to the nearest server frame
    let owner: CallFrame | undefined;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      if (frame.url.startsWith(`${ROOT}server/`)) {
        owner = frame;
        break;
      }
    }
    const ownerFile = owner ? owner.url.slice(ROOT.length) : `(no server frame) ${area}`;
    byServerFile.set(ownerFile, (byServerFile.get(ownerFile) ?? 0) + us);
    const ownerFn = owner ? functionKey(owner) : ownerFile;
    byServerFn.set(ownerFn, (byServerFn.get(ownerFn) ?? 0) + us);
    // inclusive: every distinct function on the stack gets this node's self time
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const k = functionKey(byId.get(at)!.callFrame);
      if (seen.has(k)) continue;
      seen.add(k);
      incl.set(k, (incl.get(k) ?? 0) + us);
    }
  }
  for (const k of ['(root)', '(idle)', '(program)', '(garbage collector)']) incl.delete(k);
  return {
    totalMs: Math.round(total / 1000),
    busyPct: Math.round(((total - idle) / total) * 1000) / 10,
    selfByFunction: top(selfFn, total, n),
    inclusiveByFunction: top(incl, total, n),
    selfByFile: top(selfFile, total, n),
    selfByArea: top(selfArea, total, n),
    byServerFile: top(byServerFile, total, n),
    byServerFunction: top(byServerFn, total, n),
  };
}

/** The summary as text. */
export function formatProfile(s: ProfileSummary): string {
  const section = (title: string, rows: ProfileRow[]) =>
    [`${title}`, ...rows.map((r) => `  ${String(r.pct.toFixed(1)).padStart(5)}%  ${String(r.ms.toFixed(0)).padStart(7)} ms  ${r.name}`)].join('\n');
  return [
    `sampled ${s.totalMs} ms, busy ${s.busyPct}% (the rest idle)`,
    section('self time by area:', s.selfByArea),
    section('charged to the nearest server file on the stack (what it ran synchronously, natives and packages included):', s.byServerFile),
    section('charged to the nearest server function on the stack:', s.byServerFunction),
    section('self time by file / package:', s.selfByFile),
    section('self time by function:', s.selfByFunction),
    section('inclusive time by function:', s.inclusiveByFunction),
  ].join('\n\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write('usage: tsx bench/server/profile.ts FILE.cpuprofile [--top N]\n');
    process.exit(2);
  }
  const at = process.argv.indexOf('--top');
  process.stdout.write(formatProfile(summarizeProfile(file, at > 0 ? Number(process.argv[at + 1]) : 25)) + '\n');
}
