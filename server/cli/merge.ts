import { join } from 'node:path';
import { formatDiagnostic, hasErrors, type Diagnostic } from '../flow/diagnostic.ts';
import {
  effectiveFlowOf, isFile, layerOf, loadLibrary, readFlowFile, readOverlayFile,
  type EffectiveFlow, type Library, type LibraryFlow, type OverlayFile,
} from '../catalog/library.ts';
import { formatReport } from '../flow/packs/report.ts';
import { mergeAndCompile } from '../flow/packs/packs.ts';
import type { Overlay } from '../flow/schema.ts';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, type CliIo } from './io.ts';

export interface MergeOptions {
  tenant?: string;
  layers?: string[];
  flows?: string;
  report?: boolean;
  json?: boolean;
}

/** A usage problem: printed as `questline merge: …`, exit 2. */
class Usage {
  constructor(readonly message: string) {}
}

/** FLOW is a file path, or a flow id under `<flows>/global`. */
function resolveFlow(arg: string, lib: () => Library): LibraryFlow | { diagnostics: Diagnostic[] } | Usage {
  if (isFile(arg)) return readFlowFile(arg);
  return lib().flows.get(arg) ?? new Usage(`no flow file or flow id '${arg}' (looked under ${join(lib().dir, 'global')})`);
}

/** `--layers A B C`: overlays in any order; a flow among them (or FLOW, or the flow they extend) is the base. */
function mergeLayerFiles(files: readonly string[], flowArg: string | undefined, lib: () => Library): EffectiveFlow | { diagnostics: Diagnostic[] } | Usage {
  const overlays: OverlayFile[] = [];
  const bases: LibraryFlow[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const file of files) {
    if (!isFile(file)) return new Usage(`--layers: no such file '${file}'`);
    const flow = readFlowFile(file);
    if ('id' in flow) {
      bases.push(flow);
      continue;
    }
    const o = readOverlayFile(file);
    if (!o.overlay) diagnostics.push(...o.diagnostics);
    overlays.push(o);
  }
  if (bases.length + (flowArg ? 1 : 0) > 1) return new Usage('give one base flow: FLOW or one flow file among --layers');
  let base: LibraryFlow | { diagnostics: Diagnostic[] } | Usage;
  if (flowArg) base = resolveFlow(flowArg, lib);
  else if (bases[0]) base = bases[0];
  else {
    const ids = [...new Set(overlays.map((o) => o.extends).filter((x): x is string => !!x))];
    if (ids.length !== 1) return new Usage(ids.length ? `the layers extend different flows (${ids.join(', ')})` : 'give FLOW, or a flow file among --layers');
    base = resolveFlow(ids[0]!, lib);
  }
  if (base instanceof Usage || !('id' in base)) return base;
  if (hasErrors(diagnostics)) return { diagnostics };
  if (!base.ir || hasErrors(base.diagnostics)) return { diagnostics: base.diagnostics };
  const layers = overlays.map((o) => layerOf(o as OverlayFile & { overlay: Overlay }));
  return mergeAndCompile({ flow: base.ir, file: base.file, ...(base.map ? { map: base.map } : {}) }, layers);
}

/** `questline merge`: print the effective flow of a tenant or of explicit layers, or its merge report. */
export function mergeCommand(flowArg: string | undefined, opts: MergeOptions, io: CliIo): number {
  const flowsDir = opts.flows ?? 'flows';
  let loaded: Library | undefined;
  const lib = () => (loaded ??= loadLibrary(flowsDir));
  const usage = (message: string) => {
    io.err(`questline merge: ${message}`);
    return EXIT_USAGE;
  };
  if (opts.tenant !== undefined && opts.layers) return usage('give --tenant or --layers, not both');
  let result: EffectiveFlow | { diagnostics: Diagnostic[] } | Usage;
  if (opts.layers) result = mergeLayerFiles(opts.layers, flowArg, lib);
  else if (!flowArg) return usage('give a flow (file or id), e.g. questline merge --tenant acme flow.sales');
  else {
    const base = resolveFlow(flowArg, lib);
    if (base instanceof Usage) result = base;
    else if (!('id' in base)) result = base;
    else {
      const lib = loadLibrary(flowsDir);
      if (opts.tenant !== undefined && !lib.tenants.has(opts.tenant)) return usage(`no tenant '${opts.tenant}' under ${join(flowsDir, 'tenants')}`);
      result = effectiveFlowOf(base, lib, opts.tenant);
    }
  }
  if (result instanceof Usage) return usage(result.message);

  const ok = 'flow' in result && !!result.flow && !hasErrors(result.diagnostics);
  const merged = 'report' in result ? result : undefined;
  if (opts.json) {
    const body = opts.report
      ? { ok, report: merged?.report ?? null, diagnostics: result.diagnostics }
      : { ok, id: merged?.ir?.id ?? null, revision: merged?.flow?.revision ?? null, flow: ok ? merged?.ir : null,
          report: merged?.report ?? null, provenance: merged?.provenance ?? {}, diagnostics: result.diagnostics };
    io.out(JSON.stringify(body, null, 2));
    return ok ? EXIT_OK : EXIT_FAILED;
  }
  for (const d of result.diagnostics) io.err(formatDiagnostic(d));
  if (opts.report && merged) io.out(formatReport(merged.report));
  else if (ok) io.out(JSON.stringify(merged!.ir, null, 2));
  if (ok && merged) {
    io.err(`ok ${merged.report.flow} (revision ${merged.flow!.revision}): ${merged.report.changes.length} changes from ${merged.report.layers.length} layers`);
  } else if (merged && merged.report.conflicts.length) {
    io.err(`merge failed: ${merged.report.conflicts.length} conflict${merged.report.conflicts.length > 1 ? 's' : ''}`);
  }
  return ok ? EXIT_OK : EXIT_FAILED;
}
