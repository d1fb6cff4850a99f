import type { NumberWords } from '../number-words.ts';
import { localCurrency } from '../currency-names.ts';
import { DOTS_OR_SPACES_DECIMAL_COMMA } from '../digit-format.ts';

/** The words around a number in German, and how German writes digits. */
export const DE_NUMBERS: NumberWords = {
  negated: /(?<![\p{L}])(?:nicht|kein(?:e|en)?)\s+(?:(?:mehr|weniger|über|ueber|unter|größer|groesser|kleiner|höher|hoeher|niedriger)\s+(?:als\s+)?)?(?:ungefähr\s+|etwa\s+|mal\s+)?[$€£¥₹]?\s?$/iu,
  openEnded: /^(?:\+(?!\s*\d)|\s*(?:oder|und)\s+(?:mehr|darüber|drüber)(?![\p{L}]))/iu,
  hedge: /(?<![\p{L}])(?:nicht sicher|keine ahnung|weiß nicht|weiss nicht|kann mich nicht erinnern)(?![\p{L}])/iu,
  counted: /^\s*(?:[\p{L}]+\s+)?[\p{L}]*(?:plätze|platz|felder|feld|courts?|masten|mast|personen|leute|stück|räume|raum|spieler|teams?|leuchten|lampen)(?![\p{L}])/iu,
  none: /^[\s,.!]*(?:keine|keiner|keins|niemand|gar keine|nichts)[\s,.!]*$/iu,
  few: null,
  minusBefore: /(?<![\p{L}])(?:minus)\s*$/iu,
  belowZero: /^\s*(?:grad\s+|°\s*c?\s+)?unter\s+null(?![\p{L}])/iu,
  outOf: /(?:\/|\bvon)\s*$/iu,
  half: /^\s*(?:und\s+ein\s+halb|einhalb|½)(?![\p{L}])/iu,
  old: /^\s*alt(?![\p{L}])/iu,
  joiners: ['und', 'oder', 'aber', 'nicht', 'sorry', 'vielleicht', 'bzw'],
  bestEstimate: 'Wenn Sie es nicht genau wissen, reicht eine Schätzung — welche Zahl soll ich notieren?',
  giveIn: (unit) => `Bitte geben Sie das in ${unit} an.`,
  plainNumber: (unit) => `Bitte geben Sie das als reine Zahl an (ohne „${unit}“).`,
  otherCurrency: (typed, wanted) => `Dieser Betrag ist in ${typed === '$' ? 'Dollar' : typed} — bitte geben Sie ihn in ${wanted} an; wir rechnen keine Währungen um.`,
  currencyLabel: (code) => (code === '$' ? '$' : localCurrency('de', code)),
  otherKind: null,
  digitFormat: DOTS_OR_SPACES_DECIMAL_COMMA,
  echoTyped: true,
  // "25 k€" (a spaced k before the euro sign, as French and German write amounts) is thousands too
  digitScales: /^\s?(tausend|tsd\.?|riesen|million(?:en)?|mio\.?|milliarde(?:n)?|mrd\.?|k(?=\s?€))(?![\p{L}])/iu,
  suffixExponent: {},
  // "42 Jahre", "42 ans", "42 años": years are how an unlabelled count of time is said in these languages; months are asked about
  years: /^(?:jahre?n?|ans|años?|anos?)$/i,
  // "2nd", "3rd" (and the language's own ordinals): a position or a day, not a count; "2nd" is no unit "nd" either
  ordinal: /^(?:st|nd|rd|th|te|ten|ter|tes)(?![\p{L}])/iu,
  parts: {
    rangeGap: /^\s*(?:[-–—]|bis|bis zu|bis etwa)\s*(?:[$€]\s*)?$/iu,
    rangeAnd: /^\s*(?:und|&)\s*(?:[$€]\s*)?$/iu,
    rangeBefore: /(?<![\p{L}])(?:zwischen|von|so zwischen|irgendwo zwischen)\s*(?:[$€]\s*)?$/iu,
    totalBefore: /(?<![\p{L}])(?:insgesamt|gesamt|zusammen|alles in allem|in summe|summa)(?![\p{L}])[^\p{N}]{0,24}$|[\p{L}]*gesamt[\p{L}]*[^\p{N}]{0,16}$/iu,
    totalAfter: /^\s*(?:usd|dollar|\$)?\s*(?:insgesamt|gesamt|zusammen|alles in allem|in summe)(?![\p{L}])/iu,
    share: /(?<![\p{L}])(?:davon|wovon)(?![\p{L}])/iu,
    adds: /(?:^|[^\p{L}])(?:plus|und|nochmal|noch mal|noch|weitere|zusätzlich|dazu|obendrauf)(?![\p{L}])|\+/iu,
    alternative: /(?<![\p{L}])(?:oder|bzw|beziehungsweise|nicht|statt|eher|sondern|aber|bis)(?![\p{L}])|[-–]\s*$/iu,
  },
};
