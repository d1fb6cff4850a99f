/**
 * Counts requests and socket events being handled, so shutdown can wait for
 * the turns in progress to be saved before it closes the store.
 */
export class InFlight {
  private count = 0;
  private waiters: Array<() => void> = [];

  /**
   * Runs `task`, counted until it settles (every socket event goes through
   * here: one `then` with handlers made once, not an async function per event).
   */
  track<T>(task: () => Promise<T>): Promise<T> {
    this.count++;
    let running: Promise<T>;
    try {
      running = task();
    } catch (err) {
      this.done();
      return Promise.reject(err);
    }
    return Promise.resolve(running).then(this.passed as (v: T) => T, this.failed);
  }

  private readonly passed = <T>(value: T): T => {
    this.done();
    return value;
  };

  private readonly failed = (err: unknown): never => {
    this.done();
    throw err;
  };

  private done(): void {
    this.count--;
    if (this.count === 0) for (const w of this.waiters.splice(0)) w();
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
