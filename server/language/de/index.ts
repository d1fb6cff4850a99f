import type { LanguagePack } from '../pack.ts';
import { DE_DURATIONS } from './durations.ts';
import { DE_YES_NO } from './yes-no.ts';
import { DE_SPOKEN } from './spoken.ts';
import { DE_LEFTOVERS } from './leftovers.ts';
import { DE_TEXT } from './text-words.ts';
import { localNumber } from '../local-number.ts';
import { DE_DATES } from './dates.ts';
import { DE } from './lexicon.ts';
import { DE as MESSAGES } from './messages.ts';
import { DE_NUMBERS } from './numbers.ts';
import { DE_PARSER } from './parser-messages.ts';
import { DE_CORRECTIONS, DE_NAMES, DE_OPTIONS } from './phrases.ts';
import { DE_OPTION_MEANING } from './option-meaning.ts';
import { germanWordNumbers } from './word-numbers.ts';
import { withDialect } from './dialect.ts';

/** German: everything the offline rules and the bot know about the language. */
export const de: LanguagePack = {
  code: 'de',
  region: 'DE',
  // yes, no, hedges and skips also as typed in Bavarian, Austrian and Swiss German ("Nei, nüt", "weiß ned", "koa Ahnung")
  lexicon: { ...DE, yes: withDialect(DE.yes), no: withDialect(DE.no), neither: withDialect(DE.neither), skip: withDialect(DE.skip), declines: withDialect(DE.declines), negators: withDialect(DE.negators) },
  messages: MESSAGES,
  say: DE_PARSER,
  numbers: DE_NUMBERS,
  wordNumbers: germanWordNumbers,
  formatNumber: (value) => localNumber('de', value, 6),
  dates: DE_DATES,
  corrections: DE_CORRECTIONS,
  names: DE_NAMES,
  options: { ...DE_OPTIONS, meaning: DE_OPTION_MEANING },
  text: DE_TEXT,
  leftovers: { ...DE_LEFTOVERS, compete: withDialect(DE_LEFTOVERS.compete), unsure: withDialect(DE_LEFTOVERS.unsure), plain: withDialect(DE_LEFTOVERS.plain), bound: withDialect(DE_LEFTOVERS.bound) },
  spoken: DE_SPOKEN,
  yesNo: { ...DE_YES_NO, none: withDialect(DE_YES_NO.none), fine: withDialect(DE_YES_NO.fine), ended: withDialect(DE_YES_NO.ended), allFine: withDialect(DE_YES_NO.allFine ?? []) },
  carried: { lead: ['die', 'der', 'das', 'den', 'es', 'ist'], inName: ['für', 'und', '&'], self: ['ich', 'wir'] },
  durations: DE_DURATIONS,
  capitalNouns: true,
  negatedYesIsNeither: true,
  declineRule: null,
  phoneCountries: {
    words: {
      'schweiz': 'CH', 'schweizer*': 'CH', 'schweizerisch*': 'CH', 'zürich': 'CH', 'zuerich': 'CH', 'bern': 'CH', 'basel': 'CH', 'luzern': 'CH', 'genf': 'CH', 'st. gallen': 'CH', 'winterthur': 'CH',
      // "Natel": the Swiss word for a mobile phone ("Natel 079 123 45 67")
      'natel': 'CH',
      'österreich': 'AT', 'oesterreich': 'AT', 'österreichisch*': 'AT', 'oesterreichisch*': 'AT', 'wien': 'AT', 'graz': 'AT', 'linz': 'AT', 'salzburg': 'AT', 'innsbruck': 'AT', 'klagenfurt': 'AT',
      'deutschland': 'DE', 'deutsche': 'DE', 'deutscher': 'DE', 'deutsches': 'DE', 'deutschen': 'DE',
    },
    neighbours: ['DE', 'AT', 'CH'],
  },
  otherChannel: {
    phone: /\b(?:keine e-?mail|keine mail|ha(?:be|b) keine|lieber (?:per )?telefon|anrufen|angerufen|anruf|rufen\b.*\ban|telefonisch|per telefon|telefon (?:ist|wäre) (?:mir )?(?:lieber|besser))\b/i,
    email: /\b(?:kein telefon|keine telefonnummer|kein handy|nicht anrufen|keine anrufe|per mail|e-?mail (?:ist|wäre) (?:mir )?(?:lieber|besser)|lieber (?:per )?e-?mail|lieber (?:eine )?mail)\b/i,
  },
  // "sie ist 35", "ich bin 41 Jahre alt", "Alter: 9", "35 Jahre alt"; not "ich bin 30 Wochen schwanger"
  age: /(?:\b(?:ich bin|sie ist|er ist|alter:?)\s+(\d{1,3})(?![\d]|[.,]\d|\s*(?:wochen|woche|monate|monat|tage|tag|kg|kilo|cm|m|grad|°|%|minuten|stunden))(?:\s*jahre(?:\s*alt)?)?|\b(\d{1,3})\s*jahre\s*alt)\b/i,
};
