// A session's answers in memory: a persistent (never mutated) map from answer
// key to record (session.ts `AnswerRecord`), stored in a trie of small arrays indexed by the key's slot.
// A flow gives each of its answer keys a slot in flow order (flow-index.ts
// `answerSlots`), so the questions of a conversation answered one after the
// other land in the same small leaf: `set` copies one path of 16-wide arrays
// that the turn before has just touched, however many answers there are.
// Keys without a slot (a stored session's keys the flow no longer has) live in
// a small side map, copied on write. Reads follow the Immutable.js Map API the
// session had before (`get`, `has`, `size`, `keys`, `entries`, iteration);
// iteration is in slot order, then the other keys in the order they came.

/** Each answer key's slot, and the key at each slot; shared by every answer map of one flow. */
export interface AnswerSlots {
  readonly slotOf: ReadonlyMap<string, number>;
  readonly keys: readonly string[];
  /** Levels of the trie: 16^height slots. */
  readonly height: number;
}

const BITS = 4;
const WIDTH = 1 << BITS;
const MASK = WIDTH - 1;

type Trie = readonly unknown[];

/** One array of WIDTH holes, shared by every empty branch (packed: it is a literal). */
const EMPTY: Trie = Object.freeze([
  undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined,
  undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined,
]);

/** The slots of `keys`, in the order given. */
export function answerSlots(keys: readonly string[]): AnswerSlots {
  const slotOf = new Map<string, number>();
  const list: string[] = [];
  for (const k of keys) {
    if (slotOf.has(k)) continue;
    slotOf.set(k, list.length);
    list.push(k);
  }
  let height = 1;
  while (WIDTH ** height < list.length) height++;
  return { slotOf, keys: Object.freeze(list), height };
}

/** The slot's value in a trie of `height` levels. */
function read<V>(root: Trie, height: number, slot: number): V | undefined {
  let node = root;
  for (let level = height - 1; level > 0; level--) {
    node = node[(slot >>> (level * BITS)) & MASK] as Trie | undefined ?? EMPTY;
  }
  return node[slot & MASK] as V | undefined;
}

/**
 * A copy of one array of the trie, written out: `slice` of a frozen array (the
 * shared EMPTY, or a session a caller froze) takes V8's slow path, ~20 times slower.
 */
function copyOf(n: Trie): unknown[] { // WIDTH (16) entries
  return [n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7], n[8], n[9], n[10], n[11], n[12], n[13], n[14], n[15]];
}

/** A copy of the trie with the slot's value replaced: one new array per level. */
function write<V>(node: Trie, level: number, slot: number, value: V | undefined): Trie {
  const copy = copyOf(node);
  const i = (slot >>> (level * BITS)) & MASK;
  copy[i] = level === 0 ? value : write(node[i] as Trie | undefined ?? EMPTY, level - 1, slot, value);
  return copy;
}

/** A persistent map of answer records by key; `set` and `delete` return a new map and leave this one as it was. */
export class AnswerMap<V = unknown> {
  readonly slots: AnswerSlots;
  readonly size: number;
  /** @internal the trie of records by slot */
  readonly root: Trie;
  /** @internal records of keys without a slot (undefined when none) */
  readonly extra: ReadonlyMap<string, V> | undefined;

  constructor(slots: AnswerSlots, root: Trie = EMPTY, size = 0, extra?: ReadonlyMap<string, V>) {
    this.slots = slots;
    this.root = root;
    this.size = size;
    this.extra = extra;
  }

  /** A map of these entries, with slots for their keys in the order given unless `slots` are given. */
  static of<V>(entries: Iterable<readonly [string, V]>, slots?: AnswerSlots): AnswerMap<V> {
    const list = [...entries];
    let m = new AnswerMap<V>(slots ?? answerSlots(list.map(([k]) => k)));
    for (const [k, r] of list) m = m.set(k, r);
    return m;
  }

  /** The same entries over another flow's slots (in this map's iteration order). */
  withSlots(slots: AnswerSlots): AnswerMap<V> {
    return slots === this.slots ? this : AnswerMap.of(this.entries(), slots);
  }

  /** The record at a slot of this map's slots. */
  getAt(slot: number): V | undefined {
    return read(this.root, this.slots.height, slot);
  }

  /**
   * The record of `key`, read at `slot` (no key lookup) when `slots` are this
   * map's and the key has a slot there (-1 or undefined: none); else by key.
   */
  lookup(key: string, slot: number | undefined, slots: AnswerSlots): V | undefined {
    return slots === this.slots && slot !== undefined && slot >= 0 ? read(this.root, this.slots.height, slot) : this.get(key);
  }

  get(key: string): V | undefined {
    const slot = this.slots.slotOf.get(key);
    return slot !== undefined ? read(this.root, this.slots.height, slot) : this.extra?.get(key);
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /** A map with `key` set to `record`; `slot`, when given, must be the key's slot in this map's slots. */
  set(key: string, record: V, slot: number | undefined = this.slots.slotOf.get(key)): AnswerMap<V> {
    if (slot === undefined) {
      const extra = new Map(this.extra);
      const had = extra.has(key);
      extra.set(key, record);
      return new AnswerMap(this.slots, this.root, had ? this.size : this.size + 1, extra);
    }
    const had = read(this.root, this.slots.height, slot) !== undefined;
    return new AnswerMap(this.slots, write(this.root, this.slots.height - 1, slot, record), had ? this.size : this.size + 1, this.extra);
  }

  /** A map without `key` (this map when it has none). */
  delete(key: string): AnswerMap<V> {
    const slot = this.slots.slotOf.get(key);
    if (slot === undefined) {
      if (this.extra === undefined || !this.extra.has(key)) return this;
      const extra = new Map(this.extra);
      extra.delete(key);
      return new AnswerMap(this.slots, this.root, this.size - 1, extra.size > 0 ? extra : undefined);
    }
    if (read(this.root, this.slots.height, slot) === undefined) return this;
    return new AnswerMap(this.slots, write(this.root, this.slots.height - 1, slot, undefined), this.size - 1, this.extra);
  }

  entries(): IterableIterator<[string, V]> {
    return this.list().values();
  }

  keys(): IterableIterator<string> {
    return this.list().map(([k]) => k).values();
  }

  values(): IterableIterator<V> {
    return this.list().map(([, r]) => r).values();
  }

  [Symbol.iterator](): IterableIterator<[string, V]> {
    return this.entries();
  }

  forEach(fn: (record: V, key: string) => void): void {
    for (const [k, r] of this.list()) fn(r, k);
  }

  /** The entries as a fresh list: slot order, then the side map's. */
  private list(): Array<[string, V]> {
    const out: Array<[string, V]> = [];
    if (this.size === 0) return out;
    collect(this.root, this.slots.height - 1, 0, this.slots.keys, out);
    if (this.extra) for (const e of this.extra) out.push(e);
    return out;
  }
}

/** Appends the trie's entries in slot order to `out`, skipping empty branches. */
function collect<V>(node: Trie, level: number, base: number, keys: readonly string[], out: Array<[string, V]>): void {
  if (node === EMPTY) return;
  for (let i = 0; i < WIDTH; i++) {
    const child = node[i];
    if (child === undefined) continue;
    const slot = base + (i << (level * BITS));
    if (level === 0) out.push([keys[slot]!, child as V]);
    else collect(child as Trie, level - 1, slot, keys, out);
  }
}

const NO_SLOTS = answerSlots([]);

/** An empty answer map over a flow's slots (none: every key goes to the side map). */
export function emptyAnswers<V>(slots: AnswerSlots = NO_SLOTS): AnswerMap<V> {
  return new AnswerMap<V>(slots);
}
