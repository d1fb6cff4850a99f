/**
 * The words the short-text rules read (server/extract/offline/short-text.ts),
 * per language: what a prompt says before an example of a code's format, a
 * reply that only points elsewhere, a private project, lead-ins before a
 * short answer, a trailing clause about the speaker, and a reference too
 * vague to be a name ("my club"). Every phrase is matched folded (case and
 * accents ignored) on word boundaries.
 */
export interface TextWords {
  /**
   * Abbreviations whose dot ends no sentence or clause ("St. Mary's", "Dr. med.", "Nr. 5"), folded, without the dot;
   * one marked `+digit` ("no+digit") only before a figure ("No. 5", not "no. I don't").
   */
  readonly abbreviations: readonly string[];
  /** Words a prompt puts before an example of the format ("looks like BF-104233", "sieht so aus: BF-104233"). */
  readonly exampleBefore: readonly string[];
  /** A reply that starts with one of these and says nothing more points elsewhere ("same as last time", "see my email", "siehe E-Mail"). */
  readonly pointers: readonly string[];
  /** The same, but only when nothing else is said ("like I said" alone; "like I said, Blue Cross" is Blue Cross). */
  readonly pointersAlone: readonly string[];
  /** What says a project is private or personal ("private", "my back garden", "privat"): a way out a prompt may offer. */
  readonly privateUse: readonly string[];
  /** Lead-ins dropped from the start of a short answer ("it's for", "für den"), longest first. */
  readonly leadIns: readonly string[];
  /** "the club is X", "der Verein ist der X": the words before the question's own noun, the verbs after it, and an article after the verb. */
  readonly namedAs: { readonly before: readonly string[]; readonly verbs: readonly string[]; readonly articles: readonly string[] };
  /** A trailing clause about the speaker that explains itself (", I'm the facilities manager", ", ich bin der Platzwart"). */
  readonly selfIntro: readonly string[];
  /** Words around a reference that names nothing ("my", "our", "the", "through", "unseren"). */
  readonly vagueWords: readonly string[];
  /** Nouns that name a kind, not one organisation ("club", "council", "Verein"); the question's own nouns count too. */
  readonly vagueNouns: readonly string[];
  /** Words that make a trailing part a clause of its own ("is", "it's", "ist", "es"), not part of a name ("Stadt Bochum, Sport- und Bäderamt"). */
  readonly clauseWords: readonly string[];
  /** Besides the lexicon's negators and skip phrases: what says a code is not at hand ("can't find", "lost", "nicht zur Hand"). */
  readonly notGiven: readonly string[];
  /** Quantity words that list nothing ("lots", "a few", "viele"): a reply of these alone is asked which ones. */
  readonly quantityOnly: readonly string[];
  /** An unsure start ("can't remember", "weiß ich nicht mehr"): with only a few lowercase words after it, nothing is given. */
  readonly unsure: readonly string[];
  /** Leaving the answer to later or to someone else ("I'll bring them", "my husband handles that", "bringe ich mit"): with only `contentFree` words beside it, nothing is given. */
  readonly deferrals: readonly string[];
  /**
   * Verbs of reported speech ("said", "told", "reckons", "meinte", "hat gesagt"): up to two words between a determiner and one of
   * these name who said it ("the breeder said …", "der Hausmeister meinte …") and say nothing a question asks for.
   */
  readonly reportedBy?: readonly string[];
  /** Words sending the visitor's question to someone else ("ask", "check with", "fragen Sie"): up to two words after a determiner after one name whom ("ask our old vet"). */
  readonly askWhom?: readonly string[];
  /** Words that say nothing a question asks for (pronouns, articles, "just", "weird", "husband", "halt", "spinnen"): a reply of these beside a not-knowing, deferring or skip phrase gives nothing. */
  readonly contentFree: readonly string[];
  /** Words in a key or label that make a text question ask for a code ("id", "number", "nummer"). */
  readonly codeWords: readonly string[];
  /** Kinds of code that are not the one asked unless the question names them ("group", "policy", "rx bin", "Kunden…", "Angebots…"): "group number 44871" at a member ID is asked again. */
  readonly otherCodes?: readonly string[];
  /** Greetings and discourse words before free text ("hi yes hello, so basically", "ok found it:", "anyway", "ja hallo, also"): dropped. */
  readonly discourse?: readonly string[];
  /**
   * A reply made only of `phrases` (at least one), `fillers` and `discourse` words asks for a moment before answering ("hold on",
   * "one sec", "ugh let me check", "Moment bitte", "ich schau mal nach"): the question stays open, no miss, and the answer before
   * is not taken back.
   */
  readonly pause?: { readonly phrases: readonly string[]; readonly fillers: readonly string[] };
  /** Words of a complaint that names nothing ("work", "broken", "doesn't", "kaputt", "geht"): with only these, `contentFree` words and the question's own words, a description says nothing checkable. */
  readonly vagueProblem?: readonly string[];
  /** Words of a prompt asking which thing and what about it ("which", "what"; "welche", "was"): both must be in the prompt for a description to be asked about. */
  readonly asksWhich?: { readonly which: readonly string[]; readonly what: readonly string[] };
  /**
   * What a prompt says when it asks what the visitor needs or wants to ask ("what you need", "how can we help", "anything else",
   * "worum es geht"): there a question is the answer ("do you do solar panels too?"), not a question back.
   */
  readonly asksNeed?: readonly string[];
  /**
   * Words of a reply that asks to be contacted, is only looking, or says where it found us ("call", "callback", "browsing",
   * "facebook", "Rückruf"): with only these and words that say nothing, a required free-text answer describes nothing.
   */
  readonly nonDescription?: readonly string[];
  /**
   * Words a question about the service itself is made of ("warranty", "cost", "refund", "complain", "Garantie", "kostet"): a
   * reply of questions only, with nothing but these and words that say nothing, is a question of the visitor's, not an answer.
   */
  readonly aboutService?: readonly string[];
  /**
   * How a sentence without a question mark asks: it opens with an auxiliary before a subject ("is this …", "can someone …",
   * "kann mich jemand …") or a question word before an auxiliary or a subject ("who do I …", "wer ist …"). Without it only a
   * question mark makes a question.
   */
  readonly questionForm?: {
    readonly aux: readonly string[];
    readonly wh: readonly string[];
    readonly subjects: readonly string[];
    /** A sentence opening with an auxiliary and ending in one of these asks whether something counts ("does weed count", "zählt Gras auch"). */
    readonly scope?: readonly string[];
  };
  /** Words standing in for what the visitor cannot name ("something", "whatever", "irgendwas", "oder so"): a short answer holding one is asked for the name. */
  readonly placeholder?: readonly string[];
  /** A stand-in with what it is about ("something with", "something wrong with", "irgendwas mit"): a description opening with one and naming little is asked which and what. */
  readonly placeholderWith?: readonly string[];
  /** What an unsure clause says is not known when it is the very thing asked ("can't remember which", "idk the names", "weiß nicht, welche"). */
  readonly unknownWhich?: readonly string[];
  /** A kind named vaguely beside not knowing ("I don't remember, some antibiotic"): the indefinites before it and the class words. */
  readonly vagueKind?: { readonly indefinite: readonly string[]; readonly classes: readonly string[] };
  /**
   * A thing told by its look instead of its name ("the blue one", "the little white one for blood pressure", "idk the card is
   * blue", "die kleine weiße Tablette"): colour, size and shape words (`adjectives`; German, French and Spanish endings
   * included) and the things such words describe (`things`: "one", "card", "logo"). At free text (a list of medicines) a kind of
   * thing named (`kinds`: "pill", "tablet", "Tablette") with its look is a description and kept ("the little white pill for my
   * thyroid"); "the little white one" names no kind.
   */
  /** Hedges after a short answer ("Cigna apparently", "Humana probably", "die AOK, glaube ich"): dropped, and the value is confirmed once. */
  readonly hedgesAfter?: readonly string[];
  readonly looks?: { readonly adjectives: readonly string[]; readonly things: readonly string[]; readonly kinds: readonly string[] };
  /** Which part of a short reply is the value (server/extract/offline/value-parts.ts); absent = the whole short answer, as before. */
  readonly valueParts?: ValuePartWords;
}

/**
 * The words that tell the value of a short answer from what is said around it: a source before it ("the card says",
 * "laut Karte"), a change over time ("switched to", "früher … jetzt"), a description ("a small club"), a part of the
 * site or how it is had after it ("the tennis side", "through my husband's job"). Phrases are matched folded, word by word.
 */
export interface ValuePartWords {
  /** Verbs after which a source shows the value ("says", "reads", "steht"). */
  readonly sourceVerbs: readonly string[];
  /** Prepositions that start a source at the reply's start ("on", "according to", "laut", "auf"). */
  readonly sourceBefore: readonly string[];
  /** Things a value is read off ("card", "invoice", "Karte", "Rechnung"; a longer one also ends a compound: "Versichertenkarte"). */
  readonly sourceNouns: readonly string[];
  /** Words between a source and the value ("it's", "that it's", "es ist"). */
  readonly sourceThen: readonly string[];
  /** A change made ("switched to", "changed to", "moved to"): the value follows, to the clause's end. */
  readonly switchedTo: readonly string[];
  /** After a change verb, the value left ("from" in "changed from Aetna to Humana"). */
  readonly switchFrom: readonly string[];
  /** The word before the value a change went to ("to"; German "zur", "zum", "zu"). */
  readonly switchTo: readonly string[];
  /** A change verb after the value (German "zur TK gewechselt"). */
  readonly switchedAfter: readonly string[];
  /** The value now ("now", "currently", "since", "jetzt", "seit"). */
  readonly now: readonly string[];
  /** A value that ended ("used to be", "was", "old one", "früher", "vorher"). */
  readonly before: readonly string[];
  /** A change still to come ("switching to", "next month", "ab nächstem Monat"): two candidates, asked which. */
  readonly future: readonly string[];
  /** Words of a time ("january", "year", "last", "Januar", "Jahr"); a figure is one too. */
  readonly timeWords: readonly string[];
  /** Prepositions before a time ("in", "since", "as of", "seit", "ab"). */
  readonly timeBefore: readonly string[];
  /** Indefinite articles: a part starting with one describes, it names nothing ("a small club", "ein kleiner Verein"). */
  readonly indefinite: readonly string[];
  /** "we're", "wir sind": said before a description. */
  readonly weAre: readonly string[];
  /** What starts a part of a site after a name ("the", "for the", "es geht um"). */
  readonly siteLead: readonly string[];
  /** Parts of a site ("side", "gym", "field", "Sporthalle"); a longer one also ends a compound ("Schulzentrum"). */
  readonly siteNouns: readonly string[];
  /** How a value is had ("through", "via", "über"). */
  readonly via: readonly string[];
  /** Nouns after those ("job", "employer", "Arbeitgeber"), besides the vague nouns. */
  readonly viaNouns: readonly string[];
  /** Words that make a part compete with the name ("or", "maybe", "oder"): never set aside. */
  readonly competes: readonly string[];
  /** Kinds of organisation a description may name besides the vague nouns ("hoa", "nonprofit"): "my hoa, Oakwood Estates HOA" → the name. */
  readonly kinds: readonly string[];
  /** Prepositions of a town after a name ("Grundschule Am Wall in Bremen" → the name; "Universität in Köln" names nothing without it). */
  readonly placeAfter: readonly string[];
  /** Possessives before a kind of place ("our tennis club, TC Blau-Weiß" → the name after it). */
  readonly possessive: readonly string[];
  /** Words of a clause that only waits or says where the value is ("hold on", "it's on the card", "Moment"): dropped before the value. */
  readonly waiting: readonly string[];
  /** Words standing in for what the visitor does not know ("blue something", "irgendwas mit"), typed in lower case: the name is asked for. */
  readonly placeholder: readonly string[];
  /** Where the source shows it, said after the value ("the card says Anthem on it", "steht AOK drauf"): dropped. */
  readonly sourceAfter?: readonly string[];
  /** A trailing clause saying where the project is ("the project is at Westfield Middle", "das Projekt ist in der Halle Nord"): it narrows, the name before it is the answer. */
  readonly siteIs?: RegExp;
}
