import type { CompileContext } from './compile-context.ts';

/** Compiles the flow's constraints: oneOf groups name known keys, expressions compile. */
export function compileConstraints(ctx: CompileContext): void {
  (ctx.flow.constraints ?? []).forEach((c, i) => {
    if ('oneOf' in c) {
      c.oneOf.forEach((group, g) => group.forEach((k, j) => {
        if (!ctx.keys.has(k)) ctx.error('unknown_answer_key', `constraint ${i + 1}: oneOf names '${k}', which no question defines`, { path: ['constraints', i, 'oneOf', g, j] });
      }));
      ctx.constraints.push({ kind: 'oneOf', groups: c.oneOf, ...(c.message ? { message: c.message } : {}), source: c });
    } else {
      const guard = ctx.guardOf(c.expr, { path: ['constraints', i, 'expr'] });
      if (guard) ctx.constraints.push({ kind: 'expr', name: c.name, guard, ...(c.message ? { message: c.message } : {}), source: c });
    }
  });
}

/** Warns when a guard reads `path` in a flow that declares no paths (every guard is compiled by now). */
export function checkPathUse(ctx: CompileContext): void {
  if (ctx.usesPath && !ctx.flow.paths) ctx.warn('path_without_paths', `a guard reads 'path' but the flow declares no paths, so 'path' is always null`, { path: ['id'] });
}
