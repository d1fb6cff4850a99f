import type { SessionJson } from '../engine/session.ts';

// The session's language as clients see it (`locale` in the session state the
// widget gets and in the console's list): the flow locale the session speaks
// (chosen at start or switched to) when the flow declares `locales`, else the
// `locale` a page passed in the session's context.

/** `{ locale }` when the session has a well-formed one (at most 35 characters), else `{}`. */
export function localeField(s: Pick<SessionJson, 'context' | 'locale'>): { locale?: string } {
  const locale = s.locale ?? s.context.locale;
  return typeof locale === 'string' && locale.length > 0 && locale.length <= 35 ? { locale } : {};
}
