import type { SessionJson } from '../engine/session.ts';

// The session's language as clients see it (`locale` in the session state the
// widget gets and in the console's list). Today it is the `locale` the
// session's context holds (a page can pass it in `context`); the session
// locale of issue 18 takes its place once sessions store one.

/** `{ locale }` when the session has a well-formed one (at most 35 characters), else `{}`. */
export function localeField(s: Pick<SessionJson, 'context'>): { locale?: string } {
  const locale = s.context.locale;
  return typeof locale === 'string' && locale.length > 0 && locale.length <= 35 ? { locale } : {};
}
