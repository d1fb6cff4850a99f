import { de } from './de/index.ts';
import { en } from './en/index.ts';
import { es } from './es/index.ts';
import { fr } from './fr/index.ts';
import type { Lexicon } from './lexicon.ts';
import type { LanguagePack } from './pack.ts';

export type { Lexicon } from './lexicon.ts';
export type { LanguagePack } from './pack.ts';

/** A language a pack covers, by its base tag ('en', 'de'); any other tag falls back to English. */
export type Lang = string;

/** The shipped language packs, English first. Adding a language: its folder, then one line here. */
export const PACKS: readonly LanguagePack[] = [en, de, fr, es];

/** The base tags of the shipped packs, English first. */
export const LANGS: readonly Lang[] = PACKS.map((p) => p.code);

const BY_CODE: ReadonlyMap<string, LanguagePack> = new Map(PACKS.map((p) => [p.code, p]));

/** The base language of a locale tag: `de-AT` → `de`, `fr_CA` → `fr`, `ES` → `es`. */
export function baseLanguage(locale: string): string {
  return locale.trim().toLowerCase().split(/[-_]/)[0]!;
}

/** The pack of a locale tag ('de', 'de-AT', 'fr_CA', 'ES'); English when absent or no pack covers it. */
export function packOf(locale: string | undefined): LanguagePack {
  return (locale ? BY_CODE.get(baseLanguage(locale)) : undefined) ?? en;
}

/** The language of a locale tag ('de', 'de-AT', 'fr_CA', 'ES') when a pack covers it; English when absent or not covered. */
export function langOf(locale: string | undefined): Lang {
  return packOf(locale).code;
}

/** The built-in word lists of a language (English for any tag not covered). */
export function lexicon(locale: string | undefined): Lexicon {
  return packOf(locale).lexicon;
}
