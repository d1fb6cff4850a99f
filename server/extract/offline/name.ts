import type { Lang } from '../../shared/lexicon/index.ts';

/** A name the user introduced themselves with, as typed. */
export interface FoundName {
  value: string;
  evidence: string;
}

/** Answer keys that hold a person's name and so may be filled from "my name is …". */
export const NAME_KEYS: ReadonlySet<string> = new Set(['name', 'full_name', 'first_name']);

// "my name is" / "call me" announce a name, so any case goes; "I'm" and
// "this is" announce anything ("I'm looking for…"), so the name must be
// capitalised and not a common word.
const INTRO = /(?<![\p{L}\p{N}])(my name is|my name['’]s|name is|call me|i am|i['’]m|this is)\s+/giu;
// Answering the name question itself, "it's Maria Lopez" names too; volunteered elsewhere it would not ("it's BF-10423").
const ANSWER_INTRO = /(?<![\p{L}\p{N}])(my name is|my name['’]s|name is|call me|i am|i['’]m|this is|it is|it['’]s)\s+/giu;
const LOOSE_INTROS = new Set(['my name is', "my name's", 'my name’s', 'name is', 'call me']);
// The same in German, French and Spanish. German capitalises nouns, so "ich bin" ("ich bin Kunde") is not an intro there.
const INTL_INTRO: Readonly<Record<Exclude<Lang, 'en'>, RegExp>> = {
  de: /(?<![\p{L}\p{N}])(mein name ist|ich heiße|ich heisse|nennen sie mich|hier spricht|hier ist)\s+/giu,
  fr: /(?<![\p{L}\p{N}])(je m['’]appelle|mon nom est|mon nom c['’]est|appelez-moi|je suis|c['’]est|ici)\s+/giu,
  es: /(?<![\p{L}\p{N}])(me llamo|mi nombre es|llámame|llamame|soy|habla)\s+/giu,
};
// Answering the name question itself, German "ich bin Jonas Weber" / "das ist …" names too (volunteered elsewhere it would not).
const INTL_ANSWER_INTRO: Readonly<Record<Exclude<Lang, 'en'>, RegExp>> = {
  ...INTL_INTRO,
  de: /(?<![\p{L}\p{N}])(mein name ist|ich heiße|ich heisse|nennen sie mich|hier spricht|hier ist|ich bin|das ist)\s+/giu,
};
const INTL_LOOSE = new Set(['mein name ist', 'ich heiße', 'ich heisse', 'nennen sie mich', "je m'appelle", 'je m’appelle', 'mon nom est', "mon nom c'est", 'mon nom c’est', 'appelez-moi', 'me llamo', 'mi nombre es', 'llámame', 'llamame']);
const TOKEN = /^[\p{L}][\p{L}'’-]*(?:\.(?=\s|$))?/u;
const STOP = new Set([
  'and', 'or', 'but', 'from', 'with', 'at', 'in', 'on', 'of', 'the', 'a', 'an', 'here', 'i', 'my', 'me', 'we', 'our',
  'by', 'for', 'to', 'is', 'please', 'thanks', 'thank', 'email', 'phone', 'number', 'mail', 'her', 'his', 'their', 'name',
]);
const NOT_NAMES = new Set([
  'looking', 'interested', 'not', 'calling', 'writing', 'sorry', 'fine', 'good', 'great', 'just', 'also', 'very',
  'so', 'trying', 'ready', 'happy', 'glad', 'new', 'still', 'based', 'located', 'ok', 'okay', 'sure', 'yes', 'no',
  'thinking', 'planning', 'hoping', 'wondering', 'going', 'after', 'about', 'asking', 'afraid', 'unsure', 'done',
  'the', 'a', 'an', 'here', 'back', 'currently', 'curious', 'busy', 'available', 'in', 'on', 'at',
  'from', 'with', 'really', 'totally', 'only', 'always', 'never', 'working', 'buying', 'building', 'opening', 'it',
]);

/**
 * Finds "my name is Ann Lee" / "I'm Ann" / "this is Ann" in a message (with
 * addresses and numbers already blanked by the caller). `words` limits the
 * name's length: 1 for a first name, up to 3 otherwise.
 */
export function findName(text: string, words: number, intro: RegExp = INTRO): FoundName | null {
  for (const m of text.matchAll(intro)) {
    const loose = LOOSE_INTROS.has(m[1]!.toLowerCase()) || INTL_LOOSE.has(m[1]!.toLowerCase());
    const name = readName(text, m.index + m[0].length, words, loose);
    if (name) return { value: name.value, evidence: text.slice(m.index, name.end) };
  }
  return null;
}

/** The name written at `at`: up to `words` words, capitalised unless `loose`, stopping at common words. */
function readName(text: string, start: number, words: number, loose: boolean): { value: string; end: number } | null {
  const names: string[] = [];
  let at = start;
  let end = start;
  while (names.length < words) {
    const t = TOKEN.exec(text.slice(at, at + 64))?.[0];
    if (!t) break;
    const bare = t.replace(/\.$/, '');
    const lower = bare.toLowerCase();
    if (STOP.has(lower) || (!loose && !/^\p{Lu}/u.test(bare)) || (names.length === 0 && NOT_NAMES.has(lower))) break;
    // A single-letter initial keeps its dot ("Ann J. Lee"); a sentence's full stop is not part of the name.
    names.push(bare.length === 1 ? t : bare);
    at += t.length;
    end = at - (t.length - (bare.length === 1 ? t.length : bare.length));
    if (t.endsWith('.') && bare.length > 1) break;
    const gap = /^ +/.exec(text.slice(at, at + 8))?.[0];
    if (!gap) break;
    at += gap.length;
  }
  return names.length === 0 ? null : { value: names.join(' '), end };
}

/** Whose name a reply gives: the person typing, or someone the intake is for ("my son"). */
export type Whose = 'respondent' | 'subject';

/** A name with whose it is, or why it cannot be taken for the name asked. */
export type NameFor = { value: string; evidence: string } | { problem: string };

// "it is for me, Maria Lopez", "this is for my son, Tom Baker", "for my mum Ann Lee"
const FOR = /(?<![\p{L}])(?:(?:it|this|that)(?:['’]s| is) )?for (me|myself|my ([\p{L}-]+))[,:;—–-]?\s+/giu;
// The same at the start of a reply without "for": "me, David Kim", "my daughter Emily Chen".
const LEAD = /^(?:(?:it|this|that)(?:['’]s| is) )?(me|myself|my ([\p{L}-]+))[,:;—–-]?\s+/giu;
const TWO_PEOPLE = /(?<![\p{L}])(?:me|myself|i) and my(?![\p{L}])|(?<![\p{L}])\p{Lu}[\p{L}'’-]* and \p{Lu}[\p{L}'’-]*(?![\p{L}])/u;
const SELF_WORDS = new Set(['me', 'myself']);

/**
 * The name of `of` (the respondent, or the subject the intake is about) in a
 * reply: "it is for me, Maria Lopez" (the respondent is the subject) and
 * "this is for my son, Tom Baker" (the subject) name whose it is; "my name is
 * Ann" names the respondent. A name of the wrong person is a problem to ask
 * about, never committed. Null when no name is introduced.
 */
export function findNameOf(text: string, of: Whose, words = 4, lang: Lang = 'en'): NameFor | null {
  // in another language only the introductions are read ("ich heiße …", "je m'appelle …", "me llamo …")
  if (lang !== 'en') return findName(text, words, INTL_ANSWER_INTRO[lang]);
  // "me and my son, Tom and Ben Baker": two people in one answer — ask whose first
  if (TWO_PEOPLE.test(text)) return { problem: "That's two people — whose name shall I take first? Just one, please." };
  for (const m of [...text.matchAll(FOR), ...text.matchAll(LEAD)]) {
    if (m[2]?.toLowerCase() === 'name') continue;
    const name = readName(text, m.index + m[0].length, words, true);
    if (!name) continue;
    const whose: Whose = SELF_WORDS.has(m[1]!.toLowerCase()) ? 'respondent' : 'subject';
    if (of === 'respondent' && whose === 'subject') return { problem: `Thanks — that's your ${m[2]}'s name. And what's your own name?` };
    return { value: name.value, evidence: text.slice(m.index, name.end) };
  }
  return findName(text, words, ANSWER_INTRO);
}
