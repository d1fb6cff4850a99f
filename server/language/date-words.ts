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
}

