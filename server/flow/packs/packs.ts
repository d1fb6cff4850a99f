import { compileFlow } from '../compile.ts';
import type { CompiledFlow } from '../compiled-flow.ts';
import { hasErrors, sortDiagnostics, type Diagnostic } from '../diagnostic.ts';
import type { DocPath, SourceMap } from '../load.ts';
import { applyOverlay } from './apply.ts';
import { layerLabel, sortEntries, type LayerInfo, type MergeReport } from './report.ts';
import { edgeKey, MergeState, type ActiveLayer } from './state.ts';
import { schemaDiagnostics } from '../schema-issues.ts';
import { FlowV1, type FlowSource, type Overlay } from '../schema.ts';
import { pathKey } from './paths.ts';
import { EMPTY_MAP } from './apply.ts';

// Layered packs: global flow → industry packs → tenant → instance overrides.
// The merge is ours rather than a generic deep-merge library's because its
// meaning is the domain's: nodes and edges by stable id, per-field strategies
// with conflicts, a report of every change and the provenance of every field.

/** The flow every layer extends, with where it came from. */
export interface BaseInput {
  /** The flow as written (texts may be maps by locale). */
  flow: FlowSource;
  file?: string;
  map?: SourceMap;
  /** Defaults to `global`. */
  name?: string;
}

/** One overlay to apply. */
export interface LayerInput {
  overlay: Overlay;
  /** Defaults: kind from `overlay.layer`, name `<kind> <overlay.id>` (or just the kind). */
  info?: Partial<LayerInfo>;
  map?: SourceMap;
  /** Orders layers of the same kind before ids do: the position of a pack in tenant.json `packs`. */
  group?: number;
}

/** The effective flow and everything about how it was made. */
export interface MergeResult {
  /** The merged IR (texts may be maps by locale); absent when a conflict or a broken layer stopped the merge. */
  ir?: FlowSource;
  report: MergeReport;
  /** Field path (`nodes.q.intent.prompt`) → the layer that set it (`tenant acme (flows/tenants/acme/sales.json)`). */
  provenance: Record<string, string>;
  diagnostics: Diagnostic[];
}

/** A merge that was also compiled. */
export interface EffectiveResult extends MergeResult {
  flow?: CompiledFlow;
}

const KIND_RANK = { global: 0, industry: 1, tenant: 2, instance: 3 } as const;

/** Layer order: kind (global → industry → tenant → instance), then group, then overlay id, then file, so input order never matters. */
export function orderLayers<T extends LayerInput>(layers: readonly T[]): T[] {
  const key = (l: T) => [KIND_RANK[l.info?.kind ?? l.overlay.layer], l.group ?? 0, l.overlay.id ?? '', l.info?.file ?? '', l.info?.name ?? ''] as const;
  return [...layers].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
    return 0;
  });
}

function activeLayer(l: LayerInput): ActiveLayer {
  const kind = l.info?.kind ?? l.overlay.layer;
  const info: LayerInfo = { name: l.info?.name ?? (l.overlay.id ? `${kind} ${l.overlay.id}` : kind), kind, ...(l.info?.file ? { file: l.info.file } : {}) };
  return { info, label: layerLabel(info), ...(l.map ? { map: l.map } : {}) };
}

/**
 * Merges overlays onto a base flow: every change is reported, every field
 * gets its provenance, and a change to a field an earlier layer marked
 * `error` is refused as a conflict (then there is no `ir`). Deterministic:
 * the same base and layers, in any order, give the same result.
 */
export function mergeLayers(base: BaseInput, layers: readonly LayerInput[]): MergeResult {
  return runMerge(base, layers).result;
}

/** Merges and compiles; compiler diagnostics point at the layer file that last wrote the node or edge. */
export function mergeAndCompile(base: BaseInput, layers: readonly LayerInput[]): EffectiveResult {
  const { result, st } = runMerge(base, layers);
  if (!result.ir) return result;
  const res = compileFlow({ flow: result.ir });
  const diagnostics = sortDiagnostics([...result.diagnostics, ...mapDiagnostics(res.diagnostics, st)]);
  return { ...result, diagnostics, ...(res.flow && !hasErrors(diagnostics) ? { flow: res.flow } : {}) };
}

function runMerge(base: BaseInput, layers: readonly LayerInput[]): { result: MergeResult; st: MergeState } {
  const baseInfo: LayerInfo = { name: base.name ?? 'global', kind: 'global', ...(base.file ? { file: base.file } : {}) };
  const ordered = orderLayers(layers);
  const active: ActiveLayer[] = [{ info: baseInfo, label: layerLabel(baseInfo), ...(base.map ? { map: base.map } : {}) }, ...ordered.map(activeLayer)];
  // the merge never reads a text's content, so maps by locale pass through it like strings
  const st = new MergeState(structuredClone(base.flow) as FlowV1, active);
  st.stampBase();
  ordered.forEach((l, i) => {
    if (l.overlay.extends !== base.flow.id) {
      st.diag('error', 'wrong_base', `${active[i + 1]!.info.name} extends '${l.overlay.extends}', not '${base.flow.id}'`, { layer: i + 1, src: ['extends'] });
      return;
    }
    applyOverlay(st, i + 1, l.overlay);
  });
  const infos = active.map((a) => a.info);
  const report: MergeReport = { flow: base.flow.id, layers: infos, changes: sortEntries(st.entries, infos), conflicts: sortEntries(st.conflicts, infos) };
  const diagnostics = [...st.diagnostics];
  let ir: FlowSource | undefined;
  if (!hasErrors(diagnostics)) {
    const parsed = FlowV1().safeParse(st.flow);
    if (parsed.success) ir = parsed.data;
    else diagnostics.push(...mapDiagnostics(schemaDiagnostics(parsed.error, { file: '', data: st.flow, map: EMPTY_MAP }), st));
  }
  return { result: { ...(ir ? { ir } : {}), report, provenance: st.provenance(), diagnostics: sortDiagnostics(diagnostics) }, st };
}

/** The layer that set the field at `path` (or its nearest ancestor), from a result's provenance. */
export function provenanceOf(provenance: Readonly<Record<string, string>>, path: readonly string[]): string | undefined {
  for (let n = path.length; n > 0; n--) {
    const hit = provenance[pathKey(path.slice(0, n))];
    if (hit) return hit;
  }
  return undefined;
}

/**
 * Points diagnostics about the merged flow at the layer that last wrote the
 * node or edge concerned (its entry in that layer's file), and says when a
 * reference dangles because a layer removed its node.
 */
function mapDiagnostics(list: readonly Diagnostic[], st: MergeState): Diagnostic[] {
  return list.map((d) => {
    const edge = d.edge ? findEdgeOrigin(st, d.edge) : undefined;
    const origin = edge ?? (d.node ? st.origins.get(`node:${d.node}`) : undefined);
    const layer = st.layers[origin?.layer ?? 0]!;
    const pos = origin && layer.map ? layer.map.at(origin.path) : undefined;
    const gone = [...st.removed].filter(([id]) => d.message.includes(`'${id}'`)).map(([id, by]) => `node '${id}' was removed by ${by}`);
    const { file: _f, line: _l, col: _c, ...rest } = d;
    return {
      ...rest,
      message: `${d.message}${gone.length ? ` — ${gone.join('; ')}` : ''} (merged flow; from ${layer.info.name})`,
      ...(layer.info.file ? { file: layer.info.file } : {}),
      ...(pos ? { line: pos.line, col: pos.col } : {}),
    };
  });
}

function findEdgeOrigin(st: MergeState, id: string): { layer: number; path: DocPath } | undefined {
  const direct = st.origins.get(`edge:${id}`) ?? st.origins.get(`edge:${id.replace(/#\d+$/, '')}`);
  if (direct) return direct;
  const hit = st.allEdges().find(({ edge }) => edgeKey(edge) === id);
  const from = hit?.edge.from ?? id.split('->')[0];
  return from ? st.origins.get(`node:${from}`) : undefined;
}
