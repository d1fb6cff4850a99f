import type { TriggerChoice } from '../extractor.ts';
import { oneEdit } from '../parse/one-edit.ts';
import { plainText } from './trigger-words.ts';


// Typos in red-flag words: "chest pian", "unconcious", "siezure", "swalowed" are read as the trigger's own word
// before the trigger rules run, so a visitor who types fast in an emergency is not missed. A word of the message
// is repaired when
//  - it is not one of the triggers' words, and is one edit from exactly one of them (a letter added, dropped or
//    changed, or two neighbours swapped), with the same first letter, or from several of which the English words are
//    forms of one word ("chesst" is one edit from "chest", "chests" and the list's own "cheast": read as "chest"); a trigger word of 4 letters takes only a swap
//    ("pian" → "pain"), shorter ones nothing; a word ending in * ("swallow*") is compared on its stem;
//  - and it is not a word of the language (the pack's `isWord`; English: server/language/en/dictionary.ts, hunspell's):
//    "branch" stays "branch" though it is one letter from "blanch", "paint" stays "paint";
//    An English word is repaired too when the repair stands beside its partner in a phrase, example or list entry of
//    the triggers ("cheat pain" → "chest pain": "chest pain" is in an example; "cheat" alone stays "cheat");
//  - or it is a three-letter word of the triggers with its last letter doubled, and not an English word ("fitt" → "fit").
// The repaired text goes through the same rules as any other (co-occurrence in a clause, negation, `unless`), so
// one repaired word alone rarely fires anything. Only a pack with a dictionary (English) has its typos repaired.

/** Trigger words this long or longer take any one edit; 4-letter ones a swap of two neighbouring letters only. */
const ANY_EDIT = 5;

interface Vocab { words: Set<string>; list: string[]; stems: string[]; short: Set<string>; pairs: Set<string> }

const vocabs = new WeakMap<readonly TriggerChoice[], Vocab>();

/** The words of the triggers' phrases and word lists (not `unless`, not examples), plain, and the stems of `*` entries. */
function vocabOf(triggers: readonly TriggerChoice[]): Vocab {
  let v = vocabs.get(triggers);
  if (v) return v;
  const words = new Set<string>();
  const stems = new Set<string>();
  const short = new Set<string>();
  const add = (entry: string) => {
    for (const w of plainText(entry).split(/[^\p{L}*]+/u)) {
      if (w.length === 3 && !w.includes('*')) short.add(w);
      if (w.endsWith('*')) {
        if (w.length - 1 >= ANY_EDIT && !w.slice(0, -1).includes('*')) stems.add(w.slice(0, -1));
      } else if (w.length >= 4 && !w.includes('*')) words.add(w);
    }
  };
  // two words side by side in a phrase, an example or a list entry ("chest pain"): an English word next to its partner is repaired too
  const pairs = new Set<string>();
  const pair = (entry: string) => {
    const ws = plainText(entry).split(/[^\p{L}]+/u).filter((w) => w.length > 0);
    for (let i = 1; i < ws.length; i++) pairs.add(`${ws[i - 1]} ${ws[i]}`);
  };
  for (const t of triggers) {
    t.phrases.forEach(add);
    for (const list of Object.values(t.words ?? {})) list.forEach(add);
    [...t.phrases, ...t.examples, ...Object.values(t.words ?? {}).flat()].forEach(pair);
  }
  v = { words, list: [...words], stems: [...stems], short, pairs };
  if (Object.isFrozen(triggers)) vocabs.set(triggers, v);
  return v;
}

/** What may follow a stem's repaired letters ("swel|ing" → "swelling", not "swell|ng"). */
const ENDINGS = new Set(['', 's', 'es', 'd', 'ed', 'ing', 'er', 'ers', 'y', 'ies', 'ied', 'ly', 'ness', 'ion', 'ions', 'ive', 'ful', 'ment']);

const swapped = (a: string, b: string) => a.length === b.length && oneEdit(a, b) && [...a].sort().join('') === [...b].sort().join('');

/** The trigger word `w` (lower case, letters only) is one edit from, when exactly one; undefined otherwise. */
function nearest(w: string, vocab: Vocab, isWord: (word: string) => boolean): string | undefined {
  const found = new Set<string>();
  for (const v of vocab.list) {
    if (v[0] !== w[0] || Math.abs(v.length - w.length) > 1) continue;
    if (v.length >= ANY_EDIT ? oneEdit(w, v) : v.length === 4 && swapped(w, v)) found.add(v);
  }
  for (const s of vocab.stems) {
    if (s[0] !== w[0] || w.startsWith(s)) continue;
    for (let k = s.length - 1; k <= s.length + 1 && k <= w.length; k++) {
      if (ENDINGS.has(w.slice(k)) && oneEdit(w.slice(0, k), s)) found.add(s + w.slice(k));
    }
  }
  if (found.size <= 1) return [...found][0];
  // several: the English words among them (a list's own misspelling, "cheast", gives way to "chest"), and of forms of one
  // word ("chesst" is one edit from "chest" and from "chests") the shortest, when the others are it plus an ending
  const words = [...found].filter((v) => isWord(v));
  const [base, ...rest] = (words.length ? words : [...found]).sort((a, b) => a.length - b.length);
  return rest.every((v) => v.startsWith(base!) && ENDINGS.has(v.slice(base!.length))) ? base : undefined;
}

/**
 * `text` with each misspelt trigger word replaced by the trigger word it is one edit from ("chest pian" →
 * "chest pain"); the text itself when nothing is repaired.
 */
export function repairTypos(text: string, triggers: readonly TriggerChoice[], isWord: (word: string) => boolean): string {
  if (!triggers.length) return text;
  const vocab = vocabOf(triggers);
  const tokens = [...text.matchAll(/[\p{L}\p{N}'’]+/gu)];
  const plainAt = (i: number) => (tokens[i] ? plainText(tokens[i][0]) : '');
  let out = '';
  let from = 0;
  tokens.forEach((m, i) => {
    const token = m[0];
    let repaired = token;
    const w = plainText(token);
    if (token.length >= 4 && !/[^\p{L}]/u.test(token) && !vocab.words.has(w) && !vocab.stems.some((s) => w.startsWith(s))) {
      if (w.length === 4 && w[3] === w[2] && vocab.short.has(w.slice(0, 3)) && !isWord(token)) {
        // a doubled last letter on a three-letter trigger word: "fitt" is "fit"
        repaired = w.slice(0, 3);
      } else {
        const v = nearest(w, vocab, isWord);
        // an English word is kept ("branch", "paint") unless its repair makes a pair of the triggers' words with a neighbour ("cheat pain")
        if (v !== undefined && (!isWord(token) || vocab.pairs.has(`${v} ${plainAt(i + 1)}`) || vocab.pairs.has(`${plainAt(i - 1)} ${v}`))) repaired = v;
      }
    }
    out += text.slice(from, m.index) + repaired;
    from = m.index + token.length;
  });
  return out + text.slice(from);
}
