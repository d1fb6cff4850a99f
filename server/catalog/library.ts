import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { CompiledFlow } from '../flow/compiled-flow.ts';
import { hasErrors, sortDiagnostics, type Diagnostic } from '../flow/diagnostic.ts';
import { compileDocument } from '../flow/document.ts';
import { loadFlowFile, parseFlowText, type SourceMap } from '../flow/load.ts';
import type { MergeReport } from '../flow/packs/report.ts';
import { mergeAndCompile, type BaseInput, type EffectiveResult, type LayerInput } from '../flow/packs/packs.ts';
import type { FlowV1, Overlay } from '../flow/schema.ts';
import { loadTenantFile, type Tenant } from './tenant.ts';

// The flows folder as the server and the CLI see it:
//   global/*.flow.(json|yaml)          base flows, by id
//   packs/<industry>/*.json            industry overlays
//   tenants/<tenant>/tenant.json       the tenant, plus its overlays beside it
// Loading never throws: a broken file becomes diagnostics on its entry.

const DOC_FILE = /\.(json|ya?ml)$/i;

/** Files beside flows that are not flow documents: the schema, goldens and their snapshots, tenant files. */
const NOT_A_FLOW = /^(flow\.schema\.json|tenant\.json|goldens\.ya?ml)$|\.golden\.(ya?ml|trace)$/;

/** Whether a file name in a flows folder names a flow or overlay document. */
export function isFlowDocument(name: string): boolean {
  return DOC_FILE.test(name) && !NOT_A_FLOW.test(name);
}

/** A base flow file. */
export interface LibraryFlow {
  id: string;
  file: string;
  version: 'v1' | 'v0';
  ir?: FlowV1;
  flow?: CompiledFlow;
  /** Positions in the file; only for v1 (a v0 flow's IR does not follow its file). */
  map?: SourceMap;
  diagnostics: Diagnostic[];
}

/** An overlay file; `overlay` is absent when it is broken. */
export interface OverlayFile {
  file: string;
  /** The flow it extends, when that much could be read. */
  extends?: string;
  overlay?: Overlay;
  map?: SourceMap;
  diagnostics: Diagnostic[];
}

/** A tenant folder. */
export interface LibraryTenant {
  id: string;
  dir: string;
  file: string;
  tenant?: Tenant;
  overlays: OverlayFile[];
  diagnostics: Diagnostic[];
}

/** Everything under a flows folder. */
export interface Library {
  dir: string;
  flows: Map<string, LibraryFlow>;
  packs: Map<string, OverlayFile[]>;
  tenants: Map<string, LibraryTenant>;
  /** Problems of the folder as a whole (duplicate ids, shared keys, unknown packs) and of every file. */
  diagnostics: Diagnostic[];
}

/** The effective flow of a tenant (or of the base alone) with its report and provenance. */
export interface EffectiveFlow extends EffectiveResult {
  report: MergeReport;
}

function listDir(dir: string, what: 'files' | 'dirs'): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => (what === 'dirs' ? d.isDirectory() : d.isFile() && isFlowDocument(d.name)))
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
}

/** Reads a base flow file (v1 or v0); `text`, when given, stands for the file's content (a draft or a published text). */
export function readFlowFile(file: string, text?: string): LibraryFlow | { file: string; diagnostics: Diagnostic[] } {
  const loaded = text === undefined ? loadFlowFile(file) : parseFlowText(text, file);
  if (!loaded.ok) return { file, diagnostics: loaded.diagnostics };
  const res = compileDocument(loaded.doc);
  if (res.kind !== 'flow') {
    return { file, diagnostics: res.kind === 'overlay' ? [{ code: 'not_a_flow', severity: 'error', file, line: 1, col: 1, message: 'this is an overlay, not a flow' }] : res.diagnostics };
  }
  const id = res.ir?.id ?? (loaded.doc.data as { id?: unknown }).id;
  return {
    id: typeof id === 'string' ? id : basename(file),
    file, version: res.version,
    ...(res.ir ? { ir: res.ir } : {}),
    ...(res.flow ? { flow: res.flow } : {}),
    ...(res.version === 'v1' ? { map: loaded.doc.map } : {}),
    diagnostics: res.diagnostics,
  };
}

/** Reads an overlay file; `layer` checks that it sits in the right kind of folder; `text` stands for the file's content. */
export function readOverlayFile(file: string, layer?: Overlay['layer'], text?: string): OverlayFile {
  const loaded = text === undefined ? loadFlowFile(file) : parseFlowText(text, file);
  if (!loaded.ok) return { file, diagnostics: loaded.diagnostics };
  const ext = (loaded.doc.data as { extends?: unknown } | null)?.extends;
  const base = { file, ...(typeof ext === 'string' ? { extends: ext } : {}) };
  const res = compileDocument(loaded.doc);
  if (res.kind !== 'overlay') {
    const diagnostics = res.kind === 'flow'
      ? [{ code: 'not_an_overlay', severity: 'error' as const, file, line: 1, col: 1, message: 'expected an overlay ("layer" and "extends"), found a flow' }]
      : res.diagnostics;
    return { ...base, diagnostics };
  }
  if (res.overlay && layer && res.overlay.layer !== layer) {
    const pos = loaded.doc.map.at(['layer']);
    return { ...base, diagnostics: [{ code: 'layer_mismatch', severity: 'error', file, ...(pos ?? {}),
      message: `an overlay under ${layer === 'industry' ? 'packs/' : 'tenants/'} must have "layer": "${layer}", not "${res.overlay.layer}"` }] };
  }
  return { ...base, ...(res.overlay ? { overlay: res.overlay, map: loaded.doc.map } : {}), diagnostics: res.diagnostics };
}

/** What loadLibrary may be told: texts (by absolute file path) that stand for files' contents — drafts and published texts. */
export interface LibraryOptions {
  texts?: ReadonlyMap<string, string>;
}

/** Scans a flows folder; never throws. */
export function loadLibrary(dir: string, opts: LibraryOptions = {}): Library {
  const textOf = (file: string) => opts.texts?.get(file);
  // a text for a file that is not on disk (a new file of the Studio, kept under DATA_DIR) is read like one that is
  const list = (d: string, what: 'files' | 'dirs') => {
    const names = listDir(d, what);
    if (what === 'dirs' || !opts.texts) return names;
    const extra = [...opts.texts.keys()].filter((f) => dirname(f) === d && isFlowDocument(basename(f)) && !names.includes(basename(f))).map((f) => basename(f));
    return extra.length ? [...names, ...extra].sort() : names;
  };
  const lib: Library = { dir, flows: new Map(), packs: new Map(), tenants: new Map(), diagnostics: [] };
  const problem = (file: string, code: string, message: string, severity: Diagnostic['severity'] = 'error') =>
    lib.diagnostics.push({ code, severity, file, message });

  for (const name of list(join(dir, 'global'), 'files')) {
    const read = readFlowFile(join(dir, 'global', name), textOf(join(dir, 'global', name)));
    lib.diagnostics.push(...read.diagnostics);
    if (!('id' in read)) continue;
    const prev = lib.flows.get(read.id);
    if (prev) problem(read.file, 'duplicate_flow_id', `flow id '${read.id}' is also used by ${prev.file}; the first one is used`);
    else lib.flows.set(read.id, read);
  }

  for (const industry of list(join(dir, 'packs'), 'dirs')) {
    const files = list(join(dir, 'packs', industry), 'files').map((f) => readOverlayFile(join(dir, 'packs', industry, f), 'industry', textOf(join(dir, 'packs', industry, f))));
    for (const f of files) lib.diagnostics.push(...f.diagnostics);
    lib.packs.set(industry, files);
  }

  const keyOwner = new Map<string, string>();
  for (const name of list(join(dir, 'tenants'), 'dirs')) {
    const tdir = join(dir, 'tenants', name);
    const file = join(tdir, 'tenant.json');
    const t: LibraryTenant = { id: name, dir: tdir, file, overlays: [], diagnostics: [] };
    let at = (_path: Array<string | number>): { line?: number; col?: number } => ({});
    if (!existsSync(file)) t.diagnostics.push({ code: 'missing_tenant_file', severity: 'error', file: tdir, message: `tenant folder '${name}' has no tenant.json` });
    else {
      const res = loadTenantFile(file);
      t.diagnostics.push(...res.diagnostics);
      const map = res.map;
      if (map) at = (path) => map.at(path) ?? {};
      if (res.tenant) {
        if (res.tenant.id !== name) t.diagnostics.push({ code: 'tenant_id_mismatch', severity: 'error', file, ...at(['id']), message: `tenant id '${res.tenant.id}' does not match its folder '${name}'` });
        else t.tenant = res.tenant;
      }
    }
    t.overlays = list(tdir, 'files').map((f) => readOverlayFile(join(tdir, f), 'tenant', textOf(join(tdir, f))));
    for (const o of t.overlays) t.diagnostics.push(...o.diagnostics);
    if (t.tenant) {
      t.tenant.keys.forEach((key, i) => {
        const owner = keyOwner.get(key);
        if (owner) t.diagnostics.push({ code: 'duplicate_tenant_key', severity: 'error', file, ...at(['keys', i]), message: `key '${key}' is also a key of tenant '${owner}'; a key must name one tenant` });
        else keyOwner.set(key, name);
      });
      t.tenant.packs.forEach((p, i) => {
        if (!lib.packs.has(p)) t.diagnostics.push({ code: 'unknown_pack', severity: 'error', file, ...at(['packs', i]), message: `tenant '${name}' uses pack '${p}', but there is no ${join(dir, 'packs', p)}` });
      });
      t.tenant.flows.forEach((f, i) => {
        if (!lib.flows.has(f)) t.diagnostics.push({ code: 'unknown_flow', severity: 'error', file, ...at(['flows', i]), message: `tenant '${name}' offers flow '${f}', which is not under ${join(dir, 'global')}` });
      });
      for (const o of t.overlays) {
        if (o.extends && !t.tenant.flows.includes(o.extends)) {
          t.diagnostics.push({ code: 'unused_overlay', severity: 'warning', file: o.file, message: `overlay extends '${o.extends}', which tenant '${name}' does not offer (see "flows" in tenant.json)` });
        }
      }
    }
    lib.diagnostics.push(...t.diagnostics);
    lib.tenants.set(name, t);
  }
  lib.diagnostics = sortDiagnostics(lib.diagnostics);
  return lib;
}

/** The name a layer file goes by: `industry lighting` under packs/lighting/, `tenant acme` under tenants/acme/. */
export function layerNameFor(file: string, overlay: Overlay): string {
  const parts = file.split(/[\\/]/);
  for (const [folder, kind] of [['packs', 'industry'], ['tenants', 'tenant']] as const) {
    const i = parts.lastIndexOf(folder);
    if (i >= 0 && i < parts.length - 2 && overlay.layer === kind) return `${kind} ${parts[i + 1]}`;
  }
  return overlay.id ? `${overlay.layer} ${overlay.id}` : `${overlay.layer} ${basename(file).replace(DOC_FILE, '')}`;
}

/** A layer input for an overlay file that loaded. */
export function layerOf(f: OverlayFile & { overlay: Overlay }, group = 0): LayerInput {
  return { overlay: f.overlay, info: { name: layerNameFor(f.file, f.overlay), kind: f.overlay.layer, file: f.file }, ...(f.map ? { map: f.map } : {}), group };
}

/**
 * The layers that apply to `flowId` for a tenant: its packs in the order
 * tenant.json lists them, then its own overlays. Unknown or broken parts are
 * error diagnostics.
 */
export function flowLayers(lib: Library, flowId: string, tenantId?: string, opts: { packs?: readonly string[] } = {}):
  { layers: LayerInput[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const layers: LayerInput[] = [];
  const use = (files: readonly OverlayFile[], group: number) => {
    for (const f of files) {
      if (f.extends !== undefined && f.extends !== flowId) continue;
      if (f.overlay) layers.push(layerOf(f as OverlayFile & { overlay: Overlay }, group));
      else diagnostics.push(...f.diagnostics);
    }
  };
  let tenant: LibraryTenant | undefined;
  if (tenantId !== undefined) {
    tenant = lib.tenants.get(tenantId);
    if (!tenant) {
      diagnostics.push({ code: 'unknown_tenant', severity: 'error', message: `no tenant '${tenantId}' under ${join(lib.dir, 'tenants')}` });
      return { layers, diagnostics };
    }
    if (!tenant.tenant) {
      diagnostics.push(...tenant.diagnostics.filter((d) => d.severity === 'error'));
      return { layers, diagnostics };
    }
    if (!tenant.tenant.flows.includes(flowId)) {
      diagnostics.push({ code: 'flow_not_offered', severity: 'error', file: tenant.file, message: `tenant '${tenantId}' does not offer flow '${flowId}' (its flows: ${tenant.tenant.flows.join(', ') || 'none'})` });
      return { layers, diagnostics };
    }
  }
  (opts.packs ?? tenant?.tenant?.packs ?? []).forEach((pack, i) => {
    const files = lib.packs.get(pack);
    if (!files) diagnostics.push({ code: 'unknown_pack', severity: 'error', message: `no pack '${pack}' under ${join(lib.dir, 'packs')}` });
    else use(files, i);
  });
  if (tenant) use(tenant.overlays, 0);
  // tenant.json `messages`: the tenant's built-in texts, a tenant layer of their own (after its overlay files)
  const messages = tenant?.tenant?.messages;
  if (tenant && messages) {
    layers.push({ overlay: { version: 'v1', layer: 'tenant', extends: flowId, id: '~messages', messages },
      info: { kind: 'tenant', name: `tenant ${tenantId} messages`, ...(tenant.file ? { file: tenant.file } : {}) }, group: 1 });
  }
  return { layers, diagnostics };
}

const emptyReport = (flow: string, base?: { file: string }): MergeReport =>
  ({ flow, layers: [{ name: 'global', kind: 'global', ...(base ? { file: base.file } : {}) }], changes: [], conflicts: [] });

/** Merges a base flow with the layers for a tenant (and instance overrides), then compiles it. */
export function effectiveFlowOf(base: LibraryFlow, lib: Library, tenantId?: string,
  opts: { packs?: readonly string[]; instance?: readonly (Overlay | LayerInput)[] } = {}): EffectiveFlow {
  if (!base.ir || hasErrors(base.diagnostics)) return { report: emptyReport(base.id, base), provenance: {}, diagnostics: base.diagnostics };
  const { layers, diagnostics } = flowLayers(lib, base.id, tenantId, opts);
  if (hasErrors(diagnostics)) return { report: emptyReport(base.id, base), provenance: {}, diagnostics: sortDiagnostics(diagnostics) };
  const instance = (opts.instance ?? []).map((o): LayerInput => ('overlay' in o ? o : { overlay: o, info: { kind: 'instance', name: 'instance' } }));
  const input: BaseInput = { flow: base.ir, file: base.file, ...(base.map ? { map: base.map } : {}) };
  const merged = mergeAndCompile(input, [...layers, ...instance]);
  return { ...merged, diagnostics: sortDiagnostics([...diagnostics, ...merged.diagnostics]) };
}

/** The effective flow `flowId` for a tenant (or the base alone), as the server serves it. */
export function effectiveFlow(lib: Library, flowId: string, tenantId?: string,
  opts: { packs?: readonly string[]; instance?: readonly (Overlay | LayerInput)[] } = {}): EffectiveFlow {
  const base = lib.flows.get(flowId);
  if (!base) {
    return { report: emptyReport(flowId), provenance: {},
      diagnostics: [{ code: 'unknown_flow', severity: 'error', message: `no flow '${flowId}' under ${join(lib.dir, 'global')}` }] };
  }
  return effectiveFlowOf(base, lib, tenantId, opts);
}

/** True when `path` names a file (not a folder). */
export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
