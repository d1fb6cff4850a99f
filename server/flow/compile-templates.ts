import type { CompileContext } from './compile-context.ts';
import type { DocPath } from './load.ts';
import type { Node } from './schema.ts';

const TEMPLATE = /\{\{\s*([^{}]*?)\s*\}\}/g;
/** `answers.KEY` or `context.KEY`: what a placeholder or an action input may read. */
export const TEMPLATE_REF = /^(answers|context)\.([A-Za-z0-9_-]+)$/;

/** Warns about `{{…}}` placeholders that name no answer key or are malformed. */
export function checkTemplates(ctx: CompileContext, n: Node, at: DocPath): void {
  const fields: Array<[string, string]> = [];
  if (n.say) fields.push(['say', n.say]);
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
    }
  }
}
