import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TurnLock } from '../store/turn-lock.ts';

// One suite, every TurnLock (the per-session lock the conversation service
// takes around a turn): each implementation's test file calls
// turnLockContract with a factory. The suite depends on vitest and the
// TurnLock interface only, so it can be handed to users who write a lock.

/** What a contract test gets: two handles on one lock (two servers, or the same instance twice), and a cleanup. */
export interface TurnLockHarness {
  /** The lock under test. */
  lock: TurnLock;
  /** Another handle on the same lock (another server instance); `lock` itself for a one-process lock. */
  other: TurnLock;
  /** Releases connections; called after every test. */
  cleanup?: () => Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Registers the TurnLock contract tests for one implementation. */
export function turnLockContract(name: string, make: () => Promise<TurnLockHarness>): void {
  describe(`TurnLock contract: ${name}`, () => {
    let h: TurnLockHarness;
    /** Unique per test, so locks backed by a shared server do not see each other's keys. */
    let p: string;
    const key = (k: string) => `${p}-${k}`;

    beforeEach(async () => {
      h = await make();
      p = `k${Math.random().toString(36).slice(2, 10)}`;
    });
    afterEach(async () => {
      await h.cleanup?.();
    });

    it('runs the tasks of one key one at a time, through either handle, and hands each caller its own result', async () => {
      let active = 0;
      let most = 0;
      const task = (n: number) => async () => {
        active++;
        most = Math.max(most, active);
        await sleep(3);
        active--;
        return n;
      };
      const results = await Promise.all(Array.from({ length: 12 }, (_, n) => (n % 2 ? h.lock : h.other).run(key('s'), task(n))));
      expect(results).toEqual(Array.from({ length: 12 }, (_, n) => n));
      expect(most).toBe(1);
    });

    it('runs the tasks of one key queued on one handle in arrival order', async () => {
      const order: number[] = [];
      await Promise.all([0, 1, 2, 3, 4].map((n) => h.lock.run(key('s'), async () => {
        await sleep(n % 2 ? 1 : 4);
        order.push(n);
      })));
      expect(order).toEqual([0, 1, 2, 3, 4]);
    });

    it('does not make tasks of different keys wait for each other', async () => {
      let parallel = 0;
      let peak = 0;
      await Promise.all(['a', 'b', 'c'].map((k) => h.lock.run(key(k), async () => {
        parallel++;
        peak = Math.max(peak, parallel);
        await sleep(30);
        parallel--;
      })));
      expect(peak).toBe(3);
    });

    it('passes a task\'s rejection to its caller and still runs the next task of the key', async () => {
      const failed = h.lock.run(key('s'), async () => {
        throw new Error('turn failed');
      });
      const next = h.lock.run(key('s'), async () => 'ran');
      await expect(failed).rejects.toThrow('turn failed');
      expect(await next).toBe('ran');
      expect(await h.other.run(key('s'), async () => 'free again')).toBe('free again');
    });

    it('frees the key once its task settled, for the next caller at any later time', async () => {
      expect(await h.lock.run(key('s'), async () => 1)).toBe(1);
      await sleep(5);
      const started = Date.now();
      expect(await h.other.run(key('s'), async () => 2)).toBe(2);
      expect(Date.now() - started).toBeLessThan(1_000);
    });
  });
}
