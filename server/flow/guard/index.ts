/**
 * The guard expression language: parse → check → compile to closures. Nothing
 * here uses eval, Function, vm or with; a guard can only read the scope it is
 * given, through own properties.
 */
import type { Expr } from './ast.ts';
import { checkGuard } from './check.ts';
import { compileClosures } from './compile.ts';
import { sortIssues, type GuardIssue } from './issue.ts';
import { parseGuard } from './parse.ts';
import type { CheckOptions, CompiledGuard } from './types.ts';

export type { Expr } from './ast.ts';
export type { GuardIssue } from './issue.ts';
export type { AnswerKeyInfo, CheckOptions, CompiledGuard, EvalScope } from './types.ts';
export type { ParseResult } from './parse.ts';
export { GUARD_LIMITS } from './limits.ts';
export { parseGuard } from './parse.ts';
export { isTruthy } from './values.ts';

/** Result of {@link compileGuard}: a guard with its warnings, or every issue found. */
export type GuardResult =
  | { ok: true; guard: CompiledGuard; issues: GuardIssue[] }
  | { ok: false; issues: GuardIssue[] };

/** Parses, checks and compiles a guard; never throws for any source string. */
export function compileGuard(source: string, options: CheckOptions): GuardResult {
  const parsed = parseGuard(source);
  if (!parsed.ok) return parsed;
  const ast: Expr = parsed.ast;
  const checked = checkGuard(ast, options);
  const issues = sortIssues(checked.issues);
  if (issues.some((i) => i.severity === 'error')) return { ok: false, issues };
  const { evaluate, test } = compileClosures(ast, checked.regexes);
  const guard: CompiledGuard = Object.freeze({
    source,
    reads: Object.freeze(checked.reads),
    usesPath: checked.usesPath,
    usesValue: checked.usesValue,
    usesContext: checked.usesContext,
    evaluate,
    test,
  });
  return { ok: true, guard, issues };
}
