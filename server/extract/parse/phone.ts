import { findPhoneNumbersInText, isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { findEmails } from './email.ts';
import { fail, mask, theOneFound, type ParseContext, type ParseResult } from './parse-result.ts';

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
  // No country has a valid number shorter than four digits (libphonenumber's metadata: Niue, Tokelau),
  // so most messages ("about 420 m2" aside) skip the scan, which was a tenth of a turn's CPU.
  if (!hasDigits(text, 4)) return [];
  const plain = mask(text, findEmails(text).map((e) => [e.start, e.end] as const));
  // libphonenumber's default leniency already keeps only valid numbers; isValid() is the belt to that brace.
  return findPhoneNumbersInText(plain, { defaultCountry: phoneCountry(ctx) })
    .filter((f) => f.number.isValid())
    .map((f) => ({ value: f.number.number, start: f.startsAt, end: f.endsAt }));
}

/** Parses a phone answer: the one valid number in the message, normalised to E.164. */
export function parsePhone(text: string, ctx: ParseContext): ParseResult {
  const found = findPhones(text, ctx);
  const partial = found.length === 0 && text.replace(/\D/g, '').length >= 4 && parsePhoneNumberFromString(text, phoneCountry(ctx));
  return theOneFound(text, found, {
    none: partial
      ? "That phone number doesn't look complete — please include the area code, or the country code if it's outside the country."
      : "That doesn't look like a phone number.",
    many: 'I found more than one phone number — which one should I use?',
  });
}

/** Normalises a structured phone proposal ("+1 (415) 555-0123", 4155550123) to E.164. */
export function coercePhone(value: unknown, ctx: ParseContext): ParseResult {
  if (typeof value !== 'string' && !(typeof value === 'number' && Number.isSafeInteger(value))) {
    return fail("That doesn't look like a phone number.");
  }
  const r = parsePhone(String(value), ctx);
  return r.ok ? { ...r, exact: true } : r;
}

const DIGIT = /\p{Nd}/gu;

/** Whether `text` holds at least `n` decimal digits (any script: libphonenumber reads them all). */
function hasDigits(text: string, n: number): boolean {
  DIGIT.lastIndex = 0;
  let count = 0;
  while (DIGIT.exec(text)) if (++count >= n) return true;
  return false;
}
