import type { LanguagePack } from '../pack.ts';
import { ES_YES_NO } from './yes-no.ts';
import { ES_DURATIONS } from './durations.ts';
import { ES_SPOKEN } from './spoken.ts';
import { ES_TEXT } from './text-words.ts';
import { localNumber } from '../local-number.ts';
import { ES_DATES } from './dates.ts';
import { ES } from './lexicon.ts';
import { ES as MESSAGES } from './messages.ts';
import { ES_NUMBERS } from './numbers.ts';
import { ES_PARSER } from './parser-messages.ts';
import { ES_CORRECTIONS, ES_NAMES, ES_OPTIONS } from './phrases.ts';
import { spanishWordNumbers } from './word-numbers.ts';

/** Spanish: everything the offline rules and the bot know about the language. */
export const es: LanguagePack = {
  code: 'es',
  region: 'ES',
  lexicon: ES,
  messages: MESSAGES,
  say: ES_PARSER,
  numbers: ES_NUMBERS,
  wordNumbers: spanishWordNumbers,
  formatNumber: (value) => localNumber('es', value, 6),
  dates: ES_DATES,
  corrections: ES_CORRECTIONS,
  names: ES_NAMES,
  options: ES_OPTIONS,
  text: ES_TEXT,
  spoken: ES_SPOKEN,
  yesNo: ES_YES_NO,
  carried: { lead: ['el', 'la', 'los', 'las', 'es'], inName: ['de', 'del', 'y', '&'], self: ['yo', 'nosotros', 'nosotras'] },
  durations: ES_DURATIONS,
  capitalNouns: false,
  negatedYesIsNeither: true,
  declineRule: null,
  otherChannel: {
    phone: /\b(?:ll[áa]menme|ll[áa]mame|prefiero (?:una )?llamada|por tel[ée]fono|una llamada)\b/i,
    email: /\b(?:por (?:e-?mail|correo))\b/i,
  },
};
