/** Text folded for phrase matching, with a map back to the original string. */
export interface Folded {
  /** Lowercased, accents stripped, ß as ss, `_`/`-`/whitespace as single spaces, trimmed. */
  readonly text: string;
  /** For each code unit of `text`, where its source character starts in the original. */
  readonly starts: readonly number[];
  /** For each code unit of `text`, where its source character ends in the original. */
  readonly ends: readonly number[];
}

const SPACE_LIKE = /[\s_\-‐-―\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/u;
const MARKS = /\p{M}/gu;

// The extractor folds one message for several matchers (skip, human, options, paths):
// the last few results are kept, and shared (Folded is read-only).
const recent: Array<{ source: string; folded: Folded }> = [];
const RECENT_FOLDS = 4;

/** Folds text for case- and accent-insensitive matching, keeping a map to original indices. */
export function fold(source: string): Folded {
  for (const r of recent) if (r.source === source) return r.folded;
  const folded = foldText(source);
  if (recent.length >= RECENT_FOLDS) recent.shift();
  recent.push({ source, folded });
  return folded;
}

function foldText(source: string): Folded {
  let text = '';
  const starts: number[] = [];
  const ends: number[] = [];
  for (let i = 0; i < source.length; ) {
    const cp = source.codePointAt(i)!;
    let out: string;
    let end: number;
    if (cp < 0x80) {
      // ASCII, most of every message: no normalisation or regex needed
      end = i + 1;
      out = cp <= 0x20 || cp === 0x5f || cp === 0x2d || cp === 0x7f ? ' ' : cp >= 0x41 && cp <= 0x5a ? String.fromCharCode(cp + 32) : source[i]!;
      if (out === ' ' && (text === '' || text.endsWith(' '))) out = '';
      if (out !== '') {
        text += out;
        starts.push(i);
        ends.push(end);
      }
      i = end;
      continue;
    }
    const ch = String.fromCodePoint(cp);
    end = i + ch.length;
    if (SPACE_LIKE.test(ch)) out = ' ';
    else if (ch === '’' || ch === '‘' || ch === 'ʼ') out = "'";
    // "Fußball" and "Fussball" are one word (the German sharp s has no accent to strip)
    else if (ch === 'ß' || ch === 'ẞ') out = 'ss';
    else out = ch.normalize('NFD').replace(MARKS, '').toLowerCase();
    if (out === ' ' && (text === '' || text.endsWith(' '))) out = '';
    for (let k = 0; k < out.length; k++) {
      text += out[k];
      starts.push(i);
      ends.push(end);
    }
    i = end;
  }
  while (text.endsWith(' ')) {
    text = text.slice(0, -1);
    starts.pop();
    ends.pop();
  }
  return { text, starts, ends };
}

const phraseCache = new Map<string, string>();
const PHRASE_CACHE_MAX = 20_000;

/** Folds a phrase (an option label, a synonym, an example) the same way as messages; cached, as flows repeat them on every message. */
export function foldPhrase(phrase: string): string {
  let folded = phraseCache.get(phrase);
  if (folded === undefined) {
    folded = foldText(phrase).text;
    if (phraseCache.size >= PHRASE_CACHE_MAX) phraseCache.clear();
    phraseCache.set(phrase, folded);
  }
  return folded;
}

/** The original substring behind the folded span [start, end). */
export function originalSlice(source: string, folded: Folded, start: number, end: number): string {
  if (end <= start) return '';
  return source.slice(folded.starts[start], folded.ends[end - 1]);
}

const WORD = /[\p{L}\p{N}]/u;

/** Whether a code unit is part of a word (letters and digits of any script). */
export function isWordChar(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  if (ch.length === 1) {
    const c = ch.charCodeAt(0);
    // ASCII, most of every message, without the Unicode regex
    if (c < 0x80) return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a);
  }
  return WORD.test(ch);
}

/**
 * Every start index of `phrase` in `text` on word boundaries. A phrase edge
 * that is itself punctuation or an emoji needs no boundary, so "👍" or "c++"
 * still match next to letters.
 */
export function findPhrase(text: string, phrase: string): number[] {
  const found: number[] = [];
  if (phrase === '') return found;
  const needStart = isWordChar(phrase[0]);
  const needEnd = isWordChar(phrase[phrase.length - 1]);
  for (let at = text.indexOf(phrase); at !== -1; at = text.indexOf(phrase, at + 1)) {
    if (needStart && isWordChar(text[at - 1])) continue;
    if (needEnd && isWordChar(text[at + phrase.length])) continue;
    found.push(at);
  }
  return found;
}
