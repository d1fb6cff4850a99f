import { fileURLToPath } from 'node:url';
import { effectiveFlowOf, loadLibrary, readFlowFile, type LibraryFlow } from '../catalog/library.ts';
import type { CompiledFlow } from '../flow/compiled-flow.ts';
import { hasErrors, sortDiagnostics, type Diagnostic } from '../flow/diagnostic.ts';
import { compileText } from '../flow/document.ts';
import { rememberOrigin } from './flow-origin.ts';

/** How `openFlow` finds and layers a flow. */
export interface OpenFlowOptions {
  /** Industry packs to layer over the flow, by folder name under `<flowsDir>/packs`, in order. */
  packs?: readonly string[];
  /** A tenant under `<flowsDir>/tenants`: its packs (unless `packs` is given) and its overlays apply. */
  tenant?: string;
  /** The flows folder that holds `packs/` and `tenants/`; `flows` in the working directory by default. */
  flowsDir?: string;
  /** The name diagnostics give a flow passed as an object (default `<document>`). */
  file?: string;
}

/** A compiled flow (with its warnings), or every problem found, as data. */
export type OpenFlowResult =
  | { ok: true; flow: CompiledFlow; diagnostics: Diagnostic[] }
  | { ok: false; diagnostics: Diagnostic[] };

/** A flow document already parsed (a v1 flow or a v0 checklist), as found in a `.flow.json` file. */
export type FlowDocumentInput = Readonly<Record<string, unknown>>;

/**
 * Loads, validates and compiles a flow from a file (JSON or YAML, v1 or v0)
 * or from a parsed document; with `packs` or `tenant`, merges the overlays of
 * a flows folder first. Never throws for a broken flow: problems come back
 * as diagnostics with file, line and column where known.
 */
export function openFlow(source: string | URL | FlowDocumentInput, opts: OpenFlowOptions = {}): OpenFlowResult {
  const base = typeof source === 'string' || source instanceof URL ? readFlowFile(toPath(source)) : documentFlow(source, opts.file ?? '<document>');
  if (!isFlow(base)) return { ok: false, diagnostics: base.diagnostics };
  if (opts.packs === undefined && opts.tenant === undefined) {
    if (base.flow) rememberOrigin(base.flow, { file: base.file, ...(base.ir ? { ir: base.ir } : {}), ...(base.map ? { map: base.map } : {}) });
    return result(base.flow, base.diagnostics);
  }
  const merged = effectiveFlowOf(base, loadLibrary(opts.flowsDir ?? 'flows'), opts.tenant, opts.packs ? { packs: opts.packs } : {});
  if (merged.flow) rememberOrigin(merged.flow, { file: base.file });
  return result(merged.flow, merged.diagnostics);
}

function isFlow(read: ReturnType<typeof readFlowFile>): read is LibraryFlow {
  return 'id' in read;
}

function toPath(source: string | URL): string {
  return source instanceof URL ? fileURLToPath(source) : source;
}

/** A parsed document compiled like a file: positions refer to its pretty-printed JSON. */
function documentFlow(doc: FlowDocumentInput, file: string): ReturnType<typeof readFlowFile> {
  const res = compileText(JSON.stringify(doc, null, 2), file);
  if (res.kind === 'overlay') return { file, diagnostics: [{ code: 'not_a_flow', severity: 'error', file, line: 1, col: 1, message: 'this is an overlay, not a flow' }] };
  if (res.kind !== 'flow') return { file, diagnostics: res.diagnostics };
  const id = res.ir?.id ?? doc.id;
  return {
    id: typeof id === 'string' ? id : file,
    file, version: res.version,
    ...(res.ir ? { ir: res.ir } : {}),
    ...(res.flow ? { flow: res.flow } : {}),
    diagnostics: res.diagnostics,
  };
}

function result(flow: CompiledFlow | undefined, diagnostics: readonly Diagnostic[]): OpenFlowResult {
  const sorted = sortDiagnostics(diagnostics);
  return flow && !hasErrors(sorted) ? { ok: true, flow, diagnostics: sorted } : { ok: false, diagnostics: sorted };
}
