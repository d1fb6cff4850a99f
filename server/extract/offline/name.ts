import { en } from '../../language/en/index.ts';
import type { LanguagePack, NameWords } from '../../language/pack.ts';

/** A name the user introduced themselves with, as typed. */
export interface FoundName {
  value: string;
  evidence: string;
}

/** Answer keys that hold a person's name and so may be filled from "my name is …". */
export const NAME_KEYS: ReadonlySet<string> = new Set(['name', 'full_name', 'first_name']);

const TOKEN = /^[\p{L}][\p{L}'’-]*(?:\.(?=\s|$))?/u;

/**
 * Finds "my name is Ann Lee" / "I'm Ann" / "this is Ann" in a message (with
 * addresses and numbers already blanked by the caller). `words` limits the
 * name's length: 1 for a first name, up to 3 otherwise.
 */
export function findName(text: string, words: number, names: NameWords = en.names, intro: RegExp = names.intro): FoundName | null {
  for (const m of text.matchAll(intro)) {
    const loose = names.loose.has(m[1]!.toLowerCase());
    const name = readName(text, m.index + m[0].length, words, loose, names);
    if (name) return { value: name.value, evidence: text.slice(m.index, name.end) };
  }
  return null;
}

/** The name written at `at`: up to `words` words, capitalised unless `loose`, stopping at common words. */
function readName(text: string, start: number, words: number, loose: boolean, w: NameWords): { value: string; end: number } | null {
  const names: string[] = [];
  let at = start;
  let end = start;
  while (names.length < words) {
    const t = TOKEN.exec(text.slice(at, at + 64))?.[0];
    if (!t) break;
    const bare = t.replace(/\.$/, '');
    const lower = bare.toLowerCase();
    if (w.stop.has(lower) || (!loose && !/^\p{Lu}/u.test(bare)) || (names.length === 0 && w.notNames.has(lower))) break;
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

/**
 * The name of `of` (the respondent, or the subject the intake is about) in a
 * reply: "it is for me, Maria Lopez" (the respondent is the subject) and
 * "this is for my son, Tom Baker" (the subject) name whose it is; "my name is
 * Ann" names the respondent. A name of the wrong person is a problem to ask
 * about, never committed. Null when no name is introduced.
 */
export function findNameOf(text: string, of: Whose, words = 4, pack: LanguagePack = en): NameFor | null {
  const w = pack.names;
  // a pack without `whose` reads only the introductions ("ich heiße …", "je m'appelle …", "me llamo …")
  if (!w.whose) return findName(text, words, w, w.answerIntro);
  // "me and my son, Tom and Ben Baker": two people in one answer — ask whose first
  if (w.whose.twoPeople.test(text)) return { problem: w.whose.twoPeopleProblem };
  for (const m of [...text.matchAll(w.whose.forPerson), ...text.matchAll(w.whose.lead)]) {
    if (m[2]?.toLowerCase() === 'name') continue;
    const name = readName(text, m.index + m[0].length, words, true, w);
    if (!name) continue;
    const whose: Whose = w.whose.self.has(m[1]!.toLowerCase()) ? 'respondent' : 'subject';
    if (of === 'respondent' && whose === 'subject') return { problem: w.whose.otherPersonProblem(m[2]!) };
    return { value: name.value, evidence: text.slice(m.index, name.end) };
  }
  return findName(text, words, w, w.answerIntro);
}
