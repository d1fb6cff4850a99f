import { writeFileSync } from 'node:fs';
import type { CompiledFlow } from '../flow/compiled-flow.ts';
import { formatDiagnostic, hasErrors } from '../flow/diagnostic.ts';
import { compileFile } from '../flow/document.ts';
import { renderHtml } from '../render/html.ts';
import { renderJson } from '../render/json.ts';
import { renderMermaid } from '../render/mermaid.ts';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, type CliIo } from './io.ts';

const RENDERERS: Record<string, (flow: CompiledFlow) => string> = {
  mermaid: renderMermaid,
  json: renderJson,
  html: renderHtml,
};

/** Formats `graph` can print. */
export const GRAPH_FORMATS = ['mermaid', 'json', 'html'] as const;

/**
 * `questline graph FLOW --format mermaid|json|html [-o FILE]`: render a flow
 * for docs, reviews and the admin's flow map (json = the GraphLayout format).
 */
export function graphCommand(file: string, opts: { format: string; output?: string }, io: CliIo): number {
  const render = (GRAPH_FORMATS as readonly string[]).includes(opts.format) ? RENDERERS[opts.format] : undefined;
  if (!render) {
    io.err(`questline graph: unknown format '${opts.format}' (available: ${GRAPH_FORMATS.join(', ')})`);
    return EXIT_USAGE;
  }
  const result = compileFile(file);
  for (const d of result.diagnostics) if (d.severity === 'error') io.err(formatDiagnostic(d));
  if (hasErrors(result.diagnostics) || result.kind !== 'flow' || !result.flow) {
    if (!hasErrors(result.diagnostics)) io.err(`questline graph: ${file} is a ${result.kind}, not a flow`);
    return EXIT_FAILED;
  }
  const text = render(result.flow);
  if (opts.output) {
    try {
      writeFileSync(opts.output, text);
    } catch (err) {
      io.err(`questline graph: cannot write ${opts.output}: ${(err as Error).message}`);
      return EXIT_FAILED;
    }
    io.err(`wrote ${opts.output}`);
  } else io.out(text);
  return EXIT_OK;
}
