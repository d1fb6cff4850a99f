import { DEFAULT_TEXTS, type Texts } from './texts.ts';

// Which language the widget speaks, and which way it lays out. The page's
// choice comes first (`data-locale` / the `locale` option), then the page's
// `<html lang>`, then the browser's language, then English. The server's
// session state names the session's locale: the locale it starts with may be
// only the flow's fallback (a Hebrew page on an English-only flow keeps its
// Hebrew, right-to-left controls), but a later, different one means the
// visitor switched language, and the widget's texts follow it. No DOM here
// (unit-tested in Node).

/** The languages translations.ts has, besides English (checked against it by test/unit/widget-locale.test.ts). */
export const SHIPPED: readonly string[] = ['ar', 'de', 'es', 'fr', 'he'];

/** The translations by language subtag (translations.ts, loaded on demand by load-texts.ts). */
export type Translations = Readonly<Record<string, Texts>>;

/** Languages written right to left (by language subtag). */
const RTL = new Set(['ar', 'arc', 'ckb', 'dv', 'fa', 'he', 'iw', 'ks', 'ku', 'ps', 'sd', 'ug', 'ur', 'yi']);

/** A well-formed language tag (`de`, `en-GB`, `zh-Hant-TW`; `_` read as `-`), or undefined. */
export function cleanLocale(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const tag = value.trim().replace(/_/g, '-');
  return tag.length <= 35 && /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(tag) ? tag : undefined;
}

/** The visitor's locale: the page's option, else the page's `<html lang>`, else the browser's language, else `en`. */
export function chooseLocale(option: unknown, pageLang: unknown, browserLang: unknown): string {
  return cleanLocale(option) ?? cleanLocale(pageLang) ?? cleanLocale(browserLang) ?? 'en';
}

/** The locale of the widget's own texts: the session's current one when the visitor switched to it since the start, else the page's. */
export function uiLocale(page: string, started: string | undefined, current: string | undefined): string {
  return cleanLocale(current) && started !== undefined && current !== started ? current! : page;
}

/** The language subtag, lowercased (`pt-BR` → `pt`). */
export const languageOf = (locale: string): string => locale.split(/[-_]/)[0]!.toLowerCase();

/** Whether the locale's script runs right to left. */
export const isRtl = (locale: string): boolean => RTL.has(languageOf(locale));

/** Whether the widget has its own texts in the locale's language, other than English (they are loaded on demand). */
export const isTranslated = (locale: string): boolean => SHIPPED.includes(languageOf(locale));

/** The widget's strings for a locale: English, then the language's own (once loaded), then the page's over both. */
export function textsFor(locale: string, custom: Partial<Texts>, translations: Translations | null): Texts {
  const lang = languageOf(locale);
  return { ...DEFAULT_TEXTS, ...(translations && Object.hasOwn(translations, lang) ? translations[lang] : {}), ...custom };
}
