// A saved record as a delta against the record before it, for LowdbStore's
// record lines (`{"d":…}` after a `{"r":…}` line). Most of a record does not
// change in a turn, and what changes mostly grows at the end (processed ids,
// checkpoints, recent lines) or changes one key of many (answers). The engine
// and the service build the next record from the previous one's values, so
// an unchanged part is the same object: comparing by reference (never by
// content) finds what did not change at no cost, and is always safe — a part
// that is equal but not the same object is merely written again.
//
// A patch of a JSON object: `{ k?: keys, s?: {key: value}, p?: {key: patch} }`
// — `k` the object's keys in order when they differ from the old object's
// (then keys not listed are gone), `s` the values that changed, written
// whole, `p` patches of values that are objects or arrays on both sides.
// A patch of an array: `{ x: dropped, a: added }` — the old array without
// its first `x` items, then `a` (a window that slides, or a list that grows).
// Values are JSON: an undefined property counts as absent, as in a record
// line, so folding a patch onto the JSON of the old record gives the JSON
// of the new one.

/** A patch of a JSON object (see the top of this file). */
export interface ObjectPatch {
  k?: string[];
  s?: Record<string, unknown>;
  p?: Record<string, ObjectPatch | ArrayPatch>;
}
/** A patch of a JSON array: drop the first `x` items, append `a`. */
export interface ArrayPatch {
  x: number;
  a: unknown[];
}

/** How deep patches go (record → session → answers/checkpoints → one answer). */
const MAX_DEPTH = 4;

type Obj = Record<string, unknown>;
const isPlain = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The JSON keys of an object in order: properties holding undefined are left out, as JSON.stringify does. */
function jsonKeys(o: Obj): string[] {
  const keys: string[] = [];
  for (const key of Object.keys(o)) if (o[key] !== undefined) keys.push(key);
  return keys;
}

/** Sets an own property, even one named __proto__ (as JSON.parse makes it), never the prototype. */
function put(o: Obj, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  else o[key] = value;
}

/**
 * A buffer per depth for the old object's JSON keys (objectPatch recurses at
 * most MAX_DEPTH deep): a turn patches a few objects on every save, and
 * listing the keys of both sides into new arrays (with `Object.keys`, then
 * filtered) was most of what a delta line allocated. `for…in` over own
 * properties goes in the order `Object.keys` does, without an array.
 */
const keyBuffers: string[][] = Array.from({ length: MAX_DEPTH + 1 }, () => []);

/** Fills the depth's buffer with the JSON keys of `o` in order; returns how many. */
function bufferKeys(o: Obj, depth: number): number {
  const buf = keyBuffers[depth]!;
  let n = 0;
  for (const key in o) if (Object.hasOwn(o, key) && o[key] !== undefined) buf[n++] = key;
  return n;
}

/** The patch that turns the JSON of `before` into the JSON of `after` (both plain objects). */
export function objectPatch(before: Obj, after: Obj, depth = 1): ObjectPatch {
  const had = bufferKeys(before, depth);
  const beforeKeys = keyBuffers[depth]!;
  let keys = 0;
  let sameKeys = true;
  let s: Record<string, unknown> | undefined;
  let p: Record<string, ObjectPatch | ArrayPatch> | undefined;
  let sFirst = false;
  for (const key in after) {
    if (!Object.hasOwn(after, key)) continue;
    const now = after[key];
    if (now === undefined) continue;
    if (sameKeys && (keys >= had || beforeKeys[keys] !== key)) sameKeys = false;
    keys++;
    const was = Object.hasOwn(before, key) ? before[key] : undefined;
    if (was === now) continue;
    const sub = depth < MAX_DEPTH ? valuePatch(was, now, depth + 1) : undefined;
    if (sub === undefined) {
      if (s === undefined && p === undefined) sFirst = true;
      put((s ??= {}), key, now);
    } else if (!unchanged(sub)) put((p ??= {}), key, sub);
  }
  // the properties in the order they always had: k, then s and p in the order they were first needed
  const out: ObjectPatch = {};
  if (!sameKeys || keys !== had) out.k = jsonKeys(after);
  if (sFirst) {
    out.s = s;
    if (p) out.p = p;
  } else {
    if (p) out.p = p;
    if (s) out.s = s;
  }
  return out;
}

/** A patch that changes nothing (an equal value that is another object). */
function unchanged(p: ObjectPatch | ArrayPatch): boolean {
  if ('x' in p) return p.x === 0 && p.a.length === 0;
  return p.k === undefined && p.s === undefined && p.p === undefined;
}

/** A patch of one value when both sides are objects or both arrays (and an array patch fits); otherwise undefined (write it whole). */
function valuePatch(was: unknown, now: unknown, depth: number): ObjectPatch | ArrayPatch | undefined {
  if (isPlain(was) && isPlain(now)) return objectPatch(was, now, depth);
  if (Array.isArray(was) && Array.isArray(now)) return arrayPatch(was, now);
  return undefined;
}

/** `now` as `was` without its first x items plus some appended, by reference; undefined when it is not that. */
function arrayPatch(frozenWas: readonly unknown[], now: readonly unknown[]): ArrayPatch | undefined {
  if (now.length === 0) return frozenWas.length === 0 ? { x: 0, a: [] } : undefined;
  if (frozenWas.length === 0) return undefined;
  const x = frozenWas.indexOf(now[0]);
  if (x < 0) return undefined;
  const kept = frozenWas.length - x;
  if (kept > now.length) return undefined;
  // the old record is the store's, frozen: on Node 20 reading a frozen array item by item costs several times
  // what a spread copy and a loop over the copy do (docs/benchmarks.md)
  const was = kept > 8 ? [...frozenWas] : frozenWas;
  for (let i = 1; i < kept; i++) if (now[i] !== was[x + i]) return undefined;
  return { x, a: now.slice(kept) };
}

/** The object `patch` makes of `before` (a new object; `before` is not changed). Throws on a patch that does not fit. */
export function applyObjectPatch(before: Obj, patch: ObjectPatch): Obj {
  if (!isPlain(patch as unknown)) throw new Error('record delta: not a patch');
  const out: Obj = {};
  for (const key of patch.k ?? jsonKeys(before)) {
    let value: unknown;
    if (patch.p && Object.hasOwn(patch.p, key)) value = applyValuePatch(Object.hasOwn(before, key) ? before[key] : undefined, patch.p[key]!);
    else if (patch.s && Object.hasOwn(patch.s, key)) value = patch.s[key];
    else if (Object.hasOwn(before, key) && before[key] !== undefined) value = before[key];
    else throw new Error(`record delta: no value for ${key}`);
    put(out, key, value);
  }
  return out;
}

function applyValuePatch(was: unknown, patch: ObjectPatch | ArrayPatch): unknown {
  if (isPlain(was)) return applyObjectPatch(was, patch as ObjectPatch);
  const { x, a } = patch as Partial<ArrayPatch>;
  if (!Array.isArray(was) || typeof x !== 'number' || !Array.isArray(a) || x > was.length) throw new Error('record delta: patch does not fit');
  return [...was.slice(x), ...a];
}
