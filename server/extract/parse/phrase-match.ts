import { foldPhrase, isWordChar, type Folded } from './fold.ts';

/** A phrase that, when found, counts for `owner` (an option, a path, a yes/no side). */
export interface PhraseCandidate<T> {
  phrase: string;
  owner: T;
}

/** One occurrence of a candidate phrase in folded text. */
export interface PhraseHit<T> {
  owner: T;
  /** Folded-text span. */
  start: number;
  end: number;
}

const UMLAUT = /[äöüÄÖÜ]/;
const UMLAUTS = /[äöüÄÖÜ]/g;
const TRANSLITERATED: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue', Ä: 'Ae', Ö: 'Oe', Ü: 'Ue' };

/** A phrase and, when it has umlauts, its spelling without them: "über" is also typed "ueber" (a keyboard without umlauts). */
export function spellings(phrase: string): string[] {
  return UMLAUT.test(phrase) ? [phrase, phrase.replace(UMLAUTS, (u) => TRANSLITERATED[u]!)] : [phrase];
}

/** Candidates folded and deduplicated once, for lists matched against many messages. */
export interface PhraseSet<T> {
  readonly entries: ReadonlyArray<PhraseEntry<T>>;
}

/** One folded spelling of a candidate, with the bits of its characters (charBits) for the pre-check in findHits. */
interface PhraseEntry<T> {
  readonly owner: T;
  readonly phrase: string;
  readonly needStart: boolean;
  readonly needEnd: boolean;
  readonly chars: readonly number[];
}

/**
 * The characters of a string as 160 bits: one per ASCII code, and 32 more
 * that other characters share by their code modulo 32. A phrase with a bit
 * the text lacks has a character the text lacks, so it cannot occur in it:
 * findHits skips it without a search (most phrases of a list, for a short reply).
 */
export function charBits(s: string): [number, number, number, number, number] {
  const bits: [number, number, number, number, number] = [0, 0, 0, 0, 0];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const bit = c < 128 ? c : 128 + (c & 31);
    bits[bit >>> 5]! |= 1 << (bit & 31);
  }
  return bits;
}

/** Folds and deduplicates candidates (what findHits does first on every call); the result is immutable. */
export function phraseSet<T>(candidates: ReadonlyArray<PhraseCandidate<T>>): PhraseSet<T> {
  const entries: Array<PhraseSet<T>['entries'][number]> = [];
  // A label that equals its value (or a repeated synonym) must not count twice.
  const seen = new Map<T, Set<string>>();
  for (const c of candidates) {
    const mine = seen.get(c.owner) ?? new Set<string>();
    seen.set(c.owner, mine);
    for (const spelling of spellings(c.phrase)) {
      const phrase = foldPhrase(spelling);
      if (phrase === '' || mine.has(phrase)) continue;
      mine.add(phrase);
      entries.push(Object.freeze({ owner: c.owner, phrase, needStart: isWordChar(phrase[0]), needEnd: isWordChar(phrase[phrase.length - 1]), chars: charBits(phrase) }));
    }
  }
  return Object.freeze({ entries: Object.freeze(entries) });
}

/** Whether a phrase with characters `phrase` (charBits) can occur in a text with characters `text`: false when it has one the text lacks. */
export function mayOccur(phrase: readonly number[], text: readonly number[]): boolean {
  return ((phrase[0]! & ~text[0]!) | (phrase[1]! & ~text[1]!) | (phrase[2]! & ~text[2]!) | (phrase[3]! & ~text[3]!) | (phrase[4]! & ~text[4]!)) === 0;
}

/** All word-boundary occurrences of every candidate, in candidate order then position. */
export function findHits<T>(folded: Folded, candidates: ReadonlyArray<PhraseCandidate<T>> | PhraseSet<T>): PhraseHit<T>[] {
  const set = Array.isArray(candidates) ? phraseSet(candidates as ReadonlyArray<PhraseCandidate<T>>) : (candidates as PhraseSet<T>);
  const hits: PhraseHit<T>[] = [];
  const text = folded.text;
  const chars = charBits(text);
  // an indexed loop: for-of over the (frozen) entries allocated an iterator result per entry, most of a
  // message's extraction garbage (bench/server/alloc.ts)
  const entries = set.entries;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (!mayOccur(e.chars, chars)) continue; // a character the text lacks: no occurrence
    const phrase = e.phrase;
    for (let at = text.indexOf(phrase); at !== -1; at = text.indexOf(phrase, at + 1)) {
      if (e.needStart && isWordChar(text[at - 1])) continue;
      if (e.needEnd && isWordChar(text[at + phrase.length])) continue;
      hits.push({ owner: e.owner, start: at, end: at + phrase.length });
    }
  }
  return hits;
}

/**
 * Longest-first, non-overlapping hits: "basketball court" claims its words
 * before "court" can, so a shorter synonym of another option inside a longer
 * one never counts. Ties in length go to the earlier hit; candidate order
 * breaks the rest, so the choice is deterministic.
 */
export function longestHits<T>(hits: ReadonlyArray<PhraseHit<T>>): PhraseHit<T>[] {
  const order = hits
    .map((h, i) => ({ h, i }))
    .sort((a, b) => b.h.end - b.h.start - (a.h.end - a.h.start) || a.h.start - b.h.start || a.i - b.i);
  const kept: PhraseHit<T>[] = [];
  for (const { h } of order) {
    if (kept.some((k) => h.start < k.end && k.start < h.end)) continue;
    kept.push(h);
  }
  return kept.sort((a, b) => a.start - b.start);
}

/** The owners whose hit has the greatest length among `hits` (several when they tie). */
export function longestOwners<T>(hits: ReadonlyArray<PhraseHit<T>>): { owners: T[]; length: number } {
  let length = 0;
  for (const h of hits) length = Math.max(length, h.end - h.start);
  const owners: T[] = [];
  for (const h of hits) if (h.end - h.start === length && !owners.includes(h.owner)) owners.push(h.owner);
  return { owners, length };
}

/** Words that may sit around an answer without making it less than the whole message. */
const FILLER = new Set(['and', 'or', 'both', 'please', 'thanks', 'thank', 'you', 'thx', 'pls', 'plz', 'just', 'the', 'one', 'ones']);

/** Whether the folded text outside `hits` is only punctuation and filler words. */
export function onlyFillerOutside<T>(folded: Folded, hits: ReadonlyArray<PhraseHit<T>>, filler: ReadonlySet<string> = FILLER): boolean {
  let rest = '';
  let at = 0;
  for (const h of [...hits].sort((a, b) => a.start - b.start)) {
    if (h.start > at) rest += ' ' + folded.text.slice(at, h.start);
    at = Math.max(at, h.end);
  }
  rest += ' ' + folded.text.slice(at);
  const words = rest.match(/[\p{L}\p{N}']+/gu) ?? [];
  return words.every((w) => filler.has(w));
}
