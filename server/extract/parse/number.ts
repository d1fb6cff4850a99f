import type { AnswerSpec } from '../../flow/answer-types.ts';
import { findWordNumbers } from './number-words.ts';
import { fail, hasWordsOutside, ok, type ParseResult } from './parse-result.ts';

type NumberSpec = Extract<AnswerSpec, { type: 'number' | 'integer' }>;

/** A number found in a message, with its span (currency sign and multiplier included). */
export interface FoundNumber {
  value: number;
  start: number;
  end: number;
}

// Digits with optional sign, currency and a multiplier. Letters or digits right
// before the number mean it is part of a word ("m2", "covid19"); single-letter
// multipliers must be attached ("2m") so "420 m" reads as a unit, word
// multipliers may follow a space ("2 million").
const DIGITS = new RegExp(
  String.raw`(?<![\p{L}\p{N}.,])([-−]?)(?:([$€£¥₹])\s?)?` +
    String.raw`(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)` +
    String.raw`(?:(k|m|b|bn|mn|mln|mil)(?![\p{L}\p{N}²³])|\s?(thousand|grand|million|millions|billion|billions)(?![\p{L}]))?`,
  'giu',
);

const ASCII_DIGIT = /[0-9]/;

const EXPONENT: Record<string, number> = {
  k: 3, thousand: 3, grand: 3, m: 6, mn: 6, mln: 6, mil: 6, million: 6, millions: 6, b: 9, bn: 9, billion: 9, billions: 9,
};

/** Every number in the text, written in digits ("25,000", "$1.5k", "2 million") or words ("twenty five"). */
export function findNumbers(text: string, unit?: string): FoundNumber[] {
  const found: FoundNumber[] = [];
  // every match has an ASCII digit (\d under the u flag)
  if (ASCII_DIGIT.test(text)) for (const m of text.matchAll(DIGITS)) {
    const [, sign = '', , digits = '', short, long] = m;
    let suffix = (short ?? long ?? '').toLowerCase();
    let end = m.index + m[0].length;
    // With a unit such as "m" or "kg", "420m" is 420 metres, not 420 million.
    if (short && unit && unit.trim().toLowerCase().startsWith(suffix)) {
      suffix = '';
      end -= short.length;
    }
    const exponent = EXPONENT[suffix] ?? 0;
    // Scaling through the exponent keeps "2.3m" exactly 2300000 (2.3 * 1e6 is not).
    const value = Number(`${sign ? '-' : ''}${digits.replace(/,/g, '')}e${exponent}`);
    found.push({ value, start: m.index, end });
  }
  for (const w of findWordNumbers(text)) {
    if (found.some((d) => w.start < d.end && d.start < w.end)) continue;
    found.push(w);
  }
  return found.sort((a, b) => a.start - b.start);
}

/** Parses a number or integer answer from free text, applying min/max. */
export function parseNumber(spec: NumberSpec, text: string): ParseResult {
  const found = findNumbers(text, spec.unit);
  if (found.length === 0) return fail(spec.type === 'integer' ? "That doesn't look like a whole number." : "That doesn't look like a number.");
  const distinct = [...new Set(found.map((f) => f.value))];
  if (distinct.length > 1) return fail('I found more than one number there — please give just one.');
  const first = found[0]!;
  const spans = found.map((f) => [f.start, f.end] as const);
  const exact = !hasWordsOutside(withoutUnit(text, spec.unit), spans);
  return checkNumber(spec, first.value, text.slice(first.start, first.end), exact);
}

/** Normalises a structured number proposal: a JSON number passes, "25k" or "25,000" is parsed. */
export function coerceNumber(spec: NumberSpec, value: unknown): ParseResult {
  if (typeof value === 'number') return checkNumber(spec, value, String(value), true);
  if (typeof value === 'string') {
    const r = parseNumber(spec, value);
    return r.ok ? { ...r, exact: true } : r;
  }
  return fail("That doesn't look like a number.");
}

function checkNumber(spec: NumberSpec, value: number, evidence: string, exact: boolean): ParseResult {
  if (Number.isNaN(value)) return fail("That doesn't look like a number.");
  if (!Number.isFinite(value)) return fail('That number is too large.');
  if (spec.type === 'integer' && !Number.isInteger(value)) return fail('Please give a whole number.');
  const unit = spec.unit ? ` ${spec.unit}` : '';
  const { min, max } = spec;
  if ((min !== undefined && value < min) || (max !== undefined && value > max)) {
    if (min !== undefined && max !== undefined) return fail(`Please give a number between ${min} and ${max}${unit}.`);
    if (min !== undefined) return fail(`Please give a number of at least ${min}${unit}.`);
    return fail(`Please give a number no more than ${max}${unit}.`);
  }
  return ok(value === 0 ? 0 : value, evidence, exact);
}

/** Blanks the spec's unit ("m²" also as "m2") so "420 m²" still counts as just the answer. */
function withoutUnit(text: string, unit: string | undefined): string {
  const u = unit?.trim().normalize('NFKC').toLowerCase();
  if (!u) return text;
  const plain = text.normalize('NFKC');
  const lower = plain.toLowerCase();
  // Folding may change lengths ("²" → "2" keeps it, "ﬀ" does not); only blank when indices still line up.
  if (lower.length !== text.length) return text;
  let out = text;
  for (let at = lower.indexOf(u); at !== -1; at = lower.indexOf(u, at + 1)) {
    out = out.slice(0, at) + ' '.repeat(u.length) + out.slice(at + u.length);
  }
  return out;
}
