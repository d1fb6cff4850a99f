import type { AnswerSpec } from '../../flow/answer-types.ts';
import { clarify, fail, hasWordsOutside, ok, type ParseContext, type ParseResult } from './parse-result.ts';
import { packOf } from '../../language/registry.ts';
import type { LanguagePack } from '../../language/pack.ts';
import { say } from '../../language/parser-messages.ts';
import { fold } from './fold.ts';
import type * as chrono from 'chrono-node';

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

/** A reply with some words rewritten for chrono ("'72" → "1972"), and the way back to the typed positions. */
interface Rewritten {
  text: string;
  /** The typed position of a position in `text` (inside a rewritten piece: its start, or its end when `end`). */
  at: (i: number, end?: boolean) => number;
}

/** Rewrites every match of `re` (global) with `by`, keeping the map back to the typed text. */
function rewrite(src: Rewritten, re: RegExp, by: (m: RegExpExecArray) => string): Rewritten {
  const edits: Array<{ from: number; to: number; newFrom: number; newTo: number }> = [];
  let out = '';
  let last = 0;
  for (const m of src.text.matchAll(re)) {
    const put = by(m);
    if (put === m[0]) continue;
    out += src.text.slice(last, m.index);
    edits.push({ from: m.index, to: m.index + m[0].length, newFrom: out.length, newTo: out.length + put.length });
    out += put;
    last = m.index + m[0].length;
  }
  if (edits.length === 0) return src;
  out += src.text.slice(last);
  const at = (i: number, end = false): number => {
    let shift = 0;
    for (const e of edits) {
      if (i < e.newFrom) break;
      if (i < e.newTo || (end && i === e.newTo)) return src.at(i >= e.newTo || (end && i > e.newFrom) ? e.to : e.from, end);
      shift = e.to - e.newTo;
    }
    return src.at(i + shift, end);
  };
  return { text: out, at };
}

/** A year with an apostrophe ("Oct 5 '61", "’82"): group 2 is its last two digits. */
const APOSTROPHE_YEAR = /(^|[\s,./-])['’‘`´](\d{2})(?![\p{N}])(?!['’]\p{L})/gu;

/** The reply with its years in digits: an apostrophe year ("'61") in the century the question points to, years in words ("nineteen seventy"). */
function yearsInDigits(text: string, spec: DateSpec, clock: Clock, pack: LanguagePack): Rewritten {
  let r: Rewritten = { text, at: (i) => i };
  const spoken = pack.dates.spokenYears;
  if (spoken) r = rewrite(r, spoken.find, spoken.digits);
  const thisYear = Number(clock.today.slice(0, 4));
  // a past date (a birth included) is in the last hundred years; another within twenty years from now
  const latest = spec.past || spec.birth ? thisYear : thisYear + 20;
  return rewrite(r, APOSTROPHE_YEAR, (m) => {
    const yy = Number(m[2]);
    return `${m[1]}${2000 + yy <= latest || spec.future ? 2000 + yy : 1900 + yy}`;
  });
}

/** The month a reply names by its full name ("März", "sometime in april"), 1–12, or null. */
export function monthNamed(text: string, pack: LanguagePack): number | null {
  const folded = fold(text).text;
  const i = pack.messages.months.findIndex((m) => new RegExp(`(?<![\\p{L}])${fold(m).text}(?![\\p{L}])`, 'u').test(folded));
  return i === -1 ? null : i + 1;
}

/** What a chrono match says, with what was typed for it. */
interface Reading {
  index: number;
  end: number;
  text: string;
  year: number;
  month: number;
  day: number;
  certain: { year: boolean; month: boolean; day: boolean; weekday: boolean };
}

/** chrono's matches in a rewritten reply, as readings of the typed text (strict: no short or in-word match). */
function readingsOf(src: Rewritten, typed: string, parser: chrono.Chrono, clock: Clock, future: boolean, strict: boolean): Reading[] | 'range' {
  const parsed = parser.parse(src.text, { instant: clock.instant, timezone: clock.offset }, { forwardDate: future });
  const t = src.text;
  // chrono's German, French and Spanish parsers read weekday abbreviations anywhere: "so" (Sonntag) in "so schnell
  // wie möglich", "Fr" inside "Frühjahr", "mi" in "mi casa" — a match of three letters or less that names no day itself
  // (Spanish "hoy" does), or one inside a word, is no date
  const kept = strict ? parsed.filter((r) => !(SHORT.test(r.text) && !r.start.isCertain('day')) && !/\p{L}/u.test(t[r.index - 1] ?? '') && !/\p{L}/u.test(t[r.index + r.text.length] ?? '')) : parsed;
  if (kept.some((r) => r.end)) return 'range';
  return kept.map((r) => {
    const index = src.at(r.index);
    const end = src.at(r.index + r.text.length, true);
    return {
      index, end, text: typed.slice(index, end),
      year: r.start.get('year')!, month: r.start.get('month')!, day: r.start.get('day')!,
      certain: { year: r.start.isCertain('year'), month: r.start.isCertain('month'), day: r.start.isCertain('day'), weekday: r.start.isCertain('weekday') },
    };
  });
}

/**
 * A month or year said again beside a full date ("11/08/95 (that's august)", "jan 3rd this year") is no second
 * date: it is dropped when it agrees with the date, fills in the year the date left out, and turns a numeric date
 * read in the other order when it names the other number as the month; null when it disagrees.
 */
function mergeAgain(readings: Reading[]): Reading[] | null {
  const full = readings.filter((r) => r.certain.day);
  const again = readings.filter((r) => !r.certain.day && !r.certain.weekday && (r.certain.month || r.certain.year));
  if (full.length !== 1 || again.length === 0 || full.length + again.length !== readings.length) return readings;
  let date = { ...full[0]!, certain: { ...full[0]!.certain } };
  for (const a of again) {
    if (a.certain.month && a.month !== date.month) {
      // "05/09/88 (that's september)": the numbers read the other way round
      if (!/^\d{1,2}[/.-]\d{1,2}/u.test(date.text) || a.month !== date.day || date.month > 12) return null;
      date = { ...date, month: date.day, day: date.month };
    }
    if (a.certain.year) {
      if (date.certain.year && a.year !== date.year) return null;
      date = { ...date, year: a.year, certain: { ...date.certain, year: true } };
    }
  }
  return [date];
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
  // "02/03/2001 (that's dd/mm, I'm from the UK)", "04/05/1990, day first": the order the visitor names is the order read
  const said = words.order ? { day: [...text.matchAll(words.order.dayFirst)], month: [...text.matchAll(words.order.monthFirst)] } : null;
  const order = said && said.day.length > 0 !== said.month.length > 0 ? (said.day.length > 0 ? 'day' : 'month') : null;
  const orderSpans = order === null ? [] : (order === 'day' ? said!.day : said!.month).map((m) => m[0]);
  const monthFirst = order === null && dotted !== null && words.parser(ctx.defaultCountry) !== words.parser(DAY_FIRST);
  const parser = words.parser(order === 'month' ? MONTH_FIRST : order === 'day' || dotted ? DAY_FIRST : ctx.defaultCountry);
  // "Oct 5 '61", "sixteenth of june nineteen seventy": the year in digits before chrono reads it
  let typed = yearsInDigits(text, spec, clock, pack);
  for (const w of words.forChrono ?? []) typed = rewrite(typed, w.find, w.by);
  let found = readingsOf(typed, text, parser, clock, spec.future === true, words.strictMatches);
  if (found === 'range') return fail(say(pack, 'singleDate'));
  // "christmas day 2010", "Heiligabend 1975": a fixed-date holiday is that day when nothing else names one
  if (words.holidays && !found.some((r) => r.certain.day)) {
    const hol = words.holidays;
    let named = typed;
    for (const [re, month, d] of hol.days) named = rewrite(named, new RegExp(re.source, 'giu'), () => hol.say(month, d));
    if (named !== typed) {
      const again = readingsOf(named, text, parser, clock, spec.future === true, words.strictMatches);
      if (again !== 'range' && again.some((r) => r.certain.day)) found = again;
    }
  }
  // "easter", "next spring", "nach den Sommerferien": no fixed day — which one?
  if (!found.some((r) => r.certain.day) && words.noFixedDay?.test(text)) return clarify(say(pack, 'whichDay'));
  if (found.length === 0) {
    // "Anfang März", "irgendwann im Mai": a month without a day, which chrono's German parser does not read
    const month = monthNamed(text, pack);
    return month !== null ? clarify(words.whichDayIn ? words.whichDayIn(pack.messages.months[month - 1]!) : say(pack, 'whichDay')) : fail(say(pack, 'notDate'));
  }
  const merged = mergeAgain(found);
  if (!merged) return fail(say(pack, 'moreThanOneDate'));
  const results = merged;
  // "mid January", "January", "next month": chrono fills the missing day with the 1st, which would be
  // a guess; a clarification is asked instead (the 15th for "mid" is a guess too, and "late March" has none)
  const vague = results.find((r) => !r.certain.day && !r.certain.weekday);
  if (vague) {
    return clarify(words.whichDayIn && vague.certain.month ? words.whichDayIn(pack.messages.months[vague.month - 1]!) : say(pack, 'whichDay'));
  }
  // a year said first ("2010 march 4th", "1984, March 27", "1990 am 4. März") is the date's year: chrono reads the
  // day and month after it without one, which would be this year's (or, for a past question, last year's)
  const yearFirst = results.map((r) => (r.certain.year ? null : YEAR_FIRST.exec(typed.text.slice(0, indexIn(typed, r.index)))));
  // a date of birth is never this year's by default: "March 4th" asks for the year
  if (spec.birth && results.some((r, i) => r.certain.month && !r.certain.year && !yearFirst[i])) return clarify(say(pack, 'whichYear'));
  const values = results.map((r, i) => {
    const said = yearFirst[i];
    const year = said ? Number(said[1]) : r.year;
    const { month, day } = r;
    if (said) return isoDate(year, month, day);
    let value = isoDate(year, month, day);
    // "March 4th" for a past-only question means the last March 4th, not the coming one.
    if (value && spec.past && value > clock.today && !r.certain.year && r.certain.month) {
      value = isoDate(year - 1, month, day);
    }
    return value;
  });
  const distinct = [...new Set(values)];
  if (distinct.length > 1) return fail(say(pack, 'moreThanOneDate'));
  const value = distinct[0];
  if (!value) return fail(say(pack, 'noSuchDate'));
  const first = results[0]!;
  const spans = results.map((r, i) => [yearFirst[i] ? typed.at(yearFirst[i]!.index) : r.index, r.end] as const);
  const r = checkDate(spec, value, clock, first.text, !hasWordsOutside(text, spans), pack);
  const swappable = dotted !== null && Number(dotted[1]) <= 12 && Number(dotted[2]) <= 12 && dotted[1] !== dotted[2];
  if (r.ok && orderSpans.length > 0) return { ...r, described: orderSpans };
  if (r.ok && monthFirst && swappable) return { ...r, check: true };
  // "05/06/1992": in a language written with both orders (English: month first in the US, day first in most other
  // countries; the pack reads numeric dates by country) a visitor may write either, whatever the session's country;
  // when the other order is a date the question also takes, the reading is a guess and is checked ("Just to check: 6
  // May 1992?"); a day over 12 ("25/12/2015"), the same number twice, a month named again ("05/09/88 (that's
  // september)") or the order said has one reading. German, French and Spanish write numeric dates day first only.
  const bothOrders = words.parser(DAY_FIRST) !== words.parser(MONTH_FIRST);
  const slashed = bothOrders && dotted === null && order === null && merged.length === found.length ? SLASHED.exec(text) : null;
  if (r.ok && slashed && Number(slashed[1]) <= 12 && Number(slashed[3]) <= 12 && Number(slashed[1]) !== Number(slashed[3])) {
    const other = isoDate(Number(value.slice(0, 4)), Number(value.slice(8, 10)), Number(value.slice(5, 7)));
    if (other && other !== value && checkDate(spec, other, clock, first.text, false, pack).ok) return { ...r, check: true };
  }
  return r;
}

/** A numeric date with slashes or dashes, its first two numbers a day and a month in either order ("05/06/1992", "5-6-92", "05/06"). */
const SLASHED = /(?<![\p{N}./-])(\d{1,2})([/-])(\d{1,2})(?:\2(?:\d{4}|\d{2}))?(?![\p{N}]|[/.-]\d)/u;

/** The position in the rewritten text of a typed position (the first that maps to it or past it). */
function indexIn(src: Rewritten, typedIndex: number): number {
  for (let i = 0; i <= src.text.length; i++) if (src.at(i) >= typedIndex) return i;
  return src.text.length;
}

/** A year just before a date without one: the year, then at most a comma or dash and one short word ("2016, the", "1990 am"). */
const YEAR_FIRST = /(?<![\p{N}.,:\/-])((?:1[89]|20)\d\d)\s*[,\/-]?\s*(?:\p{L}{1,3}\s+)?$/u;

/** A numeric date with dots, day.month.year ("3.2.2015", "03.02.15"). */
const DOTTED = /(?<![\p{N}.])(\d{1,2})\.(\d{1,2})\.(?:\d{4}|\d{2})(?![\p{N}]|\.\d)/u;
/** A country whose English reads numeric dates day first (chrono's GB parser). */
const DAY_FIRST = 'GB';
/** A country whose English reads numeric dates month first (chrono's casual parser). */
const MONTH_FIRST = 'US';

/**
 * A day with no month: the next such day for a future question (today counts),
 * the last one for a past question; asked about when the question has no direction,
 * since this month's and next month's are then equally likely, and at a date of birth.
 */
function ordinalDay(spec: DateSpec, day: number, clock: Clock, evidence: string, pack: LanguagePack): ParseResult {
  if (day < 1 || day > 31) return fail(say(pack, 'noSuchDay'));
  // a date of birth is never this month's by default ("the 12th" at "What is the patient's date of birth?")
  if ((!spec.future && !spec.past) || spec.birth) return clarify(say(pack, 'whichMonth'));
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
  const ref = { instant: clock.instant, timezone: clock.offset };
  const prior = yearsInDigits(before, spec, clock, pack).text;
  const found = parser.parse(prior, ref)[0];
  // "born in 2016" (a year alone) is no date to chrono, nor "Anfang März" to its German parser
  const yearAlone = found ? null : /(?<![\p{N}])(19\d{2}|20\d{2})(?![\p{N}])/u.exec(prior);
  const monthAlone = found ? null : monthNamed(before, pack);
  if (!found && !yearAlone && monthAlone === null) return null;
  const typed = yearsInDigits(text.trim(), spec, clock, pack).text;
  // a date of birth without its year ("march 4th" → "Which year?"): the year said now completes it
  if (found && spec.birth && found.start.isCertain('day') && found.start.isCertain('month') && !found.start.isCertain('year')) {
    const year = /^(?:\p{L}+\s+){0,2}((?:18|19|20)\d\d)[.!]?$/u.exec(typed);
    if (!year) return null;
    const value = isoDate(Number(year[1]), found.start.get('month')!, found.start.get('day')!);
    return value ? checkDate(spec, value, clock, text.trim(), false, pack) : fail(say(pack, 'noSuchDate'));
  }
  if (found && (found.start.isCertain('day') || !(found.start.isCertain('month') || found.start.isCertain('year')))) return null;
  const earlier = {
    month: found?.start.isCertain('month') ? found.start.get('month')! : monthAlone,
    year: found?.start.isCertain('year') ? found.start.get('year')! : yearAlone ? Number(yearAlone[1]) : null,
  };
  // "Which day in March?" → "around the 9th", "so um den 9.": the day asked for, with a hedge on it, is that day
  const said = pack.dates.hedge ? typed.replace(pack.dates.hedge, '') : typed;
  // "Which day in March?" → "9": a bare number is the day only when the earlier reply named the month
  const alone = pack.dates.dayAlone.exec(said) ?? (earlier.month !== null ? /^(\d{1,2})\.?$/.exec(said) : null);
  const now = alone ? null : parser.parse(said, ref)[0];
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
