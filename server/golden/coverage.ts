import type { EngineEvent } from '../engine/types.ts';
import type { CompiledFlow } from '../flow/compiled-flow.ts';

/** What the goldens of one flow exercised, accumulated over runs. */
export interface FlowCoverage {
  flowId: string;
  flow: CompiledFlow;
  nodes: Set<string>;
  edges: Set<string>;
  /** `edgeId:true` / `edgeId:false` for every guard evaluated. */
  arms: Set<string>;
  locks: Set<string>;
  /** `locale nodeId` for every node whose texts a golden saw the bot show in that locale. */
  shown: Set<string>;
}

/** One measured dimension: how much was exercised and what was not. */
export interface Share {
  covered: number;
  total: number;
  missing: string[];
}

/** The coverage report of one flow. */
export interface CoverageReport {
  flowId: string;
  revision: string;
  nodes: Share;
  edges: Share;
  guardArms: Share;
  /** `invalid`, `failure` and `rejected` edges. */
  specialEdges: Share;
  pathLocks: Share;
  /** For a flow with `locales`: per locale, the nodes with visitor texts (questions, reviews, `say`) a golden showed in it. */
  locales?: Array<{ locale: string; texts: Share }>;
}

/** Starts (or continues) the coverage of a flow. */
export function coverageFor(map: Map<string, FlowCoverage>, flow: CompiledFlow): FlowCoverage {
  const key = `${flow.id}@${flow.revision}`;
  let c = map.get(key);
  if (!c) {
    c = { flowId: flow.id, flow, nodes: new Set(), edges: new Set(), arms: new Set(), locks: new Set(), shown: new Set() };
    map.set(key, c);
  }
  return c;
}

/** Adds a run's events. */
export function recordCoverage(c: FlowCoverage, events: readonly EngineEvent[], shown: readonly string[] = []): void {
  for (const s of shown) c.shown.add(s);
  for (const e of events) {
    if (e.type === 'node_enter' && e.node) c.nodes.add(e.node);
    else if (e.type === 'node_exit' && typeof e.edge === 'string') c.edges.add(e.edge);
    else if (e.type === 'guard' && typeof e.edge === 'string') c.arms.add(`${e.edge}:${e.result === true}`);
    else if (e.type === 'path_lock' && typeof e.path === 'string') c.locks.add(e.path);
  }
}

const share = (all: readonly string[], seen: (x: string) => boolean): Share => {
  const missing = all.filter((x) => !seen(x));
  return { covered: all.length - missing.length, total: all.length, missing };
};

/** Shares and lists of what no golden reached. */
export function coverageReport(c: FlowCoverage): CoverageReport {
  const f = c.flow;
  const normal = f.edges.filter((e) => !e.on);
  const special = f.edges.filter((e) => e.on);
  const guarded = f.edges.filter((e) => e.guard !== null && e.guard !== 'else');
  return {
    flowId: f.id,
    revision: f.revision,
    nodes: share([...f.nodes.keys()], (n) => c.nodes.has(n)),
    edges: share(normal.map((e) => e.id), (id) => c.edges.has(id)),
    guardArms: share(guarded.flatMap((e) => [`${e.id}:true`, `${e.id}:false`]), (a) => c.arms.has(a)),
    specialEdges: share(special.map((e) => `${e.id} (on ${e.on})`), (s) => c.edges.has(s.slice(0, s.lastIndexOf(' (on ')))),
    pathLocks: share(Object.keys(f.source.paths?.options ?? {}), (p) => c.locks.has(p)),
    ...(f.i18n ? { locales: f.i18n.locales.map((locale) => ({ locale, texts: share(textNodes(f), (id) => c.shown.has(`${locale} ${id}`)) })) } : {}),
  };
}

/** Nodes that show the visitor a text of the flow: questions, reviews, and any node with `say`. */
function textNodes(f: CompiledFlow): string[] {
  return [...f.nodes.values()].filter((c) => c.node.type === 'question' || c.node.type === 'review' || c.node.say !== undefined).map((c) => c.node.id);
}

const pct = (s: Share) => (s.total === 0 ? '  n/a' : `${((100 * s.covered) / s.total).toFixed(0).padStart(4)}%`);

/** The coverage report as text: one line per dimension, then what was never exercised. */
export function formatCoverage(r: CoverageReport): string[] {
  const dims: Array<[string, Share]> = [['nodes', r.nodes], ['edges', r.edges], ['guard arms', r.guardArms], ['invalid/failure edges', r.specialEdges], ['path locks', r.pathLocks]];
  const lines = [`${r.flowId} (revision ${r.revision})`];
  for (const [name, s] of dims) lines.push(`  ${name.padEnd(22)} ${pct(s)}  ${s.covered}/${s.total}`);
  for (const [name, s] of dims) if (s.missing.length) lines.push(`  never exercised ${name}: ${s.missing.join(', ')}`);
  for (const { locale, texts } of r.locales ?? []) {
    lines.push(`  texts in ${locale.padEnd(13)} ${pct(texts)}  ${texts.covered}/${texts.total}`);
    if (texts.missing.length) lines.push(`  never shown in ${locale}: ${texts.missing.join(', ')}`);
  }
  return lines;
}
