/* A phone's part said a turn late: its ending said anew ("it ends 0134", "endet auf 4567"). */
import { parseAnswer, type ParseContext } from '../parse/index.ts';
import type { Earlier } from './late-earlier.ts';

/** "ends 0134", "ends in 0184", "the last four are 0187", "endet auf 4567", "die letzten vier Ziffern sind 4567". */
const ENDS = /(?<![\p{L}])(?:(?:ends?|ending|endet|enden)(?:\s+(?:in|with|on|auf|mit))?|(?:last|final|letzten)\s+(?:(?:two|three|four|2|3|4|zwei|drei|vier)\s+)?(?:digits?|numbers?|ziffern|zahlen|stellen)?\s*(?:are|is|were|should be|sind|lauten|heißen|heissen|:))\s*(\d(?:[\s-]?\d){1,3})(?![\s-]?\d)/iu;
/** "not", "nicht": "ends 0123 not 0132" is an edit with the part replaced (late-not-edit.ts). */
const NOT = /(?<![\p{L}])(?:not|nicht)(?![\p{L}])/iu;

/**
 * An earlier phone whose last digits are said anew ("correction, her number ends 0184" for (202) 555-0148): the number
 * with its last two to four digits replaced, and where that was said; asked again when the number is not at hand (a pii
 * value without its local copy). Undefined when the sentence says no ending, says the one given, or says "not".
 */
export function phoneEnding(sentence: string, q: Earlier, ctx: ParseContext): { value: unknown; from: number; to: number } | { reopen: true } | undefined {
  if (q.answer.type !== 'phone') return undefined;
  const m = ENDS.exec(sentence);
  if (m === null || NOT.test(sentence.slice(m.index))) return undefined;
  if (typeof q.value !== 'string' || q.pii) return { reopen: true };
  const digits = m[1]!.replace(/\D/g, '');
  if (q.value.endsWith(digits)) return undefined;
  const read = parseAnswer(q.answer, q.value.slice(0, q.value.length - digits.length) + digits, ctx);
  return read.ok ? { value: read.value, from: m.index, to: m.index + m[0].length } : { reopen: true };
}
