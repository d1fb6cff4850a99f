import type { NumberWords } from '../number-words.ts';
import { englishCurrencyName } from '../currency-names.ts';

/** The words around a number in English, and how English writes digits. */
export const EN_NUMBERS: NumberWords = {
  negated: /(?<![\p{L}])(?:(?:not|isn['’]?t)\s+(?:(?:more|less|fewer|over|under|above|below|bigger|smaller|higher|lower|much|many)\s+(?:than\s+)?)?|no\s+(?:more|less|fewer|bigger|smaller|higher|lower)\s+than\s+)(?:about\s+|around\s+|even\s+)?[$€£¥₹]?\s?$/iu,
  openEnded: /^(?:\+(?!\s*\d)|\s*(?:or|and)\s+(?:more|over|above|up)\b)/iu,
  hedge: /(?<![\p{L}])(?:not sure|no idea|don['’]?t know|dunno|idk|can['’]?t remember|no clue)(?![\p{L}])/iu,
  counted: /^\s*(?:[\p{L}]+\s+)?(?:courts?|poles?|people|persons?|pieces?|units?|items?|rooms?|fields?|pitches?|lights?|players?|teams?)\b/iu,
  none: /^[\s,.!]*(?:none|nothing|no one|nobody|zero|not a single one)[\s,.!]*$/iu,
  few: /(?<![\p{L}])(?:(just me|only me|just myself|only myself|me alone|just one of us)|a (?:couple|pair)(?: of)?|couple(?: of)?(?=\s+(?:days?|weeks?|hours?|months?|years?|nights?)(?![\p{L}])))(?![\p{L}])/iu,
  minusBefore: /(?<![\p{L}])(?:minus|negative)\s*$/iu,
  belowZero: /^\s*(?:degrees?\s+|°\s*c?\s+)?below(?:\s+zero)(?![\p{L}])/iu,
  outOf: /(?:\/|\bout of|\bof)\s*$/iu,
  half: /^\s*(?:-?and-?\s*a\s+half|and\s+half|½)(?![\p{L}])/iu,
  old: /^\s*old\b/i,
  joiners: ['and', 'or', 'but', 'not', 'sorry', 'maybe'],
  bestEstimate: "If you're not sure, your best estimate is fine — what number should I note?",
  giveIn: (unit) => `Please give that in ${unit}.`,
  plainNumber: (unit) => `Please give that as a plain number (without "${unit}").`,
  otherCurrency: (typed, wanted) => `That amount is in ${typed} — please give it in ${wanted}; we don't convert currencies.`,
  currencyLabel: (code) => (code === '$' ? 'dollars' : `${englishCurrencyName(code)} (${code})`),
  otherKind: (typedKind, typedLabel, wantedKind, written) => `That's ${typedKind} (${typedLabel}), and I need ${wantedKind} — please give it in ${written}.`,
  digitFormat: null,
  echoTyped: false,
  digitScales: null,
  suffixExponent: {},
  years: null,
  // "2nd", "3rd" (and the language's own ordinals): a position or a day, not a count; "2nd" is no unit "nd" either
  ordinal: /^(?:st|nd|rd|th)(?![\p{L}])/iu,
  parts: {
    rangeGap: /^\s*(?:[-–—]|to|-to-|or so to|up to|through|till|until)\s*(?:[$]\s*)?$/iu,
    rangeAnd: /^\s*(?:and|&)\s*(?:[$]\s*)?$/iu,
    rangeBefore: /(?<![\p{L}])(?:between|betw\.?|from|somewhere from)\s*(?:[$]\s*)?$/iu,
    totalBefore: /(?<![\p{L}])(?:total|overall|altogether|all in|in all|grand total|all together)(?![\p{L}])[^\p{N}]{0,24}$/iu,
    totalAfter: /^\s*(?:usd|dollars?|bucks)?\s*(?:in total|total|overall|altogether|all in|in all|all together)(?![\p{L}])/iu,
    share: /(?<![\p{L}])(?:of that|of which|out of that|of it)(?![\p{L}])/iu,
    adds: /(?:^|[^\p{L}])(?:plus|another|and|additional|extra|on top|a further)(?![\p{L}])|\+/iu,
    alternative: /(?<![\p{L}])(?:or|not|instead|rather|either|otherwise|but|up to|to)(?![\p{L}])|[-–]\s*$/iu,
  },
};
