import { createRequire } from 'node:module';
import type * as ChronoDe from 'chrono-node/de';
import type * as ChronoEn from 'chrono-node/en';
import type * as ChronoEs from 'chrono-node/es';
import type * as ChronoFr from 'chrono-node/fr';

// chrono-node's parsers of one language, loaded the first time a date is read
// in it — not when `questline` is imported (all of chrono's languages took
// about 0.4 s of the import; bench/import.ts). A synchronous require of the
// CommonJS build keeps the date parser synchronous.

const require = createRequire(import.meta.url);

interface ChronoLocales {
  de: typeof ChronoDe;
  en: typeof ChronoEn;
  es: typeof ChronoEs;
  fr: typeof ChronoFr;
}

/** What every chrono-node language module has (`chrono-node/it`, `chrono-node/nl`, …): its casual and strict parsers. */
export type ChronoModule = Pick<typeof ChronoFr, 'casual' | 'strict'>;

const loaded: Record<string, unknown> = {};

/** chrono's module for one language (`chrono-node/<lang>`), loaded on first use; a language chrono-node has but the list above does not gives its casual and strict parsers. */
export function chronoOf<L extends keyof ChronoLocales>(lang: L): ChronoLocales[L];
export function chronoOf(lang: string): ChronoModule;
export function chronoOf(lang: string): unknown {
  return (loaded[lang] ??= require(`chrono-node/${lang}`));
}
