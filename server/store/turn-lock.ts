/**
 * The per-session turn lock the conversation service takes around every turn.
 * `run` runs `task` once every earlier task of the same key has settled and
 * returns its result (or rejection). `KeyedMutex` is the one-process lock;
 * a cross-instance lock (Redis) implements the same interface.
 */
export interface TurnLock {
  run<T>(key: string, task: () => Promise<T>): Promise<T>;
}

/**
 * One task at a time per key, in arrival order: the per-session turn lock of
 * one process (across processes, RedisTurnLock), and LowdbStore's
 * per-session lock (check-then-write must not interleave).
 */
export class KeyedMutex implements TurnLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `task` after every earlier task of the same key has settled. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    const next = prev.then(task, task);
    const tail = next.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }

  /** Whether a task of `key` is running or queued. */
  busy(key: string): boolean {
    return this.tails.has(key);
  }

  /** Resolves once every task queued so far has settled. */
  async idle(): Promise<void> {
    while (this.tails.size > 0) await Promise.all([...this.tails.values()]);
  }

  /** Keys with a task running or queued (for tests and metrics). */
  get size(): number {
    return this.tails.size;
  }
}
