import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

// Rate limits, in this process's memory, or shared by every instance in Redis
// with STORE=redis (rate-limits-redis.ts). A message is charged to its socket (or REST
// client), its IP and its tenant, so one noisy page can neither flood a
// session nor starve the tenant's other visitors of the whole server.

/** `points` per `seconds`. */
export interface Rate {
  points: number;
  seconds: number;
}

/** The limits; every rate is per key (socket, IP or tenant). */
export interface RateLimitSettings {
  /** Messages and commands per socket (REST: per session). */
  perSocket: Rate;
  /** Messages and commands per client IP. */
  perIp: Rate;
  /** Messages and commands per tenant. */
  perTenant: Rate;
  /** New sessions per client IP. */
  startsPerIp: Rate;
  /** Socket connections per client IP. */
  connectsPerIp: Rate;
  /** Failed admin-key attempts per client IP. */
  adminFailuresPerIp: Rate;
}

/** Defaults: generous for a person typing, tight for a script. */
export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  perSocket: { points: 5, seconds: 1 },
  perIp: { points: 20, seconds: 1 },
  perTenant: { points: 200, seconds: 1 },
  startsPerIp: { points: 60, seconds: 60 },
  connectsPerIp: { points: 120, seconds: 60 },
  adminFailuresPerIp: { points: 10, seconds: 60 },
};

/** A refusal: which limit, and when to try again. */
export type Limited = { ok: true } | { ok: false; scope: string; retryAfterMs: number };

const memoryLimiter = (r: Rate, keyPrefix: string) => new RateLimiterMemory({ points: r.points, duration: r.seconds, keyPrefix });

/** Builds the limiter of one rate (default: in this process's memory; rate-limits-redis.ts: shared in Redis). */
export type LimiterFactory = (r: Rate, keyPrefix: string) => RateLimiterAbstract;

/** The server's rate limiters. */
export class RateLimits {
  private readonly socket: RateLimiterAbstract;
  private readonly ip: RateLimiterAbstract;
  private readonly tenant: RateLimiterAbstract;
  private readonly starts: RateLimiterAbstract;
  private readonly connects: RateLimiterAbstract;
  private readonly adminFailures: RateLimiterAbstract;

  constructor(settings: Partial<RateLimitSettings> = {}, make: LimiterFactory = memoryLimiter) {
    const s = { ...DEFAULT_RATE_LIMITS, ...settings };
    this.socket = make(s.perSocket, 'socket');
    this.ip = make(s.perIp, 'ip');
    this.tenant = make(s.perTenant, 'tenant');
    this.starts = make(s.startsPerIp, 'starts');
    this.connects = make(s.connectsPerIp, 'connects');
    this.adminFailures = make(s.adminFailuresPerIp, 'admin');
  }

  /** Charges one message or command to its client, IP and tenant. */
  async message(who: { client: string; ip: string; tenant: string }): Promise<Limited> {
    return this.all([[this.socket, who.client, 'client'], [this.ip, who.ip, 'ip'], [this.tenant, who.tenant, 'tenant']]);
  }

  /** Charges one new session to an IP. */
  async start(ip: string): Promise<Limited> {
    return this.all([[this.starts, ip, 'ip']]);
  }

  /** Charges one socket connection to an IP. */
  async connect(ip: string): Promise<Limited> {
    return this.all([[this.connects, ip, 'ip']]);
  }

  /** Whether an IP has used up its failed admin attempts (does not charge). */
  async adminBlocked(ip: string): Promise<Limited> {
    const res = await this.adminFailures.get(ip);
    const max = this.adminFailures.points;
    return res && res.consumedPoints >= max ? { ok: false, scope: 'admin', retryAfterMs: res.msBeforeNext } : { ok: true };
  }

  /** Records a failed admin attempt. */
  async adminFailed(ip: string): Promise<void> {
    await this.adminFailures.penalty(ip, 1);
  }

  private async all(checks: Array<[RateLimiterAbstract, string, string]>): Promise<Limited> {
    for (const [l, key, scope] of checks) {
      try {
        await l.consume(key, 1);
      } catch (e) {
        if (e instanceof RateLimiterRes) return { ok: false, scope, retryAfterMs: e.msBeforeNext };
        throw e;
      }
    }
    return { ok: true };
  }
}
