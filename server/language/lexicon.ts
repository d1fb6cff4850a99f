/**
 * The words one language uses for the intents and answers the rules know:
 * skip and "talk to a human" phrases, yes/no, and the words that negate what
 * follows them. Phrases are written as visitors type them; matchers fold case
 * and accents. Whole-message command words ("zurück", "abbrechen") are not
 * here: they are the message catalogue's `commands_*` (each pack's messages.ts),
 * which a flow or tenant can change.
 */
export interface Lexicon {
  /** "I don't know", "skip", "rather not say": with only filler around them, the question is skipped. */
  readonly skip: readonly string[];
  /**
   * The skip phrases that refuse rather than not know ("rather not say", "pass", "keine Angabe"): at a choice with an option
   * that refuses ("Prefer not to say"), such a reply is that option; a skip that does not know goes to one that does not know
   * ("Not sure"). Absent: no skip is read as an option.
   */
  readonly refuse?: readonly string[];
  /**
   * Words that may stand beside a refusal at a text question, besides the skip filler: wishing and saying ("dont want to say",
   * "möchte ich lieber nicht angeben"); with them a reply that is only a refusal declines any text question. Absent: none.
   */
  readonly refuseWith?: readonly string[];
  /** A question back about the question ("what do you mean?", "wie meinen Sie das?"): never an answer nor a skip; the question is asked again. */
  readonly askBack: readonly string[];
  /** Words that may surround a skip phrase ("honestly no idea, sorry"). */
  readonly skipFiller: readonly string[];
  /** Sentences asking for a person (bare words such as "agent" are commands only: they also occur in answers). */
  readonly human: readonly string[];
  readonly yes: readonly string[];
  readonly no: readonly string[];
  /** Phrases that answer neither yes nor no: hedges holding a yes/no word ("not sure" holds "sure"; being longer, they win) and half answers ("sort of"); any of them beside a yes or no is asked about. */
  readonly neither: readonly string[];
  /** Whole replies that decline an optional question whose prompt invites it ("no", "nothing else"); comma-separated parts each one of these. English uses its own rule (the pack's `declineRule`). */
  readonly declines: readonly string[];
  /** Words in a prompt that offer a way out ("optional", "say skip if not"): a bare decline to it is a skip. */
  readonly invitesSkip: readonly string[];
  /** Words (or short phrases) that deny what follows within two words: "not red", "kein Fußball", "pas de foot", "sin fútbol". */
  readonly negators: readonly string[];
  /** Words that join a second thing to the first ("tennis and squash", "Tennis oder Squash"): beside a single choice's one option, the other thing is asked about. */
  readonly joiners: readonly string[];
  /** Single words joining clauses or alternatives: "and" ("and", "und", "et", "y"), "or" ("or", "oder", "ou", "o"), "but" ("but", "aber", "mais", "pero"). */
  readonly conjunctions: { readonly and: readonly string[]; readonly or: readonly string[]; readonly but: readonly string[] };
  /** Words saying more than one was meant ("both", "beide", "les deux", "ambos"). */
  readonly both: readonly string[];
  /** Words after ", X" that add X ("football, rugby too"; "Fußball, Rugby auch"). */
  readonly alsoAfter: readonly string[];
  /** Words a joiner may stand next to that name no second thing ("squash or that", "Tennis und bitte"). */
  readonly joinFiller: readonly string[];
  /**
   * Words that say nothing about the value beside it, for the commit rule (server/extract/offline/commit-rule.ts):
   * acknowledgements, articles, pronouns, hedges on the value ("about", "roughly", "I think"), linking words.
   * A reply whose words are all the value, its unit, these, the question's own words or another answer found is
   * committed; any other word left over makes the bot check first ("Just to check: …?").
   */
  readonly filler: readonly string[];
}
