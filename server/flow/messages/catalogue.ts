import type { z } from 'zod';
import { MessagesShape, type Messages } from '../../language/messages-shape.ts';
import { lazy } from '../../shared/lazy.ts';
import { baseLanguage, PACKS } from '../../language/registry.ts';
import { EN } from '../../language/en/messages.ts';

// The bot's own texts (re-asks, command replies, endings, the review, the
// hand-back) by locale. The compiler resolves one locale's catalogue into
// each compiled flow (built-in, then the flow's `messages`, then the
// tenant's), so the engine stays pure and holds no literal a visitor reads.
// `{name}` in a text is filled in by the engine (`fillMessage`).

export { MessagesShape, type Messages } from '../../language/messages-shape.ts';
export { fillMessage } from '../../language/fill-message.ts';

/** Built-in texts to change (in a flow's or a tenant's `messages`, by locale). */
export const BuiltInMessages = lazy(() => MessagesShape().partial().strict().meta({ id: 'BuiltInMessages', description: 'built-in texts to change; see docs/engine.md for the keys' }));
export type BuiltInMessages = z.infer<ReturnType<typeof BuiltInMessages>>;

/** The shipped catalogues, by base language: each language pack's built-in texts (server/language/<code>/messages.ts). */
export const CATALOGUES: Readonly<Record<string, Messages>> = Object.fromEntries(PACKS.map((p) => [p.code, p.messages]));

export { baseLanguage } from '../../language/registry.ts';

/** One locale's catalogue: the shipped one (English when none ships), then each override in order. */
export function resolveMessages(locale: string, ...overrides: ReadonlyArray<Readonly<Record<string, BuiltInMessages>> | undefined>): Messages {
  const out: Messages = { ...(CATALOGUES[locale] ?? CATALOGUES[baseLanguage(locale)] ?? EN) };
  for (const o of overrides) {
    const add = o?.[locale] ?? o?.[baseLanguage(locale)];
    if (add) Object.assign(out, add);
  }
  return out;
}
