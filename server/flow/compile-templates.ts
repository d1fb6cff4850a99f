import type { CompileContext } from './compile-context.ts';
import type { DocPath } from './load.ts';
import type { Node } from './schema.ts';

const TEMPLATE = /\{\{\s*([^{}]*?)\s*\}\}/g;
/** `answers.KEY` or `context.KEY`: what a placeholder or an action input may read. */
export const TEMPLATE_REF = /^(answers|context)\.([A-Za-z0-9_-]+)$/;

const internalCache = new WeakMap<CompileContext, Set<string>>();

/** Keys the visitor may not be shown: `internal: true` questions' and the outputs of actions not marked `internal: false` (server/flow/visibility.ts). */
function internalKeys(ctx: CompileContext): Set<string> {
  let keys = internalCache.get(ctx);
  if (keys) return keys;
  keys = new Set<string>();
  for (const { node: n } of ctx.placed.nodes) {
    if (n.type === 'question' && n.internal === true) keys.add(n.key);
    if (n.type === 'action' && n.internal !== false) for (const k of [...Object.values(n.output_map ?? {}), ...(n.provides ?? [])]) keys.add(k);
  }
  internalCache.set(ctx, keys);
  return keys;
}

/** Warns about `{{…}}` placeholders that name no answer key, are malformed, or show the visitor an internal answer. */
export function checkTemplates(ctx: CompileContext, n: Node, at: DocPath): void {
  const fields: Array<[string, string]> = [];
  if (n.say) fields.push(['say', n.say]);
  if (n.say_offline) fields.push(['say_offline', n.say_offline]);
  if (n.type === 'question') {
    const prompts = typeof n.prompt === 'string' ? [n.prompt] : n.prompt ?? [];
    prompts.forEach((p) => fields.push(['prompt', p]));
    if (n.invalid_prompt) fields.push(['invalid_prompt', n.invalid_prompt]);
  }
  for (const [field, text] of fields) {
    for (const m of text.matchAll(TEMPLATE)) {
      const ref = TEMPLATE_REF.exec(m[1]!);
      if (!ref) ctx.warn('bad_template', `node '${n.id}': placeholder '${m[0]}' is not {{answers.KEY}} or {{context.KEY}}; it is sent as written`, { path: [...at, field], node: n.id });
      else if (ref[1] === 'answers' && !ctx.keys.has(ref[2]!)) ctx.warn('unknown_template_key', `node '${n.id}': placeholder '${m[0]}' names an answer key no question defines`, { path: [...at, field], node: n.id });
      else if (ref[1] === 'answers' && internalKeys(ctx).has(ref[2]!)) ctx.warn('internal_in_template', `node '${n.id}': placeholder '${m[0]}' shows the visitor an internal answer (internal: true, or an action's output); mark the action internal: false if that is meant`, { path: [...at, field], node: n.id });
    }
  }
}
