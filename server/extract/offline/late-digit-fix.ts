/* One digit of an earlier number or code said anew: "the last digit is 9 not 8", "die letzte Ziffer ist eine 9, nicht 8". */
import type { LanguagePack } from '../../language/pack.ts';
import { findPhones, fold, parseAnswer, type ParseContext } from '../parse/index.ts';
import type { Earlier } from './late-earlier.ts';

/** Which digit: counted from the end ("last", "second to last", "vorletzte") or from the start ("first", "3rd", "dritte"). */
const FROM_END: Record<string, number> = { last: 1, final: 1, letzte: 1, letzten: 1, letzter: 1, dernier: 1, derniere: 1, ultimo: 1, ultima: 1, vorletzte: 2, vorletzten: 2, penultimate: 2, 'second to last': 2, 'second-to-last': 2, 'second last': 2, avantdernier: 2 };
const FROM_START: Record<string, number> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10,
  erste: 1, ersten: 1, zweite: 2, zweiten: 2, dritte: 3, dritten: 3, vierte: 4, vierten: 4, funfte: 5, funften: 5, sechste: 6, sechsten: 6,
  siebte: 7, siebten: 7, achte: 8, achten: 8, neunte: 9, neunten: 9, zehnte: 10, zehnten: 10, premier: 1, premiere: 1, primer: 1, primera: 1,
};
/** "the last digit", "die letzte Ziffer", "the 3rd number", "die 5. Stelle": a position and the word for one digit. */
const POSITION = /(?<![\p{L}\p{N}])(second[\s-]to[\s-]last|second last|\p{L}+|\d{1,2}(?:st|nd|rd|th|\.))\s+(?:digit|number|figure|ziffer|zahl|stelle|chiffre|d[ií]gito|n[uú]mero)(?![\p{L}])(?:\s+(?:of|in|from|der|des|im|von|in der)\s+(?:(?:the|my|our|his|her|your|their|der|die|das|meiner|meinem|unserer|ihrer|ihrem)\s+)?[\p{L}-]+(?:\s+(?:number|nummer|id|nr\.?))?)?/giu;
/** A digit as a figure or a word, after an optional article: "9", "a nine", "eine 9", "ne 9". */
const DIGIT = /^(?:(?:a|an|eine|ein|ne|'ne|un|une|el|la)\s+)?(\d|\p{L}+)(?![\p{L}\p{N}])/iu;
/** What links the position to the new digit: "is", "should be", "ist", "muss … sein", ":" (or nothing). */
const LINK = /^\s*(?:(?:is|was|should be|should have been|must be|has to be|needs to be|ist|sollte|muss|soll|war|lautet|heißt|heisst|est|es|wäre|ware)\s+)?(?:(?:actually|really|eigentlich|doch|natürlich|naturlich)\s+)?[:=]?\s*/iu;
/** "not", "nicht", "statt", "instead of": what the old digit follows. */
const NOT_OLD = /^[\s,;:—–-]*(?:and\s+)?(?:not|nicht|statt|anstatt|instead of|rather than|pas|no)\s+/iu;
/** "wrong", "falsch": the digit named as wrong, no new one said. */
const WRONG = /(?<![\p{L}])(?:wrong|incorrect|off|falsch|verkehrt|faux|fausse|incorrecto)(?![\p{L}])/iu;

/** A digit read from a figure or a word ("9", "nine", "neun"); undefined when it is neither. */
function digitOf(word: string, pack: LanguagePack): string | undefined {
  if (/^\d$/.test(word)) return word;
  const f = fold(word).text;
  return pack.spoken?.digits[f] ?? ({ zero: '0', one: '1', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9' } as Record<string, string>)[f];
}

/** Whether an answer is a number or code whose digits can be said one by one: a phone, or a text answer holding digits and no spaces. */
function digitAnswer(q: Earlier): boolean {
  return q.answer.type === 'phone' || (q.answer.type === 'text' && typeof q.value === 'string' && /\d/.test(q.value) && !/\s/.test(q.value.trim()));
}

/**
 * An earlier phone or code with one digit said anew ("sorry, the last digit is 9 not 8", "die letzte Ziffer ist eine 9,
 * nicht 8", "the 3rd digit should be 5"): the number with that digit replaced. When the sentence also gives the whole
 * new number ("…: 0171 2345679") that number is the value, if it agrees with the edit; asked again (`reopen`) when the
 * two disagree, when the old digit said is not the one at that place, when no new digit is said ("the last digit is
 * wrong"), or when the answer is pii and not at hand. A phone's digits are counted from its end only (its start differs
 * between "0171…" and "+49171…"). Undefined when the sentence names no digit's place.
 */
export function digitFix(sentence: string, q: Earlier, ctx: ParseContext, pack: LanguagePack): { value: unknown } | { reopen: true } | undefined {
  if (!digitAnswer(q)) return undefined;
  for (const m of sentence.matchAll(POSITION)) {
    const place = fold(m[1]!).text.replace(/\s+/g, ' ');
    const ordinal = /^(\d{1,2})/.exec(place);
    const fromEnd = FROM_END[place];
    const fromStart = FROM_START[place] ?? (ordinal ? Number(ordinal[1]) : undefined);
    if (fromEnd === undefined && fromStart === undefined) continue;
    const after = sentence.slice(m.index + m[0].length);
    const link = LINK.exec(after)!;
    const said = DIGIT.exec(after.slice(link[0].length));
    const now = said ? digitOf(said[1]!, pack) : undefined;
    let old: string | undefined;
    if (said && now !== undefined) {
      const rest = after.slice(link[0].length + said[0].length);
      const not = NOT_OLD.exec(rest);
      const was = not ? DIGIT.exec(rest.slice(not[0].length)) : null;
      old = was ? digitOf(was[1]!, pack) : undefined;
    }
    // the whole new number said beside the edit ("…, nicht 8: 0171 2345679")
    const whole = q.answer.type === 'phone' ? findPhones(sentence, ctx).map((p) => p.value).find((v) => v !== q.value) : undefined;
    if (now === undefined && !WRONG.test(after)) continue;
    if (typeof q.value !== 'string') return whole !== undefined && now !== undefined && whole.endsWith(now) ? { value: whole } : { reopen: true };
    const value = q.value;
    // "the last digit was off: 312 555 0143": the whole number said, the digit not; taken when it changes only that digit
    if (now === undefined) return whole !== undefined && fromEnd !== undefined && sameButAt(value, whole, fromEnd) ? { value: whole } : { reopen: true };
    // the place of that digit in the answer as stored, counted over its digits
    const at = [...value].flatMap((c, i) => (/\d/.test(c) ? [i] : []));
    const index = fromEnd !== undefined ? at[at.length - fromEnd] : q.answer.type === 'phone' ? undefined : at[fromStart! - 1];
    if (index === undefined) return whole !== undefined && whole.endsWith(now) && fromEnd !== undefined ? { value: whole } : { reopen: true };
    if (old !== undefined && value[index] !== old) return { reopen: true };
    if (value[index] === now) return whole !== undefined ? { reopen: true } : undefined;
    const edited = parseAnswer(q.answer, value.slice(0, index) + now + value.slice(index + 1), ctx);
    if (!edited.ok) return { reopen: true };
    if (whole !== undefined && whole !== edited.value) return { reopen: true };
    return { value: edited.value };
  }
  return undefined;
}

/** Whether two numbers differ only in the digit at `fromEnd` counted from their ends (their other digits the same). */
function sameButAt(a: string, b: string, fromEnd: number): boolean {
  const da = a.replace(/\D/g, '');
  const db = b.replace(/\D/g, '');
  if (da.length !== db.length) return false;
  const at = da.length - fromEnd;
  return [...da].every((c, i) => (i === at ? c !== db[i] : c === db[i]));
}
