import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { Script } from './script.ts';
import { KeyedMutex, type TurnLock } from '../store/turn-lock.ts';

// The per-session turn lock across server instances: a Redis key
// `<prefix>lock:<session>` set with NX and an expiry, holding a random token.
// The holder renews it while its turn runs and deletes it (only if the token
// is still its own) when done. Within one process, turns of a session queue
// on a KeyedMutex first, so a process asks Redis for one lock at a time.
//
// A lock with an expiry can be lost (a process paused longer than the TTL).
// The fence is the session version: RedisStore commits a turn (record,
// transcript, events, in one script) only if the version is the one the turn
// loaded, so a turn that lost its lock fails its commit with `conflict` and
// leaves nothing behind; the client retries with the same clientId and gets the committed
// reply.
//
// With a store to prime (`createRedisBackend` passes its RedisStore), the
// lock is taken and the session's record read in one script: the store hands
// that record to the turn's `load` instead of asking Redis again (one round
// trip per turn fewer).

const RENEW = new Script(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`);
// KEYS: lock, and optionally the session's record hash   ARGV: token, ttl (ms)
// Takes the lock and, in the same round trip, reads the record the turn is about to load.
const ACQUIRE = new Script(`
if not redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return {0} end
if KEYS[2] then return {1, redis.call('HGET', KEYS[2], 'rec')} end
return {1}
`);
const RELEASE = new Script(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`);

export interface RedisTurnLockOptions {
  /** Key prefix (default "ql:"). */
  prefix?: string;
  /** The lock expires this long after the last renewal (default 5 s; how long a crashed instance's sessions wait); renewed every third of it. */
  ttlMs?: number;
  /** A turn waiting longer than this for the lock fails with LockTimeoutError (default 30 s). */
  waitMs?: number;
  /** Told when a held lock was lost before the turn ended (for logs). */
  onLost?: (key: string) => void;
  /** The store whose record of the session is read with the lock and handed to the turn's first `load`. */
  prime?: LockPrimed;
}

/** A store that takes a record read together with the turn lock (RedisStore). */
export interface LockPrimed {
  /** The Redis key of the session's record hash (field `rec`); undefined: nothing to read (an invalid id). */
  recordKey(id: string): string | undefined;
  /** The record's JSON (null: no such session) as read with the lock; the next `load` of `id` takes it. */
  prime(id: string, json: string | null): void;
  /** Forgets a primed record the turn did not load. */
  unprime(id: string): void;
}

/** Thrown when a session's lock could not be taken in time (another instance holds it). */
export class LockTimeoutError extends Error {
  readonly code = 'busy';
  constructor(key: string, waitMs: number) {
    super(`the turn lock of session ${key} was not free within ${waitMs} ms`);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A TurnLock shared by every server on one Redis. */
export class RedisTurnLock implements TurnLock {
  private readonly local = new KeyedMutex();
  private readonly prefix: string;
  private readonly ttlMs: number;
  private readonly waitMs: number;
  /** Locks taken from Redis so far, and waits that had to retry (for tests and metrics). */
  readonly stats = { acquired: 0, contended: 0, lost: 0 };

  constructor(private readonly client: Redis, private readonly opts: RedisTurnLockOptions = {}) {
    this.prefix = opts.prefix ?? 'ql:';
    this.ttlMs = opts.ttlMs ?? 5_000;
    this.waitMs = opts.waitMs ?? 30_000;
  }

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    return this.local.run(key, async () => {
      const redisKey = `${this.prefix}lock:${key}`;
      const token = randomBytes(16).toString('hex');
      await this.acquire(redisKey, token, key);
      let lost = false;
      const timer = setInterval(() => {
        RENEW.run(this.client, [redisKey], [token, this.ttlMs]).then(
          (r) => {
            if (r === 0 && !lost) {
              lost = true;
              this.stats.lost++;
              this.opts.onLost?.(key);
            }
          },
          () => undefined, // Redis unreachable: the next renewal tries again
        );
      }, Math.max(50, Math.floor(this.ttlMs / 3)));
      timer.unref();
      try {
        return await task();
      } finally {
        this.opts.prime?.unprime(key);
        clearInterval(timer);
        await RELEASE.run(this.client, [redisKey], [token]).catch(() => undefined); // it expires anyway
      }
    });
  }

  private async acquire(redisKey: string, token: string, key: string): Promise<void> {
    const deadline = Date.now() + this.waitMs;
    let wait = 2;
    for (let first = true; ; first = false) {
      const rec = this.opts.prime?.recordKey(key);
      const [ok, json] = (await ACQUIRE.run(this.client, rec === undefined ? [redisKey] : [redisKey, rec], [token, this.ttlMs])) as [number, string | null | undefined];
      if (ok === 1) {
        this.stats.acquired++;
        if (rec !== undefined) this.opts.prime?.prime(key, json ?? null);
        return;
      }
      if (first) this.stats.contended++;
      if (Date.now() >= deadline) throw new LockTimeoutError(key, this.waitMs);
      await sleep(wait + Math.random() * wait);
      wait = Math.min(50, wait * 2);
    }
  }
}
