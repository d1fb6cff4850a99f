import { fillMessage, type Messages } from '../flow/messages/catalogue.ts';
import { EN } from '../language/en/messages.ts';
import type { QuestionNode } from '../flow/schema.ts';

// Assessed answers (flow-ir.md `assess`, seed 003's evaluator loop): a
// free-text answer is judged — by the model's score, else by the offline
// `min_words` / `must_mention` rules — and re-asked with feedback until it
// passes or the refinements run out. Pure: the engine decides, the extractor
// only proposes a score.

/** Score an answer needs from the model when the flow gives no `threshold`. */
export const DEFAULT_THRESHOLD = 0.7;
/** Re-asks allowed when the flow gives no `max_refinements`. */
export const DEFAULT_MAX_REFINEMENTS = 2;

type Assess = NonNullable<QuestionNode['assess']>;

/** The threshold and refinement limit of an `assess`, defaults filled in. */
export function assessPolicy(a: Assess): { threshold: number; maxRefinements: number } {
  return { threshold: a.threshold ?? DEFAULT_THRESHOLD, maxRefinements: a.max_refinements ?? DEFAULT_MAX_REFINEMENTS };
}

const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
const wordsOf = (s: string) => fold(s).match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) ?? [];

/**
 * The offline judgement: the share of `min_words` reached and the share of
 * `must_mention` terms mentioned (a term is mentioned when its words, or those of one of its alternatives "a|b", appear
 * in order, the last one as a word's start — "light" is in "lights" — or a
 * one-word term closes a compound word — "floodlights", "Flutlichtleuchten" —, case
 * and accents ignored), the score being the lower of the two;
 * it passes only at 1 (every rule met). Null when the flow gives no offline rule.
 */
export function judgeOffline(a: Assess, value: unknown, m: Messages = EN): { score: number; passed: boolean; feedback?: string } | null {
  if (a.min_words === undefined && (a.must_mention === undefined || a.must_mention.length === 0)) return null;
  const words = wordsOf(typeof value === 'string' ? value : Array.isArray(value) ? value.join(' ') : String(value ?? ''));
  const joined = ` ${words.join(' ')} `;
  let score = 1;
  let short = false;
  if (a.min_words !== undefined && words.length < a.min_words) {
    short = true;
    score = Math.min(score, words.length / a.min_words);
  }
  const terms = a.must_mention ?? [];
  // a term may name alternatives ("Leuchte|Licht|Lampe"): any one of them mentions it; the feedback names the first
  const missing = terms.filter((t) => !t.split('|').some((alt) => mentions(joined, words, wordsOf(alt)))).map((t) => t.split('|')[0]!.trim());
  if (terms.length > 0) score = Math.min(score, (terms.length - missing.length) / terms.length);
  score = Math.round(score * 100) / 100;
  if (!short && missing.length === 0) return { score: 1, passed: true };
  const also = missing.length === 0 ? '' : missing.length === 1 ? missing[0]! : `${missing.slice(0, -1).join(', ')}${m.list_and}${missing.at(-1)}`;
  const feedback = short && also ? fillMessage(m.more_including, { terms: also })
    : short ? m.more
      : fillMessage(m.also_about, { terms: also });
  return { score, passed: false, feedback };
}

/** A plural ending after a term closing a compound ("flood|light|s", "Flutlicht|leuchte|n"). */
const COMPOUND_TAIL = /^(?:s|es|n|en|e|er)?$/;

/** Whether a term's words are in the answer in order, the last as a word's start, or a one-word term closes a compound ("floodlights" mentions light). */
function mentions(joined: string, words: readonly string[], term: readonly string[]): boolean {
  if (term.length === 0 || joined.includes(` ${term.join(' ')}`)) return true;
  if (term.length !== 1 || term[0]!.length < 4) return false;
  const t = term[0]!;
  return words.some((w) => {
    const at = w.lastIndexOf(t);
    return at >= 3 && COMPOUND_TAIL.test(w.slice(at + t.length));
  });
}

/** A refinement joins the answer so far: text is appended, anything else replaces it. */
export function combineDraft(draft: unknown, value: unknown): unknown {
  if (typeof draft === 'string' && typeof value === 'string' && draft.trim() !== '') {
    const d = draft.trim();
    const v = value.trim();
    if (v === '' || fold(d).includes(fold(v))) return d;
    if (fold(v).includes(fold(d))) return v; // the user restated the whole answer
    return `${d}${/[.!?]$/.test(d) ? '' : '.'} ${v}`;
  }
  return value;
}
