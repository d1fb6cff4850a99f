import type * as Phones from 'libphonenumber-js';
import type { CountryCode, Examples } from 'libphonenumber-js';
import { lazyRequire } from '../../shared/lazy-require.ts';
import { findEmails } from './email.ts';
import { fail, mask, ok, theOneFound, type ParseContext, type ParseResult } from './parse-result.ts';
import { packOf } from '../../language/registry.ts';
import { say } from '../../language/parser-messages.ts';
import type { LanguagePack } from '../../language/pack.ts';
import { spelledDigits } from './spelled.ts';

/** libphonenumber-js and its example numbers, loaded on the first phone number read (server/shared/lazy-require.ts). */
const phones = lazyRequire<typeof Phones>('libphonenumber-js');
const examples = lazyRequire<Examples>('libphonenumber-js/mobile/examples');
/** The full metadata (number types and exact ranges), loaded only to tell a neighbour country's number from the session's own. */
const phonesMax = lazyRequire<typeof Phones>('libphonenumber-js/max');

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
  // "617 555 0102, 617 555 0190": a comma or semicolon and a space between digits lists two numbers (libphonenumber reads
  // the digits after a comma as an extension, a dialling pause); an extension typed in a chat says so ("ext 12", "x12")
  const plain = internationalZeros(typed).replace(/(?<=\d[)]?)\s?[,;](?=\s+[+(]?\d)/gu, (m) => m.replace(/[,;]/u, '|'));
  // libphonenumber's default leniency already keeps only valid numbers; isValid() is the belt to that brace.
  const found = phones().findPhoneNumbersInText(plain, { defaultCountry: country })
    .filter((f) => f.number.isValid() && exactlyValid(f.number.number) && !localOnly(plain.slice(f.startsAt, f.endsAt), f.number.nationalNumber, country))
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

/** Whether libphonenumber's full metadata (each number type's exact ranges and lengths) takes the E.164 number too. */
function exactlyValid(e164: string): boolean {
  return phonesMax().parsePhoneNumberFromString(e164)?.isValid() === true;
}

/**
 * Whether the one number typed, which is no number of any kind in libphonenumber's full metadata (each kind's exact
 * ranges and lengths), is too short or too long for what it starts like: "0162 12345" in Germany is a mobile number two
 * digits short (though a length German numbers have), "07911 12345" in the UK one digit short. Tried by adding or taking off up to eight digits at the end; null when neither makes
 * a valid number (the digits are wrong, not the length), or there is no such number.
 */
function inexactLength(text: string, ctx: ParseContext): 'short' | 'long' | null {
  const country = phoneCountry(ctx);
  const plain = internationalZeros(mask(text, findEmails(text).map((e) => [e.start, e.end] as const)));
  // the one run of digits typed as a number (digits, spaces, dashes, dots, slashes, brackets, a leading plus)
  const runs = [...plain.matchAll(/\+?\(?\d[\d\s().\/-]*\d/gu)].filter((m) => m[0].replace(/\D/g, '').length >= 4);
  if (runs.length !== 1) return null;
  const e164 = phonesMax().parsePhoneNumberFromString(runs[0]![0], country)?.number;
  if (e164 === undefined || exactlyValid(e164)) return null;
  for (let k = 1; k <= 8; k++) {
    if (['0', '5', '9'].some((d) => exactlyValid(e164 + d.repeat(k)))) return 'short';
    if (e164.length - k > 4 && exactlyValid(e164.slice(0, -k))) return 'long';
  }
  return null;
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
  const pack = packOf(ctx.locale);
  // "Schweizer Handy: 079 123 45 67", "Austrian number 0664 1234567": a country named beside the number is its country
  const named = countryNamed(text, pack);
  if (named !== null && named !== phoneCountry(ctx)) {
    const there = findPhones(text, { ...ctx, defaultCountry: named });
    if (there.length === 1) return ok(there[0]!.value, text.slice(there[0]!.start, there[0]!.end), true);
  }
  const found = findPhones(text, ctx);
  // "044 123 45 67" in a German session without a region: a Zürich number as the Swiss write it, and a valid German one
  const elsewhere = found.length === 1 && named === null ? neighbourReading(text.slice(found[0]!.start, found[0]!.end), ctx, pack) : [];
  if (elsewhere.length > 0) {
    const own = phoneCountry(ctx);
    const names = new Intl.DisplayNames([pack.code], { type: 'region' });
    const countries = [own, ...elsewhere].map((c) => names.of(c) ?? c);
    const example = phones().parsePhoneNumberFromString(text.slice(found[0]!.start, found[0]!.end), elsewhere[0]!)?.formatInternational() ?? '';
    return fail(say(pack, 'whichCountry', { countries: `${countries.slice(0, -1).join(', ')} ${say(pack, 'or')} ${countries.at(-1)}`, example }));
  }
  // "nine one seven five five five zero one two three": digits said in words, read as the digits they say
  const spoken = found.length === 0 ? packOf(ctx.locale).spoken : undefined;
  const spelled = spoken ? spelledDigits(text, spoken) : null;
  if (spelled) {
    const said = findPhones(spelled.value, ctx);
    if (said.length === 1) return ok(said[0]!.value, text.slice(spelled.start, spelled.end), false);
  }
  // "0162 12345": a number of a length the country allows in general, but no number of the kind its first digits say;
  // "07911 12345": a digit short of a mobile number
  const inexact = found.length === 0 ? inexactLength(text, ctx) : null;
  if (inexact !== null) return fail(say(pack, inexact === 'short' ? 'phoneTooShort' : 'phoneTooLong', { example: exampleNumber(phoneCountry(ctx)) ?? '' }));
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

/**
 * A follow-up at a phone question that names only a country ("ja, Zürich, Schweiz", "it's a Swiss number") after the
 * visitor's last reply gave a number the bot asked about: that number read in the country named; null otherwise.
 */
export function phoneInCountryNamed(text: string, before: string, ctx: ParseContext): ParseResult | null {
  if (findPhones(text, ctx).length > 0) return null;
  const country = countryNamed(text, packOf(ctx.locale));
  if (country === null) return null;
  const there = findPhones(before, { ...ctx, defaultCountry: country });
  return there.length === 1 ? ok(there[0]!.value, text.trim(), true) : null;
}

/**
 * Whether a number found in a message may as well be a neighbour country's (see neighbourReading) and the message names no
 * country, or the message names another country than the session's: such a number is never taken unasked at another
 * question ("044 123 45 67" volunteered in a German session).
 */
export function countryInDoubt(text: string, found: FoundPhone, ctx: ParseContext): boolean {
  const pack = packOf(ctx.locale);
  const named = countryNamed(text, pack);
  // another country named ("Schweizer Nummer 044 …"): read at the phone question, where the country named is applied
  if (named !== null) return named !== phoneCountry(ctx);
  return neighbourReading(text.slice(found.start, found.end), ctx, pack).length > 0;
}

/** Each pack's country words as patterns (word → its ISO country), compiled once. */
const countryPatterns = new WeakMap<LanguagePack, readonly (readonly [RegExp, string])[]>();

function countryPatternsOf(pack: LanguagePack): readonly (readonly [RegExp, string])[] {
  let out = countryPatterns.get(pack);
  if (!out) {
    const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    out = Object.entries(pack.phoneCountries?.words ?? {}).map(([word, country]) => [
      new RegExp(`(?<![\\p{L}])${escape(word.replace(/\*$/, ''))}${word.endsWith('*') ? '\\p{L}*' : ''}(?![\\p{L}])`, 'u'), country] as const);
    countryPatterns.set(pack, out);
  }
  return out;
}

/** The country a reply names beside a number (the pack's `phoneCountries.words`), or null: none, or more than one. */
export function countryNamed(text: string, pack: LanguagePack): CountryCode | null {
  const said = text.toLowerCase();
  const hits = new Set(countryPatternsOf(pack).filter(([re]) => re.test(said)).map(([, country]) => country));
  const [one] = hits;
  return hits.size === 1 && phones().isSupportedCountry(one!) ? (one as CountryCode) : null;
}

/**
 * The other countries of the language (the pack's `phoneCountries.neighbours`) whose number the digits typed in national
 * format may just as well be, in a session without a region: a mobile there that is no mobile at home ("079 123 45 67",
 * "0664 1234567" in a German session), or typed grouped exactly as that country writes its numbers and not as the home
 * country does ("044 123 45 67"). Empty when the session's locale has a region, the number has a country code, or the
 * reading at home is as likely.
 */
function neighbourReading(typed: string, ctx: ParseContext, pack: LanguagePack): CountryCode[] {
  const neighbours = pack.phoneCountries?.neighbours ?? [];
  const own = phoneCountry(ctx);
  if (!neighbours.includes(own) || (ctx.locale ?? '').includes('-')) return [];
  const digits = typed.replace(/[^\d+]/g, '');
  if (digits.startsWith('+') || digits.startsWith('00')) return [];
  const lib = phonesMax();
  const home = lib.parsePhoneNumberFromString(typed, own);
  const homeMobile = home?.isValid() === true && ['MOBILE', 'FIXED_LINE_OR_MOBILE'].includes(home.getType() ?? '');
  const spaced = (s: string) => s.trim().replace(/[^\d]+/g, ' ');
  const out: CountryCode[] = [];
  for (const c of neighbours) {
    if (c === own || !lib.isSupportedCountry(c)) continue;
    const there = lib.parsePhoneNumberFromString(typed, c as CountryCode);
    if (!there?.isValid()) continue;
    const mobileThere = there.getType() === 'MOBILE' && !homeMobile;
    const writtenThere = spaced(typed) === spaced(there.formatNational()) && (!home?.isValid() || spaced(typed) !== spaced(home.formatNational()));
    if (mobileThere || writtenThere) out.push(c as CountryCode);
  }
  return out;
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
