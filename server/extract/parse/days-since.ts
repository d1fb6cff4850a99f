import type { AnswerSpec } from '../../flow/answer-types.ts';
import type { DurationWords } from '../../language/duration-words.ts';
import type { LanguagePack } from '../../language/pack.ts';
import { findPhrase, fold, foldPhrase } from './fold.ts';
import type { ParseContext, ParseResult } from './parse-result.ts';

/*
 * A COUNT OF DAYS GIVEN AS A START, read where a plain number was not found, at a question counted in
 * days (its unit is a day word of the pack): a start date ("since Monday", "started this morning",
 * "since the 10th", "yesterday", "seit gestern") is the number of days from it to today on the
 * session's calendar ("since Monday" on a Thursday is 3); one of a unit said with an article ("a
 * week", "about a week", "eine Woche") is 1 of it (7 days). Not exact: the commit rule judges the rest.
 */

/** A count read, with the span of the reply it was read from. */
export interface DaysRead {
  value: number;
  evidence: string;
  /** The start date read is a guess to confirm ("since 1/2": 2 January or 1 February?). */
  check?: true;
  /** The start said lies ahead of today ("since 1/20" on 15 January): no count is read, the question is asked again. */
  future?: true;
}

type Parse = (spec: AnswerSpec, text: string) => ParseResult;

const DAY_MS = 86_400_000;

/** The days a reply at a question counted in days gives by a start or "a week"; null when it gives none. */
export function readDays(spec: AnswerSpec, text: string, ctx: ParseContext, pack: LanguagePack, parse: Parse): DaysRead | null {
  if (!pack.durations || text.length > 200 || !inDays(spec, pack)) return null;
  return daysSince(spec, text, pack, parse) ?? monthsOf(spec, text, pack) ?? oneOf(spec, text, pack, parse);
}

/** "about a month", "a month or so", "einen Monat": 30 days (a month has no fixed length; a careful person writes 30). */
function monthsOf(spec: AnswerSpec, text: string, pack: LanguagePack): DaysRead | null {
  const m = pack.durations!.months?.exec(text);
  if (!m) return null;
  // "3 months" is asked again (the days of several months are no careful person's figure); one month is 30 days
  const count = /^\d+$/u.test(m[1]!) ? Number(m[1]) : 1;
  if (count !== 1) return null;
  // a second figure ("3 days or a month") is no count of months alone
  if (/\p{N}/u.test(text.slice(0, m.index) + text.slice(m.index + m[0].length)) || pack.wordNumbers(text.slice(0, m.index) + text.slice(m.index + m[0].length)).length > 0) return null;
  const value = count * 30;
  const a = spec as Extract<AnswerSpec, { type: 'integer' | 'number' }>;
  if ((a.max !== undefined && value > a.max) || (a.min !== undefined && value < a.min)) return null;
  return { value, evidence: m[0] };
}

/** Whether a number question is counted in days (its unit is a day word of the pack). */
function inDays(spec: AnswerSpec, pack: LanguagePack): boolean {
  if (spec.type !== 'integer' && spec.type !== 'number') return false;
  const unit = spec.unit === undefined ? '' : fold(spec.unit).text;
  return pack.durations!.dayUnits.map(foldPhrase).includes(unit);
}

/** "since Monday", "started this morning", "yesterday": the days from that date to today. */
function daysSince(spec: AnswerSpec, text: string, pack: LanguagePack, parse: Parse): DaysRead | null {
  const words = pack.durations!;
  const folded = fold(text).text;
  const marker = words.since.map(foldPhrase).flatMap((m) => findPhrase(folded, m).map((at) => ({ at, m }))).sort((a, b) => a.at - b.at)[0];
  const startDay = words.startDays.some((d) => findPhrase(folded, foldPhrase(d)).length > 0);
  if (!marker && !startDay) return null;
  const past: AnswerSpec = { type: 'date', past: true };
  // the date is read after the marker ("since the 10th" → "the 10th"); "this morning" is today
  const after = marker ? text.slice(marker.at + marker.m.length) : text;
  // "since christmas", "seit Silvester": the last such day on or before today
  const holiday = marker ? sinceHoliday(after, words.holidays, parse, pack) : null;
  if (holiday !== null) {
    const max = (spec as { max?: number }).max;
    if (holiday.days < 0 || (max !== undefined && holiday.days > max)) return null;
    const end = text.toLowerCase().indexOf(holiday.name, marker!.at);
    return { value: holiday.days, evidence: text.slice(marker!.at, end === -1 ? text.length : end + holiday.name.length).trim() };
  }
  const parts = words.partOfDay;
  const partOfDay = parts !== undefined && words.startDays.some((d) => findPhrase(fold(after).text, foldPhrase(d)).length > 0 && parts.parts.some((p) => foldPhrase(d).includes(foldPhrase(p))));
  // "since the 6th actually": a correction marker beside the date says nothing about the day
  const said = partOfDay ? todayOrYesterday(after, words) : after.replace(pack.corrections, ' ');
  let date = parse(past, said);
  const today = parse({ type: 'date' }, words.today);
  // "since saturday" on a Thursday: a weekday alone after a start word is the last one, not the next
  if (!date.ok && today.ok && typeof today.value === 'string') {
    const ahead = parse({ type: 'date' }, said);
    const days = ahead.ok && typeof ahead.value === 'string' ? Math.round((Date.parse(ahead.value) - Date.parse(today.value)) / DAY_MS) : 0;
    if (ahead.ok && days >= 1 && days <= 6 && /^[\p{L}.]+$/u.test(ahead.evidence.trim())) {
      date = { ...ahead, value: new Date(Date.parse(ahead.value as string) - 7 * DAY_MS).toISOString().slice(0, 10) };
    }
  }
  if (!date.ok || !today.ok || typeof date.value !== 'string' || typeof today.value !== 'string') return null;
  const days = Math.round((Date.parse(today.value) - Date.parse(date.value)) / DAY_MS);
  const a = spec as Extract<AnswerSpec, { type: 'integer' | 'number' }>;
  if (days < 0 || (a.max !== undefined && days > a.max)) return null;
  // "since 1/20", "since March" said on 15 January: read forward the day is weeks ahead, read back a year ago — a start in
  // the future is no start; neither reading is a careful person's, so nothing is read (the question is asked again)
  const forward = parse({ type: 'date' }, said);
  if (forward.ok && typeof forward.value === 'string' && days > 300) {
    const ahead = Math.round((Date.parse(forward.value) - Date.parse(today.value)) / DAY_MS);
    if (ahead > 0 && ahead <= 92) return { value: -1, evidence: forward.evidence, future: true };
  }
  // the evidence runs from the marker (when said) through the date read
  if (partOfDay) return { value: days, evidence: text.slice(marker ? marker.at : 0).trim() };
  const at = text.toLowerCase().indexOf(date.evidence.toLowerCase());
  const from = marker && at !== -1 ? Math.min(marker.at, at) : at;
  const evidence = at === -1 ? date.evidence : text.slice(Math.max(0, from), at + date.evidence.length);
  return date.check ? { value: days, evidence, check: true } : { value: days, evidence };
}

/** "this morning" → today, "last night" → yesterday: the day a part of a day named falls on, in the pack's words. */
function todayOrYesterday(text: string, words: DurationWords): string {
  const folded = fold(text).text;
  const parts = words.partOfDay!;
  return parts.yesterday.some((w) => findPhrase(folded, foldPhrase(w)).length > 0) ? parts.yesterdayWord : words.today;
}

/** "a week", "about a week", "eine Woche": one of the unit, read as a number of it. */
function oneOf(spec: AnswerSpec, text: string, pack: LanguagePack, parse: Parse): DaysRead | null {
  const re = pack.durations!.one;
  re.lastIndex = 0;
  if (!re.test(text)) return null;
  re.lastIndex = 0;
  const replaced = text.replace(re, '1 ');
  const r = parse(spec, replaced);
  if (!r.ok || typeof r.value !== 'number') return null;
  const m = new RegExp(re.source, re.flags).exec(text);
  return { value: r.value, evidence: m ? text.slice(m.index, m.index + m[0].length) + r.evidence.replace(/^1\s*/u, '') : r.evidence };
}


/** The days since the last named holiday on or before today ("since christmas" on 15 January: 21); null when none is named. */
function sinceHoliday(text: string, holidays: Readonly<Record<string, string>>, parse: Parse, pack: LanguagePack): { days: number; name: string } | null {
  const folded = fold(text).text;
  const name = Object.keys(holidays).sort((a, b) => b.length - a.length).find((h) => findPhrase(folded, foldPhrase(h)).length > 0);
  if (name === undefined) return null;
  const today = parse({ type: 'date' }, pack.durations!.today);
  if (!today.ok || typeof today.value !== 'string') return null;
  const year = Number(today.value.slice(0, 4));
  const md = holidays[name]!;
  const date = `${md <= today.value.slice(5) ? year : year - 1}-${md}`;
  return { days: Math.round((Date.parse(today.value) - Date.parse(date)) / DAY_MS), name };
}
