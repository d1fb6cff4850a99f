import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { effectiveFlow, loadLibrary } from '../catalog/library.ts';
import { OfflineExtractor } from '../extract/offline/index.ts';
import { formatDiagnostic, hasErrors } from '../flow/diagnostic.ts';
import { loadRedFlagSet, type RedFlagSet } from '../golden/red-flag-cases.ts';
import { formatRedFlags, runRedFlags, summariseRedFlags } from '../golden/red-flag-run.ts';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, type CliIo } from './io.ts';

/** Options of `questline eval --red-flags`. */
export interface RedFlagOptions {
  /** The flow id (default flow.patient_intake). */
  flow?: string;
  /** The tenant whose merged flow runs (its overlays and packs). */
  tenant?: string;
  /** The flows folder (default ./flows). */
  flows?: string;
  json?: boolean;
}

/**
 * `questline eval SETS… --red-flags [--flow ID] [--tenant ID] [--flows DIR]`:
 * every phrasing of the red-flag sets as the first and as the second reply of
 * a session of the flow, with the offline rules; prints caught / missed /
 * false alarms. Exit 1 when an emergency is missed or an ordinary reply fires.
 */
export async function redFlagCommand(paths: readonly string[], opts: RedFlagOptions, io: CliIo): Promise<number> {
  const missing = paths.filter((p) => !existsSync(p));
  if (missing.length) {
    io.err(`questline eval: no such file: ${missing.join(', ')}`);
    return EXIT_USAGE;
  }
  let sets: RedFlagSet[];
  try {
    // a folder gives its *.yaml sets, sorted
    sets = paths.flatMap((p) => (statSync(p).isDirectory() ? readdirSync(p).filter((f) => /\.ya?ml$/.test(f)).sort().map((f) => join(p, f)) : [p])).map(loadRedFlagSet);
  } catch (err) {
    io.err(`questline eval: ${(err as Error).message}`);
    return EXIT_USAGE;
  }
  const flowsDir = opts.flows ?? 'flows';
  const flowId = opts.flow ?? 'flow.patient_intake';
  const eff = effectiveFlow(loadLibrary(flowsDir), flowId, opts.tenant);
  if (!eff.flow || hasErrors(eff.diagnostics)) {
    io.err(`questline eval: the flow ${flowId}${opts.tenant ? ` of ${opts.tenant}` : ''} does not load: ${eff.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic).join('; ')}`);
    return EXIT_USAGE;
  }
  const set: RedFlagSet = { emergencies: sets.flatMap((s) => s.emergencies), ordinary: sets.flatMap((s) => s.ordinary) };
  let summary;
  try {
    const offline = new OfflineExtractor();
    summary = summariseRedFlags(opts.tenant ? `${flowId} (${opts.tenant})` : flowId, await runRedFlags(set, eff.flow, () => offline));
  } catch (err) {
    io.err(`questline eval: ${(err as Error).message}`);
    return EXIT_FAILED;
  }
  if (opts.json) io.out(JSON.stringify(summary, null, 2));
  else io.out(formatRedFlags(summary));
  return summary.missed.length > 0 || summary.alarms.length > 0 ? EXIT_FAILED : EXIT_OK;
}
