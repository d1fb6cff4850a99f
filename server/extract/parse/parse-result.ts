import type { Conversion } from '../../engine/session.ts';

export type { Conversion } from '../../engine/session.ts';
/** What every parser needs besides the text: the session clock and the phone default country. */
export interface ParseContext {
  /** The session clock, ISO 8601 datetime with offset; relative dates resolve against it. */
  now: string;
  /** ISO 3166 alpha-2 country for phone numbers written without a country code, e.g. 'US'. */
  defaultCountry: string;
  /** The visitor's language ('de', 'fr', 'es'; absent = English): number words and formats, dates, yes/no, negation, the clarifications. */
  locale?: string;
}


/** A parsed, normalised value with where it came from, or a short user-facing reason. */
export type ParseResult =
  | { ok: true; value: unknown; evidence: string; exact: boolean; conversion?: Conversion; check?: true; described?: readonly string[] }
  | { ok: false; reason: string; specific?: true };

/** A successful parse result. */
export function ok(value: unknown, evidence: string, exact: boolean, conversion?: Conversion): ParseResult {
  return conversion ? { ok: true, value, evidence, exact, conversion } : { ok: true, value, evidence, exact };
}

/**
 * A failed parse whose reason is a specific clarification about what was typed (another currency, a
 * negated number, two candidates): the engine says it even where the flow has a generic `invalid_prompt`.
 */
export function clarify(reason: string): ParseResult {
  return { ok: false, reason, specific: true };
}

/** A failed parse result with a reason the bot can say. */
export function fail(reason: string): ParseResult {
  return { ok: false, reason };
}

/**
 * Typed answers are short; past this length a message is not an answer but a
 * paste, and scanning it would only cost time (the typed finders are linear,
 * chrono and libphonenumber are not promised to be).
 */
export const MAX_TYPED_CHARS = 2000;

/** The reason given when a message is too long to hold a typed answer. */
export const TOO_LONG = 'That message is too long for me to find the answer in — please reply with just the answer.';

// Control, zero-width and bidi-override characters: they hide inside answers
// pasted from elsewhere and would split words or numbers for the matchers.
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/** Replaces invisible and control characters with spaces, one for one, so indices still point into the original. */
export function scrub(text: string): string {
  return text.replace(INVISIBLE, ' ');
}

/** Whether `text` has a letter or digit outside the span [start, end) — i.e. the span was not the whole message. */
export function hasWordsOutside(text: string, spans: ReadonlyArray<readonly [number, number]>): boolean {
  let rest = '';
  let at = 0;
  for (const [s, e] of [...spans].sort((a, b) => a[0] - b[0])) {
    if (s > at) rest += text.slice(at, s);
    at = Math.max(at, e);
  }
  rest += text.slice(at);
  return /[\p{L}\p{N}]/u.test(rest);
}

/** Blanks the given spans with spaces (same length), so later finders do not see them again. */
export function mask(text: string, spans: ReadonlyArray<readonly [number, number]>): string {
  let out = text;
  for (const [s, e] of spans) out = out.slice(0, s) + ' '.repeat(e - s) + out.slice(e);
  return out;
}

/**
 * The answer a message gives when an answer type is found in free text (an
 * email, a URL, a phone number): exactly one distinct value, exact when
 * nothing but that value was typed.
 */
export function theOneFound(
  text: string,
  found: ReadonlyArray<{ value: string; start: number; end: number }>,
  reasons: { none: string; many: string },
): ParseResult {
  if (found.length === 0) return fail(reasons.none);
  if (new Set(found.map((f) => f.value)).size > 1) return fail(reasons.many);
  const first = found[0]!;
  return ok(first.value, text.slice(first.start, first.end), !hasWordsOutside(text, found.map((f) => [f.start, f.end] as const)));
}
