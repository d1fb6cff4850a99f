import type { NumberWords } from '../number-words.ts';
import { localCurrency } from '../currency-names.ts';
import { SPACES_DECIMAL_COMMA } from '../digit-format.ts';

/** The words around a number in French, and how French writes digits. */
export const FR_NUMBERS: NumberWords = {
  negated: /(?<![\p{L}])(?:pas|non)\s+(?:(?:plus|moins)\s+(?:de|que)\s+)?(?:environ\s+|à peu près\s+)?[$€£¥₹]?\s?$/iu,
  openEnded: /^(?:\+(?!\s*\d)|\s*(?:ou|et)\s+(?:plus|davantage)(?![\p{L}]))/iu,
  hedge: /(?<![\p{L}])(?:pas sûr|pas sure|aucune idée|je ne sais pas|je sais pas)(?![\p{L}])/iu,
  counted: /^\s*(?:[\p{L}]+\s+)?(?:terrains?|courts?|poteaux?|mâts?|personnes?|gens|pièces?|salles?|joueurs?|équipes?|lampes?)(?![\p{L}])/iu,
  none: /^[\s,.!]*(?:aucun|aucune|personne|rien|pas un seul|pas une seule)[\s,.!]*$/iu,
  few: null,
  minusBefore: /(?<![\p{L}])(?:moins)\s*$/iu,
  belowZero: /^\s*(?:degrés?\s+|°\s*c?\s+)?(?:au-dessous|en dessous)\s+de\s+zéro(?![\p{L}])/iu,
  outOf: /(?:\/|\bsur)\s*$/iu,
  half: /^\s*(?:et\s+demi(?:e)?|½)(?![\p{L}])/iu,
  old: /^\s*(?:ans|d'âge)(?![\p{L}])/iu,
  joiners: ['et', 'ou', 'mais', 'pas', 'pardon', 'peut'],
  bestEstimate: "Si vous n'êtes pas sûr, une estimation suffit — quel nombre dois-je noter ?",
  giveIn: (unit) => `Veuillez l'indiquer en ${unit}.`,
  plainNumber: (unit) => `Veuillez donner un nombre seul (sans « ${unit} »).`,
  otherCurrency: (typed, wanted) => `Ce montant est en ${typed === '$' ? 'dollars' : typed} — veuillez l'indiquer en ${wanted} ; nous ne convertissons pas les devises.`,
  currencyLabel: (code) => (code === '$' ? '$' : localCurrency('fr', code)),
  otherKind: null,
  digitFormat: SPACES_DECIMAL_COMMA,
  echoTyped: true,
  // "25 k€" (a spaced k before the euro sign, as French and German write amounts) is thousands too
  digitScales: /^\s?(mille|millions?|milliards?|k(?=\s?€))(?![\p{L}])/iu,
  suffixExponent: {},
  // "42 Jahre", "42 ans", "42 años": years are how an unlabelled count of time is said in these languages; months are asked about
  years: /^(?:jahre?n?|ans|años?|anos?)$/i,
  // "2nd", "3rd" (and the language's own ordinals): a position or a day, not a count; "2nd" is no unit "nd" either
  ordinal: /^(?:st|nd|rd|th|er|re|ère|e|ème|eme|è)(?![\p{L}])/iu,
};
