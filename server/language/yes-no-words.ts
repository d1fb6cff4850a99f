/**
 * The words a yes/no question is answered with by content, without a yes or no word
 * (server/extract/offline/yes-no-content.ts): a denial that there is any, and the prompt's own listed
 * items asserted or denied. Phrases are written as visitors type them; matching folds case and accents.
 */
export interface YesNoWords {
  /** Words in a prompt that ask whether there is any ("any", "anything", "irgendwelche", "etwas"): only then does "none" answer no. */
  readonly any: readonly string[];
  /** Replies denying there is any ("none", "nothing like that", "not that I know of", "nichts dergleichen", "nicht dass ich wüsste"). */
  readonly none: readonly string[];
  /** Quantities beside the text pack's `quantityOnly` that say there are several ("too many to count", "more than I can list"): a yes where the prompt asks "any". */
  readonly many?: readonly string[];
  /** "any"/"anything" after a negator ("not on anything", "I don't take any"): a denial too. */
  readonly anyWords: readonly string[];
  /** Words joining a prompt's list ("or", "oder"), besides a comma: only a prompt that lists things has items. */
  readonly listJoiners: readonly string[];
  /** Words joining items under one negator besides `listJoiners` ("no wires nor sparks", "keine Kabel noch Funken"). */
  readonly negatedJoiners?: readonly string[];
  /** Words of a prompt that are no item although they are not common words ("moment", "including"). */
  readonly notItems: readonly string[];
  /** Words saying a thing named is fine ("breathing fine", "the pole is solid", "alles sicher"): the item is denied. */
  readonly fine: readonly string[];
  /** Words that mention a thing named without a problem ("the wiring was redone", "new poles", "die Masten sind neu"): the item says neither. */
  readonly neutral: readonly string[];
  /** Words saying a thing named has ended ("no longer", "stopped", "nicht mehr"): the item is denied. */
  readonly ended: readonly string[];
  /**
   * Kinds of things a prompt asks about by a general word ("any medications", "allergies to medicines, foods or latex"):
   * `names` are the prompt's words for the kind, `members` what a visitor names instead ("vitamin D", "peanuts"). A member
   * of a kind the prompt names is a yes; "only/just X" where X is a member of a kind the prompt does not name, and names
   * none of its listed items ("just the cough" at "chest pain or trouble breathing"), is a no.
   */
  readonly kinds?: ReadonlyArray<{ readonly names: readonly string[]; readonly members: readonly string[] }>;
  /** Words restricting a reply to one thing ("only", "just", "nur"): with a thing outside what is asked, a no. */
  readonly only?: readonly string[];
  /** A condition after "only" ("only when I cough", "nur wenn ich huste"): the thing happens at times — no "no", nothing read. */
  readonly onlyWhen?: readonly string[];
  /** How often ("sometimes", "as needed", "manchmal"): beside a thing of the kind asked about, no half answer. */
  readonly frequency?: readonly string[];
  /** Replies saying everything is fine ("all fine", "looks fine", "alles in Ordnung"): a no where the prompt asks whether there is anything. */
  readonly allFine?: readonly string[];
  /**
   * Facts that rule a question's topic out: where a prompt word has a `topic` stem ("pregnan"), a reply stating one of the
   * `facts` ("I'm a guy", "hysterectomy") or an `age` below `under` ("she's 7") is a no.
   */
  readonly rulesOut?: ReadonlyArray<{ readonly topic: readonly string[]; readonly facts: readonly string[]; readonly age?: RegExp; readonly under?: number }>;
  /** Steps taken against a danger ("we taped off the area", "abgesperrt"): at a prompt that lists items, a yes. */
  readonly precautions?: readonly string[];
  /** Words naming the same thing as a prompt's item ("cable" for "wiring"): each group's words name one another. */
  readonly alike?: ReadonlyArray<readonly string[]>;
  /**
   * A prompt asking whether there is a chance ("Is there any chance you could be pregnant?", `asks`): a possibility said
   * ("could be", "possibly", "we've been trying", `possible`) is a yes — the chance is what was asked.
   */
  readonly chance?: { readonly asks: readonly string[]; readonly possible: readonly string[] };
  /**
   * Agreement asked for (`asks`: "agree", "consent", "einverstanden"): a reluctant assent (`words`: "fine whatever", "fine by
   * me", "if I must", "meinetwegen", "von mir aus") with nothing beside it but filler is a yes; `not` voids it ("I'm fine").
   */
  readonly assent?: { readonly asks: readonly string[]; readonly words: readonly string[]; readonly not: readonly string[] };
  /** Words saying when something happens ("when", "whenever", "wenn"): beside a degree ("kind of … when I run") no yes. */
  readonly conditions?: readonly string[];
}
