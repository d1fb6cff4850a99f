import { createHash } from 'node:crypto';
import { canonicalJson } from '../shared/canonical-json.ts';
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

export type { CompileInput } from './compile-context.ts';

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
 * Compiles a v1 flow: expands sugar, compiles every guard once, checks the
 * graph, and returns every diagnostic at once. The flow is returned only when
 * there is no error.
 */
export function compileFlow(input: CompileInput): CompileResult {
  const ctx = createContext(input);
  for (const [, pass] of COMPILE_PASSES) pass(ctx);
  return finalize(ctx);
}

/** The compiled flow with its revision (a hash of the desugared source), unless a pass reported an error. */
function finalize(ctx: CompileContext): CompileResult {
  const { flow, placed, diagnostics, entry } = ctx;
  if (diagnostics.some((d) => d.severity === 'error') || !entry) return { diagnostics };
  const plain = plainFlow(flow, placed);
  const revision = createHash('sha256').update(canonicalJson(plain)).digest('hex').slice(0, 16);
  return {
    diagnostics,
    flow: {
      id: flow.id,
      ...(flow.label ? { label: flow.label } : {}),
      revision,
      source: plain,
      entry,
      nodes: ctx.nodes,
      edges: ctx.edges,
      subgraphs: new Map(ctx.subgraphNames.map((name) => [name, {
        entry: ctx.subgraphEntry.get(name)!,
        nodes: placed.nodes.filter((p) => p.scope === name).map((p) => p.node.id),
      }])),
      keys: ctx.keys,
      constraints: ctx.constraints,
    },
  };
}
