import type { DateWords } from './date-words.ts';
import type { Lexicon } from './lexicon.ts';
import type { LeftoverWords } from './leftover-words.ts';
import type { SpokenWords } from './spoken-words.ts';
import type { YesNoWords } from './yes-no-words.ts';
import type { DurationWords } from './duration-words.ts';
import type { Messages } from './messages-shape.ts';
import type { NumberWords } from './number-words.ts';
import type { ParserMessages } from './parser-messages.ts';
import type { TextWords } from './text-words.ts';
import type { WordNumber } from './word-numbers.ts';
import type { CarriedWords } from './carried-words.ts';

/**
 * Everything the offline rules and the bot know about one language, in one
 * place (server/language/<code>/): the recognisers take a pack, never a
 * language code, so a language differs from another only by the fields below.
 * Adding a language is one folder holding a pack plus one line in registry.ts
 * (docs/understanding.md, "Adding a language").
 */
export interface LanguagePack {
  /** The base language tag the pack serves ('en', 'de'); a locale `de-AT` reads as `de`. */
  readonly code: string;
  /** The country a session in this language without a region most likely calls from ('DE' for German), for phone numbers; null when there is no such country (English). */
  readonly region: string | null;
  /** Whether a word is a word of the language (a dictionary): such a word is never read as a typo of another; absent = unknown. */
  readonly isWord?: (word: string) => boolean;
  /** Word lists: skip and "talk to a person" phrases, yes/no, negators, joiners, declines. */
  readonly lexicon: Lexicon;
  /** The bot's built-in texts (re-asks, command replies, endings, the review), before a flow's or tenant's changes. */
  readonly messages: Messages;
  /** The clarifications the typed parsers write. */
  readonly say: ParserMessages;
  /** Patterns around a number (negation, open end, hedge, counted nouns, none…) and the clarifications written with them. */
  readonly numbers: NumberWords;
  /** Numbers written in words ("twenty five", "siebenundzwanzig"), with their spans. */
  readonly wordNumbers: (text: string) => WordNumber[];
  /** A number written the language's way in a clarification ("1.234,5" in German). */
  readonly formatNumber: (value: number) => string;
  /** Date words read besides chrono: spans and hedges on the day, past words, a day alone, a week. */
  readonly dates: DateWords;
  /** Self-correction markers inside one reply ("sorry", "no wait", "ich meine"); global flag, matched repeatedly. */
  readonly corrections: RegExp;
  /** Name introductions ("my name is", "ich heiße") and the words that end a name. */
  readonly names: NameWords;
  /** How an option is negated and how "all of them" is said. */
  readonly options: OptionWords;
  /** The short-text words: a format example in a prompt, replies pointing elsewhere, a private project, lead-ins, vague references. */
  readonly text: TextWords;
  /** Whether the language writes nouns with a capital (German): a question's label is said back as written mid-sentence, not lower-cased. */
  readonly capitalNouns: boolean;
  /** Whether a negated built-in yes ("nicht korrekt") is no clear answer; English lists its own ("not right") in the lexicon. */
  readonly negatedYesIsNeither: boolean;
  /** What competes with a value in the rest of a reply and what explains a number beside it (the commit rule's remarks); absent = every leftover word is checked. */
  readonly leftovers?: LeftoverWords;
  /** How a yes/no question is answered by content, without a yes or no word ("none", "nothing like that", the prompt's items); absent = not read. */
  readonly yesNo?: YesNoWords;
  /** How a yes or no that already carries the next question's answer is read ("yep, Aetna", "ja, die AOK"); absent = not read. */
  readonly carried?: CarriedWords;
  /** How a count of days or an age in years is given other than as a plain number ("since Monday", "18 months"); absent = not read. */
  readonly durations?: DurationWords;
  /** How an email address or a phone number is spelled out in words ("at", "dot", "nine one seven"); absent = not read. */
  readonly spoken?: SpokenWords;
  /** English's own rule for declining an optional question (a bare "no" to a prompt inviting a skip); null = the lexicon's `invitesSkip` and `declines` lists. */
  readonly declineRule: { invites: RegExp; bareNo: RegExp } | null;
  /**
   * A reply asking to be reached another way instead ("I'd rather you called me", "lieber anrufen"): at an optional
   * email question a wish for a call, at an optional phone question a wish for an email, declines that question.
   */
  readonly otherChannel: { phone: RegExp; email: RegExp };
  /**
   * Countries named beside a phone number ("Schweizer Handy: 079 …", "Austrian number 0664 …", "ja, Zürich, Schweiz"):
   * word (lower case; a trailing * takes any ending) → ISO country; and the countries whose numbers a session in this
   * language without a region may be giving in national format (German: DE, AT, CH). Absent = not read.
   */
  readonly phoneCountries?: { readonly words: Readonly<Record<string, string>>; readonly neighbours: readonly string[] };
  /**
   * An age said in passing ("she's 35", "35 years old", "aged 35", "sie ist 35"): group 1 or 2 is the number; read as
   * the answer to an open age question that was not asked (volunteered.ts); absent = none is read in this language.
   */
  readonly age?: RegExp;
}

/** Name introductions of one language and the words that end a name. */
export interface NameWords {
  /** Introductions volunteered anywhere ("my name is", "I'm"); global flag, group 1 is the introduction. */
  readonly intro: RegExp;
  /** Introductions when answering the name question itself ("it's Maria Lopez"); global flag. */
  readonly answerIntro: RegExp;
  /** Introductions that announce a name, so any case goes ("my name is", "call me"); others need a capital. */
  readonly loose: ReadonlySet<string>;
  /** Words that end a name ("and", "from", "please"). */
  readonly stop: ReadonlySet<string>;
  /** Words that are no name right after an introduction ("I'm looking…"). */
  readonly notNames: ReadonlySet<string>;
  /** Whose name a reply gives ("this is for my son, Tom Baker"); null = only the introductions are read. */
  readonly whose: WhoseWords | null;
  /** How a whole reply at a name question is read, clause by clause (server/extract/offline/name-reply.ts). */
  readonly reply: NameReplyWords;
}

/**
 * The words a reply at a name question is read with (server/extract/offline/name-reply.ts). Patterns match
 * a clause's start (or end, for `signOff`) on lower-cased text; word sets are lower case, without a dot.
 */
export interface NameReplyWords {
  /** A clause starting a statement after the name ("she's 6", "I have custody", "ich habe das Sorgerecht"): an aside when it names no one and doubts nothing; absent = not read. */
  readonly statement?: RegExp;
  /** A birth date's words ("born", "dob", "geboren"): a clause starting with one and holding a figure is an aside; absent = not read. */
  readonly born?: RegExp;
  /** Lead-ins giving the speaker's own name or who the speaker is ("i'm", "my name is", "this is", "ich bin", "hier ist"). */
  readonly self: RegExp;
  /** Lead-ins giving a third person's name ("his name is", "she's called", "er heißt"). */
  readonly third: RegExp;
  /** A sign-off after a name ("Hannah here", "Jörg hier"): the name is the speaker's. */
  readonly signOff: RegExp;
  /** What may follow a name in its clause, saying whose it is ("… is his name"): group 1 the possessive (one of `mine` = the speaker's). */
  readonly trailer: RegExp;
  /** A company after a name, which explains itself ("from Riverside Padel", "vom TSV"); on the lower-cased words after the name. */
  readonly company: RegExp;
  /** Hesitations and greetings before an answer ("um", "hi", "ok so", "ja", "hallo"). */
  readonly lead: RegExp;
  /** Asides naming the same person another way ("goes by Coco", "but call me Bob", "genannt"): explained, not the name. */
  readonly nickname: RegExp;
  /** Words meaning the speaker ("me", "myself", "ich"). */
  readonly me: ReadonlySet<string>;
  /** The speaker's possessives ("my", "mein"): "my husband Dave" is the speaker's relation. */
  readonly mine: ReadonlySet<string>;
  /** Other words before a relation or a role ("his", "her", "the", "der", "seine"). */
  readonly determiners: ReadonlySet<string>;
  /** Family and care relations ("mom", "husband", "neighbor", "guardian", "Mutter"). */
  readonly relations: ReadonlySet<string>;
  /** A relation as it is recorded beside a contact's name ("mom" → "mother", "Mama" → "Mutter"); others as typed. */
  readonly relationAs: Readonly<Record<string, string>>;
  /** Job and position words ("manager", "owner", "Hausmeister"): "the manager" is no name; "James Lee, club manager at X" explains its tail. */
  readonly roles: ReadonlySet<string>;
  /** Titles kept as part of a name ("dr", "mrs", "frau", "herr", "prof"). */
  readonly titles: ReadonlySet<string>;
  /** Courtesy titles ("mr", "mrs", "herr", "frau"): dropped before a given name and a surname ("Mr. Joseph O'Connor" → Joseph O'Connor), kept before a surname alone. */
  readonly courtesy?: ReadonlySet<string>;
  /** A clause saying how the person just named is related ("she's his aunt", "that's her mum", "das ist seine Schwester"): the words before the relation. */
  readonly relationIs?: RegExp;
  /** The legal name beside the one given ("legally James", "legal name is Elizabeth", "Katherine on paper", "offiziell Johannes"): group 1 the legal name. */
  readonly legal?: RegExp;
  /** Politeness and chat words after a name ("Jose Dela Cruz po", "Kevin Walsh btw", "Hannah Price cheers"): explained, no part of it; on the lower-cased words after the name; absent = none. */
  readonly polite?: RegExp;
  /** A time word after a name, saying the name is the current one ("Sarah Miller-Chen now", "jetzt"): explained; on the lower-cased words after the name. */
  readonly nowAfter?: RegExp;
  /**
   * A clause saying which word of the name is which: the family name ("Kim is the family name", "surname Okafor", "Nachname
   * Müller", "surname first") and the given name ("first name Piotr", "Vorname Thomas"); group 1 or 2 the word, when said.
   */
  readonly nameParts?: { readonly family: RegExp; readonly given: RegExp };
  /** Words talking about a name ("name", "spelled", "surname", "Nachname"): a clause holding one is no plain remark. */
  readonly nameTalk?: RegExp;
  /** Courtesy titles written out in the record ("hr" → "Herr", "fr" → "Frau"); others as typed. */
  readonly titleAs?: Readonly<Record<string, string>>;
  /** Endings of compound role words ("Schulleiter", "Platzwart", "Sportamt"): a clause after the name ending in one explains itself. */
  readonly roleEndings?: readonly string[];
  /** Particles written in lower case inside a name ("van", "der", "de", "la", "von"). */
  readonly particles: ReadonlySet<string>;
  /** Given names that are also common words ("will", "may"): names all the same. */
  readonly given: readonly string[];
  /** Words of the language that are no name ("just", "want", "geht"; stopwords-iso less given names), loaded on first use. */
  readonly common: () => ReadonlySet<string>;
  /** What a prompt says, to infer a name question the flow did not declare: a person's name is asked; the full one; the patient's (subject's); with the relationship. */
  readonly asks: { readonly name: RegExp; readonly full: RegExp; readonly subject: RegExp; readonly relation: RegExp };
  /** The re-asks (the question's prompt follows each). */
  readonly say: {
    readonly notAName: string;
    readonly fullName: string;
    readonly relation: string;
    readonly someoneElse: string;
    readonly notYours: string;
    readonly otherPerson: string;
  };
}

/** The words that say whose name a reply gives: the person typing or someone the intake is for. */
export interface WhoseWords {
  /** "it is for me, Maria Lopez", "for my mum Ann Lee": group 1 the person word, group 2 the relation. */
  readonly forPerson: RegExp;
  /** The same at the start of a reply without "for": "me, David Kim", "my daughter Emily Chen". */
  readonly lead: RegExp;
  /** Two people in one reply ("me and my son, Tom and Ben Baker"). */
  readonly twoPeople: RegExp;
  /** Person words meaning the one typing ("me", "myself"). */
  readonly self: ReadonlySet<string>;
  readonly twoPeopleProblem: string;
  readonly otherPersonProblem: (relation: string) => string;
}

/** How options are negated and "all of them" said, on folded text. */
export interface OptionWords {
  /** A negation up to two words before an option within its clause; null = built from the lexicon's `negators`. */
  readonly negationBefore: RegExp | null;
  /** A negation right after an option ("Fußball nicht"); null when the language has no such order. */
  readonly negationAfter: RegExp | null;
  /** "all of them", "all except X" for a multiple choice: a cheap gate, the whole reply (group 1 the exceptions), filler beside the exceptions. */
  readonly all: { gate: RegExp; reply: RegExp; filler?: ReadonlySet<string> };
  /** How an option is said in other words (server/extract/parse/option-meaning.ts); absent = only its label, value and synonyms. */
  readonly meaning?: OptionMeaningWords;
}

/**
 * What a language knows to read an option said in other words: word forms (a stemmer), meaning groups of common
 * intake replies, hedges, positions ("the second one") and time windows ("by end of February").
 */
export interface OptionMeaningWords {
  /** The word's stem ("vaccinated" → "vaccin"): a reply's word and an option's word with one stem are one word. */
  readonly stem: (word: string) => string;
  /** Words that never name an option on their own ("something", "else", "feeling"), besides the lexicon's filler. */
  readonly plain: readonly string[];
  /** Meaning groups: replies that say one thing in many words ("flu shot", "jabs", "booster" are a vaccination). */
  readonly groups: readonly MeaningGroup[];
  /** Words that make a reading tentative ("probably", "I think", "vielleicht"): the choice is checked, not committed. */
  readonly hedges: readonly string[];
  /**
   * Words saying which of several comes first ("mainly", "mostly", "primarily", "hauptsächlich", "vor allem"): after the bot
   * asked to pick just one, "mainly the refill" picks it — no hedge there (server/extract/offline/picked-first.ts).
   */
  readonly priority?: readonly string[];
  /**
   * How much, said right before an option of a multiple choice ("kind of dizzy", "a bit of a temp", "etwas schwindelig"):
   * a degree of the symptom, no doubt about the choice, though a hedge elsewhere ("kind of").
   */
  readonly degrees?: readonly string[];
  /**
   * "none of those", "keins davon": a clause saying no listed option fits, beside the menu's "Something else" chosen by an item
   * off the menu ("none of those, my ear hurts"): accounted for.
   */
  readonly noneListed?: readonly string[];
  /**
   * Words saying where ("on", "across", "behind", "auf", "am"): an option named by one word after one of them (and a
   * determiner) beside another option in its clause is where that one is ("rash on my chest", "spots across his tummy").
   */
  readonly placeBefore?: readonly string[];
  /**
   * Compound words are written as one ("Garantiefall", "Initiativbewerbung", "Mietbeleuchtung"): a word that no group names
   * whole, beginning or ending with a one-word entry of a group of at least four letters (the rest at least three letters
   * and no suffix of this list: "problemlos" is no problem), is read as that group.
   */
  readonly compounds?: { readonly notSuffix: readonly string[] };
  /** An option by its position: a whole reply such as "option 2", "the second one", "Nr. 2", "die zweite". */
  readonly positions: { readonly reply: RegExp; readonly ordinals: Readonly<Record<string, number>>; readonly last: readonly string[] };
  /** The words of dates and periods read against time-window options (server/extract/parse/time-window.ts). */
  readonly time: TimeWords;
}

/** One meaning group: its words as visitors type them (matched by stem), and what links it to an option's label. */
export interface MeaningGroup {
  readonly name: string;
  /** Words and phrases that say it ("twisted my ankle": "twisted"; "running low"). */
  readonly words: readonly string[];
  /** More words an option's label may use for it without a reply's saying it meaning it ("support", "help"). */
  readonly anchors?: readonly string[];
  /** Groups this one is a kind of: when no option's label names this group, the broader one's option is meant (a vaccination is a routine visit). */
  readonly broader?: readonly string[];
  /**
   * An item off a menu of its kind ("earache", "runny nose" at a list of symptoms): where the other groups of its broader
   * group name two options or more, it names the option whose label or value its anchors name ("Something else");
   * elsewhere it is its broader group ("earache" at "What brings you in?" is feeling unwell).
   */
  readonly offMenu?: true;
  /**
   * Words that hold an option's word but say something else ("trans man", "identifies as a woman": a gender, not the sex
   * assigned at birth): they name no option and void the option words inside them, so the question is asked.
   */
  readonly voids?: true;
  /**
   * A sign that only supports: it names its option only beside a word of that option's label read for another option
   * ("basketball tryouts" beside "physical" is the sports physical; "twisted my ankle at soccer" is no physical at all).
   */
  readonly weak?: true;
  /**
   * Words that hold an option's word but name nothing at this kind of question ("this fall" is a season, not a fall; "my trip
   * to Kenya" is travel, not a trip over): read as a whole, they name no option and the option words inside them are not read.
   */
  readonly neutral?: true;
}

/** Dates and periods in one language, for time-window options. */
export interface TimeWords {
  /** A label's window: group `upTo` (within N), `from`/`to` (N to M), `over` (more than N), each with `unit`; matched on the folded label. */
  readonly windowLabel: readonly RegExp[];
  /** The unit words by unit ("month" → 'month'), folded. */
  readonly units: Readonly<Record<string, 'day' | 'week' | 'month' | 'year'>>;
  /** "by", "until", "before", "bis", "spätestens": the period runs from now to the date. */
  readonly until: RegExp;
  /** "after", "nach": the period starts at the date. */
  readonly after: RegExp;
  /** "in 6 months", "within 2 weeks", "in 2 Wochen": group 1 the lead word, group 2 the number (digits or a word), group 3 the unit. */
  readonly relative: RegExp;
  /** Lead words of `relative` meaning "from now up to" ("within", "innerhalb"), folded; others mean "about then". */
  readonly within: readonly string[];
  /** Seasons by folded word: the months they span (1-based, inclusive; winter wraps). */
  readonly seasons: Readonly<Record<string, readonly [number, number]>>;
  /** Words for Easter (a movable date). */
  readonly easter: readonly string[];
  /** "next" before a season or year ("next spring", "nächstes Jahr"), folded. */
  readonly next: readonly string[];
  /** "this" before a season or year, folded. */
  readonly this: readonly string[];
  /** The word "year". */
  readonly year: readonly string[];
  /** Month names and abbreviations, folded, in calendar order (each entry the spellings of one month). */
  readonly months: ReadonlyArray<readonly string[]>;
  /** "mid", "Mitte" (kept as the whole month), "end", "Ende", "early", "Anfang": parts of a month. */
  readonly monthPart: { readonly early: readonly string[]; readonly mid: readonly string[]; readonly end: readonly string[] };
  /** Vague counts before a unit ("a few weeks", "a couple of months", "ein paar Wochen"): the counts they span. */
  readonly few?: Readonly<Record<string, readonly [number, number]>>;
  /** Hedges that make a date an estimate, not a doubt about the window it falls in ("probably in the autumn", "hopefully by June"). */
  readonly estimates?: readonly string[];
  /** "next week", "nächste Woche": the coming Monday to Sunday. */
  readonly nextWeek?: readonly string[];
  /** "end of the month", "Monatsende": the last days of this month. */
  readonly monthEnd?: readonly string[];
  /** "end of the year", "Jahresende": this December. */
  readonly yearEnd?: readonly string[];
  /** "half a year", "halben Jahr": about six months (after a `within` word, up to then). */
  readonly halfYear?: readonly string[];
  /** "this quarter", "within the quarter" (up to its end); "next quarter" (its three months). */
  readonly quarter?: { readonly this: readonly string[]; readonly next: readonly string[] };
  /** Holidays on a fixed day ("christmas" → [12, 25], "Weihnachten" → [12, 24]): "by Christmas" is that deadline. */
  readonly holidays?: Readonly<Record<string, readonly [number, number]>>;
  /** Words of about-ness before a bare count ("about 2 months", "etwa 6 Wochen"): a whole reply of a count and a unit is that far away. */
  readonly approx?: readonly string[];
  /** Words after a count saying it runs from today ("2 months from now", "6 weeks out"). */
  readonly fromNow?: readonly string[];
}
