import type { AnswerSpec } from '../../flow/answer-types.ts';
import { clarify, fail, hasWordsOutside, ok, type ParseContext, type ParseResult } from './parse-result.ts';
import { packOf } from '../../language/registry.ts';
import type { LanguagePack } from '../../language/pack.ts';
import { say } from '../../language/parser-messages.ts';

type DateSpec = Extract<AnswerSpec, { type: 'date' }>;

/** The session clock read once: the instant and its UTC offset in minutes. */
interface Clock {
  instant: Date;
  offset: number;
  /** The calendar date at the session's offset, `YYYY-MM-DD`. */
  today: string;
}

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
  const pack = packOf(ctx.locale);
  const clock = readClock(ctx.now);
  if (!clock) return fail("I can't work out dates right now.");
  const iso = ISO.exec(text);
  if (iso) {
    const value = isoDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
    if (!value) return fail(say(pack, 'noSuchDate'));
    return checkDate(spec, value, clock, iso[0], !hasWordsOutside(text, [[iso.index, iso.index + iso[0].length]]), pack);
  }
  const words = pack.dates;
  // "end of the month", "about a week ago", "around the 10th": a span or a hedge on the day is not a day
  const loose = words.loose.exec(text);
  if (loose) return clarify(say(pack, 'looseDay', { typed: loose[0].trim() }));
  // "last monday" to a question about the future: chrono's forward reading would turn it into next week's
  if (spec.future && words.past.test(text)) return fail(say(pack, 'datePassed'));
  // "next week", "last week", "this weekend": a week is no day (chrono would take the same weekday a week on); "tuesday next week"
  // is. "next week" to a past-only question is left to the range check below ("in the past, please").
  if (words.week) {
    const week = words.week.span.exec(text);
    if (week && !words.week.weekday.test(text) && !(spec.past && words.week.next.test(week[0]))) return clarify(words.week.ask(week[0]));
  }
  const day = words.dayAlone.exec(text.trim());
  if (day) return ordinalDay(spec, Number(day[1]), clock, text.trim(), pack);
  // German, French and Spanish read day first; English by country (US: month first). A dotted numeric date ("3.2.2015")
  // is written day first wherever dots are written, so it is read day first in a month-first country too, and checked
  // with the visitor when its day could be a month ("Just to check: 3 February 2015?").
  const dotted = DOTTED.exec(text);
  const monthFirst = dotted !== null && words.parser(ctx.defaultCountry) !== words.parser(DAY_FIRST);
  const parser = words.parser(dotted ? DAY_FIRST : ctx.defaultCountry);
  const parsed = parser.parse(text, { instant: clock.instant, timezone: clock.offset }, { forwardDate: spec.future === true });
  // chrono's German, French and Spanish parsers read weekday abbreviations anywhere: "so" (Sonntag) in "so schnell
  // wie möglich", "Fr" inside "Frühjahr", "mi" in "mi casa" — a match of three letters or less, or inside a word, is no date
  const results = words.strictMatches ? parsed.filter((r) => !SHORT.test(r.text) && !/\p{L}/u.test(text[r.index - 1] ?? '') && !/\p{L}/u.test(text[r.index + r.text.length] ?? '')) : parsed;
  if (results.length === 0) return fail(say(pack, 'notDate'));
  if (results.some((r) => r.end)) return fail(say(pack, 'singleDate'));
  // "mid January", "January", "next month": chrono fills the missing day with the 1st, which would be
  // a guess; a clarification is asked instead (the 15th for "mid" is a guess too, and "late March" has none)
  const vague = results.find((r) => !r.start.isCertain('day') && !r.start.isCertain('weekday'));
  if (vague) {
    return clarify(words.whichDayIn && vague.start.isCertain('month') ? words.whichDayIn(pack.messages.months[vague.start.get('month')! - 1]!) : say(pack, 'whichDay'));
  }
  // a year said first ("2010 march 4th", "1984, March 27", "1990 am 4. März") is the date's year: chrono reads the
  // day and month after it without one, which would be this year's (or, for a past question, last year's)
  const yearFirst = results.map((r) => (r.start.isCertain('year') ? null : YEAR_FIRST.exec(text.slice(0, r.index))));
  const values = results.map((r, i) => {
    const said = yearFirst[i];
    const year = said ? Number(said[1]) : r.start.get('year')!;
    const month = r.start.get('month')!;
    const day = r.start.get('day')!;
    if (said) return isoDate(year, month, day);
    let value = isoDate(year, month, day);
    // "March 4th" for a past-only question means the last March 4th, not the coming one.
    if (value && spec.past && value > clock.today && !r.start.isCertain('year') && r.start.isCertain('month')) {
      value = isoDate(year - 1, month, day);
    }
    return value;
  });
  const distinct = [...new Set(values)];
  if (distinct.length > 1) return fail(say(pack, 'moreThanOneDate'));
  const value = distinct[0];
  if (!value) return fail(say(pack, 'noSuchDate'));
  const first = results[0]!;
  const spans = results.map((r, i) => [yearFirst[i]?.index ?? r.index, r.index + r.text.length] as const);
  const r = checkDate(spec, value, clock, first.text, !hasWordsOutside(text, spans), pack);
  const swappable = dotted !== null && Number(dotted[1]) <= 12 && Number(dotted[2]) <= 12 && dotted[1] !== dotted[2];
  return r.ok && monthFirst && swappable ? { ...r, check: true } : r;
}

/** A year just before a date without one: the year, then at most a comma or dash and one short word ("2016, the", "1990 am"). */
const YEAR_FIRST = /(?<![\p{N}.,:\/-])((?:1[89]|20)\d\d)\s*[,\/-]?\s*(?:\p{L}{1,3}\s+)?$/u;

/** A numeric date with dots, day.month.year ("3.2.2015", "03.02.15"). */
const DOTTED = /(?<![\p{N}.])(\d{1,2})\.(\d{1,2})\.(?:\d{4}|\d{2})(?![\p{N}]|\.\d)/u;
/** A country whose English reads numeric dates day first (chrono's GB parser). */
const DAY_FIRST = 'GB';

/**
 * A day with no month: the next such day for a future question (today counts),
 * the last one for a past question; asked about when the question has no direction,
 * since this month's and next month's are then equally likely.
 */
function ordinalDay(spec: DateSpec, day: number, clock: Clock, evidence: string, pack: LanguagePack): ParseResult {
  if (day < 1 || day > 31) return fail(say(pack, 'noSuchDay'));
  if (!spec.future && !spec.past) return clarify(say(pack, 'whichMonth'));
  let [year, month] = clock.today.split('-').map(Number) as [number, number];
  const step = spec.future ? 1 : -1;
  // At most two steps: a 31st is found within two months either way.
  for (let k = 0; k < 3; k++) {
    const value = isoDate(year, month, day);
    if (value && (spec.future ? value >= clock.today : value <= clock.today)) return checkDate(spec, value, clock, evidence, true, pack);
    month += step;
    if (month === 13) [year, month] = [year + 1, 1];
    if (month === 0) [year, month] = [year - 1, 12];
  }
  return fail(say(pack, 'noSuchDay'));
}

const SHORT = /^\p{L}{1,3}\.?$/u;
/** Normalises a structured date proposal: ISO dates (or datetimes) keep their date, other text is parsed. */
export function coerceDate(spec: DateSpec, value: unknown, ctx: ParseContext): ParseResult {
  if (typeof value !== 'string') return fail(say(packOf(ctx.locale), 'notDate'));
  const r = parseDate(spec, value, ctx);
  return r.ok ? { ...r, exact: true } : r;
}

function checkDate(spec: DateSpec, value: string, clock: Clock, evidence: string, exact: boolean, pack: LanguagePack): ParseResult {
  if (spec.past && value > clock.today) return fail(say(pack, 'dateFuture'));
  if (spec.future && value < clock.today) return fail(say(pack, 'datePassed'));
  if (spec.min && value < spec.min) return fail(say(pack, 'onOrAfter', { date: spec.min }));
  if (spec.max && value > spec.max) return fail(say(pack, 'onOrBefore', { date: spec.max }));
  return ok(value, evidence, exact);
}

/**
 * A follow-up that narrows the previous reading: the bot asked back about
 * "sometime in March" or "born in 2016", and the visitor now gives what was
 * missing ("the 9th", "august 14"). The month and year said before fill in
 * what the new reply leaves out; null when the earlier reply gave neither or
 * the new one names no day.
 */
export function narrowDate(spec: DateSpec, text: string, before: string, ctx: ParseContext): ParseResult | null {
  const pack = packOf(ctx.locale);
  const clock = readClock(ctx.now);
  if (!clock) return null;
  const parser = pack.dates.parser(ctx.defaultCountry);
  const found = parser.parse(before, { instant: clock.instant, timezone: clock.offset })[0];
  // a year alone ("born in 2016") is no date to chrono
  const yearAlone = found ? null : /(?<![\p{N}])(19\d{2}|20\d{2})(?![\p{N}])/u.exec(before);
  if (!found && !yearAlone) return null;
  if (found && (found.start.isCertain('day') || !(found.start.isCertain('month') || found.start.isCertain('year')))) return null;
  const earlier = {
    month: found?.start.isCertain('month') ? found.start.get('month')! : null,
    year: found?.start.isCertain('year') ? found.start.get('year')! : yearAlone ? Number(yearAlone[1]) : null,
  };
  // "Which day in March?" → "9": a bare number is the day only when the earlier reply named the month
  const alone = pack.dates.dayAlone.exec(text.trim()) ?? (earlier.month !== null ? /^(\d{1,2})\.?$/.exec(text.trim()) : null);
  const now = alone ? null : parser.parse(text, { instant: clock.instant, timezone: clock.offset })[0];
  if (!alone && !(now && now.start.isCertain('day'))) return null;
  const day = alone ? Number(alone[1]) : now!.start.get('day')!;
  const month = now?.start.isCertain('month') ? now.start.get('month')! : earlier.month;
  const year = now?.start.isCertain('year') ? now.start.get('year')! : earlier.year;
  if (month === null) return null;
  if (year === null) {
    // a month without a year: the next such date for a future question, the last one for a past one
    const [y] = clock.today.split('-').map(Number) as [number];
    const candidates = [y - 1, y, y + 1].map((yy) => isoDate(yy, month, day)).filter((v): v is string => v !== null);
    const pick = spec.past ? candidates.filter((v) => v <= clock.today).at(-1) : candidates.find((v) => v >= clock.today);
    return pick ? checkDate(spec, pick, clock, text.trim(), false, pack) : null;
  }
  const value = isoDate(year, month, day);
  return value ? checkDate(spec, value, clock, text.trim(), false, pack) : fail(say(pack, 'noSuchDate'));
}
