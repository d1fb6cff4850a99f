import type { LanguagePack } from '../pack.ts';
import { FR_YES_NO } from './yes-no.ts';
import { FR_DURATIONS } from './durations.ts';
import { FR_SPOKEN } from './spoken.ts';
import { FR_TEXT } from './text-words.ts';
import { localNumber } from '../local-number.ts';
import { FR_DATES } from './dates.ts';
import { FR } from './lexicon.ts';
import { FR as MESSAGES } from './messages.ts';
import { FR_NUMBERS } from './numbers.ts';
import { FR_PARSER } from './parser-messages.ts';
import { FR_CORRECTIONS, FR_NAMES, FR_OPTIONS } from './phrases.ts';
import { frenchWordNumbers } from './word-numbers.ts';

/** French: everything the offline rules and the bot know about the language. */
export const fr: LanguagePack = {
  code: 'fr',
  region: 'FR',
  lexicon: FR,
  messages: MESSAGES,
  say: FR_PARSER,
  numbers: FR_NUMBERS,
  wordNumbers: frenchWordNumbers,
  formatNumber: (value) => localNumber('fr', value, 6),
  dates: FR_DATES,
  corrections: FR_CORRECTIONS,
  names: FR_NAMES,
  options: FR_OPTIONS,
  text: FR_TEXT,
  spoken: FR_SPOKEN,
  yesNo: FR_YES_NO,
  carried: { lead: ['le', 'la', 'les', "c'est", 'c’est'], inName: ['de', 'du', 'des', 'et', '&'], self: ['je', "j'", 'j’', 'nous', 'on'] },
  durations: FR_DURATIONS,
  capitalNouns: false,
  negatedYesIsNeither: true,
  declineRule: null,
  otherChannel: {
    phone: /\b(?:appelez-moi|appelez moi|m'appeler|me rappeler|rappelez-moi|par t[ée]l[ée]phone|un appel)\b/i,
    email: /\b(?:par e-?mail|par courriel|par mail)\b/i,
  },
};
