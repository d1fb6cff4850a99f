import type { OpenQuestion } from '../extractor.ts';
import type { LanguagePack } from '../../language/pack.ts';
import { parseAnswer, type ParseContext } from '../parse/index.ts';

/*
 * AN AGE GIVEN ANOTHER WAY (a count of days given as a start date is the parsers': parse/days-since.ts):
 *  - at a question asking an age (its key or prompt: "age", "how old", "Alter"), without a unit of its
 *    own: an age in months, weeks or days is the whole years it makes ("18 months" → 1, "3 weeks old"
 *    → 0), one in years is its number ("42 yrs"), and a half ("7 and a half") is dropped — an age in
 *    years counts whole years.
 * A value read so is not exact: the commit rule judges the words around it.
 */

export interface DurationRead {
  value: number;
  evidence: string;
  /** Read, but to be checked with the visitor first ("about 50", an adult's "almost 40"). */
  check?: true;
}

/** The age of majority: "almost N" of an adult is rounding (checked), of a child the next birthday. */
const ADULT = 18;

/** Whether an integer question asks an age in years: no unit (or years), and its key or prompt says age. */
function asksAge(q: OpenQuestion, pack: LanguagePack): boolean {
  const a = q.answer;
  if (a.type !== 'integer' && a.type !== 'number') return false;
  if (a.unit !== undefined && !/^(?:years?|yrs?|jahre?)$/iu.test(a.unit)) return false;
  const words = pack.durations!;
  const key = q.key.replace(/[_.-]+/g, ' ');
  const asked = words.asksAge.test(key) || words.asksAge.test(q.prompt ?? '') || words.asksAge.test(q.label ?? '');
  // a person's age counts whole years; a thing's ("Wie alt ist die Anlage, in Jahren?") is asked about as before
  return asked && (words.person.test(q.prompt ?? '') || words.person.test(key) || words.person.test(q.label ?? ''));
}

/** A count of days or an age read from a reply that holds no plain number for the question; null when it holds none. */
export function readDuration(q: OpenQuestion, text: string, ctx: ParseContext, pack: LanguagePack, numberRead: boolean): DurationRead | null {
  if (!pack.durations || text.length > 200) return null;
  // a number was read: only an age in months, weeks or days overrides it ("3 weeks old" is no age of 3)
  const age = asksAge(q, pack);
  // "almost 5", "turning 30 next week", "41 in March, so 40", "just turned 40": the age now, from the birthday said
  const birthday = age ? birthdayAge(text, ctx, pack) : null;
  const words = pack.durations;
  // "almost 40" of an adult may be 38 or 39 — checked ("Just to check: 39?"); "almost 5" of a child is 4
  if (birthday) return birthday.value + 1 >= ADULT && words.nearAge?.test(text) ? { ...birthday, check: true } : birthday;
  // "about 50", "40ish" at an age: an age is no estimate — the figure is checked, not committed as said
  if (age && words.aboutAge?.test(text)) {
    const n = parseAnswer({ type: 'integer', min: 0 }, text, ctx);
    if (n.ok && typeof n.value === 'number') return { value: n.value, evidence: n.evidence, check: true };
  }
  if (numberRead) return age ? ageInYears(text, ctx, pack, true) : null;
  if (age) return ageInYears(text, ctx, pack, false);
  return null;
}

/**
 * An age said by a birthday to come ("almost 5" → 4, "she'll be 8 next month" → 7, "wird nächste Woche 40" → 39) or just
 * reached ("just turned 40 last week" → 40); any other figure in the reply must be that age ("41 in March, so 40"), else
 * nothing is read. The evidence runs over the phrase and that figure.
 */
function birthdayAge(text: string, ctx: ParseContext, pack: LanguagePack): DurationRead | null {
  const words = pack.durations!;
  const forms = [...(words.comingAge ?? []).map((re) => [re, 1] as const), ...(words.reachedAge ?? []).map((re) => [re, 0] as const)];
  for (const [re, less] of forms) {
    const m = re.exec(text);
    const said = m?.groups?.n;
    if (!m || said === undefined) continue;
    const n = parseAnswer({ type: 'integer', min: 0 }, said, ctx);
    if (!n.ok || typeof n.value !== 'number' || n.value - less < 0) continue;
    const value = n.value - less;
    let start = m.index;
    let end = m.index + m[0].length;
    const rest = text.slice(0, start) + ' '.repeat(end - start) + text.slice(end);
    if (/\p{N}/u.test(rest) || pack.wordNumbers(rest).length > 0) {
      const other = parseAnswer({ type: 'number' }, rest, ctx);
      if (!other.ok || other.value !== value) return null;
      const at = rest.indexOf(other.evidence);
      if (at !== -1) {
        start = Math.min(start, at);
        end = Math.max(end, at + other.evidence.length);
      }
    }
    return { value, evidence: text.slice(start, end) };
  }
  return null;
}

/** "18 months", "3 weeks old", "42 yrs", "7 and a half": the whole years of an age. */
function ageInYears(text: string, ctx: ParseContext, pack: LanguagePack, smallerUnitOnly: boolean): DurationRead | null {
  const units = pack.durations!.ageUnits;
  const folded = text.toLowerCase();
  const names = Object.keys(units).sort((a, b) => b.length - a.length).map((u) => u.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|');
  const m = new RegExp(`(?<![\\p{L}])(${names})(?![\\p{L}])`, 'iu').exec(folded);
  const numberPart = m ? text.slice(0, m.index) : text;
  const n = parseAnswer({ type: 'number', min: 0 }, numberPart, ctx);
  if (!n.ok || typeof n.value !== 'number') return null;
  // a unit must follow the number it counts ("18 months"), a half is dropped only from a bare age ("7 and a half")
  if (!m && Number.isInteger(n.value)) return null;
  const per = m ? units[m[1]!.toLowerCase()]! : 1;
  if (smallerUnitOnly && per === 1) return null;
  // the unit counts the number right before it ("18 months"), not another ("40 next week")
  const numberAt = text.lastIndexOf(n.evidence, m ? m.index : text.length);
  if (m && (numberAt === -1 || !/^[\s-]*$/u.test(text.slice(numberAt + n.evidence.length, m.index)))) return null;
  const value = Math.floor(n.value / per + 1e-9);
  const at = text.indexOf(n.evidence);
  const evidence = m && at !== -1 ? text.slice(at, m.index + m[0].length) : n.evidence;
  return { value, evidence };
}
