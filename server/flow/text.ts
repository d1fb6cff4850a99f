import { z } from 'zod';
import { lazy } from '../shared/lazy.ts';

// Visitor-facing texts in a flow are a plain string (every locale) or a map by
// locale. The zod schemas accept both (so the JSON Schema offers both to
// editors); the compiler projects a flow to one locale before compiling, so
// the types the compiler and engine read (`Plain<…>`) hold strings only.

/** A locale: a base language, optionally with a region or script (`en`, `de`, `pt-BR`, `zh-Hant`). */
export const LocaleTag = lazy(() => z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'expected a locale such as "en", "de" or "pt-BR"'));

/** A value given once per locale: `{ en: …, de: … }`. Branded so `Plain` can tell it from other records. */
export function byLocale<T extends z.ZodType>(value: T) {
  return z.record(LocaleTag(), value).brand<'ByLocale'>().describe('one per locale, e.g. { "en": …, "de": … }');
}

/** A text: one string for every locale, or one per locale. */
export const Text = lazy(() => z.union([z.string(), byLocale(z.string())]).meta({ id: 'Text' }));

/** A list of words or phrases (synonyms, examples, command words): one list for every locale, or one per locale. */
export const Texts = lazy(() => z.union([z.array(z.string()), byLocale(z.array(z.string()))]).meta({ id: 'Texts' }));

/** A map by locale, as the type of a parsed document holds it. */
export type ByLocale = z.$brand<'ByLocale'>;

/** `T` with every map by locale replaced by its value: a flow projected to one locale. */
export type Plain<T> = T extends ByLocale
  ? T extends Record<string, infer V> ? Plain<V> : never
  : T extends ReadonlyArray<infer U> ? Plain<U>[]
    : T extends object ? { [K in keyof T]: Plain<T[K]> }
      : T;
