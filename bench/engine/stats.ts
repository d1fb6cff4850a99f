/** Per-turn samples (nanoseconds) and the figures the bench prints from them. */

/** A fixed-size buffer of per-turn times in ns. */
export class Samples {
  readonly ns: Float64Array;
  count = 0;
  constructor(capacity: number) {
    this.ns = new Float64Array(capacity);
  }
  get full(): boolean {
    return this.count >= this.ns.length;
  }
  push(ns: number): void {
    if (this.count < this.ns.length) this.ns[this.count++] = ns;
  }
  /** p50 and p99 in µs (nearest rank over the sorted samples). */
  percentilesUs(): { p50: number; p99: number } {
    const sorted = this.ns.slice(0, this.count).sort();
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]! / 1000;
    return { p50: round(at(0.5)), p99: round(at(0.99)) };
  }
}

/** What one engine's timed run produced at one N. */
export interface TimedRun {
  samples: Samples;
  conversations: number;
  /** Turns per conversation actually run (less than N when an engine is capped). */
  turnsPerConversation: number;
  wallMs: number;
}

/** Rounds to 3 significant decimals for printing and JSON. */
export function round(x: number): number {
  if (!Number.isFinite(x)) return x;
  const digits = Math.abs(x) >= 100 ? 1 : Math.abs(x) >= 1 ? 2 : 3;
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** A collected heap reading (after full GCs), in bytes. */
export function heapUsed(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}

/** Writes a progress line to stderr (stdout is reserved for the table or the JSON). */
export function progress(msg: string): void {
  process.stderr.write(`[bench:engine] ${msg}\n`);
}
