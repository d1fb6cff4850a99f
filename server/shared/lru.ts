/** A bounded least-recently-used map: reads refresh an entry, inserts past the bound evict the oldest. */
export class LruCache<K, V> {
  readonly #map = new Map<K, V>();

  /** `onEvict` is called with each entry pushed out by the bound (not for delete or clear). */
  constructor(readonly max: number, private readonly onEvict?: (key: K, value: V) => void) {
    if (!Number.isInteger(max) || max < 0) throw new Error(`cache size must be a non-negative integer, got ${max}`);
  }

  /** The value, marked as most recently used. */
  get(key: K): V | undefined {
    const value = this.#map.get(key);
    if (value === undefined) return undefined;
    this.#map.delete(key);
    this.#map.set(key, value);
    return value;
  }

  /** The value without touching its recency (for scans that should not evict hot entries). */
  peek(key: K): V | undefined {
    return this.#map.get(key);
  }

  /** Stores the value as most recently used, evicting the oldest entry past the bound. */
  set(key: K, value: V): void {
    this.#map.delete(key);
    if (this.max === 0) {
      this.onEvict?.(key, value);
      return;
    }
    this.#map.set(key, value);
    if (this.#map.size > this.max) {
      const [oldest, v] = this.#map.entries().next().value as [K, V];
      this.#map.delete(oldest);
      this.onEvict?.(oldest, v);
    }
  }

  /** Forgets the key. */
  delete(key: K): void {
    this.#map.delete(key);
  }

  /** Forgets everything. */
  clear(): void {
    this.#map.clear();
  }

  /** Every entry, least recently used first. */
  entries(): IterableIterator<[K, V]> {
    return this.#map.entries();
  }

  get size(): number {
    return this.#map.size;
  }
}
