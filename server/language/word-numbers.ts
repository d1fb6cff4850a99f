// Numbers written in words, read by one small table per language (each pack's
// word-numbers.ts) and the one reader below. Hand-written: the npm
// words-to-numbers packages read English only, and Recognizers-Text costs
// ~2 s to load and ~1 ms a call. Cardinals only (no ordinals, fractions or
// "Komma fünf"); "…einhalb" ("zweieinhalb" = 2.5) and "anderthalb" are read
// in German. English keeps its own reader (en/word-numbers.ts).

/** A number written in words, found in a message, with its span. */
export interface WordNumber {
  value: number;
  start: number;
  end: number;
}

/** A table of number words, as word → value. */
export type Table = Readonly<Record<string, number>>;

/** What the reader needs to know about one language's number words. */
export interface WordNumberRules {
  /** Folds one word for the tables (lower case, no accents; German also "ue" → "u"). */
  fold: (word: string) => string;
  /** A small number word (below a thousand, or a whole German compound), or null. */
  small: (w: string) => number | null;
  /** A scale word ("million", "Milliarden") and its value, or null. */
  scale: (w: string) => number | null;
  /** Words multiplying what came before by a hundred, read apart ("cent"). */
  hundreds: ReadonlySet<string>;
  /** Words multiplying what came before by a thousand, read apart ("mille", "mil"). */
  thousands: ReadonlySet<string>;
  /** Other words that count as a scale after an article ("ein hundert"). */
  scaleWords: ReadonlySet<string>;
  /** Words that, alone, are articles more often than numbers: a count only before a scale or as the whole reply. */
  articles: ReadonlySet<string>;
  /** The word joining tens and units ("y" in "treinta y dos"). */
  joiner: string;
  /** Whether a small word may follow the previous one below a thousand ("vingt" 20 → a unit may follow). */
  canFollow: (prev: number, next: number) => boolean;
  /** Words that make a preceding four into eighty ("quatre-vingt"). */
  fourTwenty: ReadonlySet<string>;
  /** Fractions counted only right before a scale word ("eine halbe Million", "ne halbe Mio"); absent = none. */
  fractions?: Table;
  /** A number word that, alone right after a noun, is an adjective ("un terrain neuf"), and the words after which it still counts. */
  adjective: { word: string; countsAfter: ReadonlySet<string> } | null;
}

const WORD = /[\p{L}]+/gu;

/** Folds one word: lower case, no accents, ß as ss. */
export function foldWord(word: string): string {
  return word.toLowerCase().replace(/ß/g, 'ss').normalize('NFD').replace(/\p{M}/gu, '');
}

/** The place tens and hundreds leave free for the next word ("vingt" 20 → a unit; "cent" → up to 99). */
export function tensAndHundreds(prev: number, next: number): boolean {
  if (prev % 100 === 0 && prev > 0) return next < 100;
  if (prev % 10 === 0 && prev >= 20) return next < 10 && next > 0;
  return false;
}

function isScale(w: string, r: WordNumberRules): boolean {
  return r.scale(w) !== null || r.hundreds.has(w) || r.thousands.has(w) || r.scaleWords.has(w);
}

/**
 * Runs of number words in a language read by rules ("sieben", "zweihundert",
 * "quarante-deux", "veintitrés", "dos mil quinientos", "zwei Millionen"),
 * with their spans in the original text.
 */
export function findWordNumbersBy(text: string, r: WordNumberRules): WordNumber[] {
  const words = [...text.matchAll(WORD)].map((m) => ({ w: r.fold(m[0]), start: m.index, end: m.index + m[0].length }));
  const found: WordNumber[] = [];
  const whole = words.length === 1;
  let i = 0;
  while (i < words.length) {
    let total = 0;
    let current = 0;
    let last: number | null = null; // value of the last small word, for canFollow
    let j = i;
    let end = -1;
    for (; j < words.length; j++) {
      const t = words[j]!;
      if (j > i && !adjacent(text, words[j - 1]!.end, t.start)) break;
      const nextWord = words[j + 1]?.w;
      const scaleNext = nextWord !== undefined && adjacent(text, t.end, words[j + 1]!.start) && isScale(nextWord, r);
      // "eine halbe Million": an article before a fraction before a scale is the fraction's
      const fractionNext = nextWord !== undefined && r.fractions?.[nextWord] !== undefined && words[j + 2] !== undefined
        && adjacent(text, t.end, words[j + 1]!.start) && adjacent(text, words[j + 1]!.end, words[j + 2]!.start) && isScale(words[j + 2]!.w, r);
      if (r.articles.has(t.w) && current === 0 && total === 0 && fractionNext) continue;
      if (r.fractions?.[t.w] !== undefined && current === 0 && scaleNext) {
        current = r.fractions[t.w]!;
        last = null;
        end = t.end;
        continue;
      }
      if (r.articles.has(t.w) && current === 0 && total === 0 && !scaleNext && !whole) break;
      if (t.w === r.joiner && j > i) {
        const after = words[j + 1];
        if (after && adjacent(text, t.end, after.start) && last !== null && r.small(after.w) !== null) continue;
        break;
      }
      const s = r.small(t.w);
      if (s !== null) {
        if (last === 4 && r.fourTwenty.has(t.w)) {
          current += 76; // quatre-vingt(s) = 80
          last = 80;
        } else {
          // after a thousand or a scale: "dos mil quinientos", "zwei Millionen dreihunderttausend"
          if (last !== null && !(last >= 1000 ? s < last : r.canFollow(last, s))) break;
          current += s;
          last = s;
        }
        end = t.end;
        continue;
      }
      const scale = r.scale(t.w);
      if (r.hundreds.has(t.w)) {
        if (current >= 100 || (last !== null && last >= 10 && last < 1000)) break;
        current = (current || 1) * 100;
        last = 100;
      } else if (r.thousands.has(t.w)) {
        if (total % 1e6 > 0) break;
        total += (current || 1) * 1000;
        current = 0;
        last = 1000;
      } else if (scale !== null) {
        total += (current || 1) * scale;
        current = 0;
        last = scale;
      } else break;
      end = t.end;
    }
    if (end === -1) {
      i = Math.max(j, i + 1);
      continue;
    }
    // "un terrain neuf": after a noun "neuf" is "new", not nine (a French count comes before its noun)
    const adjective = r.adjective !== null && j === i + 1 && words[i]!.w === r.adjective.word && i > 0 && adjacent(text, words[i - 1]!.end, words[i]!.start)
      && r.small(words[i - 1]!.w) === null && !r.adjective.countsAfter.has(words[i - 1]!.w);
    if (!adjective) found.push({ value: total + current, start: words[i]!.start, end });
    i = words.findIndex((w) => w.start >= end);
    if (i === -1) break;
  }
  return found;
}

/** The power of ten of a multiplier word a pack's `numbers.digitScales` matched. */
export function digitScale(word: string): number {
  const w = foldWord(word).replace(/\.$/, '');
  if (w === 'mil millones' || w.startsWith('milliard') || w === 'mrd') return 9;
  // "30 mille" (French) is thirty thousand, not thirty million
  if (w === 'mille') return 3;
  if (w.startsWith('mill') || w === 'mio') return 6;
  return 3;
}

/** Words of one number are separated by spaces or a hyphen, nothing else. */
function adjacent(text: string, end: number, start: number): boolean {
  return /^[\s-]+$/.test(text.slice(end, start));
}
