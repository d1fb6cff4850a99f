import { DE } from './de.ts';
import { EN } from './en.ts';
import { ES } from './es.ts';
import { FR } from './fr.ts';
import type { Lang, Lexicon } from './types.ts';

export type { Lang, Lexicon } from './types.ts';
export { LANGS } from './types.ts';

const LEXICONS: Readonly<Record<Lang, Lexicon>> = { en: EN, de: DE, fr: FR, es: ES };

/** The base language of a locale tag: `de-AT` → `de`, `fr_CA` → `fr`, `ES` → `es`. */
export function baseLanguage(locale: string): string {
  return locale.trim().toLowerCase().split(/[-_]/)[0]!;
}

/** The language of a locale tag ('de', 'de-AT', 'fr_CA', 'ES') when the word lists cover it; English when absent or not covered. */
export function langOf(locale: string | undefined): Lang {
  const base = locale ? baseLanguage(locale) : 'en';
  return base === 'de' || base === 'fr' || base === 'es' ? base : 'en';
}

/** The built-in word lists of a language (English for any tag not covered). */
export function lexicon(locale: string | undefined): Lexicon {
  return LEXICONS[langOf(locale)];
}
