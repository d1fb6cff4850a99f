// The words around a number that change what it means, per language: a
// negation before it ("not 4", "nicht 4", "pas 4", "no 4"), an open end after
// it ("10 or more"), a hedge, "none", a count of things where a measure is
// asked ("2 tennis courts", "2 Tennisplätze"), a minus; and how the language
// writes digits. Each pack holds its own (server/language/<code>/numbers.ts).
// English is what the rules were written with; the others follow it where the
// language allows. `few` ("a couple") has no counterpart: "ein paar",
// "quelques", "unos cuantos" mean a few, not two.

/** The patterns parseNumber reads around numbers, and the clarifications it writes with them. */
export interface NumberWords {
  negated: RegExp;
  openEnded: RegExp;
  hedge: RegExp;
  counted: RegExp;
  none: RegExp;
  few: RegExp | null;
  minusBefore: RegExp;
  belowZero: RegExp;
  outOf: RegExp;
  half: RegExp;
  /** "old" after "18 months": an age, so a unit after the number is not a problem. */
  old: RegExp;
  /** Words after two numbers that are not labels of different things ("2 or 3"). */
  joiners: readonly string[];
  bestEstimate: string;
  giveIn: (unit: string) => string;
  plainNumber: (unit: string) => string;
  /** An amount in another currency (`typed`, or '$' for a dollar of no stated country), asked again in the question's. */
  otherCurrency: (typed: string, wanted: string) => string;
  /** A currency named in a clarification ("euros (EUR)", "Euro (EUR)"); '$' is a dollar of no stated country. */
  currencyLabel: (code: string) => string;
  /** A unit of another kind than the question's ("25 kg" for a height), said with both kinds; null = `giveIn`. */
  otherKind: ((typedKind: string, typedLabel: string, wantedKind: string, written: string) => string) | null;
  /** The language's digit format ("1.234,56", "7,5", "1 234,5"), rewritten to plain digits before reading; null = digits as English writes them. */
  digitFormat: RegExp | null;
  /** Echoes and evidence quote the digits as typed, before the digit format was rewritten (false: the plain form English always showed). */
  echoTyped: boolean;
  /** Multiplier words after digits ("30 Tsd.", "2 millions", "30 mil"); group 1 the word; null = the shared "k", "million" only. */
  digitScales: RegExp | null;
  /** A shared multiplier suffix the language reads otherwise (Spanish "30mil" is thousands, not millions). */
  suffixExponent: Readonly<Record<string, number>>;
  /** The unit label an unlabelled count of time takes ("42 Jahre"): years are fine, months are asked about; null = any unit is asked about. */
  years: RegExp | null;
  /** The letters right after digits that make them an ordinal ("2nd", "3e", "2º"): a position or a day, never a count or a unit; absent = none. */
  ordinal?: RegExp;
  /** Several figures that give one answer (a range, a total with its parts, a sum; parse/amount-parts.ts); absent = two numbers are asked about. */
  parts?: AmountWords;
}

/** The words that make several figures one answer (server/extract/parse/amount-parts.ts). */
export interface AmountWords {
  /** The whole text between the two ends of a range ("-", " to ", " bis "). */
  rangeGap: RegExp;
  /** The text between the ends when a range word comes before the first ("and" after "between"). */
  rangeAnd: RegExp;
  /** The end of the text before the first end that opens a range ("between", "zwischen"). */
  rangeBefore: RegExp;
  /** The text between a figure and the one before it ends in a total word ("total of", "insgesamt"). */
  totalBefore: RegExp;
  /** The text after a figure starts with a total word ("in total", "overall", "insgesamt"). */
  totalAfter: RegExp;
  /** A share of the total ("of that", "davon"): parts need not add up to it. */
  share: RegExp;
  /** Text between two amounts that adds them ("plus", "and another", "und nochmal"). */
  adds: RegExp;
  /** Text between two amounts that makes them alternatives ("or", "oder", "bzw."). */
  alternative: RegExp;
}
