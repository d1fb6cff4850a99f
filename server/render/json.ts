import type { CompiledFlow } from '../flow/compiled-flow.ts';
import { layoutFlow } from './layout.ts';

/** Renders a compiled flow as the graph layout JSON (pretty-printed, newline-terminated). */
export function renderJson(flow: CompiledFlow): string {
  return `${JSON.stringify(layoutFlow(flow), null, 2)}\n`;
}
