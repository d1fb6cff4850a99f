import { findPhoneNumbersInText, isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { findEmails } from './email.ts';
import { fail, hasWordsOutside, mask, ok, type ParseContext, type ParseResult } from './parse-result.ts';

/** A valid phone number found in a message, in E.164, with its span. */
export interface FoundPhone {
  value: string;
  start: number;
  end: number;
}

/** The country for numbers without a country code: the context's, else US (flow-ir.md). */
export function phoneCountry(ctx: ParseContext): CountryCode {
  const c = ctx.defaultCountry.trim().toUpperCase();
  return isSupportedCountry(c) ? c : 'US';
}

/** Every valid phone number in the text, as E.164; digits inside email addresses are ignored. */
export function findPhones(text: string, ctx: ParseContext): FoundPhone[] {
  const plain = mask(text, findEmails(text).map((e) => [e.start, e.end] as const));
  // libphonenumber's default leniency already keeps only valid numbers; isValid() is the belt to that brace.
  return findPhoneNumbersInText(plain, { defaultCountry: phoneCountry(ctx) })
    .filter((f) => f.number.isValid())
    .map((f) => ({ value: f.number.number, start: f.startsAt, end: f.endsAt }));
}

/** Parses a phone answer: the one valid number in the message, normalised to E.164. */
export function parsePhone(text: string, ctx: ParseContext): ParseResult {
  const found = findPhones(text, ctx);
  if (found.length === 0) {
    const digits = text.replace(/\D/g, '');
    const partial = digits.length >= 4 && parsePhoneNumberFromString(text, phoneCountry(ctx));
    return fail(partial
      ? "That phone number doesn't look complete — please include the area code, or the country code if it's outside the country."
      : "That doesn't look like a phone number.");
  }
  if (new Set(found.map((f) => f.value)).size > 1) return fail('I found more than one phone number — which one should I use?');
  const first = found[0]!;
  return ok(first.value, text.slice(first.start, first.end), !hasWordsOutside(text, found.map((f) => [f.start, f.end] as const)));
}

/** Normalises a structured phone proposal ("+1 (415) 555-0123", 4155550123) to E.164. */
export function coercePhone(value: unknown, ctx: ParseContext): ParseResult {
  if (typeof value !== 'string' && !(typeof value === 'number' && Number.isSafeInteger(value))) {
    return fail("That doesn't look like a phone number.");
  }
  const r = parsePhone(String(value), ctx);
  return r.ok ? { ...r, exact: true } : r;
}
