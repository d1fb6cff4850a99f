import type { CompiledFlow } from '../flow/compiled-flow.ts';
import { formatDiagnostic, type Diagnostic } from '../flow/diagnostic.ts';
import { QuestlineUsageError } from '../shared/usage-error.ts';

// The flow argument of the library's functions: a compiled flow, as
// `openFlow(...).flow` gives it. The usual slips — openFlow's result itself,
// a broken flow's result, the raw document — are named, with what to pass.

/** `value` as a compiled flow, or a QuestlineUsageError saying what to pass instead. */
export function compiledFlowArg(call: string, value: unknown): CompiledFlow {
  const v = value as Record<string, unknown> | null | undefined;
  if (v && typeof v === 'object' && typeof v.ok === 'boolean' && ('flow' in v || 'diagnostics' in v)) {
    if (v.ok) throw new QuestlineUsageError('invalid_argument', `${call}: pass the compiled flow, opened.flow, not openFlow's result itself`);
    const errors = ((v.diagnostics as Diagnostic[] | undefined) ?? []).filter((d) => d.severity === 'error').map(formatDiagnostic);
    throw new QuestlineUsageError('invalid_argument', `${call}: openFlow could not compile this flow (check opened.ok before using opened.flow):`, errors);
  }
  if (v && typeof v === 'object' && v.nodes instanceof Map && typeof v.entry === 'string' && typeof v.id === 'string') return v as unknown as CompiledFlow;
  if (v && typeof v === 'object' && (v.version === 'v1' || v.version === 'v0' || Array.isArray(v.nodes))) {
    throw new QuestlineUsageError('invalid_argument', `${call}: this is a flow document, not a compiled flow; pass openFlow(document).flow`);
  }
  throw new QuestlineUsageError('invalid_argument', `${call}: expected a compiled flow (openFlow(path).flow), got ${v === null ? 'null' : typeof v}`);
}
