/* An edit of an earlier answer said in words: a missing character, two swapped, an extra zero, per item. */
import type { LanguagePack } from '../../language/pack.ts';
import { parseAnswer, type ParseContext } from '../parse/index.ts';
import type { Earlier } from './late-earlier.ts';
import { APPROX } from './late-markers.ts';
import { repeatsNumber } from './late-value.ts';

/** Words saying characters are missing: "missed", "left off", "forgot", "fehlt", "vergessen". */
const MISSING = /(?<![\p{L}])(?:missed|missing|left (?:off|out)|forgot|forgotten|dropped|fehlt|fehlte|fehlen|vergessen)(?![\p{L}])/iu;
/** Words saying two characters are the wrong way round. */
const SWAPPED = /(?<![\p{L}])(?:swapped|switched|mixed up|transposed|(?:the )?wrong way (?:round|around)|back to front|vertauscht|verdreht|verwechselt)(?![\p{L}])/iu;
/** Where a missing character goes: at the end or at the start. */
const AT_START = /(?<![\p{L}])(?:start|beginning|front|anfang|vorne|vorn)(?![\p{L}])/iu;
const AT_THE_END = /(?<![\p{L}])(?:end|ende|hinten|last)(?![\p{L}])/iu;
/** Which two are swapped: the last two, the first two, or "the two digits" of a number that has two. */
const LAST_TWO = /(?<![\p{L}])(?:last two|final two|letzten (?:beiden|zwei)|beiden letzten|zwei letzten)(?![\p{L}])/iu;
const FIRST_TWO = /(?<![\p{L}])(?:first two|ersten (?:beiden|zwei)|beiden ersten|zwei ersten)(?![\p{L}])/iu;
const THE_TWO = /(?<![\p{L}])(?:the two|both|die (?:beiden|zwei))(?![\p{L}])/iu;
/** "the 45k is per field", "die 40k sind pro Platz": a per-item word. */
export const PER_ITEM = /(?<![\p{L}])(?:per|each|a piece|apiece|pro|je|jeweils|für jeden|für jede|fuer jeden)(?![\p{L}])/iu;

/** "extra zero", "one zero too many", "eine Null zu viel": the number was typed with one zero too many. */
const EXTRA_ZERO = /(?<![\p{L}])(?:(?:an? |one )?(?:extra|additional) (?:zero|0)|(?:one |a )?(?:zero|0) too many|too many (?:zeros?|0s?)|(?:eine )?(?:null|0) zu viel|(?:eine )?(?:null|0) (?:ist )?zu viel)(?![\p{L}])/iu;
/** "that's per court", "that figure is per court", "das ist pro Platz": the answer just given, said to be per item without repeating it. */
const THAT_PER = /(?<![\p{L}])(?:that(?:['’]s| is| was)|this is|it(?:['’]s| is| was)|that (?:figure|amount|number|budget|price)(?:['’]s| is| was)|das (?:ist|sind|war|gilt)|der betrag (?:ist|gilt)|die summe (?:ist|gilt)|das budget (?:ist|gilt))\s+(?:\p{L}+\s+)?(?:per|each|pro|je|jeweils|für jeden|für jede)(?![\p{L}])/iu;
/** A count said as a figure or a word (two … ten, zwei … zehn). */
const COUNT_WORDS = ['', '', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', '', '', 'zwei', 'drei', 'vier', 'fünf', 'sechs', 'sieben', 'acht', 'neun', 'zehn'];
const COUNT = /(?<![\p{L}\p{N}$€£.,])(?:(\d{1,2})(?![\p{N}]|[.,]\d|\s?(?:k|m|tsd|000|[$€£%])(?![\p{L}]))|(two|three|four|five|six|seven|eight|nine|ten|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn)(?![\p{L}]))/giu;
/** An amount rather than a count: "5k", "3.000", "$200", "2500". */
const AMOUNT = /\d\s?(?:k|m|tsd)(?![\p{L}])|\d{3,}|\d[.,]\d{3}|[$€£]\s?\d/iu;
/** "add another 5k", "plus 2k more", "noch 5k … dazu", "kommen noch 3.000 dazu": an amount added to the one given. */
const ADD_AMOUNT = /(?<![\p{L}])(?:add|adding|plus|on top|dazu|hinzu|zusätzlich|obendrauf|draufrechnen|drauf)(?![\p{L}])/iu;

/** "go up to 18000", "raise it to 20k", "bis zu 18.000", "auf 20.000 erhöhen": the figure is the new total, never an amount added. */
const NEW_TOTAL = /(?<![\p{L}])(?:up to|go up to|raise (?:it )?to|increase (?:it )?to|bump (?:it )?(?:up )?to|max(?:imum)? of|bis zu|bis auf|auf \S+ (?:erhöhen|aufstocken|anheben))(?![\p{L}])/iu;

/** Whether an adding word stands beside a figure: at most three words before it ("add another 5k", "plus 2k") or five after it with no "if" or clause break between ("5k more on top", "noch 5k für die Parkplatzbeleuchtung dazu"); not "… 18000 if we add the practice court". */
function addsToFigure(sentence: string): boolean {
  const words = sentence.split(/\s+/u);
  const adding = words.map((w, i) => (ADD_AMOUNT.test(w) || (/^on$/iu.test(w) && /^top\b/iu.test(words[i + 1] ?? '')) ? i : -1)).filter((i) => i >= 0);
  const figure = words.map((w, i) => (/\d/u.test(w) ? i : -1)).filter((i) => i >= 0);
  const broken = (from: number, to: number) => words.slice(from, to).some((w, k) => /^(?:if|when|unless|wenn|falls|sofern)$/iu.test(w) || (k < to - from - 1 && /[,;.]$/u.test(w)));
  return adding.some((i) => figure.some((j) => (i < j && j - i <= 3) || (i > j && i - j <= 5 && !broken(j, i))));
}

/** The amounts in a sentence read as the answer's figures ("5k", "3.000", "$2,500"), each once. */
function figures(sentence: string, q: Earlier, ctx: ParseContext): number[] {
  const out: number[] = [];
  for (const n of sentence.matchAll(/(?<![\p{L}\p{N}])[$€£]?\d[\d.,]*\d?\s?(?:k|m|tsd\.?)?(?![\p{L}\p{N}])/giu)) {
    const read = parseAnswer(q.answer, n[0].replace(/[.,]$/, ''), ctx);
    if (read.ok && typeof read.value === 'number' && !out.includes(read.value)) out.push(read.value);
  }
  return out;
}

/**
 * An edit of an earlier answer said in words: a character missing at the end or the start ("missed a 9 at the end",
 * "vorne fehlt eine 0"), two characters swapped ("the last two digits are swapped", "I swapped the two digits of the
 * budget" for 45000 → 54000), or an amount said to be per item beside a count ("the 45k is per field, we have 2" → 90000).
 * The edited value is read as the question's answer again; asked again (`reopen`) when the edit is not clear (which two
 * digits, where the character goes) or the answer is pii (its value is not sent). Undefined when the sentence says none.
 */
export function wordEdit(sentence: string, q: Earlier, ctx: ParseContext, pack: LanguagePack, isPrevious = false): { value: unknown } | { reopen: true } | undefined {
  const a = q.answer;
  const numeric = a.type === 'integer' || a.type === 'number';
  const codeLike = a.type === 'phone' || (a.type === 'text' && (a.pattern !== undefined || (typeof q.value === 'string' && /\d/.test(q.value) && !/\s/.test(q.value.trim()))));
  if (!numeric && !codeLike) return undefined;
  const again = (v: string): { value: unknown } | { reopen: true } => {
    const read = parseAnswer(a, v, ctx);
    return read.ok && JSON.stringify(read.value) !== JSON.stringify(q.value) ? { value: read.value } : { reopen: true };
  };
  // a number said per item beside a count: "the 45k is per field btw, we have 2"
  if (numeric && !q.pii && typeof q.value === 'number' && PER_ITEM.test(sentence) && repeatsNumber(sentence, q, ctx)) {
    const counts = [...sentence.matchAll(/(?<![\p{L}\p{N}$€£.,])(\d{1,2})(?![\p{N}]|[.,]\d|\s?(?:k|m|tsd|000|[$€£%])(?![\p{L}]))/giu)].map((m) => Number(m[1]))
      .filter((n) => n >= 2 && n <= 50 && n !== q.value);
    if (counts.length === 1) return again(String(q.value * counts[0]!));
    return { reopen: true };
  }
  // "4000 sorry extra zero", "eine Null zu viel": the figure said is the new value; without one, one zero comes off
  const zero = EXTRA_ZERO.exec(sentence);
  if (numeric && zero) {
    if (q.pii || typeof q.value !== 'number') return { reopen: true };
    const said = figures(sentence.replace(zero[0], ' '), q, ctx);
    if (said.length === 1) return said[0] !== q.value ? { value: said[0] } : { reopen: true };
    if (said.length > 1 || q.value === 0 || q.value % 10 !== 0) return { reopen: true };
    return again(String(q.value / 10));
  }
  // "that's per court, we have 2", "das ist pro Platz, wir haben zwei": the answer just given said to be per item, unrepeated
  if (numeric && isPrevious && !q.pii && typeof q.value === 'number' && THAT_PER.test(sentence) && !AMOUNT.test(sentence)) {
    const counts = [...sentence.matchAll(COUNT)].map((m) => (m[1] !== undefined ? Number(m[1]) : COUNT_WORDS.indexOf(m[2]!.toLowerCase()) % 11))
      .filter((n) => n >= 2 && n <= 50);
    return counts.length === 1 ? again(String(q.value * counts[0]!)) : { reopen: true };
  }
  // "add another 5k for the parking lot lights", "rechnen Sie noch 5k … dazu": an amount added to the money answer
  if (numeric && a.currency !== undefined && !q.pii && typeof q.value === 'number' && addsToFigure(sentence) && !NEW_TOTAL.test(sentence) && !APPROX.test(sentence)) {
    const said = figures(sentence, q, ctx);
    if (said.length === 1 && said[0]! >= 100 && said[0] !== q.value) return again(String(q.value + said[0]!));
  }
  const missing = MISSING.exec(sentence);
  if (missing && codeLike && !numeric) {
    // the one character said: "a 9", "eine 8", "the digit 3", "an X"
    const chars = [...sentence.matchAll(/(?<![\p{L}\p{N}])(?:an?|one|the|eine?n?|die|noch eine?)?\s*(?:digit|number|letter|ziffer|zahl|buchstaben?)?\s*(\d|[A-HJ-Z])(?![\p{L}\p{N}])/gu)].map((m) => m[1]!);
    const end = AT_THE_END.test(sentence);
    const start = AT_START.test(sentence);
    if (chars.length !== 1 || end === start) return q.pii || chars.length > 0 ? { reopen: true } : undefined;
    if (q.pii || typeof q.value !== 'string') return { reopen: true };
    return again(end ? q.value + chars[0] : chars[0] + q.value);
  }
  if (SWAPPED.test(sentence)) {
    if (q.pii || (typeof q.value !== 'string' && typeof q.value !== 'number')) return { reopen: true };
    const text = String(q.value);
    const at = [...text.matchAll(/\d/g)].map((m) => m.index);
    const swap = (i: number, j: number) => again(text.slice(0, i) + text[j] + text.slice(i + 1, j) + text[i] + text.slice(j + 1));
    if (LAST_TWO.test(sentence) && at.length >= 2) return swap(at.at(-2)!, at.at(-1)!);
    if (FIRST_TWO.test(sentence) && at.length >= 2) return swap(at[0]!, at[1]!);
    // "the two digits" of 45000: the two that are not trailing zeros
    const significant = numeric ? text.replace(/0+$/, '').replace(/\D/g, '') : '';
    if (numeric && THE_TWO.test(sentence) && significant.length === 2 && /^\d+$/.test(text)) return swap(0, 1);
    return { reopen: true };
  }
  return undefined;
}
