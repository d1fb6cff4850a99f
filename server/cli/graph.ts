import { formatDiagnostic, hasErrors } from '../flow/diagnostic.ts';
import { compileFile } from '../flow/document.ts';
import { renderMermaid } from '../flow/render.ts';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, type CliIo } from './io.ts';

/** Formats `graph` can print now. */
export const GRAPH_FORMATS = ['mermaid'] as const;

/** `questline graph FLOW --format mermaid`: render a flow for docs and reviews. */
export function graphCommand(file: string, opts: { format: string }, io: CliIo): number {
  if (!(GRAPH_FORMATS as readonly string[]).includes(opts.format)) {
    io.err(`questline graph: unknown format '${opts.format}' (available: ${GRAPH_FORMATS.join(', ')})`);
    return EXIT_USAGE;
  }
  const result = compileFile(file);
  for (const d of result.diagnostics) if (d.severity === 'error') io.err(formatDiagnostic(d));
  if (hasErrors(result.diagnostics) || result.kind !== 'flow' || !result.flow) {
    if (!hasErrors(result.diagnostics)) io.err(`questline graph: ${file} is a ${result.kind}, not a flow`);
    return EXIT_FAILED;
  }
  io.out(renderMermaid(result.flow));
  return EXIT_OK;
}
