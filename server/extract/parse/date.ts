import * as chrono from 'chrono-node';
import type { AnswerSpec } from '../../flow/answer-types.ts';
import { clarify, fail, hasWordsOutside, ok, type ParseContext, type ParseResult } from './parse-result.ts';
import { langOf, type Lang } from '../../shared/lexicon/index.ts';
import { dateWords } from './date-words.ts';
import { say } from './messages.ts';
import { EN } from '../../flow/messages/en.ts';

type DateSpec = Extract<AnswerSpec, { type: 'date' }>;

/** The session clock read once: the instant and its UTC offset in minutes. */
interface Clock {
  instant: Date;
  offset: number;
  /** The calendar date at the session's offset, `YYYY-MM-DD`. */
  today: string;
}

// Countries that write dates month-first; everyone else reads 03/04 as 3 April.
const MONTH_FIRST = new Set(['US', 'PH', 'FM', 'MH', 'PW', 'GU', 'AS', 'MP', 'PR', 'VI', 'UM']);
const ISO = /(?<![\p{N}-])(\d{4})-(\d{1,2})-(\d{1,2})(?![\p{N}])/u;

/** Reads `now` (ISO with offset) into an instant, its offset and the local calendar date; null when unreadable. */
export function readClock(now: string): Clock | null {
  const instant = new Date(now);
  if (Number.isNaN(instant.getTime())) return null;
  const m = /([+-])(\d{2}):?(\d{2})$/.exec(now.trim());
  const offset = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
  const today = new Date(instant.getTime() + offset * 60_000).toISOString().slice(0, 10);
  return { instant, offset, today };
}

/** `YYYY-MM-DD` for a calendar date, or null when the date does not exist (30 February). */
export function isoDate(year: number, month: number, day: number): string | null {
  const d = new Date(Date.UTC(year, month - 1, day));
  if (year < 1 || year > 9999 || d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * Parses a date answer to ISO `YYYY-MM-DD`: ISO dates directly, everything
 * else ("next Tuesday", "tomorrow", "March 4th", "03/04/2026") through
 * chrono against the session clock at its own UTC offset, never the host's.
 */
export function parseDate(spec: DateSpec, text: string, ctx: ParseContext): ParseResult {
  const lang = langOf(ctx.locale);
  const clock = readClock(ctx.now);
  if (!clock) return fail("I can't work out dates right now.");
  const iso = ISO.exec(text);
  if (iso) {
    const value = isoDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
    if (!value) return fail(say(lang, 'noSuchDate'));
    return checkDate(spec, value, clock, iso[0], !hasWordsOutside(text, [[iso.index, iso.index + iso[0].length]]), lang);
  }
  const words = lang === 'en' ? null : dateWords(lang);
  // "end of the month", "about a week ago", "around the 10th": a span or a hedge on the day is not a day
  const loose = (words?.loose ?? LOOSE_DAY).exec(text);
  if (loose) return clarify(say(lang, 'looseDay', { typed: loose[0].trim() }));
  // "last monday" to a question about the future: chrono's forward reading would turn it into next week's
  if (spec.future && (words?.past ?? PAST_WORDS).test(text)) return fail(say(lang, 'datePassed'));
  // "next week", "last week", "this weekend": a week is no day (chrono would take the same weekday a week on); "tuesday next week"
  // is. "next week" to a past-only question is left to the range check below ("in the past, please").
  if (!words) {
    const week = WEEK_SPAN.exec(text);
    if (week && !WEEKDAY.test(text) && !(spec.past && NEXT.test(week[0]))) return clarify(`Which day ${week[0].trim().toLowerCase()}? Please give the exact date.`);
  }
  const day = (words?.dayAlone ?? ORDINAL_DAY).exec(text.trim());
  if (day) return ordinalDay(spec, Number(day[1]), clock, text.trim(), lang);
  // German, French and Spanish read day first; English by country (US: month first)
  const parser = words?.parser ?? (MONTH_FIRST.has(ctx.defaultCountry.trim().toUpperCase()) ? chrono.casual : chrono.en.GB);
  const parsed = parser.parse(text, { instant: clock.instant, timezone: clock.offset }, { forwardDate: spec.future === true });
  // chrono's German, French and Spanish parsers read weekday abbreviations anywhere: "so" (Sonntag) in "so schnell
  // wie möglich", "Fr" inside "Frühjahr", "mi" in "mi casa" — a match of three letters or less, or inside a word, is no date
  const results = words ? parsed.filter((r) => !SHORT.test(r.text) && !/\p{L}/u.test(text[r.index - 1] ?? '') && !/\p{L}/u.test(text[r.index + r.text.length] ?? '')) : parsed;
  if (results.length === 0) return fail(say(lang, 'notDate'));
  if (results.some((r) => r.end)) return fail(say(lang, 'singleDate'));
  // "mid January", "January", "next month": chrono fills the missing day with the 1st, which would be
  // a guess; a clarification is asked instead (the 15th for "mid" is a guess too, and "late March" has none)
  const vague = results.find((r) => !r.start.isCertain('day') && !r.start.isCertain('weekday'));
  if (vague && lang !== 'en') return clarify(say(lang, 'whichDay'));
  if (vague) return clarify(`Which day${vague.start.isCertain('month') ? ` in ${EN.months[vague.start.get('month')! - 1]}` : ''}? Please give the exact date.`);
  const values = results.map((r) => {
    const year = r.start.get('year')!;
    const month = r.start.get('month')!;
    const day = r.start.get('day')!;
    let value = isoDate(year, month, day);
    // "March 4th" for a past-only question means the last March 4th, not the coming one.
    if (value && spec.past && value > clock.today && !r.start.isCertain('year') && r.start.isCertain('month')) {
      value = isoDate(year - 1, month, day);
    }
    return value;
  });
  const distinct = [...new Set(values)];
  if (distinct.length > 1) return fail(say(lang, 'moreThanOneDate'));
  const value = distinct[0];
  if (!value) return fail(say(lang, 'noSuchDate'));
  const first = results[0]!;
  const spans = results.map((r) => [r.index, r.index + r.text.length] as const);
  return checkDate(spec, value, clock, first.text, !hasWordsOutside(text, spans), lang);
}

// A reply that is only a day of the month: "the 3rd", "on the 20th", "21st please". A suffix or "the" is required, so a bare number is never a date.
const ORDINAL_DAY = /^(?:(?:on|by|for) )?(?:the )?(\d{1,2})(?:st|nd|rd|th)(?: (?:please|pls|if possible))?[.!]?$/i;

/**
 * A day with no month: the next such day for a future question (today counts),
 * the last one for a past question; asked about when the question has no direction,
 * since this month's and next month's are then equally likely.
 */
function ordinalDay(spec: DateSpec, day: number, clock: Clock, evidence: string, lang: Lang): ParseResult {
  if (day < 1 || day > 31) return fail("There's no such date — please check the day.");
  if (!spec.future && !spec.past) return clarify('Which month? Please give the full date.');
  let [year, month] = clock.today.split('-').map(Number) as [number, number];
  const step = spec.future ? 1 : -1;
  // At most two steps: a 31st is found within two months either way.
  for (let k = 0; k < 3; k++) {
    const value = isoDate(year, month, day);
    if (value && (spec.future ? value >= clock.today : value <= clock.today)) return checkDate(spec, value, clock, evidence, true, lang);
    month += step;
    if (month === 13) [year, month] = [year + 1, 1];
    if (month === 0) [year, month] = [year - 1, 12];
  }
  return fail("There's no such date — please check the day.");
}

const SHORT = /^\p{L}{1,3}\.?$/u;
const LOOSE_DAY = /(?<![\p{L}])(?:(?:about|around|roughly|approximately|approx|maybe|sometime|some time|or so)\s+(?:a|an|one|two|three|\d+|the|last|next|this)\b|(?:end|beginning|start|middle|mid|early|late)\s+(?:of\s+)?(?:the\s+|this\s+|next\s+)?(?:month|week|year)\b|\bor so\b)/iu;
const WEEK_SPAN = /(?<![\p{L}])(?:next|last|this|previous|past|coming|following|the)\s+week(?:end)?(?![\p{L}])/iu;
const NEXT = /^(?:next|coming|following)\b/i;
const WEEKDAY = /(?<![\p{L}])(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|sday|rsday|urday)?(?![\p{L}])/iu;
const PAST_WORDS = /(?<![\p{L}])(?:last|yesterday|ago|previous|past)(?![\p{L}])/iu;

/** Normalises a structured date proposal: ISO dates (or datetimes) keep their date, other text is parsed. */
export function coerceDate(spec: DateSpec, value: unknown, ctx: ParseContext): ParseResult {
  if (typeof value !== 'string') return fail(say(langOf(ctx.locale), 'notDate'));
  const r = parseDate(spec, value, ctx);
  return r.ok ? { ...r, exact: true } : r;
}

function checkDate(spec: DateSpec, value: string, clock: Clock, evidence: string, exact: boolean, lang: Lang): ParseResult {
  if (spec.past && value > clock.today) return fail(say(lang, 'dateFuture'));
  if (spec.future && value < clock.today) return fail(say(lang, 'datePassed'));
  if (spec.min && value < spec.min) return fail(say(lang, 'onOrAfter', { date: spec.min }));
  if (spec.max && value > spec.max) return fail(say(lang, 'onOrBefore', { date: spec.max }));
  return ok(value, evidence, exact);
}
