import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';


// Rate limits shared by every server instance (STORE=redis): the IP, tenant,
// new-session, connection and admin-failure limits count in Redis, so a
// client spread over N instances gets the same allowance as on one. The
// per-socket limit stays in memory (a socket lives on one instance). If Redis
// does not answer, each instance falls back to counting in its own memory
// (rate-limiter-flexible's insurance limiter) rather than refusing everyone.

/** Limiters in Redis under `<prefix>rl:`; the per-socket one in memory. */
export function redisLimiters(client: Redis, prefix = 'ql:'): (r: { points: number; seconds: number }, keyPrefix: string) => RateLimiterAbstract {
  return (r, keyPrefix) => {
    const opts = { points: r.points, duration: r.seconds, keyPrefix };
    if (keyPrefix === 'socket') return new RateLimiterMemory(opts);
    return new RateLimiterRedis({
      ...opts, storeClient: client, keyPrefix: `${prefix}rl:${keyPrefix}`,
      insuranceLimiter: new RateLimiterMemory(opts),
    });
  };
}
