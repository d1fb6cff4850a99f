import type { AnswerSpec } from '../../flow/answer-types.ts';
import { findCurrencies, isCurrencyCode } from './money.ts';
import type { ParseResult } from './parse-result.ts';

/*
 * A BARE AMOUNT FAR BELOW THE QUESTION'S OWN SCALE (docs/understanding.md, "Numbers and money"). At a money question
 * whose prompt states amounts of a thousand or more ("packages start at about $12,000", "ab etwa 12.000 $") or whose
 * `min` is one, a figure typed without a multiplier ("50", "ok say 30", "50-ish") is never committed as it stands:
 *  - under a hundredth of the smallest such figure, it is read in thousands and checked ("Just to check: 50000 USD?");
 *  - under a tenth of it, it is checked as typed.
 * The scale comes from the question (its prompt's figures and its `min`), never from its key; a question without
 * such figures reads "50" as 50 as before, and a figure typed with its currency ("$100") is left to the question's own
 * checks (its `min`, its `validate` rules).
 */

type NumberSpec = Extract<AnswerSpec, { type: 'number' | 'integer' }>;

// figures of a thousand or more in a prompt: "$12,000", "12.000 $", "12 000", "12000", "12k"
const FIGURE = /(?<![\p{L}\p{N}.,])(\d{1,3}(?:[,. \u00a0\u202f]\d{3})+|\d{4,})(?![\p{N}])|(?<![\p{L}\p{N}.,])(\d+(?:[.,]\d+)?)\s?(k|thousand|tsd\.?|tausend)(?![\p{L}])/giu;
// a multiplier said with the digits: the visitor gave the scale
const SCALED = /(?:\d\s*(?:k|m|mn|bn|thousand|grand|million|millions|tsd|tausend|riesen|mio|millionen|mille|mil)(?![\p{L}]))|\d{4,}|\d[.,\s]\d{3}/iu;

/** The smallest figure of a thousand or more the question states (prompt or `min`); null when it states none. */
export function questionScale(spec: NumberSpec, prompt: string | undefined): number | null {
  const figures: number[] = [];
  if (spec.min !== undefined && spec.min >= 1000) figures.push(spec.min);
  for (const m of (prompt ?? '').matchAll(FIGURE)) {
    const n = m[1] !== undefined ? Number(m[1].replace(/[,. \u00a0\u202f]/gu, '')) : Number(m[2]!.replace(',', '.')) * 1000;
    if (n >= 1000) figures.push(n);
  }
  return figures.length === 0 ? null : Math.min(...figures);
}

/**
 * The reading of a bare amount against the question's scale: a figure far below it in thousands (checked), one
 * below it as typed (checked); null when the rule does not apply (not money, no scale, a multiplier typed).
 * `unbounded` reads the reply without the question's min and max (a "50" refused as below the min is still scaled).
 */
export function scaleAmount(spec: AnswerSpec, prompt: string | undefined, reading: ParseResult, unbounded: () => ParseResult): ParseResult | null {
  if (spec.type !== 'integer' && spec.type !== 'number') return null;
  if (spec.currency === undefined && !isCurrencyCode(spec.unit)) return null;
  const scale = questionScale(spec, prompt);
  if (scale === null) return null;
  const read = reading.ok ? reading : unbounded();
  if (!read.ok || typeof read.value !== 'number' || read.value <= 0 || SCALED.test(read.evidence)) return null;
  // "$100", "100 dollars": the visitor said the amount with its currency; the question's own checks (min, validate) judge it
  if (findCurrencies(read.evidence).length > 0) return null;
  const value = read.value;
  if (value * 10 >= scale) return null;
  const scaled = value * 100 <= scale ? value * 1000 : value;
  if ((spec.min !== undefined && scaled < spec.min) || (spec.max !== undefined && scaled > spec.max)) return reading.ok ? { ...reading, check: true } : null;
  return { ok: true, value: scaled, evidence: read.evidence, exact: false, check: true };
}
