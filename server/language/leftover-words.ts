/**
 * The words the commit rule reads in what is left of a reply once its value is set aside
 * (server/extract/offline/remarks.ts): what competes with the value (a hedge, a contrast, a
 * condition, an answer that ended) and what explains a number (a source, an approval, a scope).
 * Phrases are written as visitors type them; matching folds case and accents.
 */
export interface LeftoverWords {
  /** Phrases that compete with any value beside them, in the value's clause or another: "but", "unless", "maybe", "used to", "aber", "falls". */
  readonly compete: readonly string[];
  /** Phrases of `compete` that compete with nothing beside a phone number or an email address: a contrast or an alternative there is about the channel ("…@example.org, or call me whenever"; "but", "or", "aber", "oder"). */
  readonly besideContact: readonly string[];
  /** Yes/no phrases made of a pronoun and a verb ("i do", "we're not", "habe ich"): a yes or no only on their own — with more words in their clause they begin a statement ("we're uninsured"), which is checked. */
  readonly bound: readonly string[];
  /** Phrases holding a yes or no word that answer neither ("right now", "all good", "alles ok"): the word in them is no yes or no. */
  readonly plain: readonly string[];
  /** Phrases that make any value beside them a guess, even where every other word is filler ("I think it's 202 555 0163 but not sure"). */
  readonly unsure: readonly string[];
  /** Phrases that make a date a span or a bound rather than the day: "after", "before", "until", "week", "nach", "bis", "Woche". */
  readonly dateCompete: readonly string[];
  /** Phrases that make a number a rate or a part: "per", "each", "a month", "pro", "jeweils", "monatlich". */
  readonly numberCompete: readonly string[];
  /** Where a number comes from or what it covers, explained beside it in its clause ("board approved", "from a grant", "for the whole stadium", "vom Förderverein", "fürs ganze Stadion"); on folded text. */
  readonly numberExplained: readonly RegExp[];
  /**
   * Beside a number, what the amount covers or how far it is approved, in any clause and with the contrast word before it
   * ("but that has to cover installation too", "incl. install", "not approved yet though", "inkl. Montage", "ist aber noch
   * nicht freigegeben"): set aside before the clause is judged, so the figure is committed; on folded text (a kept
   * abbreviation dot is "\u2024").
   */
  readonly numberAside?: readonly RegExp[];
  /** A bound below the figure after it ("less than $8,000", "under 10k", "weniger als 8.000 $", "unter 10.000"): the figure is a ceiling the value lies under, not the value, and is checked; absent = none. */
  readonly below?: readonly string[];
  /** Words that make an amount one for now, not the budget ("$0 right now", "im Moment 0 €"): an amount said with one is checked, whatever else the reply holds; absent = none. */
  readonly forNow?: readonly string[];
  /**
   * A ballpark: `invited` read in a number question's prompt ("A ballpark is fine", "Eine grobe Zahl genügt") makes it an
   * estimate question, where the `guesses` beside one figure ("40k-ish", "or so", "maybe a bit more", "so um die",
   * "vielleicht etwas mehr") and a question mark only soften the figure: they neither compete nor are left over.
   */
  readonly estimate?: { readonly invited: RegExp; readonly guesses: readonly string[] };
}
