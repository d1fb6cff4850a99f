import type { AnswerSpec } from '../../flow/answer-types.ts';
import { coerceBoolean, parseBoolean } from './boolean.ts';
import { coerceDate, parseDate } from './date.ts';
import { coerceEmail, parseEmail } from './email.ts';
import { coerceEnum, parseEnum } from './enum.ts';
import { coerceNumber, parseNumber } from './number.ts';
import { findEmails } from './email.ts';
import { correctedTail } from './correction.ts';
import { clarify, fail, mask, MAX_TYPED_CHARS, ok, scrub, TOO_LONG, type ParseContext, type ParseResult } from './parse-result.ts';
import { readDays } from './days-since.ts';
import { findPhones } from './phone.ts';
import { findUrls } from './url.ts';
import { coercePhone, parsePhone } from './phone.ts';
import { coerceText, parseText } from './text.ts';
import { packOf } from '../../language/registry.ts';
import { say } from '../../language/parser-messages.ts';
import { coerceUrl, parseUrl } from './url.ts';

export type { ParseContext, ParseResult } from './parse-result.ts';
export { findEmails, type FoundEmail } from './email.ts';
export { findPhones, type FoundPhone } from './phone.ts';
export { findUrls, type FoundUrl } from './url.ts';
export { findNumbers, type FoundNumber } from './number.ts';
export { narrowDate } from './date.ts';
export { optionPhrases, findOptionHits, negated } from './enum.ts';
export { fold, foldPhrase, findPhrase, originalSlice, type Folded } from './fold.ts';
export { charBits, findHits, longestHits, longestOwners, mayOccur, onlyFillerOutside, phraseSet, type PhraseCandidate, type PhraseHit, type PhraseSet } from './phrase-match.ts';
export { MAX_TYPED_CHARS, mask, scrub } from './parse-result.ts';

/**
 * Reads an answer of the given type from a free-text message and normalises
 * it (flow-ir.md "Committed values are normalised"). Never throws; a failure
 * carries a short reason the bot can say when it re-asks.
 */
export function parseAnswer(spec: AnswerSpec, text: string, ctx: ParseContext): ParseResult {
  const pack = packOf(ctx.locale);
  if (typeof text !== 'string') return fail(say(pack, 'typeAnswer'));
  // Text answers are the message itself, "nothing else is normalised".
  if (spec.type === 'text') return parseText(spec, text, pack);
  if (text.trim() === '') return fail(say(pack, 'typeAnswer'));
  if (text.length > MAX_TYPED_CHARS) return fail(TOO_LONG);
  const clean = scrub(text);
  // "3 courts — sorry, 4": the correction is the answer when it is one by itself
  const tail = spec.type === 'email' || spec.type === 'url' || spec.type === 'phone' ? null : correctedTail(clean, pack);
  if (tail !== null) {
    // "June 9th 2010, wait no, June 19th": a date of birth corrected without its year is read first without asking for one
    const corrected = parseClean(spec.type === 'date' ? { ...spec, birth: false } : spec, tail, ctx);
    const read = corrected.ok && spec.type === 'date' ? withYearBefore(spec, clean, tail, corrected, ctx) : corrected;
    // no year before the correction either: a date of birth asks for it
    if (read.ok) return read === corrected && spec.type === 'date' && spec.birth && !YEAR.test(tail) ? parseClean(spec, tail, ctx) : { ...read, exact: false };
  }
  return parseClean(spec, clean, ctx);
}

const YEAR = /(?<![\p{N}])(?:1[89]\d\d|2\d\d\d)(?![\p{N}])/u;

/**
 * "June 9th 2010, wait no, June 19th": a date corrected without a year keeps the year said before the correction
 * (read again with it, so the question's bounds still apply); the corrected reading as it was when that fails.
 */
function withYearBefore<R extends ParseResult & { ok: true }>(spec: Extract<AnswerSpec, { type: 'date' }>, clean: string, tail: string, corrected: R, ctx: ParseContext): R | (ParseResult & { ok: true }) {
  if (YEAR.test(tail)) return corrected;
  const year = YEAR.exec(clean.slice(0, clean.lastIndexOf(tail)))?.[0];
  if (!year) return corrected;
  const again = parseClean(spec, `${tail.replace(/[\s,.;:!]+$/u, '')} ${year}`, ctx);
  return again.ok && String(again.value).slice(0, 4) === year ? { ...again, evidence: corrected.evidence } : corrected;
}

/** parseAnswer for a non-text type on scrubbed text. */
function parseClean(spec: Exclude<AnswerSpec, { type: 'text' }>, clean: string, ctx: ParseContext): ParseResult {
  switch (spec.type) {
    case 'number':
    case 'integer': {
      const number = parseNumber(spec, withoutContacts(clean, ctx), packOf(ctx.locale));
      // "since Monday", "a week" at a question counted in days (days-since.ts)
      const days = readDays(spec, clean, ctx, packOf(ctx.locale), (s, t) => parseAnswer(s, t, ctx));
      // "since 1/20" on 15 January: a start ahead of today is asked about, never a figure inside it
      if (days?.future) return clarify(say(packOf(ctx.locale), 'dateFuture'));
      // a number read inside the start date ("since jan 2": the 2 is the day, not the count) gives way to the days since it
      if (number.ok && !(days && days.evidence.length > number.evidence.length && days.evidence.includes(number.evidence))) return number;
      return days ? { ...ok(days.value, days.evidence, false), ...(days.check ? { check: true as const } : {}) } : number;
    }
    case 'boolean':
      return parseBoolean(spec, clean, packOf(ctx.locale));
    case 'enum':
      return parseEnum(spec, clean, packOf(ctx.locale), ctx.now);
    case 'email':
      return parseEmail(clean, packOf(ctx.locale));
    case 'phone':
      return parsePhone(clean, ctx);
    case 'url':
      return parseUrl(clean);
    case 'date':
      return parseDate(spec, clean, ctx);
  }
}

/**
 * Blanks email addresses, web addresses and formatted phone numbers, whose
 * digits are not the number asked for ("5k, call 415-555-0123"). A bare run
 * of digits is left alone: in some countries 20000000 is a valid phone number.
 */
function withoutContacts(text: string, ctx: ParseContext): string {
  const spans = [
    ...findEmails(text),
    ...findUrls(text).filter((u) => u.distinctive),
    // "1.200" is a short number in some countries' plans, but a count here: a phone has at least 7 digits
    ...findPhones(text, ctx).filter((p) => /\D/.test(text.slice(p.start, p.end)) && (text.slice(p.start, p.end).match(/\d/g)?.length ?? 0) >= 7),
  ].map((f) => [f.start, f.end] as const);
  return spans.length === 0 ? text : mask(text, spans);
}

/**
 * Normalises a structured value proposed by an LLM into the committed form of
 * the type: "25k" → 25000, "+1 (415) 555-0123" → "+14155550123", "next
 * tuesday" → an ISO date, an enum label → its value, "yes" → true. A value
 * already in normal form passes through unchanged.
 */
export function coerceValue(spec: AnswerSpec, value: unknown, ctx: ParseContext): ParseResult {
  const pack = packOf(ctx.locale);
  if (typeof value === 'string' && spec.type !== 'text') {
    if (value.trim() === '') return fail(say(pack, 'typeAnswer'));
    if (value.length > MAX_TYPED_CHARS) return fail(TOO_LONG);
    value = scrub(value);
  }
  switch (spec.type) {
    case 'text':
      return coerceText(spec, value);
    case 'number':
    case 'integer':
      return coerceNumber(spec, value, pack);
    case 'boolean':
      return coerceBoolean(spec, value, pack);
    case 'enum':
      return coerceEnum(spec, value, pack);
    case 'email':
      return coerceEmail(value);
    case 'phone':
      return coercePhone(value, ctx);
    case 'url':
      return coerceUrl(value);
    case 'date':
      return coerceDate(spec, value, ctx);
  }
}
