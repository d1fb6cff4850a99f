import type { Session } from './session.ts';

const PLACEHOLDER = /\{\{\s*(answers|context)\.([A-Za-z0-9_-]+)\s*\}\}/g;

/** A value as the plain text a message shows: lists joined, null and objects empty. */
function asText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(asText).filter(Boolean).join(', ');
  if (typeof v === 'object') return '';
  return String(v);
}

/**
 * Fills `{{answers.KEY}}` and `{{context.KEY}}` with plain text. The result is
 * text, never markup: renderers must escape it (the widget sets textContent).
 */
export function renderTemplate(text: string, answers: Session['answers'], context: Readonly<Record<string, unknown>>): string {
  if (!text.includes('{{')) return text;
  return text.replace(PLACEHOLDER, (_, root: string, key: string) =>
    root === 'answers' ? asText(answers.get(key)?.value) : asText(Object.hasOwn(context, key) ? context[key] : undefined));
}
