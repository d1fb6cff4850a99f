import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { effectiveFlow, loadLibrary, type Library } from '../catalog/library.ts';
import { formatDiagnostic, hasErrors } from '../flow/diagnostic.ts';
import type { CompiledFlow } from '../flow/compiled-flow.ts';
import type { FlowV1 } from '../flow/schema.ts';

// A case file may judge its cases against a shipped flow instead of the labels it declares: each case question whose
// key is a question of the tenant's effective flow (its packs and overlays merged) takes that flow's declaration —
// prompt, option labels in the case's language, synonyms and regional synonyms, patterns, units — and a question
// keyed `path` in a flow with `paths:` is the flow's path prompt (its labels and examples). The figure then says what a
// visitor of the shipped demo gets; without the reference (or with `--labels-only`) a case runs as declared.

/** The `flow:` header of a case file: which shipped flow its questions stand for. */
export const EvalFlowRef = z.object({
  /** The tenant whose effective flow is used (its packs and overlays). */
  tenant: z.string().min(1).optional(),
  /** The flow id; default: the tenant's only flow. */
  id: z.string().min(1).optional(),
  /** The flows folder, relative to the case file (default: `flows` under the working directory). */
  flows: z.string().min(1).optional(),
}).strict().refine((r) => r.tenant !== undefined || r.id !== undefined, { message: 'flow: needs a tenant or an id' });
export type EvalFlowRef = z.infer<typeof EvalFlowRef>;

/** The flow's paths as the path prompt asks them (projected to one language). */
export type PathPrompt = NonNullable<FlowV1['paths']>;

/** What a shipped flow declares for the case questions: its questions by key, its path prompt. */
export interface FlowQuestions {
  /** The flow (and tenant) for a report line. */
  name: string;
  /** The flow's question declaration for a key, in a language (the flow's own default when it has no such language). */
  question(key: string, locale: string | undefined): Record<string, unknown> | undefined;
  /** The flow's path prompt in a language, when the flow has paths and no question keyed `path`. */
  paths(locale: string | undefined): PathPrompt | undefined;
}

const libraries = new Map<string, Library>();

/** The flows folder a reference names: relative to the case file when written in it, else as given on the command line. */
export function flowsDirOf(ref: EvalFlowRef, file: string | null): string {
  if (ref.flows === undefined) return resolve('flows');
  return file === null ? resolve(ref.flows) : resolve(dirname(file), ref.flows);
}

/** Loads the effective flow a reference names; throws with the reason when it does not load. */
export function loadFlowQuestions(ref: EvalFlowRef, flowsDir: string): FlowQuestions {
  let lib = libraries.get(flowsDir);
  if (!lib) libraries.set(flowsDir, (lib = loadLibrary(flowsDir)));
  let id = ref.id;
  if (id === undefined) {
    const offered = lib.tenants.get(ref.tenant!)?.tenant?.flows ?? [];
    if (offered.length !== 1) throw new Error(`flow: tenant '${ref.tenant}' offers ${offered.length === 0 ? 'no flow' : `several flows (${offered.join(', ')})`}: name one with id`);
    id = offered[0]!;
  }
  const eff = effectiveFlow(lib, id, ref.tenant);
  if (!eff.flow || hasErrors(eff.diagnostics)) {
    throw new Error(`flow: ${id}${ref.tenant ? ` of ${ref.tenant}` : ''} does not load: ${eff.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic).join('; ')}`);
  }
  const flow = eff.flow;
  const inLocale = (locale: string | undefined): CompiledFlow => (locale && flow.i18n?.byLocale.get(locale)) || flow;
  const find = (f: CompiledFlow, key: string) => [...f.nodes.values()].map((c) => c.node).find((n) => n.type === 'question' && n.key === key) as Record<string, unknown> | undefined;
  return {
    name: ref.tenant ? `${id} (${ref.tenant})` : id,
    question(key, locale) {
      const node = find(inLocale(locale), key);
      if (!node) return undefined;
      // the declaration a visitor meets: the prompt, the label, the answer (options, synonyms, patterns, units), required
      const keep = ['key', 'prompt', 'label', 'answer', 'required', 'pii'];
      return Object.fromEntries(Object.entries(node).filter(([k]) => keep.includes(k)));
    },
    paths(locale) {
      const f = inLocale(locale);
      if (!f.source.paths || find(f, 'path')) return undefined;
      return f.source.paths;
    },
  };
}
