import { DEFAULT_TEXTS, type Texts } from './texts.ts';
import { TRANSLATIONS } from './translations.ts';

// Which language the widget speaks, and which way it lays out. The page's
// choice comes first (`data-locale` / the `locale` option), then the page's
// `<html lang>`, then the browser's language, then English; the server's
// session state has the last word once it names a locale (a visitor who
// switches language mid-conversation).

/** Languages written right to left (by language subtag). */
const RTL = new Set(['ar', 'arc', 'ckb', 'dv', 'fa', 'he', 'iw', 'ks', 'ku', 'ps', 'sd', 'ug', 'ur', 'yi']);

/** A well-formed language tag (`de`, `en-GB`, `zh-Hant-TW`; `_` read as `-`), or undefined. */
export function cleanLocale(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const tag = value.trim().replace(/_/g, '-');
  return tag.length <= 35 && /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(tag) ? tag : undefined;
}

/** The visitor's locale: the page's option, else `<html lang>`, else the browser's language, else `en`. */
export function chooseLocale(option: string | undefined): string {
  return cleanLocale(option) ?? cleanLocale(document.documentElement.lang) ?? cleanLocale(navigator.language) ?? 'en';
}

/** The language subtag, lowercased (`pt-BR` → `pt`). */
export const languageOf = (locale: string): string => locale.split('-')[0]!.toLowerCase();

/** Whether the locale's script runs right to left. */
export const isRtl = (locale: string): boolean => RTL.has(languageOf(locale));

/** The widget's strings for a locale: English, then the language's own, then the page's over both. */
export function textsFor(locale: string, custom: Partial<Texts>): Texts {
  const lang = languageOf(locale);
  return { ...DEFAULT_TEXTS, ...(Object.hasOwn(TRANSLATIONS, lang) ? TRANSLATIONS[lang] : {}), ...custom };
}
