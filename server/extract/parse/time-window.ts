import type { NormalOption } from '../../flow/answer-types.ts';
import type { LanguagePack, TimeWords } from '../../language/pack.ts';
import { foldPhrase } from './fold.ts';

/*
 * TIME-WINDOW OPTIONS. An enum whose option labels describe windows of time ("Within 3 months", "In 3 to 12
 * months", "More than a year", "Innerhalb von 3 Monaten") reads a date or a period in the reply ("by end of
 * February", "mid next month", "in 6 months", "next spring", "nach Ostern", "sometime in 2027") as the span of days
 * from the session clock it stands for, and points at the one window that holds that span. A span that reaches
 * into two windows (or beyond every window) points at all it touches, and enum.ts asks or checks instead of
 * guessing. The windows come from the labels, never from option values.
 */

/** A span of days from today, inclusive; `hi` may be Infinity. */
interface Span {
  lo: number;
  hi: number;
}

/** Where a reply's date or period points among the options' windows. */
export interface WindowEvidence {
  /** The options whose windows the span touches (one when `contained`). */
  owners: number[];
  /** Whether the span lies inside the one option's window. */
  contained: boolean;
  /** The span read, in days from today. */
  lo: number;
  hi: number;
  start: number;
  end: number;
}

const DAYS = { day: 1, week: 7, month: 30.44, year: 365.25 } as const;

const NUMBER_WORDS: Record<string, number> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  ein: 1, eins: 1, einem: 1, einer: 1, zwei: 2, drei: 3, vier: 4, funf: 5, sechs: 6, sieben: 7, acht: 8, neun: 9, zehn: 10, elf: 11, zwolf: 12,
};
const num = (s: string | undefined) => (s === undefined ? NaN : /^\d+$/.test(s) ? Number(s) : NUMBER_WORDS[s] ?? NaN);

/** The window a label describes, in days from today, or null. */
function labelWindow(label: string, t: TimeWords): Span | null {
  const f = ` ${foldPhrase(label)} `;
  for (const re of t.windowLabel) {
    const m = re.exec(f);
    const g = m?.groups;
    if (!g) continue;
    const unit = DAYS[t.units[g.unit ?? ''] ?? 'day'];
    if (g.upTo !== undefined && !Number.isNaN(num(g.upTo))) return { lo: 0, hi: num(g.upTo) * unit };
    if (g.from !== undefined && g.to !== undefined) return { lo: num(g.from) * unit, hi: num(g.to) * unit };
    if (g.over !== undefined && !Number.isNaN(num(g.over))) return { lo: num(g.over) * unit, hi: Infinity };
  }
  return null;
}

/** Which options are windows of time (their labels say one), when at least two are. */
export function windowOptions(options: readonly NormalOption[], pack: LanguagePack): boolean[] {
  const t = pack.options.meaning?.time;
  const w = t ? windowsOf(options, pack, t) : [];
  return w.filter(Boolean).length >= 2 ? w.map(Boolean) : options.map(() => false);
}

const windowsCache = new WeakMap<readonly NormalOption[], Map<LanguagePack, Array<Span | null>>>();

/** Each option's window (null for an option that is no window, such as "As soon as possible"). */
function windowsOf(options: readonly NormalOption[], pack: LanguagePack, t: TimeWords): Array<Span | null> {
  let byPack = windowsCache.get(options);
  if (!byPack) windowsCache.set(options, (byPack = new Map()));
  let w = byPack.get(pack);
  if (!w) byPack.set(pack, (w = options.map((o) => labelWindow(o.label, t))));
  return w;
}

/** Easter Sunday of a year (the anonymous Gregorian computus), as [month, day]. */
function easter(year: number): [number, number] {
  const a = year % 19, b = Math.floor(year / 100), c = year % 100, d = Math.floor(b / 4), e = b % 4;
  const f = Math.floor((b + 8) / 25), g = Math.floor((b - f + 1) / 3), h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4), k = c % 4, l = (32 + 2 * e + 2 * i - h - k) % 7, m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  return [month, ((h + l - 7 * m + 114) % 31) + 1];
}

const DAY_MS = 86_400_000;
/**
 * Days either side of a boundary between two windows where a date is on the boundary: a date up to a week past it may be
 * meant as still inside the earlier window ("bis zum 20.02." at a one-month boundary), one more than three days before it is
 * inside ("early April" is within 3 months in mid-January).
 */
const MARGIN_AFTER = 7;
const MARGIN_BEFORE = 3;
/** A span ending within this many days of today ("next week", "a week from Friday") is as soon as possible, where a menu has that beside its windows. */
export const NEAR_DAYS = 10;

/** Reads the dates and periods of a folded reply as spans of days from today. */
class SpanReader {
  readonly today: number;
  readonly year: number;
  readonly month: number;
  constructor(now: string, private readonly t: TimeWords) {
    const d = new Date(now);
    this.year = d.getUTCFullYear();
    this.month = d.getUTCMonth() + 1;
    this.today = Date.UTC(this.year, this.month - 1, d.getUTCDate());
  }

  /** Days from today to a calendar day. */
  at(year: number, month: number, day: number): number {
    return Math.round((Date.UTC(year, month - 1, day) - this.today) / DAY_MS);
  }

  /** A month of a year as a span. */
  monthSpan(year: number, month: number): Span {
    return { lo: this.at(year, month, 1), hi: this.at(year, month + 1, 1) - 1 };
  }

  /** The coming year a month (1-12) falls in: this year, unless it is over. */
  comingYear(month: number): number {
    return month < this.month ? this.year + 1 : this.year;
  }

  /** Every span the reply names, each with where it is. */
  read(f: string): Array<Span & { start: number; end: number }> {
    const t = this.t;
    const out: Array<Span & { start: number; end: number; season?: true }> = [];
    const words = (list: readonly string[]) => list.map((w) => foldPhrase(w).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
    const next = words(t.next);
    const thisW = words(t.this);
    // "in 6 months", "in 2 Wochen": about that far from today
    for (const m of f.matchAll(new RegExp(t.relative.source, 'gu'))) {
      const n = num(m[2]);
      const unit = t.units[m[3]!];
      if (Number.isNaN(n) || !unit) continue;
      const c = n * DAYS[unit];
      const slack = Math.max(3, c * 0.1);
      // "within 2 weeks", "within 90 days": from now up to then; "in 6 months": about then
      out.push(t.within.includes(m[1]!) ? { lo: 0, hi: c, start: m.index, end: m.index + m[0].length } : { lo: c - slack, hi: c + slack, start: m.index, end: m.index + m[0].length });
    }
    const phrase = (list: readonly string[] | undefined) => (list ?? []).map(foldPhrase).filter(Boolean).sort((a, b) => b.length - a.length).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+')).join('|');
    const free = (at: number, len: number) => !out.some((o) => o.start < at + len && at < o.end);
    const unitAlt = Object.keys(t.units).sort((a, b) => b.length - a.length).join('|');
    const withinBefore = (at: number) => t.within.some((w) => new RegExp(`(?:^|\\s)${foldPhrase(w)}\\s+(?:(?:a|an|the|ein|einem|eines|nem|einen)\\s+)?$`, 'u').test(f.slice(0, at)));
    // "2 months from now", "6 weeks out": about that far; a whole reply of a count and a unit ("2 months", "about 6 weeks") too
    if (t.fromNow?.length || t.approx?.length) {
      const count = `(\\d+|${Object.keys(NUMBER_WORDS).join('|')})\\s+(${unitAlt})`;
      const res = [
        ...(t.fromNow?.length ? [new RegExp(`(?<![\\p{L}\\p{N}])${count}\\s+(?:${phrase(t.fromNow)})(?![\\p{L}])`, 'gu')] : []),
        new RegExp(`^\\s*(?:(?:${phrase(t.approx) || 'x^'})\\s+)?${count}\\s*[.!]*\\s*$`, 'gu'),
      ];
      for (const re of res) {
        for (const m of f.matchAll(re)) {
          const n = num(m[1]);
          const unit = t.units[m[2]!];
          if (Number.isNaN(n) || !unit || !free(m.index, m[0].length)) continue;
          const c = n * DAYS[unit];
          const slack = Math.max(3, c * 0.1);
          out.push({ lo: c - slack, hi: c + slack, start: m.index, end: m.index + m[0].length });
        }
      }
    }
    // "in half a year", "in nem halben Jahr": about six months; "within half a year": up to then
    if (t.halfYear?.length) {
      for (const m of f.matchAll(new RegExp(`(?<![\\p{L}])(?:${phrase(t.halfYear)})(?![\\p{L}])`, 'gu'))) {
        if (!free(m.index, m[0].length)) continue;
        out.push(withinBefore(m.index) ? { lo: 0, hi: 182.6, start: m.index, end: m.index + m[0].length } : { lo: 164, hi: 201, start: m.index, end: m.index + m[0].length });
      }
    }
    // "next week": the coming Monday to Sunday
    if (t.nextWeek?.length) {
      for (const m of f.matchAll(new RegExp(`(?<![\\p{L}])(?:${phrase(t.nextWeek)})(?![\\p{L}])`, 'gu'))) {
        if (!free(m.index, m[0].length)) continue;
        const weekday = (new Date(this.today).getUTCDay() + 6) % 7; // Monday 0
        const lo = 7 - weekday;
        out.push({ lo, hi: lo + 6, start: m.index, end: m.index + m[0].length });
      }
    }
    // "end of the month": the last ten days of this month; "end of the year": this December
    if (t.monthEnd?.length) {
      for (const m of f.matchAll(new RegExp(`(?<![\\p{L}])(?:${phrase(t.monthEnd)})(?![\\p{L}])`, 'gu'))) {
        if (!free(m.index, m[0].length)) continue;
        const s = this.monthSpan(this.year, this.month);
        out.push({ lo: Math.max(0, s.hi - 9), hi: s.hi, start: m.index, end: m.index + m[0].length });
      }
    }
    if (t.yearEnd?.length) {
      for (const m of f.matchAll(new RegExp(`(?<![\\p{L}])(?:${phrase(t.yearEnd)})(?![\\p{L}])`, 'gu'))) {
        if (!free(m.index, m[0].length)) continue;
        const s = this.monthSpan(this.year, 12);
        out.push({ lo: Math.max(0, s.lo), hi: s.hi, start: m.index, end: m.index + m[0].length });
      }
    }
    // "this quarter", "within the quarter": up to its end; "next quarter": its three months
    if (t.quarter) {
      const q0 = Math.floor((this.month - 1) / 3) * 3 + 1;
      for (const [words, next] of [[t.quarter.next, true], [t.quarter.this, false]] as const) {
        for (const m of f.matchAll(new RegExp(`(?<![\\p{L}])(?:${phrase(words)})(?![\\p{L}])`, 'gu'))) {
          if (!free(m.index, m[0].length)) continue;
          const end = this.at(this.year, q0 + 3, 1) - 1;
          out.push(next ? { lo: end + 1, hi: this.at(this.year, q0 + 6, 1) - 1, start: m.index, end: m.index + m[0].length } : { lo: 0, hi: end, start: m.index, end: m.index + m[0].length });
        }
      }
    }
    // a holiday on a fixed day: "by Christmas", "bis Weihnachten" (the deadline); "after Christmas" the week after it
    for (const [name, [hm, hd]] of Object.entries(t.holidays ?? {})) {
      for (const m of f.matchAll(new RegExp(`(?<![\\p{L}])${phrase([name])}(?![\\p{L}])`, 'gu'))) {
        if (!free(m.index, m[0].length)) continue;
        let e = this.at(this.year, hm, hd);
        if (e < 0) e = this.at(this.year + 1, hm, hd);
        const before = f.slice(0, m.index);
        const s = t.after.test(before) ? { lo: e, hi: e + 7 } : t.until.test(before) ? { lo: Math.max(0, e - 7), hi: e } : { lo: Math.max(0, e - 7), hi: e + 7 };
        out.push({ ...s, start: m.index, end: m.index + m[0].length });
      }
    }
    // a range of a unit: "3-6 months" (folded to "3 6 months"), "1 to 2 months", "in 3 bis 6 Monaten" (the labels' own from-to patterns)
    const unitWords = Object.keys(t.units).sort((a, b) => b.length - a.length).join('|');
    for (const re of [...t.windowLabel, new RegExp(`(?:^|\\s)(?<from>\\d+)\\s+(?<to>\\d+)\\s+(?<unit>${unitWords})(?![\\p{L}])`, 'u')]) {
      for (const m of f.matchAll(new RegExp(re.source, 'gu'))) {
        const g = m.groups;
        if (!g || g.from === undefined || g.to === undefined) continue;
        const unit = DAYS[t.units[g.unit ?? ''] ?? 'day'];
        const [a, b] = [num(g.from) * unit, num(g.to) * unit];
        if (Number.isNaN(a) || Number.isNaN(b) || b < a) continue;
        if (out.some((o) => o.start < m.index + m[0].length && m.index < o.end)) continue;
        out.push({ lo: a, hi: b, start: m.index, end: m.index + m[0].length });
      }
    }
    // a vague count: "a few weeks", "in a couple of months", "ein paar Wochen"
    const few = Object.keys(t.few ?? {}).sort((a, b) => b.length - a.length);
    if (few.length > 0) {
      const unitAlt = Object.keys(t.units).sort((a, b) => b.length - a.length).join('|');
      for (const m of f.matchAll(new RegExp(`(?<![\\p{L}])(${few.map((w) => foldPhrase(w).replace(/ /g, '\\s+')).join('|')})\\s+(${unitAlt})(?![\\p{L}])`, 'gu'))) {
        const [a, b] = t.few![m[1]!.replace(/\s+/g, ' ')] ?? [NaN, NaN];
        const unit = DAYS[t.units[m[2]!] ?? 'day'];
        if (Number.isNaN(a) || out.some((o) => o.start < m.index + m[0].length && m.index < o.end)) continue;
        const within = t.within.some((w) => new RegExp(`(?:^|\\s)${foldPhrase(w)}\\s+$`, 'u').test(f.slice(0, m.index)));
        out.push({ lo: within ? 0 : a * unit, hi: b * unit, start: m.index, end: m.index + m[0].length });
      }
    }
    // seasons: "next spring", "summer", "in den Sommerferien"
    const seasons = Object.keys(t.seasons).sort((a, b) => b.length - a.length);
    for (const m of f.matchAll(new RegExp(`(?<![\\p{L}])(?:(${next}|${thisW})\\s+)?(${seasons.map((s) => s.replace(/ /g, '\\s+')).join('|')})(?![\\p{L}])`, 'gu'))) {
      const [m1, m2] = t.seasons[m[2]!.replace(/\s+/g, ' ')]!;
      let y = this.year;
      const span = (yy: number) => ({ lo: this.at(yy, m1, 1), hi: this.at(m2 < m1 ? yy + 1 : yy, m2 + 1, 1) - 1 });
      let s = span(y);
      if (s.hi < 0 || (m[1] !== undefined && t.next.map(foldPhrase).includes(m[1]) && s.lo <= 0)) s = span(++y);
      out.push({ ...s, start: m.index, end: m.index + m[0].length, season: true });
    }
    // Easter: "after Easter" the week after it, "before Easter" until it
    for (const m of f.matchAll(new RegExp(`(?<![\\p{L}])(?:${words(t.easter)})(?![\\p{L}])`, 'gu'))) {
      let y = this.year;
      let [em, ed] = easter(y);
      if (this.at(y, em, ed) < 0) [em, ed] = easter(++y);
      const e = this.at(y, em, ed);
      const before = f.slice(0, m.index);
      const s = t.after.test(before) ? { lo: e, hi: e + 7 } : t.until.test(before) ? { lo: e - 7, hi: e } : { lo: e - 7, hi: e + 7 };
      out.push({ ...s, start: m.index, end: m.index + m[0].length });
    }
    // a year: "2027", "next year", "this year"
    for (const m of f.matchAll(/(?<![\p{N}.,/-])(20\d\d)(?![\p{N}.,/-])/gu)) {
      const y = Number(m[1]);
      if (y < this.year || y > this.year + 10) continue;
      if (out.some((o) => o.start <= m.index && m.index < o.end)) continue;
      out.push({ lo: Math.max(0, this.at(y, 1, 1)), hi: this.at(y + 1, 1, 1) - 1, start: m.index, end: m.index + m[0].length });
    }
    // "next year's budget": a year said of something else is no time for the answer
    for (const m of f.matchAll(new RegExp(`(?<![\\p{L}])(${next}|${thisW})\\s+(?:${words(t.year)})(?![\\p{L}'’])`, 'gu'))) {
      const y = t.next.map(foldPhrase).includes(m[1]!) ? this.year + 1 : this.year;
      out.push({ lo: Math.max(0, this.at(y, 1, 1)), hi: this.at(y + 1, 1, 1) - 1, start: m.index, end: m.index + m[0].length });
    }
    // months: "end of february", "15. März", "march 15th", "Mitte April", "june/july"
    const names = t.months.map((spellings) => spellings.map(foldPhrase));
    const monthAlt = names.flat().sort((a, b) => b.length - a.length).join('|');
    for (const m of f.matchAll(new RegExp(`(?<![\\p{L}])(?:(\\d{1,2})(?:st|nd|rd|th|\\.)?\\s+(?:of\\s+)?)?(${monthAlt})(?![\\p{L}])(?:\\s+(\\d{1,2})(?:st|nd|rd|th)?(?![\\p{N}]))?`, 'gu'))) {
      const month = names.findIndex((n) => n.includes(m[2]!)) + 1;
      // "may" and "mar" are words too: a lone "may" is a month only with a day or a part ("mid may", "may 3")
      if (['may', 'mar'].includes(m[2]!) && m[1] === undefined && m[3] === undefined && !/(?:mid|end of|early|late|in|by|until|before)\s+$/.test(f.slice(0, m.index))) continue;
      const y = this.comingYear(month);
      const day = Number(m[1] ?? m[3] ?? NaN);
      let s = this.monthSpan(y, month);
      if (!Number.isNaN(day) && day >= 1 && day <= 31) s = { lo: this.at(y, month, day), hi: this.at(y, month, day) };
      else {
        const before = f.slice(Math.max(0, m.index - 16), m.index);
        const part = (list: readonly string[]) => list.some((p) => new RegExp(`(?:^|\\s)${foldPhrase(p).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*(?:of\\s+)?$`).test(before));
        const len = s.hi - s.lo + 1;
        if (part(t.monthPart.end)) s = { lo: s.lo + Math.floor(len * 0.6), hi: s.hi };
        else if (part(t.monthPart.mid)) s = { lo: s.lo + 8, hi: s.lo + 21 };
        else if (part(t.monthPart.early)) s = { lo: s.lo, hi: s.lo + 10 };
      }
      out.push({ ...s, start: m.index, end: m.index + m[0].length });
    }
    // a day and month written with dots or slashes: "15.03.", "15.3.", "3/15" is left to the date questions
    for (const m of f.matchAll(/(?<![\p{N}.])(\d{1,2})\.(\d{1,2})\.(?!\d)/gu)) {
      const day = Number(m[1]), month = Number(m[2]);
      if (month < 1 || month > 12 || day < 1 || day > 31) continue;
      const y = this.comingYear(month);
      out.push({ lo: this.at(y, month, day), hi: this.at(y, month, day), start: m.index, end: m.index + m[0].length });
    }
    // "next month", "nächsten Monat(s)"
    for (const m of f.matchAll(new RegExp(`(?<![\\p{L}])(?:${next})\\s+(?:${Object.entries(t.units).filter(([, u]) => u === 'month').map(([w]) => w).join('|')})(?![\\p{L}])`, 'gu'))) {
      const month = this.month === 12 ? 1 : this.month + 1;
      let s = this.monthSpan(this.month === 12 ? this.year + 1 : this.year, month);
      const before = f.slice(Math.max(0, m.index - 12), m.index);
      if (t.monthPart.mid.some((p) => new RegExp(`(?:^|\\s)${foldPhrase(p)}\\s*(?:of\\s+)?$`).test(before))) s = { lo: s.lo + 8, hi: s.lo + 21 };
      out.push({ ...s, start: m.index, end: m.index + m[0].length });
    }
    // "Q3", "Q1 2027": a quarter of the year (this year's, or next year's when it is over)
    for (const m of f.matchAll(/(?<![\p{L}\p{N}])q([1-4])(?![\p{L}\p{N}])/gu)) {
      const q0 = (Number(m[1]) - 1) * 3 + 1;
      const y = this.at(this.year, q0 + 3, 1) - 1 < 0 ? this.year + 1 : this.year;
      out.push({ lo: Math.max(0, this.at(y, q0, 1)), hi: this.at(y, q0 + 3, 1) - 1, start: m.index, end: m.index + m[0].length });
    }
    // a year said right after a season or a month ("fall 2026", "April 2027") only says which one: the year alone is dropped
    const years = out.filter((y) => /^20\d\d$/u.test(f.slice(y.start, y.end)) && out.some((o) => o !== y && o.end <= y.start && /^[\s,]*$/u.test(f.slice(o.end, y.start))));
    for (const y of years) out.splice(out.indexOf(y), 1);
    // "by", "bis", "until" before a date: the date is the deadline, and the answer is where that deadline falls ("by June"
    // is in 3 to 12 months); before a season, its start ("before the summer", "bis zum Sommer")
    return out.map((s) => {
      const before = f.slice(0, s.start);
      if (t.until.test(before) && s.season) return { lo: s.lo - 7, hi: s.lo, start: s.start, end: s.end };
      return { lo: s.lo, hi: s.hi, start: s.start, end: s.end };
    });
  }
}

/**
 * Where a reply's date or period points among the options' time windows (null when fewer than two options are
 * windows, or the reply names no date or period). `f` is the folded reply with the options' own phrases blanked.
 */
export function windowEvidence(options: readonly NormalOption[], f: string, pack: LanguagePack, now: string | undefined): WindowEvidence | null {
  const t = pack.options.meaning?.time;
  if (!t || now === undefined) return null;
  const windows = windowsOf(options, pack, t);
  if (windows.filter(Boolean).length < 2) return null;
  const spans = new SpanReader(now, t).read(f);
  if (spans.length === 0) return null;
  const lo = Math.max(0, Math.min(...spans.map((s) => s.lo)));
  const hi = Math.max(...spans.map((s) => s.hi));
  if (hi < 0) return null;
  const start = Math.min(...spans.map((s) => s.start));
  const end = Math.max(...spans.map((s) => s.end));
  // a date within a week of a boundary between two windows sits on it: asked, not guessed ("bis zum 20.02." at a one-month boundary)
  const meets = (at: number) => windows.filter((o) => o !== null && (Math.abs(o.lo - at) <= 1 || Math.abs(o.hi - at) <= 1)).length > 1;
  // (a span starting or ending on the boundary itself is said in the windows' own terms: "3-12 months")
  // ("within 90 days" is "Within 3 months": a bound within 3% of the window's own is that bound)
  const near = (a: number, b: number) => Math.abs(a - b) <= Math.max(1, Math.abs(b) * 0.03);
  const inside = (w: Span) => (near(lo, w.lo) || w.lo + (meets(w.lo) ? MARGIN_AFTER : 0) <= lo) && (near(hi, w.hi) || hi <= w.hi - (meets(w.hi) ? MARGIN_BEFORE : 0));
  const holds = windows.flatMap((w, i) => (w && inside(w) ? [i] : []));
  if (holds.length === 1) return { owners: holds, contained: true, start, end, lo, hi };
  const touches = windows.flatMap((w, i) => (w && lo <= w.hi && w.lo <= hi ? [i] : []));
  return { owners: touches, contained: false, start, end, lo, hi };
}

/** The option whose window starts today ("Within 3 months"), or -1. */
export function firstWindow(options: readonly NormalOption[], pack: LanguagePack): number {
  const t = pack.options.meaning?.time;
  if (!t) return -1;
  const w = windowsOf(options, pack, t);
  return w.filter(Boolean).length >= 2 ? w.findIndex((x) => x !== null && x.lo === 0) : -1;
}
