/**
 * Counts requests and socket events being handled, so shutdown can wait for
 * the turns in progress to be saved before it closes the store.
 */
export class InFlight {
  private count = 0;
  private waiters: Array<() => void> = [];

  /** Runs `task`, counted until it settles. */
  async track<T>(task: () => Promise<T>): Promise<T> {
    this.count++;
    try {
      return await task();
    } finally {
      this.count--;
      if (this.count === 0) for (const w of this.waiters.splice(0)) w();
    }
  }

  /** Tasks running now. */
  get size(): number {
    return this.count;
  }

  /** Resolves once nothing is running, or after `timeoutMs`; true when drained. */
  drain(timeoutMs: number): Promise<boolean> {
    if (this.count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}
