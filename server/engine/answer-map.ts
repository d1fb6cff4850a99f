// A session's answers in memory: a persistent (never mutated) map from answer
// key to record (session.ts `AnswerRecord`), stored in a trie of small arrays indexed by the key's slot.
// A flow gives each of its answer keys a slot in flow order (flow-index.ts
// `answerSlots`), so the questions of a conversation answered one after the
// other land in the same small leaf: `set` copies one path of 16-wide arrays
// that the turn before has just touched, however many answers there are.
// The leaf last written (the focus) is held beside the trie, not in it: a set
// in that leaf copies the leaf alone, whatever the trie's height, and the
// trie's path is copied only when a set moves to another leaf (every 16th
// answer of a visitor answering in order).
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

/** A copy of the trie with the leaf at `leaf` (a slot >>> BITS) replaced by `value`: one new array per level above the leaves. */
function writeLeaf(node: Trie, level: number, leaf: number, value: Trie): Trie {
  if (level === 0) return value;
  const copy = copyOf(node);
  const i = (leaf >>> ((level - 1) * BITS)) & MASK;
  copy[i] = writeLeaf(node[i] as Trie | undefined ?? EMPTY, level - 1, leaf, value);
  return copy;
}

/** The leaf at `leaf` (a slot >>> BITS) of a trie of `height` levels (EMPTY when absent). */
function readLeaf(root: Trie, height: number, leaf: number): Trie {
  let node = root;
  for (let level = height - 1; level > 0; level--) {
    node = node[(leaf >>> ((level - 1) * BITS)) & MASK] as Trie | undefined ?? EMPTY;
  }
  return node;
}

/** A persistent map of answer records by key; `set` and `delete` return a new map and leave this one as it was. */
export class AnswerMap<V = unknown> {
  readonly slots: AnswerSlots;
  readonly size: number;
  /** @internal the trie of records by slot, except the leaf at `focusAt` */
  readonly root: Trie;
  /** @internal records of keys without a slot (undefined when none) */
  readonly extra: ReadonlyMap<string, V> | undefined;
  /** @internal the leaf last written, which stands for the trie's leaf at `focusAt` (slot >>> 4; -1: none) */
  readonly focus: Trie;
  readonly focusAt: number;

  constructor(slots: AnswerSlots, root: Trie = EMPTY, size = 0, extra?: ReadonlyMap<string, V>, focus: Trie = EMPTY, focusAt = -1) {
    this.slots = slots;
    this.root = root;
    this.size = size;
    this.extra = extra;
    this.focus = focus;
    this.focusAt = focusAt;
  }

  /** The record at a slot: from the focus when the slot is in it, else from the trie. */
  private at(slot: number): V | undefined {
    return (slot >>> BITS) === this.focusAt ? this.focus[slot & MASK] as V | undefined : read(this.root, this.slots.height, slot);
  }

  /** A map with the slot's record replaced (`size` given): a copy of the focus leaf, or of the slot's leaf when it is another one (the focus then goes into the trie). */
  private written(slot: number, value: V | undefined, size: number): AnswerMap<V> {
    const leaf = slot >>> BITS;
    if (leaf === this.focusAt) {
      const copy = copyOf(this.focus);
      copy[slot & MASK] = value;
      return new AnswerMap(this.slots, this.root, size, this.extra, copy, leaf);
    }
    const height = this.slots.height;
    const root = this.focusAt < 0 ? this.root : writeLeaf(this.root, height - 1, this.focusAt, this.focus);
    const copy = copyOf(readLeaf(root, height, leaf));
    copy[slot & MASK] = value;
    return new AnswerMap(this.slots, root, size, this.extra, copy, leaf);
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
    return this.at(slot);
  }

  /**
   * The record of `key`, read at `slot` (no key lookup) when `slots` are this
   * map's and the key has a slot there (-1 or undefined: none); else by key.
   */
  lookup(key: string, slot: number | undefined, slots: AnswerSlots): V | undefined {
    return slots === this.slots && slot !== undefined && slot >= 0 ? this.at(slot) : this.get(key);
  }

  get(key: string): V | undefined {
    const slot = this.slots.slotOf.get(key);
    return slot !== undefined ? this.at(slot) : this.extra?.get(key);
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
      return new AnswerMap(this.slots, this.root, had ? this.size : this.size + 1, extra, this.focus, this.focusAt);
    }
    return this.written(slot, record, this.at(slot) !== undefined ? this.size : this.size + 1);
  }

  /** A map without `key` (this map when it has none). */
  delete(key: string): AnswerMap<V> {
    const slot = this.slots.slotOf.get(key);
    if (slot === undefined) {
      if (this.extra === undefined || !this.extra.has(key)) return this;
      const extra = new Map(this.extra);
      extra.delete(key);
      return new AnswerMap(this.slots, this.root, this.size - 1, extra.size > 0 ? extra : undefined, this.focus, this.focusAt);
    }
    if (this.at(slot) === undefined) return this;
    return this.written(slot, undefined, this.size - 1);
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
    const root = this.focusAt < 0 ? this.root : writeLeaf(this.root, this.slots.height - 1, this.focusAt, this.focus);
    collect(root, this.slots.height - 1, 0, this.slots.keys, out);
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
