import type * as Phones from 'libphonenumber-js';
import type { CountryCode, Examples } from 'libphonenumber-js';
import { lazyRequire } from '../../shared/lazy-require.ts';
import { findEmails } from './email.ts';
import { fail, mask, ok, theOneFound, type ParseContext, type ParseResult } from './parse-result.ts';
import { packOf } from '../../language/registry.ts';
import { spelledDigits } from './spelled.ts';

/** libphonenumber-js and its example numbers, loaded on the first phone number read (server/shared/lazy-require.ts). */
const phones = lazyRequire<typeof Phones>('libphonenumber-js');
const examples = lazyRequire<Examples>('libphonenumber-js/mobile/examples');

/** A valid phone number found in a message, in E.164, with its span. */
export interface FoundPhone {
  value: string;
  start: number;
  end: number;
}

/** The country for numbers without a country code: the context's, else US (flow-ir.md). */
export function phoneCountry(ctx: ParseContext): CountryCode {
  const c = ctx.defaultCountry.trim().toUpperCase();
  return phones().isSupportedCountry(c) ? c : 'US';
}

/** Every valid phone number in the text, as E.164; digits inside email addresses are ignored. */
export function findPhones(text: string, ctx: ParseContext): FoundPhone[] {
  // No country has a valid number shorter than four digits (libphonenumber's metadata: Niue, Tokelau),
  // so most messages ("about 420 m2" aside) skip the scan, which was a tenth of a turn's CPU.
  if (!hasDigits(text, 4)) return [];
  const plain = mask(text, findEmails(text).map((e) => [e.start, e.end] as const));
  // The digits of a number are one run of digits, punctuation and plus signs (a letter or a comma ends it):
  // without four digits in one such run there is nothing to find ("about 420 m2").
  if (!hasDigitRun(plain, 4)) return [];
  const country = phoneCountry(ctx);
  const key = `${country}\u0000${plain}`;
  let found = recent.get(key);
  if (found === undefined) {
    found = scan(plain, country);
    // A message is scanned for the current question, the other open ones and the skip check: once is enough.
    if (recent.size >= RECENT_MAX) recent.clear();
    recent.set(key, found);
  }
  return found.map((f) => ({ ...f }));
}

/** Recently scanned messages (text and country) → their numbers; a pure function's results, so only a time saver. */
const recent = new Map<string, readonly FoundPhone[]>();
const RECENT_MAX = 64;

/** libphonenumber's scan of text with emails already blanked (what findPhones returns, without its shortcuts). */
export function scanPhones(text: string, ctx: ParseContext): FoundPhone[] {
  const plain = mask(text, findEmails(text).map((e) => [e.start, e.end] as const));
  return scan(plain, phoneCountry(ctx));
}

/** "0049 171 2345678", "0044 7700 900123": the international prefix "00" written as "+ " (same length), wherever the visitor is. */
function internationalZeros(text: string): string {
  // only where a number starts: not after other digits of the same number ("020 7946 0018")
  return text.replace(/(?<![\d+][\s.\-/()]*)(?<![\d+])00(?=[\s.-]?[1-9])/gu, '+ ');
}

function scan(typed: string, country: CountryCode): FoundPhone[] {
  // most countries dial abroad with "00", the US and Canada with "011": a number typed with "00" is international everywhere
  const plain = internationalZeros(typed);
  // libphonenumber's default leniency already keeps only valid numbers; isValid() is the belt to that brace.
  const found = phones().findPhoneNumbersInText(plain, { defaultCountry: country })
    .filter((f) => f.number.isValid() && !localOnly(plain.slice(f.startsAt, f.endsAt), f.number.nationalNumber, country))
    .map((f) => ({ value: f.number.number, start: f.startsAt, end: f.endsAt }));
  // a number in a range set aside for fiction (below) is read as a number too, as the US 555-01xx ones are
  if (!FICTION_GATE.test(plain.replace(/\D/g, ''))) return found;
  const fiction = phones().findPhoneNumbersInText(plain, { defaultCountry: country, leniency: 'POSSIBLE' } as Parameters<typeof Phones.findPhoneNumbersInText>[1])
    .filter((f) => !f.number.isValid() && fictional(f.number.number) && !found.some((v) => f.startsAt < v.end && v.start < f.endsAt))
    .map((f) => ({ value: f.number.number, start: f.startsAt, end: f.endsAt }));
  return [...found, ...fiction].sort((a, b) => a.start - b.start);
}

/*
 * Numbers set aside for drama and examples, which libphonenumber calls invalid although they have the
 * right length: Ofcom's UK ranges 07700 900000–900999 (mobile) and 01632 960000–960999 (the US 555-0100–0199
 * ones are valid to libphonenumber already). Visitors trying a demo and people writing test replies type
 * them; a careful person records them as given.
 */
const FICTION = [/^\+447700900\d{3}$/, /^\+441632960\d{3}$/];
const FICTION_GATE = /7700900|1632960/;

/** Whether an E.164 number is in a range set aside for fiction (see FICTION). */
function fictional(e164: string): boolean {
  return FICTION.some((re) => re.test(e164));
}

/** National numbers shorter than this, typed without the trunk prefix, are taken for a number without its area code. */
const SHORT_NATIONAL = 8;

/**
 * Whether a number typed without a country code is too short to be complete where national numbers are written
 * with a leading 0: "12345" in Germany is a postcode or a number without its area code (libphonenumber calls
 * +49 12345 valid), "030 1234567" and "151 23456789" are numbers.
 */
function localOnly(typed: string, national: string, country: CountryCode): boolean {
  const digits = typed.replace(/[^\d+]/g, '');
  if (digits.startsWith('+') || digits.startsWith('00')) return false;
  // where the country's own example number is written with a leading 0 (DE "01512 3456789", GB "07400 123456")
  return !digits.startsWith('0') && national.length < SHORT_NATIONAL && exampleNumber(country)?.startsWith('0') === true;
}

/** Parses a phone answer: the one valid number in the message, normalised to E.164. */
export function parsePhone(text: string, ctx: ParseContext): ParseResult {
  const found = findPhones(text, ctx);
  // "nine one seven five five five zero one two three": digits said in words, read as the digits they say
  const spoken = found.length === 0 ? packOf(ctx.locale).spoken : undefined;
  const spelled = spoken ? spelledDigits(text, spoken) : null;
  if (spelled) {
    const said = findPhones(spelled.value, ctx);
    if (said.length === 1) return ok(said[0]!.value, text.slice(spelled.start, spelled.end), false);
  }
  const parsed = found.length === 0 && text.replace(/\D/g, '').length >= 4 ? phones().parsePhoneNumberFromString(text, phoneCountry(ctx)) : undefined;
  // a number of the right length that is no number of its country is not short of an area code: say so
  const partial = parsed && !parsed.isPossible();
  const wrong = parsed && parsed.isPossible();
  const example = exampleNumber(phoneCountry(ctx));
  return theOneFound(text, found, {
    none: wrong
      ? `That number doesn't look right — could you check the digits?${example ? ` (For example ${example}.)` : ''}`
      : partial
      ? `That phone number doesn't look complete — please include the area code, or the country code if it's outside the country${example ? ` (for example ${example})` : ''}.`
      : `That doesn't look like a phone number${example ? ` — for example ${example}` : ''}.`,
    many: 'I found more than one phone number — which one should I use?',
  });
}

const exampleCache = new Map<CountryCode, string | null>();

/** A mobile number as written in the country (libphonenumber's example, e.g. GB "07400 123456"), for re-asks. */
export function exampleNumber(country: CountryCode): string | null {
  let e = exampleCache.get(country);
  if (e === undefined) {
    e = phones().getExampleNumber(country, examples())?.formatNational() ?? null;
    exampleCache.set(country, e);
  }
  return e;
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

/**
 * Whether some run of `text` that libphonenumber could read as one number
 * holds at least `n` decimal digits. Its matcher takes digits (\p{Nd}), its
 * punctuation (dashes, slashes, dots, spaces, brackets, tildes; ASCII: `-/. ()[]~`)
 * and plus signs; an extension comes after the number and adds nothing to it.
 * Erring on the side of scanning, only ASCII characters outside that set end
 * a run here (and ASCII control whitespace does not).
 */
export function hasDigitRun(text: string, n: number): boolean {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) {
      if (++count >= n) return true;
    } else if (c < 0x80) {
      if (!RUN_ASCII[c]) count = 0;
    } else {
      // a digit of another script counts; any other non-ASCII character keeps the run going
      const cp = text.codePointAt(i)!;
      if (cp > 0xffff) i++;
      if (ND.test(String.fromCodePoint(cp)) && ++count >= n) return true;
    }
  }
  return false;
}

/** ASCII characters that do not end a run: libphonenumber's punctuation and plus sign, and control whitespace. */
const RUN_ASCII: readonly boolean[] = Array.from({ length: 0x80 }, (_, c) => ' -/.()[]~+\t\n\r\v\f'.includes(String.fromCharCode(c)));
const ND = /^\p{Nd}$/u;
