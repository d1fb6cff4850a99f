/**
 * The words a yes or no that already carries the next question's answer is read with
 * (server/extract/offline/carried-answer.ts): "yep, Aetna", "ja, die AOK", "oui, la MAAF".
 * Words are matched folded (case and accents).
 */
export interface CarriedWords {
  /** Words dropped before a name ("the", "it's", "die", "ist"): "ja, die AOK" carries "AOK". */
  readonly lead: readonly string[];
  /** Lower-case words that may stand inside a name ("of", "and", "&", "für"): "yes, Bank of America". */
  readonly inName: readonly string[];
  /** Words a statement about the speaker begins with ("i", "we", "ich", "wir"): "yes, I take 2 a day" carries no figure. */
  readonly self: readonly string[];
}
