// The lazily loaded translations of the widget's own texts, served as
// /widget-texts.js (see load-texts.ts).
import { TRANSLATIONS } from './translations.ts';

(window as unknown as { __questlineTexts?: typeof TRANSLATIONS }).__questlineTexts = TRANSLATIONS;
