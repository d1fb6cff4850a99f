import type { RE2JS } from 're2js';

/** The static result type of a builtin, used by the checker's type warnings. */
export type BuiltinResult = 'boolean' | 'number' | 'string';

/** Arity and result type of one builtin function. */
export interface BuiltinSpec {
  arity: number;
  result: BuiltinResult;
  /** Why the function exists, for error messages and docs. */
  summary: string;
}

/** The builtin functions; nothing else can be called. */
export const BUILTINS: ReadonlyMap<string, BuiltinSpec> = new Map<string, BuiltinSpec>([
  ['has', { arity: 1, result: 'boolean', summary: "has(x): answered and non-empty (false for null, '' and [])" }],
  ['len', { arity: 1, result: 'number', summary: 'len(x): length of a string (code points) or list; 0 otherwise' }],
  ['lower', { arity: 1, result: 'string', summary: 'lower(x): lowercase string; null for non-strings' }],
  ['matches', { arity: 2, result: 'boolean', summary: "matches(x, 'regex'): re2 search, linear time" }],
  ['today', { arity: 0, result: 'string', summary: "today(): the session's date as YYYY-MM-DD" }],
  ['years_since', { arity: 1, result: 'number', summary: "years_since(date): whole years from a YYYY-MM-DD date to today() (an age from a date of birth); null for no date or one after today" }],
]);

/** `has(x)`: false for missing, null, '' and []; true for 0 and false. */
export function hasValue(v: unknown): boolean {
  return v !== null && v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0);
}

/** `len(x)`: code points of a string (so an emoji counts once), items of a list, else 0. */
export function lengthOf(v: unknown): number {
  if (Array.isArray(v)) return v.length;
  if (typeof v !== 'string') return 0;
  let n = v.length;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    // A low surrogate right after a high one is the second half of one code point.
    if (c >= 0xdc00 && c <= 0xdfff && i > 0) {
      const p = v.charCodeAt(i - 1);
      if (p >= 0xd800 && p <= 0xdbff) n--;
    }
  }
  return n;
}

/** `lower(x)`: locale-independent lowercase of a string; null for anything else. */
export function lowerOf(v: unknown): string | null {
  return typeof v === 'string' ? v.toLowerCase() : null;
}

/** `matches(x, re)`: unanchored re2 search (like RegExp#test); false when x is not a string. */
export function matchesPattern(re: RE2JS, v: unknown): boolean {
  return typeof v === 'string' && re.test(v);
}

/** `today()`: the caller-injected date; the evaluator never reads the clock. */
export function todayOf(today: unknown): string | null {
  return typeof today === 'string' ? today : null;
}

/** `years_since(x)`: whole years from the date `x` (YYYY-MM-DD…) to `today` (YYYY-MM-DD); null when either is not a date or `x` is after today. */
export function yearsSince(v: unknown, today: unknown): number | null {
  const date = /^(\d{4})-(\d{2})-(\d{2})/;
  const from = typeof v === 'string' ? date.exec(v) : null;
  const to = typeof today === 'string' ? date.exec(today) : null;
  if (!from || !to || (v as string).slice(0, 10) > (today as string).slice(0, 10)) return null;
  const years = Number(to[1]) - Number(from[1]);
  // not yet had this year's birthday: one year fewer (29 February counts from 1 March in a common year)
  return `${to[2]}-${to[3]}` < `${from[2]}-${from[3]}` ? years - 1 : years;
}
