import { canonicalJson } from '../shared/canonical-json.ts';
import { lazyRequire } from '../shared/lazy-require.ts';
import { analyseGraph } from './compile-graph.ts';
import { checkPathUse, compileConstraints } from './compile-constraints.ts';
import { createContext, type CompileContext, type CompileInput } from './compile-context.ts';
import { checkNodeEdges, checkRoutes, compileEdges } from './compile-edges.ts';
import { collectAnswerKeys, indexNodes, resolveEntries } from './compile-index.ts';
import { checkDependencyCycles, compileNodes } from './compile-nodes.ts';
import { checkTriggers } from './compile-triggers.ts';
import { checkReviews } from './compile-review.ts';
import type { CompiledFlow } from './compiled-flow.ts';
import { plainFlow } from './desugar.ts';
import type { Diagnostic } from './diagnostic.ts';
import type { DocPath } from './load.ts';
import { resolveMessages } from './messages/catalogue.ts';
import { projectFlow } from './project.ts';

/** node:crypto, loaded by the first compile (not by `import('questline')`). */
const nodeCrypto = lazyRequire<typeof import('node:crypto')>('node:crypto');

export type { CompileInput } from './compile-context.ts';

/**
 * How big a flow may be: compiling is linear in nodes + edges, once per
 * locale; a 3,000-question flow in one locale compiles in well under a second.
 */
export const FLOW_LIMITS = { maxNodes: 10_000, maxEdges: 20_000, maxCompileUnits: 32_000 } as const;

export interface CompileResult {
  /** Present when there are no errors. */
  flow?: CompiledFlow;
  diagnostics: Diagnostic[];
}

/** One step of the compiler: reads what earlier passes found, adds its own findings and diagnostics. */
export type CompilePass = (ctx: CompileContext) => void;

/**
 * The compiler, in order. The order is part of the output: diagnostics come
 * out in the order the passes report them, and later passes read what earlier
 * ones found (guards need the answer keys, the graph needs the edges).
 */
export const COMPILE_PASSES: ReadonlyArray<readonly [name: string, pass: CompilePass]> = [
  ['index nodes', indexNodes],
  ['collect answer keys', collectAnswerKeys],
  ['resolve entries', resolveEntries],
  ['check routes', checkRoutes],
  ['compile edges', compileEdges],
  ['check node edges', checkNodeEdges],
  ['compile nodes', compileNodes],
  ['check dependency cycles', checkDependencyCycles],
  ['check reviews', checkReviews],
  ['compile constraints', compileConstraints],
  ['check path use', checkPathUse],
  ['check triggers', checkTriggers],
  ['analyse graph', analyseGraph],
];

/**
 * Compiles a v1 flow: projects it to each of its locales (texts may be maps
 * by locale), expands sugar, compiles every guard once, checks the graph,
 * and returns every diagnostic at once. The flow is returned only when there
 * is no error. A flow with `locales` compiles once per locale; every compile
 * shares one revision and the same node ids, so a session can change
 * language and keep its answers and place.
 */
export function compileFlow(input: CompileInput): CompileResult {
  const source = input.flow;
  const declared = source.locales ?? [source.default_locale ?? 'en'];
  const fallback = source.default_locale ?? declared[0]!;
  const order = [fallback, ...declared.filter((l) => l !== fallback)];
  const diagnostics: Diagnostic[] = [];
  const seen = new Set<string>();
  const keep = (d: Diagnostic) => {
    const k = `${d.severity}|${d.code}|${d.file ?? ''}|${d.line ?? ''}|${d.col ?? ''}|${d.node ?? ''}|${d.message}`;
    if (!seen.has(k)) diagnostics.push(d), seen.add(k);
  };
  if (source.locales && source.default_locale && !source.locales.includes(source.default_locale)) {
    localeDiagnostic(input, keep, 'error', 'unknown_default_locale', `default_locale '${source.default_locale}' is not one of locales (${source.locales.join(', ')})`, ['default_locale']);
  }
  // what compiling costs: every node and edge, once per locale (the 2 MB file limit alone lets through flows that take minutes)
  const nodes = source.nodes.length + Object.values(source.subgraphs ?? {}).reduce((n, g) => n + g.nodes.length, 0);
  const edges = (source.edges?.length ?? source.nodes.length) + Object.values(source.subgraphs ?? {}).reduce((n, g) => n + (g.edges?.length ?? g.nodes.length), 0);
  const size = (nodes + edges) * order.length;
  if (nodes > FLOW_LIMITS.maxNodes || edges > FLOW_LIMITS.maxEdges || size > FLOW_LIMITS.maxCompileUnits) {
    // at the file's start: finding `nodes` in a file this big would cost more than the refusal
    keep({ code: 'flow_too_large', severity: 'error', ...(input.file ? { file: input.file, line: 1, col: 1 } : {}), message:
      `the flow has ${nodes} nodes and ${edges} edges in ${order.length} locale${order.length > 1 ? 's' : ''}; the limits are ${FLOW_LIMITS.maxNodes} nodes, ${FLOW_LIMITS.maxEdges} edges, `
      + `and ${FLOW_LIMITS.maxCompileUnits} for (nodes + edges) × locales (this one: ${size}); split it into subflows or flows` });
    return { diagnostics };
  }
  const compiled: Array<{ locale: string; ctx: CompileContext }> = [];
  for (const locale of order) {
    const projection = projectFlow(source, locale, fallback, declared);
    if (!source.locales) {
      for (const path of projection.maps.slice(0, 1)) {
        localeDiagnostic(input, keep, 'error', 'locales_missing', 'a text is given by locale, but the flow declares no `locales`', path);
      }
    } else {
      for (const m of projection.missing) {
        localeDiagnostic(input, keep, 'warning', 'missing_translation', `no '${m.locale}' text for ${dotted(m.path)}${m.used ? `; the '${m.used}' one is used` : ''}`, m.path);
      }
      for (const s of projection.stray) {
        localeDiagnostic(input, keep, 'warning', 'unknown_locale', `'${s.locale}' is not one of the flow's locales (${declared.join(', ')})`, s.path, true);
      }
    }
    const ctx = createContext({ ...input, flow: projection.flow });
    for (const [, pass] of COMPILE_PASSES) pass(ctx);
    for (const d of ctx.diagnostics) keep(d);
    compiled.push({ locale, ctx });
  }
  if (diagnostics.some((d) => d.severity === 'error') || compiled.some(({ ctx }) => !ctx.entry)) return { diagnostics };
  const plains = compiled.map(({ ctx }) => plainFlow(ctx.flow, ctx.placed));
  const hashed = source.locales ? compiled.map(({ locale }, i) => ({ locale, flow: plains[i] })) : plains[0];
  const revision = nodeCrypto().createHash('sha256').update(canonicalJson(hashed)).digest('hex').slice(0, 16);
  const flows = compiled.map(({ locale, ctx }, i) => finalize(ctx, plains[i]!, revision, locale, resolveMessages(locale, source.messages, input.messages)));
  if (source.locales) {
    const byLocale = new Map(compiled.map(({ locale }, i) => [locale, flows[i]!]));
    const i18n = { locales: [...source.locales], defaultLocale: fallback, byLocale, source };
    for (const f of flows) f.i18n = i18n;
  }
  return { diagnostics, flow: flows[0] };
}

/** `nodes.1.prompt` for people reading a diagnostic. */
const dotted = (path: DocPath): string => path.map(String).join('.');

/** Reports a diagnostic about the flow's locales at `path`. */
function localeDiagnostic(input: CompileInput, keep: (d: Diagnostic) => void, severity: Diagnostic['severity'], code: string, message: string, path: DocPath, key = false): void {
  const pos = input.map?.at(path, { key });
  keep({ code, severity, message, ...(input.file ? { file: input.file } : {}), ...(pos ? { line: pos.line, col: pos.col } : {}) });
}

/** The compiled flow of one locale. */
function finalize(ctx: CompileContext, plain: CompiledFlow['source'], revision: string, locale: string, messages: CompiledFlow['messages']): CompiledFlow {
  const { flow, placed, entry } = ctx;
  return {
    id: flow.id,
    ...(flow.label ? { label: flow.label } : {}),
    revision,
    locale,
    messages,
    source: plain,
    entry: entry!,
    nodes: ctx.nodes,
    edges: ctx.edges,
    subgraphs: new Map(ctx.subgraphNames.map((name) => [name, {
      entry: ctx.subgraphEntry.get(name)!,
      nodes: placed.nodes.filter((p) => p.scope === name).map((p) => p.node.id),
    }])),
    keys: ctx.keys,
    constraints: ctx.constraints,
  };
}
