import type { CompileContext } from './compile-context.ts';
import { resolveMessages } from './messages/catalogue.ts';

const COMMANDS = ['back', 'restart', 'human', 'cancel', 'skip'] as const;

/** A message as command matching reads it: trimmed, lower case, no closing punctuation, single spaces (engine/extraction.ts). */
const asCommand = (text: string) => text.trim().toLowerCase().replace(/[.!?]+$/, '').replace(/\s+/g, ' ');

/** Every command word of the flow in each of its locales, with the command it runs. */
function commandWords(ctx: CompileContext): Map<string, string> {
  const words = new Map<string, string>();
  const english = resolveMessages('en');
  for (const locale of ctx.flow.locales ?? ['en']) {
    const messages = resolveMessages(locale);
    for (const name of COMMANDS) {
      const list = ctx.flow.commands?.[name] ?? [...messages[`commands_${name}`], ...(locale === 'en' ? [] : english[`commands_${name}`])];
      for (const w of list) if (!words.has(asCommand(w))) words.set(asCommand(w), name);
    }
  }
  return words;
}

/**
 * Checks the flow's triggers: unique ids, a `goto` that is a top-level node
 * (a trigger can fire anywhere, so its target must not need a subgraph frame),
 * `off_at` naming nodes that exist, `together` naming its `words` lists, and
 * something to match on.
 */
export function checkTriggers(ctx: CompileContext): void {
  const seen = new Set<string>();
  let words: Map<string, string> | undefined;
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
    for (const field of ['together', 'together_in_message'] as const) {
      (t[field] ?? []).forEach((names, j) => names.forEach((name, k) => {
        if (!t.words || !Object.hasOwn(t.words, name)) ctx.error('unknown_word_list', `trigger '${t.id}' uses word list '${name}' in ${field}, which is not in its words`, { path: ['triggers', i, field, j, k] });
      }));
    }
    // a message that is exactly a command word runs the command before any trigger is checked
    const phrases: string[] = t.phrases === undefined ? [] : Array.isArray(t.phrases) ? t.phrases : (Object.values(t.phrases) as string[][]).flat();
    for (const phrase of phrases) {
      const command = (words ??= commandWords(ctx)).get(asCommand(phrase));
      if (command) {
        ctx.warn('trigger_is_command', `trigger '${t.id}' has the phrase '${phrase}', which is also the '${command}' command word: a message of just those words runs the command, not the trigger`, { path: ['triggers', i, 'phrases'] });
      }
    }
    if (!t.phrases?.length && !t.examples?.length && !t.together?.length && !t.together_in_message?.length && !t.description) {
      ctx.warn('trigger_never_matches', `trigger '${t.id}' has no phrases, examples or description, so nothing can match it`, at);
    }
  });
  const paths = ctx.flow.paths;
  if (paths?.default !== undefined && !Object.hasOwn(paths.options, paths.default)) {
    ctx.error('unknown_path', `paths.default is '${paths.default}', which is not a declared path`, { path: ['paths', 'default'] });
  }
}
