import type { RE2JS } from 're2js';
import { LIMITS } from '../protocol/limits.ts';

// What a regular expression costs to run. re2 runs in time linear in its input,
// but the factor is the compiled program: matching simulates every instruction
// that can be live at each character, so the worst case is program size ×
// input length. A 33-character pattern (`^(?:[a-z0-9]{1,20}[ ._-]?){1,30}$`)
// compiles to 1,263 instructions and takes ~10 ms on a 2,000-character answer;
// one tenant sending such answers would take the event loop from every other.
// Flows are therefore capped by that product, not by the pattern's length.

/** The most a pattern may cost on the longest input it can see: program size × characters. */
export const MAX_PATTERN_COST = 400_000;

/** The text a `matches()` guard is costed on: an answer, at most a message (a context string can be up to twice that; the cap is an order of magnitude, not a stopwatch). */
export const GUARD_INPUT_CHARS = LIMITS.textChars;

/** The longest answer a text question's `pattern` sees: its `max`, at most a message. */
export function answerInputChars(max: number | undefined): number {
  return Math.min(max ?? LIMITS.textChars, LIMITS.textChars);
}

/** The worst-case cost of matching `re` against `chars` characters. */
export function patternCost(re: RE2JS, chars: number): number {
  return re.programSize() * chars;
}

/** Why a pattern costs too much on inputs of `chars` characters, or undefined when it fits. */
export function patternTooCostly(re: RE2JS, chars: number): string | undefined {
  const cost = patternCost(re, chars);
  if (cost <= MAX_PATTERN_COST) return undefined;
  const fits = Math.floor(MAX_PATTERN_COST / chars);
  return `pattern costs too much to run: its program has ${re.programSize()} instructions × ${chars} characters of input = ${cost} steps `
    + `(the limit is ${MAX_PATTERN_COST}, so at most ${fits} instructions here); simplify it (fewer or smaller {n,m} repeats, fewer alternatives)`
    + (chars === LIMITS.textChars ? ' (an answer pattern: or give the question a smaller `max`)' : '');
}
