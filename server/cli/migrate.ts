import { formatDiagnostic, hasErrors } from '../flow/diagnostic.ts';
import { compileFile } from '../flow/document.ts';
import { EXIT_FAILED, EXIT_OK, type CliIo } from './io.ts';

/** `questline migrate FLOW`: print the v1 graph equivalent to a v0 checklist. */
export function migrateCommand(file: string, io: CliIo): number {
  const result = compileFile(file);
  for (const d of result.diagnostics) io.err(formatDiagnostic(d));
  if (result.kind !== 'flow' || !result.ir || hasErrors(result.diagnostics)) return EXIT_FAILED;
  if (result.version !== 'v0') io.err(`${file}: already v1; printed unchanged`);
  io.out(JSON.stringify({ $schema: '../flow.schema.json', ...result.ir }, null, 2));
  return EXIT_OK;
}
