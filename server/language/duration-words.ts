/**
 * The words a count of days or an age in years is given with other than a plain number
 * (server/extract/offline/duration-reply.ts): a start date ("since Monday", "seit gestern"), an
 * article for one ("a week", "eine Woche"), and an age in months or weeks ("18 months", "3 Wochen alt").
 */
export interface DurationWords {
  /** Words before a start date ("since", "started", "seit", "angefangen"); group-free phrases, folded. */
  readonly since: readonly string[];
  /** Days said alone that give a start ("yesterday", "this morning", "gestern", "heute früh"). */
  readonly startDays: readonly string[];
  /** The word for today the date reader reads ("today", "heute", "aujourd'hui", "hoy"): the session calendar's today. */
  readonly today: string;
  /** A start said as a part of a day ("this morning", "last night", "heute früh"): read as today, or yesterday, not as a date; absent = read as a date. */
  readonly partOfDay?: PartOfDayWords;
  /** Fixed-date holidays a start is named by ("christmas": "12-25", "new year's": "01-01", "Silvester": "12-31"), the last one on or before today. */
  readonly holidays: Readonly<Record<string, string>>;
  /** Unit words a question's unit is in days with ("day", "days", "d", "Tage"). */
  readonly dayUnits: readonly string[];
  /** An article for one before a unit ("a week", "an hour", "eine Woche"): replaced by 1; group 1 the article. */
  readonly one: RegExp;
  /** What a prompt or key says to ask an age in years ("age", "how old", "Alter", "wie alt"). */
  readonly asksAge: RegExp;
  /** Words of a prompt or key naming a person, whose age is counted in whole years ("patient", "you", "child", "Kind"): a thing's age ("Wie alt ist die Anlage?") is not. */
  readonly person: RegExp;
  /** Units an age is given in, with how many make a year ("months": 12, "Wochen": 52, "years": 1). */
  readonly ageUnits: Readonly<Record<string, number>>;
  /** An age said by the birthday to come ("almost 5", "turning 30 next week", "41 in March", "wird nächste Woche 40"): group `n` the age then; the age now is one less. */
  readonly comingAge?: readonly RegExp[];
  /** An age just reached ("just turned 40", "gerade 18 geworden"): group `n` the age now. */
  readonly reachedAge?: readonly RegExp[];
  /** An age said roughly ("about 50", "40ish", "so um die 50"): checked with the visitor, never committed as said. */
  readonly aboutAge?: RegExp;
  /** An age said as near the next birthday ("almost 40", "fast 40"): a child's next birthday (the age now is one less), an adult's rounding — checked. */
  readonly nearAge?: RegExp;
  /** A count of months at a question counted in days ("about a month", "einen Monat"): group 1 the count (an article or digits); 30 days each. */
  readonly months?: RegExp;
}

/** The words of a start said as a part of a day (server/extract/parse/days-since.ts). */
export interface PartOfDayWords {
  /** Parts of a day ("morning", "night", "früh", "abend"): a start day holding one ("this morning", "gestern abend") is a part of a day. */
  readonly parts: readonly string[];
  /** Words putting it on the day before ("last night", "gestern"), anywhere after the start word. */
  readonly yesterday: readonly string[];
  /** The word for yesterday the date reader reads ("yesterday", "gestern"). */
  readonly yesterdayWord: string;
}
