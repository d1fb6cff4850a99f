import type { z } from 'zod';
import { valueSchema } from './answer-types.ts';
import { checkAnswerSpec } from './compile-answer-spec.ts';
import { isCanonical, type CompileContext } from './compile-context.ts';
import { checkTemplates, TEMPLATE_REF } from './compile-templates.ts';
import type { CompiledValidator } from './compiled-flow.ts';
import type { PlacedNode } from './desugar.ts';
import { dependencyCycles, push } from './graph-analysis.ts';
import type { CheckOptions } from './guard/index.ts';
import type { DocPath } from './load.ts';
import type { Node, QuestionNode } from './schema.ts';

type ActionNode = Extract<Node, { type: 'action' }>;
type SubgraphNode = Extract<Node, { type: 'subgraph' }>;

// Node contents: each node's `when`, a question's answer spec, validators and
// dependencies, a subgraph node's ref, an action's inputs, every node's
// placeholders. Diagnostics come node by node, in source order.

/** Compiles every node's contents into `ctx.nodes`, reporting what does not hold. */
export function compileNodes(ctx: CompileContext): void {
  const schemas = new Map<string, z.ZodType>();
  for (const p of ctx.placed.nodes) {
    const n = p.node;
    if (!isCanonical(ctx, p)) continue; // a duplicate, already reported
    const when = n.when !== undefined ? ctx.guardOf(n.when, { path: [...p.path, 'when'], node: n.id }) : null;
    const validators: CompiledValidator[] = [];
    let schema;
    let derive;
    if (n.type === 'question') {
      derive = compileDerive(ctx, n, p.path);
      checkAnswerSpec(ctx, n, p.path);
      validators.push(...compileValidators(ctx, n, p.path));
      // questions with the same answer spec share one schema (immutable): a long flow's checks stay warm
      const spec = JSON.stringify(n.answer ?? null);
      schema = schemas.get(spec) ?? schemas.set(spec, valueSchema(n.answer)).get(spec)!;
      checkDependencies(ctx, n, p.path);
      // a question nobody asks cannot be one the conversation needs
      if (n.never_ask && n.required !== false) ctx.error('never_ask_required', `question '${n.id}' is never asked (never_ask), so it must be optional: add "required": false`, { path: [...p.path, 'never_ask'], node: n.id });
    } else if (n.type === 'subgraph') {
      checkSubgraphRef(ctx, n, p);
    } else if (n.type === 'action') {
      checkActionInputs(ctx, n, p.path);
    }
    checkTemplates(ctx, n, p.path);
    ctx.nodes.set(n.id, { node: n, scope: p.scope, out: ctx.out.get(n.id) ?? [], when, validators, ...(schema ? { valueSchema: schema } : {}), ...(derive ? { derive } : {}) });
  }
}

/** Compiles a question's `derive` expression; it may not read the question's own key. */
function compileDerive(ctx: CompileContext, n: QuestionNode, at: DocPath) {
  if (n.derive === undefined) return undefined;
  const guard = ctx.guardOf(n.derive.expr, { path: [...at, 'derive', 'expr'], node: n.id });
  if (guard?.reads.includes(n.key)) {
    ctx.error('derive_cycle', `question '${n.id}' derives '${n.key}' from itself`, { path: [...at, 'derive', 'expr'], node: n.id });
    return undefined;
  }
  if (guard && guard.reads.length === 0) ctx.warn('derive_reads_nothing', `question '${n.id}' derives its answer from no other answer`, { path: [...at, 'derive', 'expr'], node: n.id });
  return guard ?? undefined;
}

/** Reports questions whose dependencies form a cycle. */
export function checkDependencyCycles(ctx: CompileContext): void {
  for (const cycle of dependencyCycles(ctx.dependencies)) {
    const first = ctx.keyNodes.get(cycle[0]!)?.[0];
    ctx.error('dependency_cycle', `questions depend on each other in a cycle: ${[...cycle, cycle[0]].join(' → ')}`,
      first ? { path: [...first.path, 'dependencies'], node: first.node.id } : {});
  }
}

/** Compiles a question's `validate` into rules; expressions may read `value`. */
function compileValidators(ctx: CompileContext, n: QuestionNode, at: DocPath): CompiledValidator[] {
  if (n.validate === undefined) return [];
  const valueType = ctx.keys.get(n.key);
  const opts: Partial<CheckOptions> = { allowValue: true, ...(valueType ? { valueType } : {}) };
  const rules = typeof n.validate === 'string' ? [n.validate] : n.validate;
  return rules.flatMap((rule, i): CompiledValidator[] => {
    const path = typeof n.validate === 'string' ? [...at, 'validate'] : [...at, 'validate', i];
    if (typeof rule === 'string' || 'expr' in rule) {
      const expr = typeof rule === 'string' ? rule : rule.expr;
      const guard = ctx.guardOf(expr, { path: typeof rule === 'string' ? path : [...path, 'expr'], node: n.id }, opts);
      return guard ? [{ kind: 'expr', guard, ...(typeof rule !== 'string' && rule.message ? { message: rule.message } : {}) }] : [];
    }
    return [{ kind: 'named', name: rule.name, ...(rule.args !== undefined ? { args: rule.args } : {}), ...(rule.message ? { message: rule.message } : {}) }];
  });
}

/** Records a question's dependencies (for the cycle check) and reports keys no question defines. */
function checkDependencies(ctx: CompileContext, n: QuestionNode, at: DocPath): void {
  if (!n.dependencies) return;
  for (const d of n.dependencies) push(ctx.dependencies, n.key, d);
  n.dependencies.forEach((d, i) => {
    if (!ctx.keys.has(d)) ctx.error('unknown_dependency', `question '${n.id}' depends on '${d}', which no question defines`, { path: [...at, 'dependencies', i], node: n.id });
  });
}

/** A subgraph node must name a defined subgraph other than its own. */
function checkSubgraphRef(ctx: CompileContext, n: SubgraphNode, p: PlacedNode): void {
  if (!ctx.flow.subgraphs?.[n.ref]) {
    const known = ctx.subgraphNames.length ? ` (known: ${ctx.subgraphNames.join(', ')})` : '';
    ctx.error('unknown_subgraph', `node '${n.id}' enters subgraph '${n.ref}', which is not defined${known}`, { path: [...p.path, 'ref'], node: n.id });
  } else if (n.ref === p.scope) {
    ctx.error('recursive_subgraph', `node '${n.id}' enters its own subgraph '${n.ref}'`, { path: [...p.path, 'ref'], node: n.id });
  }
}

/** An action's inputs read answers.KEY or context.KEY, and what it reads or requires exists. */
function checkActionInputs(ctx: CompileContext, n: ActionNode, at: DocPath): void {
  for (const [arg, ref] of Object.entries(n.input_map ?? {})) {
    const m = TEMPLATE_REF.exec(ref.trim());
    if (!m) ctx.error('bad_input_map', `action '${n.id}': input '${arg}' must read answers.KEY or context.KEY, not '${ref}'`, { path: [...at, 'input_map', arg], node: n.id });
    else if (m[1] === 'answers' && !ctx.keys.has(m[2]!)) ctx.error('unknown_answer_key', `action '${n.id}': input '${arg}' reads answers.${m[2]}, which no question defines`, { path: [...at, 'input_map', arg], node: n.id });
  }
  (n.requires ?? []).forEach((k, i) => {
    if (!ctx.keys.has(k)) ctx.error('unknown_answer_key', `action '${n.id}' requires '${k}', which no question defines`, { path: [...at, 'requires', i], node: n.id });
  });
}
