/**
 * Value semantics shared by the compiled closures. Guards see JSON values only;
 * these helpers never call methods on the values they are given (no
 * `valueOf`/`toString` coercion), so data cannot run code during evaluation.
 */

// Lists from context data could be cyclic; deeper than this compares unequal.
const MAX_EQUALS_DEPTH = 64;

/** Falsy values are null, false, 0, '' and the empty list; everything else is truthy. */
export function isTruthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === '') return false;
  if (typeof v === 'number') return v === v; // NaN is falsy, as in JS
  if (Array.isArray(v)) return v.length > 0;
  return true;
}

/** Strict equality on JSON values, deep for lists (`1 == '1'` is false). */
export function jsonEquals(a: unknown, b: unknown): boolean {
  return equalsAt(a, b, 0);
}

function equalsAt(a: unknown, b: unknown, depth: number): boolean {
  if (a === b) return true;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length || depth >= MAX_EQUALS_DEPTH) return false;
  for (let i = 0; i < a.length; i++) {
    if (!equalsAt(a[i], b[i], depth + 1)) return false;
  }
  return true;
}

/** Ordering operators hold only between two numbers or two strings (ISO dates compare as strings). */
export function orderedCompare(op: '<' | '<=' | '>' | '>=', a: unknown, b: unknown): boolean {
  const ta = typeof a;
  if ((ta !== 'number' && ta !== 'string') || ta !== typeof b) return false;
  const x = a as number | string;
  const y = b as number | string;
  switch (op) {
    case '<': return x < y;
    case '<=': return x <= y;
    case '>': return x > y;
    case '>=': return x >= y;
  }
}

/** `x in list` is membership by `==`; `x in 'text'` is a substring test; anything else is false. */
export function contains(needle: unknown, haystack: unknown): boolean {
  if (Array.isArray(haystack)) {
    for (const item of haystack) if (jsonEquals(needle, item)) return true;
    return false;
  }
  return typeof haystack === 'string' && typeof needle === 'string' && haystack.includes(needle);
}

/** Maps values a guard must not hand around (undefined, functions, symbols) to null. */
export function normalize(v: unknown): unknown {
  if (v === undefined) return null;
  const t = typeof v;
  return t === 'function' || t === 'symbol' ? null : v;
}

/**
 * Reads an own data property of a plain record. Accessors are not invoked and
 * nothing is read from the prototype chain, arrays or primitives; those give null.
 */
export function readOwnData(obj: unknown, key: string): unknown {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return null;
  const desc = Object.getOwnPropertyDescriptor(obj, key);
  return desc !== undefined && 'value' in desc ? normalize(desc.value) : null;
}

/** Deep-freezes a literal list so callers of `evaluate` cannot mutate a compiled constant. */
export function freezeList<T>(items: T[]): readonly T[] {
  for (const item of items) if (Array.isArray(item)) freezeList(item);
  return Object.freeze(items);
}
