import { canonicalJson } from '../../shared/canonical-json.ts';
import { desugar } from '../desugar.ts';
import type { Diagnostic } from '../diagnostic.ts';
import type { DocPath, SourceMap } from '../load.ts';
import { MergeRules, pathKey } from './paths.ts';
import { ProvenanceTree } from './provenance.ts';
import { brief, layerLabel, type LayerInfo, type ReportEntry } from './report.ts';
import type { Edge, FlowV1, MergeStrategy, Node } from '../schema.ts';

// The state of one merge in progress: the flow being built, the rules, the
// report, provenance, and where each node and edge was last written (for
// mapping compiler diagnostics back to a layer file).

/** A layer while merging: the report's name for it, and its positions. */
export interface ActiveLayer {
  info: LayerInfo;
  label: string;
  map?: SourceMap;
}

/** Where something was last written: the layer and the path of its entry in that layer's document. */
export interface Origin {
  layer: number;
  path: DocPath;
}

/** A field write in progress: which layer, and where its value sits in the layer's document. */
export interface Site {
  layer: number;
  src: DocPath;
}

type Obj = Record<string, unknown>;
/** True for a plain JSON object (not null, not a list). */
export const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
/** True when two JSON values are equal, whatever their key order. */
export const same = (a: unknown, b: unknown): boolean => canonicalJson(a) === canonicalJson(b);

/** The key an edge is known by in paths and the report: its id, else `from->to`. */
export const edgeKey = (e: Edge): string => e.id ?? `${e.from}->${e.to}`;

/**
 * What makes two list items "the same" under concat: a node-like `id`, an
 * option-like `value` (a bare string counts as a value), else the whole item.
 */
function identity(item: unknown): string {
  if (typeof item === 'string') return `v:${item}`;
  if (isObj(item) && typeof item.id === 'string') return `id:${item.id}`;
  if (isObj(item) && typeof item.value === 'string') return `v:${item.value}`;
  return `j:${canonicalJson(item)}`;
}

/** Appends `extra` to `base`; an item whose identity is already there replaces it in place. */
export function concatItems(base: readonly unknown[], extra: readonly unknown[]): unknown[] {
  const out = [...base];
  for (const item of extra) {
    const at = out.findIndex((x) => identity(x) === identity(item));
    if (at < 0) out.push(item);
    else out[at] = item;
  }
  return out;
}

/** The working flow, the rules and the records of one merge. */
export class MergeState {
  readonly rules = new MergeRules();
  readonly entries: ReportEntry[] = [];
  readonly conflicts: ReportEntry[] = [];
  readonly diagnostics: Diagnostic[] = [];
  readonly origins = new Map<string, Origin>();
  /** Node id → label of the layer that removed it, for hints on dangling references. */
  readonly removed = new Map<string, string>();
  private readonly prov = new ProvenanceTree();

  constructor(
    readonly flow: FlowV1,
    readonly layers: ActiveLayer[],
  ) {}

  // ---- the flow's nodes and edges

  /** Scopes in a fixed order: the top level (null), then subgraphs by insertion. */
  scopes(): Array<string | null> {
    return [null, ...Object.keys(this.flow.subgraphs ?? {})];
  }

  /** The node list of a scope. */
  nodesOf(scope: string | null): Node[] {
    return scope === null ? this.flow.nodes : (this.flow.subgraphs?.[scope]?.nodes ?? []);
  }

  /** Finds a node anywhere (ids are unique across the flow). */
  findNode(id: string): { node: Node; scope: string | null; index: number } | undefined {
    for (const scope of this.scopes()) {
      const index = this.nodesOf(scope).findIndex((n) => n.id === id);
      if (index >= 0) return { node: this.nodesOf(scope)[index]!, scope, index };
    }
    return undefined;
  }

  /** The explicit edges of a scope, or undefined when the scope is a sequence. */
  edgesOf(scope: string | null): Edge[] | undefined {
    return scope === null ? this.flow.edges : this.flow.subgraphs?.[scope]?.edges;
  }

  /**
   * The edges of a scope as a list an overlay can change: a sequence (no
   * `edges`) is first written out as the edges it stands for, so that adding
   * one edge does not drop the implied ones.
   */
  explicitEdges(scope: string | null): Edge[] {
    const have = this.edgesOf(scope);
    if (have) return have;
    const implied = desugar(this.flow).edges.filter((e) => e.scope === scope && !e.route).map((e) => ({ ...e.edge }));
    if (scope === null) this.flow.edges = implied;
    else this.flow.subgraphs![scope]!.edges = implied;
    // implied edges belong to whoever added the node they leave
    for (const e of implied) this.stamp(['edges', edgeKey(e)], e, this.setBy(['nodes', e.from, 'id']) ?? this.layers[0]!.label);
    return implied;
  }

  /** Every explicit edge with its scope and list. */
  allEdges(): Array<{ edge: Edge; scope: string | null; list: Edge[] }> {
    return this.scopes().flatMap((scope) => (this.edgesOf(scope) ?? []).map((edge) => ({ edge, scope, list: this.edgesOf(scope)! })));
  }

  // ---- provenance

  /** Credits every field of the base flow to layer 0, and records where each node and edge sits in its file. */
  stampBase(): void {
    const label = this.layers[0]!.label;
    for (const scope of this.scopes()) {
      const at: string[] = scope === null ? [] : ['subgraphs', scope];
      this.nodesOf(scope).forEach((n, i) => {
        this.stamp(['nodes', n.id], n, label);
        this.origins.set(`node:${n.id}`, { layer: 0, path: [...at, 'nodes', i] });
      });
      (this.edgesOf(scope) ?? []).forEach((e, i) => {
        this.stamp(['edges', edgeKey(e)], e, label);
        this.origins.set(`edge:${edgeKey(e)}`, { layer: 0, path: [...at, 'edges', i] });
      });
      if (scope !== null) {
        const sg = this.flow.subgraphs![scope]!;
        for (const k of ['label', 'entry'] as const) if (sg[k] !== undefined) this.stamp(['subgraphs', scope, k], sg[k], label);
      }
    }
    for (const k of Object.keys(this.flow)) {
      if (!['$schema', 'version', 'nodes', 'edges', 'subgraphs'].includes(k)) this.stamp([k], (this.flow as Record<string, unknown>)[k], label);
    }
  }

  /** Marks every field of `value` (a node, an edge) or the value itself as set by `layer`. */
  stamp(segs: string[], value: unknown, label: string): void {
    this.forget(segs);
    if (isObj(value) && (segs[0] === 'nodes' || segs[0] === 'edges') && segs.length === 2) {
      for (const k of Object.keys(value)) this.prov.set([...segs, k], label);
    } else this.prov.set(segs, label);
  }

  /** Drops provenance at and below `segs`. */
  forget(segs: readonly string[]): void {
    this.prov.forget(segs);
  }

  /** Moves provenance when an edge changes its key (it gained an id, or its `to` changed). */
  rename(from: string[], to: string[]): void {
    this.prov.move(from, to);
  }

  /** Label of the layer that set the field at `segs` (or its nearest ancestor). */
  setBy(segs: readonly string[]): string | undefined {
    return this.prov.nearest(segs);
  }

  /** Provenance as a plain object with sorted keys. */
  provenance(): Record<string, string> {
    return this.prov.entries();
  }

  // ---- report and diagnostics

  /** Adds a report entry for a change at `segs`, and updates provenance. */
  record(segs: string[], layer: number, strategy: MergeStrategy, before: unknown, after: unknown, extra: Partial<ReportEntry> = {}): void {
    const l = this.layers[layer]!;
    const replaces = before !== undefined ? this.setBy(segs) : undefined;
    this.entries.push({
      ...this.target(segs),
      action: before === undefined ? 'add' : after === undefined ? 'remove' : 'change',
      layer: l.info.name,
      ...(l.info.file ? { file: l.info.file } : {}),
      strategy,
      ...(before !== undefined ? { before: structuredClone(before) } : {}),
      ...(after !== undefined ? { after: structuredClone(after) } : {}),
      ...(replaces && replaces !== l.label ? { replaces } : {}),
      ...extra,
    });
    if (after === undefined) this.forget(segs);
    else this.stamp(segs, after, l.label);
  }

  /** Reports a diagnostic at `src` in a layer's document (positions when the layer has a source map). */
  diag(severity: Diagnostic['severity'], code: string, message: string, site: Site, extra: Partial<Diagnostic> = {}, opts: { key?: boolean } = {}): void {
    const l = this.layers[site.layer]!;
    const pos = l.map?.at(site.src, opts);
    this.diagnostics.push({
      code, severity, message,
      ...(l.info.file ? { file: l.info.file } : {}),
      ...(pos ? { line: pos.line, col: pos.col } : {}),
      ...extra,
    });
  }

  private target(segs: readonly string[]): Pick<ReportEntry, 'target' | 'id' | 'field'> {
    if (segs[0] === 'nodes' || segs[0] === 'edges') {
      return { target: segs[0] === 'nodes' ? 'node' : 'edge', id: segs[1]!, field: segs.slice(2).join('.') };
    }
    return { target: 'flow', id: this.flow.id, field: segs.join('.') };
  }

  // ---- field strategies

  /**
   * Merges one field and returns its new value (undefined: the field is
   * gone). `after === null` deletes the field. See flows/packs/README.md for the
   * strategies; every change and refusal is recorded.
   */
  mergeField(segs: string[], before: unknown, after: unknown, site: Site, fallback: 'override' | 'deep' = 'override'): unknown {
    if (after === undefined) return before;
    const resolved = this.rules.resolve(segs, site.layer, fallback);
    const next = after === null ? undefined : after;
    if (resolved.strategy === 'error') {
      if (!same(before, next)) this.conflict(segs, before, next, site, resolved.rule);
      return before;
    }
    // a text by locale that names only some of the locales changes those and keeps the others (one language's pack);
    // one that names them all replaces the text whole, like a string
    const byLocale = this.isLocaleMap(before) && this.isLocaleMap(next) && resolved.strategy !== 'concat'
      && Object.keys(before as Obj).some((l) => !Object.hasOwn(next as Obj, l));
    const descend = isObj(before) && isObj(next) &&
      (byLocale || resolved.strategy === 'deep' || (resolved.strategy === 'override' && this.rules.reachesBelow(segs, site.layer)));
    if (descend) {
      const out: Obj = { ...(before as Obj) };
      for (const k of Object.keys(next as Obj)) {
        const v = this.mergeField([...segs, k], out[k], (next as Obj)[k], { layer: site.layer, src: [...site.src, k] },
          resolved.strategy === 'deep' ? 'deep' : 'override');
        if (v === undefined) delete out[k];
        else out[k] = v;
      }
      return out;
    }
    let value = next;
    let strategy: MergeStrategy = resolved.strategy;
    if (strategy === 'concat' && next !== undefined) {
      if (Array.isArray(next) && (before === undefined || Array.isArray(before))) value = concatItems((before as unknown[] | undefined) ?? [], next);
      else if (this.isLocaleMap(before) && (Array.isArray(next) || this.isLocaleMap(next))) {
        // lists by locale: a plain list is added to every locale's, a list by locale to its own
        const b = before as Record<string, unknown>;
        const add = (l: string) => (Array.isArray(next) ? next : ((next as Record<string, unknown>)[l] as unknown[] | undefined) ?? []);
        const keys = [...new Set([...Object.keys(b), ...(Array.isArray(next) ? [] : Object.keys(next as Obj))])];
        value = Object.fromEntries(keys.map((l) => [l, concatItems((b[l] as unknown[] | undefined) ?? [], add(l))]));
      } else {
        this.diag('warning', 'merge_strategy_mismatch', `${pathKey(segs)}: "concat" needs lists on both sides; the value was replaced instead`, site);
        strategy = 'override';
      }
    }
    // deep on a leaf (or on a list) replaces it; the report still names the rule that applied
    if (same(before, value)) return before;
    this.record(segs, site.layer, strategy, before, value);
    return value;
  }

  /** Whether a value is a text (or list) given by the flow's declared locales, `{ en: …, de: … }`. */
  isLocaleMap(v: unknown): boolean {
    const locales = (this.flow as { locales?: readonly string[] }).locales;
    return locales !== undefined && isObj(v) && Object.keys(v).length > 0 && Object.keys(v).every((k) => locales.includes(k))
      && Object.values(v).every((x) => typeof x === 'string' || Array.isArray(x));
  }

  /** Records a refused change to a field an earlier layer marked `error`. */
  conflict(segs: string[], before: unknown, after: unknown, site: Site, rule: { pattern: string; layer: number }): void {
    const l = this.layers[site.layer]!;
    const owner = this.layers[rule.layer]!;
    this.conflicts.push({
      ...this.target(segs),
      action: before === undefined ? 'add' : after === undefined ? 'remove' : 'change',
      layer: l.info.name,
      ...(l.info.file ? { file: l.info.file } : {}),
      strategy: 'error',
      ...(before !== undefined ? { before: structuredClone(before) } : {}),
      ...(after !== undefined ? { after: structuredClone(after) } : {}),
      conflict: { rule: rule.pattern, layer: owner.label },
    });
    const what = after === undefined ? 'remove' : 'change';
    this.diag('error', 'merge_conflict',
      `merge conflict: ${l.info.name} cannot ${what} ${pathKey(segs)}: ${layerLabel(owner.info)} marks "${rule.pattern}" as "error" ` +
      `(it stays ${brief(before, 40)}; this layer ${after === undefined ? 'removes it' : `sets ${brief(after, 40)}`})`, site,
      segs[0] === 'nodes' ? { node: segs[1]! } : segs[0] === 'edges' ? { edge: segs[1]! } : {});
  }

  /** Every field path of a node or edge that a removal would change, for lock checks. */
  leafPaths(segs: string[], value: unknown): string[][] {
    if (!isObj(value)) return [segs];
    const keys = Object.keys(value);
    return keys.length ? keys.flatMap((k) => this.leafPaths([...segs, k], value[k])) : [segs];
  }
}
