import type { FlowSource } from '../catalog/implementations-check.ts';
import type { CompiledFlow } from '../flow/compiled-flow.ts';

// Where a flow openFlow compiled came from (its file, document and source
// map), so converse() can point at the line that names a missing
// implementation. Kept beside the flow, not in it: the compiled flow stays
// the engine's plain data.

const origins = new WeakMap<CompiledFlow, FlowSource>();

/** Records where `flow` came from. */
export function rememberOrigin(flow: CompiledFlow, source: FlowSource): void {
  origins.set(flow, source);
}

/** Where `flow` came from, when openFlow compiled it. */
export function originOf(flow: CompiledFlow): FlowSource | undefined {
  return origins.get(flow);
}
