import { loadGlobal } from './load-global.ts';
import type { Translations } from './locale.ts';

// The translations of the widget's own texts (translations.ts) are a bundle
// of their own, `/widget-texts.js`, loaded only by a widget whose locale is
// in one of SHIPPED (locale.ts): an English page never downloads them.

/** The translations from `SERVER/widget-texts.js`, loaded once per page. */
export const loadTranslations = (server: string): Promise<Translations> =>
  loadGlobal<Translations>(`${server.replace(/\/+$/, '')}/widget-texts.js`, '__questlineTexts');
