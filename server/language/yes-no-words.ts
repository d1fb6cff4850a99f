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
  /** "any"/"anything" after a negator ("not on anything", "I don't take any"): a denial too. */
  readonly anyWords: readonly string[];
  /** Words joining a prompt's list ("or", "oder"), besides a comma: only a prompt that lists things has items. */
  readonly listJoiners: readonly string[];
  /** Words of a prompt that are no item although they are not common words ("moment", "including"). */
  readonly notItems: readonly string[];
  /** Words saying a thing named is fine ("breathing fine", "the pole is solid", "alles sicher"): the item is denied. */
  readonly fine: readonly string[];
  /** Words that mention a thing named without a problem ("the wiring was redone", "new poles", "die Masten sind neu"): the item says neither. */
  readonly neutral: readonly string[];
  /** Words saying a thing named has ended ("no longer", "stopped", "nicht mehr"): the item is denied. */
  readonly ended: readonly string[];
}
