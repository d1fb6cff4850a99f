import type * as chrono from 'chrono-node';

/** What parseDate reads in one language besides chrono: spans and hedges on the day, past words, a day alone, a week. */
export interface DateWords {
  /** chrono's parser for the language, by the session's default country (English: US month first, elsewhere day first). */
  parser: (country: string) => chrono.Chrono;
  /** Drop chrono matches of three letters or less, or inside a word (chrono's German, French and Spanish parsers read "so", "Fr", "mi" as weekdays). */
  strictMatches: boolean;
  /** "end of the month", "about a week ago", "nächste Woche": a span or a hedge on the day, asked about. */
  loose: RegExp;
  /** "last monday", "letzten Montag", "hier": the past, which a future-only question refuses. */
  past: RegExp;
  /** A reply that is only a day of the month ("the 3rd", "am 3.", "le 3", "el 3"); group 1 is the day. */
  dayAlone: RegExp;
  /** "next week", "this weekend": a week is no day unless a weekday is named ("tuesday next week"); null = chrono decides. */
  week: { span: RegExp; next: RegExp; weekday: RegExp; ask: (typed: string) => string } | null;
  /** "Which day in March?" for a month without a day; null = the parsers' `whichDay`. */
  whichDayIn: ((month: string) => string) | null;
  /** A year said in words (`find`, global) and its digits ("nineteen seventy" → "1970", "zweitausendzehn" → "2010"; the match unchanged when unreadable); null = none. */
  spokenYears: { find: RegExp; digits: (m: RegExpExecArray) => string } | null;
  /**
   * Fixed-date holidays ("christmas day", "Heiligabend") as [pattern, month, day], read as that day when nothing
   * else in the reply names one, and `say`, a month and day as this language's parser reads them; null = none.
   */
  holidays: { days: ReadonlyArray<readonly [RegExp, number, number]>; say: (month: number, day: number) => string } | null;
  /** Days with no fixed date ("easter", "next spring", "nach den Sommerferien"): asked which day; null = none. */
  noFixedDay: RegExp | null;
  /** A hedge before the day given after "Which day in March?" ("around the 9th", "so um den 9."), dropped there; null = none. */
  hedge: RegExp | null;
  /**
   * The order of a numeric date said beside it ("02/03/2001 (that's dd/mm, I'm from the UK)", "04/05/1990, day first",
   * "(mm/dd)"): the date is read in that order whatever the session's country, and the words are accounted for; absent = none.
   */
  order?: { dayFirst: RegExp; monthFirst: RegExp };
  /** Phrasings chrono does not read, rewritten for it (`find`, global): "august the ninth" → "ninth of august"; absent = none. */
  forChrono?: ReadonlyArray<{ find: RegExp; by: (m: RegExpExecArray) => string }>;
}

