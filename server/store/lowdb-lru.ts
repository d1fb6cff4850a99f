/** A bounded least-recently-used map: reads refresh an entry, inserts past the bound evict the oldest. */
export class LruCache<K, V> {
  readonly #map = new Map<K, V>();

  constructor(readonly max: number) {
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
    if (this.max === 0) return;
    this.#map.set(key, value);
    if (this.#map.size > this.max) this.#map.delete(this.#map.keys().next().value as K);
  }

  /** Forgets the key. */
  delete(key: K): void {
    this.#map.delete(key);
  }

  /** Forgets everything. */
  clear(): void {
    this.#map.clear();
  }

  get size(): number {
    return this.#map.size;
  }
}
