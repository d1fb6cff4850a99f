import type { WordNumber } from '../word-numbers.ts';

const SMALL: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9,
  ten: 10, eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16,
  seventeen: 17, eighteen: 18, nineteen: 19,
  twenty: 20, thirty: 30, forty: 40, fourty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
};
const SCALE: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9 };
const WORD = /[\p{L}]+/gu;

const FRACTION: Record<string, number> = { half: 0.5, 'a half': 0.5, quarter: 0.25, 'a quarter': 0.25, 'three quarters': 0.75, 'three quarter': 0.75 };
const FRACTION_SCALE: Record<string, number> = { thousand: 1e3, grand: 1e3, million: 1e6, mil: 1e6, mill: 1e6, mio: 1e6, billion: 1e9 };
/** A fraction before a scale word: "half a million", "a quarter of a mil", "three-quarters of a million". */
const FRACTION_OF_SCALE = /(?<![\p{L}])((?:a\s+)?half|(?:a\s+)?quarter|three[\s-]+quarters?)\s+(?:of\s+)?(?:a\s+|an\s+|one\s+)?(thousand|grand|million|mil|mill|mio|billion)(?![\p{L}])/giu;

const isNumberWord = (w: string) => w in SMALL || w in SCALE || w === 'hundred' || w === 'dozen';

/**
 * Finds runs of English number words: "twenty five", "twenty-five", "a hundred
 * and five", "one thousand two hundred", "two dozen". Hand-written because no
 * maintained library does just this; it reads cardinals only (no ordinals,
 * fractions or "point five").
 */
export function findWordNumbers(text: string): WordNumber[] {
  const words = [...text.matchAll(WORD)].map((m) => ({ w: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length }));
  // "half a million", "half a mil", "a quarter million", "three quarters of a million": a fraction of a scale
  const found: WordNumber[] = [...text.matchAll(FRACTION_OF_SCALE)].map((m) => ({
    value: FRACTION[m[1]!.toLowerCase().replace(/[\s-]+/gu, ' ')]! * FRACTION_SCALE[m[2]!.toLowerCase()]!,
    start: m.index + m[0].length - m[0].trimStart().length,
    end: m.index + m[0].length,
  }));
  const inFraction = (at: number) => found.some((f) => f.start <= at && at < f.end);
  let i = 0;
  while (i < words.length) {
    const first = words[i]!;
    if (inFraction(first.start)) {
      i++;
      continue;
    }
    const next = words[i + 1];
    // "a"/"an" only count as one before a scale ("a hundred", "a dozen").
    const article = (first.w === 'a' || first.w === 'an') && next !== undefined && adjacent(text, first.end, next.start)
      && (next.w === 'hundred' || next.w === 'dozen' || next.w in SCALE);
    if (!isNumberWord(first.w) && !article) {
      i++;
      continue;
    }
    let total = 0;
    let current = article ? 1 : 0;
    let j = article ? i + 1 : i;
    let last = first;
    for (; j < words.length; j++) {
      const t = words[j]!;
      if (j > i && !adjacent(text, last.end, t.start)) break;
      // "and" joins only inside a number ("hundred and five"), never at its edges.
      if (t.w === 'and') {
        const after = words[j + 1];
        if (after && after.w in SMALL && adjacent(text, t.end, after.start) && (current > 0 || total > 0)) {
          last = t;
          continue;
        }
        break;
      }
      if (t.w in SMALL) current += SMALL[t.w]!;
      else if (t.w === 'hundred') current = (current || 1) * 100;
      else if (t.w === 'dozen') current = (current || 1) * 12;
      else if (t.w in SCALE) {
        total += (current || 1) * SCALE[t.w]!;
        current = 0;
      } else break;
      last = t;
    }
    found.push({ value: total + current, start: first.start, end: last.end });
    i = j;
  }
  return found;
}

/** Words of one number are separated by spaces or a hyphen ("twenty-five"), nothing else. */
function adjacent(text: string, end: number, start: number): boolean {
  return /^[\s-]+$/.test(text.slice(end, start));
}
