/** A catalogue text with its `{name}` placeholders filled in (an unknown name is left as written). */
export function fillMessage(text: string, vars: Readonly<Record<string, string | number>> = {}): string {
  return text.replace(/\{(\w+)\}/g, (all, name: string) => (Object.hasOwn(vars, name) ? String(vars[name]) : all));
}
