import { statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { formatDiagnostic, hasErrors, sortDiagnostics, type Diagnostic } from '../flow/diagnostic.ts';
import { compileFile, type DocumentResult } from '../flow/document.ts';
import { outputsJsonSchema } from '../flow/json-schema.ts';
import { isFlowDocument } from '../catalog/library.ts';
import { checkFileImplementations, namesOf } from '../catalog/implementations-check.ts';
import type { QuestlineConfig } from '../project-config.ts';
import { checkTenantFiles, expandTenantPaths } from './validate-tenants.ts';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, type CliIo } from './io.ts';


/** Expands folders into the flow files under them (sorted); files are kept as given. */
export function expandFlowPaths(paths: readonly string[]): string[] {
  return paths.flatMap((p) => {
    let isDir = false;
    try {
      isDir = statSync(p).isDirectory();
    } catch {
      return [p]; // reported as a read error by the loader
    }
    if (!isDir) return [p];
    return readdirSync(p, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile() && isFlowDocument(d.name))
      .map((d) => join(d.parentPath, d.name))
      .sort();
  });
}

export interface ValidateOptions {
  json?: boolean;
  outputsSchema?: boolean;
  warnings?: boolean;
  /** A missing translation (or a text for an undeclared locale) is an error, not a warning. */
  strict?: boolean;
  /**
   * The project's implementations (--config): a validator or action a flow
   * names that is not among them is an error. Without them, names are not checked.
   */
  implementations?: QuestlineConfig;
}

/** `questline validate PATH...`: compile each flow file, check each tenant.json, and report every problem. */
export function validateCommand(paths: readonly string[], opts: ValidateOptions, io: CliIo): number {
  if (paths.length === 0) {
    io.err('questline validate: give at least one flow file or folder');
    return EXIT_USAGE;
  }
  const tenantFiles = opts.outputsSchema ? [] : expandTenantPaths(paths);
  const files = expandFlowPaths(paths).filter((f) => !tenantFiles.includes(f));
  const results: Array<{ file: string; result: DocumentResult }> = files.map((file) => ({ file, result: withRegistry(file, strictened(compileFile(file), opts.strict === true), opts.implementations) }));
  const tenants = checkTenantFiles(tenantFiles);
  const failed = results.some(({ result }) => hasErrors(result.diagnostics)) || tenants.some(({ result }) => hasErrors(result.diagnostics));

  if (opts.outputsSchema) {
    if (failed || results.length !== 1 || results[0]!.result.kind !== 'flow' || !('flow' in results[0]!.result && results[0]!.result.flow)) {
      for (const { result } of results) printDiagnostics(result.diagnostics, io, true);
      if (!failed) io.err('questline validate --outputs-schema: give exactly one flow (not an overlay)');
      return failed ? EXIT_FAILED : EXIT_USAGE;
    }
    io.out(JSON.stringify(outputsJsonSchema(results[0]!.result.flow!), null, 2));
    return EXIT_OK;
  }

  if (opts.json) {
    io.out(JSON.stringify({
      ok: !failed,
      files: results.map(({ file, result }) => ({
        file,
        kind: result.kind,
        ok: !hasErrors(result.diagnostics),
        ...(result.kind === 'flow' && result.flow ? { id: result.flow.id, revision: result.flow.revision } : {}),
        diagnostics: result.diagnostics,
      })),
      ...(tenants.length ? {
        tenants: tenants.map(({ file, result }) => ({ file, ok: !hasErrors(result.diagnostics), ...(result.tenant ? { id: result.tenant.id } : {}), diagnostics: result.diagnostics })),
      } : {}),
    }, null, 2));
    return failed ? EXIT_FAILED : EXIT_OK;
  }

  for (const { file, result } of results) {
    printDiagnostics(result.diagnostics, io, opts.warnings !== false);
    const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
    const warnings = result.diagnostics.length - errors;
    if (errors === 0) {
      const what = result.kind === 'flow' && result.flow
        ? `${result.flow.id} (revision ${result.flow.revision}, ${result.flow.nodes.size} nodes${result.version === 'v0' ? ', migrated from v0' : ''})`
        : result.kind;
      io.err(`ok ${file}: ${what}${warnings ? `, ${warnings} warning${warnings > 1 ? 's' : ''}` : ''}`);
    }
  }
  for (const { file, result } of tenants) {
    printDiagnostics(result.diagnostics, io, opts.warnings !== false);
    if (result.tenant && !hasErrors(result.diagnostics)) io.err(`ok ${file}: tenant ${result.tenant.id} (${result.tenant.flows.length} flow${result.tenant.flows.length === 1 ? '' : 's'})`);
  }
  const bad = results.filter(({ result }) => hasErrors(result.diagnostics)).length;
  if (results.length || !tenants.length) io.err(`${results.length - bad} of ${results.length} flow file${results.length === 1 ? '' : 's'} valid`);
  const badTenants = tenants.filter(({ result }) => hasErrors(result.diagnostics)).length;
  if (tenants.length) io.err(`${tenants.length - badTenants} of ${tenants.length} tenant file${tenants.length === 1 ? '' : 's'} valid`);
  return failed ? EXIT_FAILED : EXIT_OK;
}

/** Diagnostics that `--strict` turns from warnings into errors. */
export const STRICT_CODES: ReadonlySet<string> = new Set(['missing_translation', 'unknown_locale']);

/** With `strict`, a missing translation fails the flow (the compiled flow is dropped, as with any error). */
function strictened(result: DocumentResult, strict: boolean): DocumentResult {
  if (!strict || !result.diagnostics.some((d) => STRICT_CODES.has(d.code))) return result;
  const diagnostics = result.diagnostics.map((d) => (STRICT_CODES.has(d.code) ? { ...d, severity: 'error' as const } : d));
  if (result.kind !== 'flow') return { ...result, diagnostics } as DocumentResult;
  const { flow: _dropped, ...rest } = result;
  return { ...rest, diagnostics };
}

/** Adds the registry's diagnostics to a compiled flow's (sorted like the compiler's). */
function withRegistry(file: string, result: DocumentResult, impl: QuestlineConfig | undefined): DocumentResult {
  if (!impl || result.kind !== 'flow' || !result.flow) return result;
  const missing = checkFileImplementations(file, result.flow, result.ir, namesOf(impl));
  return missing.length ? { ...result, diagnostics: sortDiagnostics([...result.diagnostics, ...missing]) } : result;
}

function printDiagnostics(list: readonly Diagnostic[], io: CliIo, warnings: boolean): void {
  for (const d of list) if (warnings || d.severity === 'error') io.err(formatDiagnostic(d));
}
