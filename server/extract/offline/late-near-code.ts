/* A code said again with a character or two changed: "the ID starts with a double W, WW123456789" for W123456789. */
import type { OpenQuestion } from '../extractor.ts';
import { parseAnswer, type ParseContext } from '../parse/index.ts';
import { isName, type Earlier } from './late-earlier.ts';
import { distance } from './late-name-fix.ts';

/** A code of letters and digits (an ID, an order number): a run without spaces holding a digit, hyphens allowed inside. */
const CODE = /(?<![\p{L}\p{N}@.-])(?=[\p{L}\p{N}-]*\p{N})[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*(?![\p{L}\p{N}@-]|\.[\p{L}\p{N}])/gu;

/** An earlier answer's code without the spaces and hyphens it was typed with ("W 123 456 789" → W123456789). */
const compact = (v: string) => v.replace(/[\s-]+/g, '');

/** Whether an earlier answer is a code: free text (not a name) of letters and digits, typed as one run or in groups, half of it digits or more. */
function codeAnswer(q: Earlier): q is Earlier & { value: string } {
  if (q.answer.type !== 'text' || isName(q) || typeof q.value !== 'string' || !/^[\p{L}\p{N}\s-]+$/u.test(q.value.trim())) return false;
  const c = compact(q.value);
  return c.length >= 5 && (c.match(/\p{N}/gu) ?? []).length * 2 >= c.length && (!/\s/.test(q.value.trim()) || /^\S+(?:\s+\p{N}+)+$/u.test(q.value.trim()));
}

/**
 * A code in the sentence that is an earlier code answer with one or two characters added, dropped or changed (case
 * aside), of six characters or more: it says itself what it corrects, with or without a marker. The new value, read as
 * that question's answer, and where the code stands; `reopen` when it is near two earlier answers. Undefined when none,
 * or when the current question could take the code itself (a text question with a pattern it matches).
 */
export function nearCodeFix(sentence: string, earlier: readonly Earlier[], current: OpenQuestion | null, ctx: ParseContext): { key: string; value?: unknown; reopen?: true; from: number; to: number } | undefined {
  const codes = earlier.filter(codeAnswer);
  if (codes.length === 0) return undefined;
  for (const m of sentence.matchAll(CODE)) {
    const said = m[0];
    if (said.length < 6 || !/\p{N}/u.test(said)) continue;
    if (current !== null && current.answer.type === 'text' && current.answer.pattern !== undefined && parseAnswer(current.answer, said, ctx).ok) return undefined;
    const up = compact(said).toUpperCase();
    const near = codes.filter((q) => {
      const was = compact(q.value).toUpperCase();
      const d = distance(was, up);
      return d >= 1 && d <= 2 && Math.min(was.length, up.length) >= 6;
    });
    if (near.length === 0) continue;
    if (near.length > 1) return { key: near[0]!.key, reopen: true, from: 0, to: sentence.length };
    const read = parseAnswer(near[0]!.answer, said, ctx);
    if (!read.ok) return { key: near[0]!.key, reopen: true, from: 0, to: sentence.length };
    return { key: near[0]!.key, value: read.value, from: 0, to: sentence.length };
  }
  return undefined;
}
