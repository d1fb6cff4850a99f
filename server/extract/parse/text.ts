import { RE2JS } from 're2js';
import type { AnswerSpec } from '../../flow/answer-types.ts';
import { fail, ok, type ParseResult } from './parse-result.ts';

type TextSpec = Extract<AnswerSpec, { type: 'text' }>;

// Flows reuse a handful of patterns across many turns; compiling once each is
// cheap to keep. Bounded so a stream of distinct patterns cannot grow it forever.
const compiled = new Map<string, RE2JS | null>();
const MAX_COMPILED = 256;

function compile(pattern: string): RE2JS | null {
  if (compiled.has(pattern)) return compiled.get(pattern)!;
  let re: RE2JS | null;
  try {
    re = RE2JS.compile(pattern);
  } catch {
    re = null;
  }
  if (compiled.size >= MAX_COMPILED) compiled.clear();
  compiled.set(pattern, re);
  return re;
}

/**
 * Filler around a short answer, trimmed by these rules only (the raw reply
 * stays in the answer's provenance): a short answer is a `kind: name` answer
 * or one whose `max` is at most SHORT_MAX characters; free text (no max, or a
 * longer one) is kept exactly as typed. Leading: hesitations ("um", "well,",
 * "ok so") and "it's" / "it is" / "that's" / "that is". Trailing: "like I
 * said", "as I said", "as I mentioned", "I think", "I believe", "I guess",
 * "thanks", "thank you", "please", with the punctuation before them. The
 * middle of an answer is never touched.
 */
export const SHORT_MAX = 200;
const LEADING = /^(?:(?:um+|uh+|erm?|hmm+|well|so|ok|okay|oh)\b[,.!]?\s+)*(?:(?:it|that)(?:'s|’s|\s+is)\s+)?/iu;
const TRAILING = /(?:[\s,;.!—–-]*\b(?:like i said|like i told you|as i said|as i mentioned|as mentioned|i think|i believe|i guess|thanks|thank you|thx|please))+[\s.!]*$/iu;

/** A short answer without the filler around it ("Blue Cross, like I said" → "Blue Cross"); other answers as typed. */
export function withoutFiller(spec: TextSpec, text: string): string {
  const value = text.trim();
  if (spec.kind !== 'name' && !(spec.max !== undefined && spec.max <= SHORT_MAX)) return value;
  const trimmed = value.replace(TRAILING, '').replace(LEADING, '').trim();
  // filler alone ("thanks") is not emptied away: the length check then speaks for itself
  return /[\p{L}\p{N}]/u.test(trimmed) ? trimmed : value;
}

/** A text answer is the whole trimmed message (short answers without filler), checked against min/max length and the RE2 pattern. */
export function parseText(spec: TextSpec, text: string): ParseResult {
  const value = withoutFiller(spec, text);
  if (value === '') return fail('Please type an answer.');
  if (spec.min !== undefined && value.length < spec.min) {
    return fail(`Please write at least ${spec.min} character${spec.min === 1 ? '' : 's'}.`);
  }
  if (spec.max !== undefined && value.length > spec.max) {
    return fail(`Please keep it to ${spec.max} character${spec.max === 1 ? '' : 's'} or fewer.`);
  }
  if (spec.pattern !== undefined) {
    const re = compile(spec.pattern);
    // The compiler rejects bad patterns, so this only happens with an
    // uncompiled flow; refusing is safer than committing unchecked text.
    if (re === null) return fail("I can't check answers to this question right now.");
    if (!re.matches(value)) return fail("That doesn't match the expected format.");
  }
  return ok(value, value, true);
}

/** Normalises a structured text proposal: strings are trimmed, numbers and booleans become their text. */
export function coerceText(spec: TextSpec, value: unknown): ParseResult {
  if (typeof value === 'string') return parseText(spec, value);
  if (typeof value === 'number' && Number.isFinite(value)) return parseText(spec, String(value));
  if (typeof value === 'boolean') return parseText(spec, value ? 'yes' : 'no');
  return fail('Please type an answer.');
}
