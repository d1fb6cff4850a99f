import type { CompileContext } from './compile-context.ts';

/**
 * Checks the flow's triggers: unique ids, a `goto` that is a top-level node
 * (a trigger can fire anywhere, so its target must not need a subgraph frame),
 * `off_at` naming nodes that exist, `together` naming its `words` lists, and
 * something to match on.
 */
export function checkTriggers(ctx: CompileContext): void {
  const seen = new Set<string>();
  (ctx.flow.triggers ?? []).forEach((t, i) => {
    const at = { path: ['triggers', i] as Array<string | number> };
    if (seen.has(t.id)) ctx.error('duplicate_trigger', `trigger '${t.id}' is declared twice`, at);
    seen.add(t.id);
    if (t.goto !== undefined) {
      const target = ctx.byId.get(t.goto);
      if (!target) ctx.error('unknown_node', `trigger '${t.id}' goes to '${t.goto}', which is not a node`, { path: ['triggers', i, 'goto'] });
      else if (target.scope !== null) ctx.error('trigger_into_subgraph', `trigger '${t.id}' goes to '${t.goto}' inside subgraph '${target.scope}'; a trigger's target must be a top-level node`, { path: ['triggers', i, 'goto'] });
    }
    (t.off_at ?? []).forEach((id, j) => {
      if (!ctx.byId.has(id)) ctx.error('unknown_node', `trigger '${t.id}' is off at '${id}', which is not a node`, { path: ['triggers', i, 'off_at', j] });
    });
    (t.together ?? []).forEach((names, j) => names.forEach((name, k) => {
      if (!t.words || !Object.hasOwn(t.words, name)) ctx.error('unknown_word_list', `trigger '${t.id}' uses word list '${name}' in together, which is not in its words`, { path: ['triggers', i, 'together', j, k] });
    }));
    if (!t.phrases?.length && !t.examples?.length && !t.together?.length && !t.description) {
      ctx.warn('trigger_never_matches', `trigger '${t.id}' has no phrases, examples or description, so nothing can match it`, at);
    }
  });
  const paths = ctx.flow.paths;
  if (paths?.default !== undefined && !Object.hasOwn(paths.options, paths.default)) {
    ctx.error('unknown_path', `paths.default is '${paths.default}', which is not a declared path`, { path: ['paths', 'default'] });
  }
}
