import { EN_NAME_REPLY } from './name-reply.ts';
import type { NameWords, OptionWords } from '../pack.ts';

// English phrases the rules read: self-corrections, name introductions, option negation and "all of them"
// (moved unchanged from parse/correction.ts, offline/name.ts and parse/enum.ts).

/** Self-corrections inside one reply: "3 courts — sorry, 4", "3, no wait, 4", "3 actually 4", "yes, I mean no". */
export const EN_CORRECTIONS = /(?<![\p{L}\p{N}'’])(?:sorry|no wait|wait|actually|i mean|i meant|correction|make that|make it|scratch that|oops|or rather|just kidding|only kidding|kidding|jk|j\/k|just joking|only joking|jokes? aside|joking aside|no(?=[\s,]+(?:\d|zero|one|two|three|four|five|six|seven|eight|nine|ten)(?![\p{L}])))(?![\p{L}\p{N}'’])/giu;

/** English name introductions: "my name is" / "call me" announce a name, so any case goes; "I'm" and "this is" announce anything ("I'm looking for…"), so the name must be capitalised and not a common word. */
export const EN_NAMES: NameWords = {
  intro: /(?<![\p{L}\p{N}])(my name is|my name['’]s|name is|call me|i am|i['’]m|this is)\s+/giu,
  // Answering the name question itself, "it's Maria Lopez" names too; volunteered elsewhere it would not ("it's BF-10423").
  answerIntro: /(?<![\p{L}\p{N}])(my name is|my name['’]s|name is|call me|i am|i['’]m|this is|it is|it['’]s)\s+/giu,
  loose: new Set(['my name is', "my name's", 'my name’s', 'name is', 'call me']),
  stop: new Set([
    'and', 'or', 'but', 'from', 'with', 'at', 'in', 'on', 'of', 'the', 'a', 'an', 'here', 'i', 'my', 'me', 'we', 'our',
    'by', 'for', 'to', 'is', 'please', 'thanks', 'thank', 'email', 'phone', 'number', 'mail', 'her', 'his', 'their', 'name',
  ]),
  notNames: new Set([
    'looking', 'interested', 'not', 'calling', 'writing', 'sorry', 'fine', 'good', 'great', 'just', 'also', 'very',
    'so', 'trying', 'ready', 'happy', 'glad', 'new', 'still', 'based', 'located', 'ok', 'okay', 'sure', 'yes', 'no',
    'thinking', 'planning', 'hoping', 'wondering', 'going', 'after', 'about', 'asking', 'afraid', 'unsure', 'done',
    'the', 'a', 'an', 'here', 'back', 'currently', 'curious', 'busy', 'available', 'in', 'on', 'at',
    'from', 'with', 'really', 'totally', 'only', 'always', 'never', 'working', 'buying', 'building', 'opening', 'it',
    'bringing', 'coming', 'checking', 'booking', 'contacting', 'enquiring', 'inquiring', 'phoning', 'messaging', 'taking', 'filling',
  ]),
  whose: {
    // "it is for me, Maria Lopez", "this is for my son, Tom Baker", "for my mum Ann Lee"
    forPerson: /(?<![\p{L}])(?:(?:it|this|that)(?:['’]s| is) )?for (me|myself|my ([\p{L}-]+))[,:;—–-]?\s+/giu,
    // The same at the start of a reply without "for": "me, David Kim", "my daughter Emily Chen".
    lead: /^(?:(?:it|this|that)(?:['’]s| is) )?(me|myself|my ([\p{L}-]+))[,:;—–-]?\s+/giu,
    twoPeople: /(?<![\p{L}])(?:me|myself|i) and my(?![\p{L}])|(?<![\p{L}])\p{Lu}[\p{L}'’-]* and \p{Lu}[\p{L}'’-]*(?![\p{L}])/u,
    self: new Set(['me', 'myself']),
    twoPeopleProblem: "That's two people — whose name shall I take first? Just one, please.",
    otherPersonProblem: (relation) => `Thanks — that's your ${relation}'s name. And what's your own name?`,
  },
  reply: EN_NAME_REPLY,
};

/** English option negation and "all of them", on folded text. */
export const EN_OPTIONS: OptionWords = {
  // A negation up to two words before an option, within its clause: "not red", "I don't need support", "no tennis".
  negationBefore: /(?:^|\s)(?:not|no|don't|dont|do not|never|without|isn't|isnt|aren't|arent|nor|except|instead of|rather than|other than|anything but|everything but|all but|but not)(?:\s+[\p{L}'-]+){0,2}\s*$/u,
  negationAfter: null,
  all: {
    gate: /\b(?:all|every|lot)/,
    reply: /^(?:(?:i'd like |i want |we want |we'd like |we need )?(?:all(?: of)?(?: them| those| these| the above| the options| options)?|every(?:thing| one|one| option| single one)|the lot))(?: please| pls| thanks)?(?:(?: ?,)? (?:except|but|apart from|other than|besides|bar|minus|excluding|except for) (.+))?$/,
  },
};
