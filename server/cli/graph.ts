import { writeFileSync } from 'node:fs';
import type { CompiledFlow } from '../flow/compiled-flow.ts';
import { formatDiagnostic, hasErrors } from '../flow/diagnostic.ts';
import { compileFile } from '../flow/document.ts';
import { isMissingPackage, LAYOUT_PACKAGE, notInstalledMessage } from '../shared/optional-peer.ts';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, type CliIo } from './io.ts';

type Renderer = (flow: CompiledFlow) => string;

// mermaid needs no layout; json and html are laid out by dagre (an optional
// peer), so their modules are imported only when asked for
const RENDERERS: Record<string, () => Promise<Renderer>> = {
  mermaid: async () => (await import('../render/mermaid.ts')).renderMermaid,
  json: async () => (await import('../render/json.ts')).renderJson,
  html: async () => (await import('../render/html.ts')).renderHtml,
};

/** Formats `graph` can print. */
export const GRAPH_FORMATS = ['mermaid', 'json', 'html'] as const;

/**
 * `questline graph FLOW --format mermaid|json|html [-o FILE]`: render a flow
 * for docs, reviews and the admin's flow map (json = the GraphLayout format).
 */
export async function graphCommand(file: string, opts: { format: string; output?: string }, io: CliIo): Promise<number> {
  const load = (GRAPH_FORMATS as readonly string[]).includes(opts.format) ? RENDERERS[opts.format] : undefined;
  if (!load) {
    io.err(`questline graph: unknown format '${opts.format}' (available: ${GRAPH_FORMATS.join(', ')})`);
    return EXIT_USAGE;
  }
  let render: Renderer;
  try {
    render = await load();
  } catch (err) {
    if (!isMissingPackage(err, LAYOUT_PACKAGE)) throw err;
    io.err(`questline graph: ${notInstalledMessage(`--format ${opts.format}`, LAYOUT_PACKAGE)} --format mermaid needs no layout.`);
    return EXIT_FAILED;
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
