import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { lazyRequire } from '../shared/lazy-require.ts';

/** rate-limiter-flexible, loaded when the first limiter is made (not by `import('questline/server')` or the config). */
const limiterPackage = lazyRequire<typeof import('rate-limiter-flexible')>('rate-limiter-flexible');

// Rate limits, in this process's memory, or shared by every instance in Redis
// with STORE=redis (server/redis/rate-limits.ts). A message is charged to its socket (or REST
// client) first, then to its IP and its tenant together (one round trip to
// Redis); one the IP limit refuses is refunded to the tenant. The tenant's limit is shared
// fairly: once a window's budget is spent, it refuses only the addresses that
// sent more than their fair share (`tenantFairShare`) in that window, so a
// visitor typing at a person's pace is never refused because other addresses
// flooded the same tenant — up to a hard ceiling (`tenantCeiling`, default
// 2 × perTenant) that no address passes. IP keys are the client's address past trusted
// proxies; IPv6 counts by /64 (client-address.ts).

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
  /**
   * What one address may send to one tenant in the tenant's window and still
   * be served when the tenant's limit is used up (the fair share).
   */
  tenantFairShare: Rate;
  /**
   * The hard ceiling of a tenant's messages, fair shares included (default:
   * 2 × perTenant over perTenant's window): past it every address waits.
   */
  tenantCeiling?: Rate;
  /** Resumes and transcript reads (`session:start` with an id, `GET /sessions/:id`) per client IP. */
  readsPerIp: Rate;
  /** Resumes and transcript reads per session. */
  readsPerSession: Rate;
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
  tenantFairShare: { points: 10, seconds: 1 },
  readsPerIp: { points: 60, seconds: 60 },
  readsPerSession: { points: 30, seconds: 60 },
  startsPerIp: { points: 60, seconds: 60 },
  connectsPerIp: { points: 120, seconds: 60 },
  adminFailuresPerIp: { points: 10, seconds: 60 },
};

/** A refusal: which limit, and when to try again. */
export type Limited = { ok: true } | { ok: false; scope: string; retryAfterMs: number };

/**
 * The charge of one point to a key of `l`: the limiter's own promise mapped
 * to a verdict (a refusal names `scope`; any other failure rejects), so a
 * message costs one promise per limiter and no more. The refusal handler is
 * made once per limiter and scope, not per message.
 */
function charger(l: RateLimiterAbstract, scope: string): (key: string) => Promise<Limited> {
  const refused = (e: unknown) => refusal(e, scope);
  return (key) => l.consume(key, 1).then(admitted, refused);
}

/** The verdict of an admitted charge: one shared, frozen value (read-only for every caller). */
const ADMITTED: Limited = Object.freeze({ ok: true });
const admitted = (): Limited => ADMITTED;

/** The verdict of the IP, fair-share, tenant and ceiling charges of a message (messageShared). */
function sharedVerdict([ip, share, tenant, ceiling]: [Limited, Limited, Limited, Limited]): Limited | null {
  if (!ip.ok) return null; // refunded by the caller first
  if (!ceiling.ok) return ceiling; // no fair share passes the tenant's hard ceiling
  return tenant.ok || share.ok ? ADMITTED : tenant;
}

/** The ceiling a tenant's messages never pass: the setting, else 2 × perTenant over the same window. */
export function tenantCeilingOf(s: Pick<RateLimitSettings, 'perTenant' | 'tenantCeiling'>): Rate {
  return s.tenantCeiling ?? { points: s.perTenant.points * 2, seconds: s.perTenant.seconds };
}

function refusal(e: unknown, scope: string): Limited {
  if (e instanceof limiterPackage().RateLimiterRes) return { ok: false, scope, retryAfterMs: e.msBeforeNext };
  throw e;
}

const memoryLimiter = (r: Rate, keyPrefix: string) => new (limiterPackage().RateLimiterMemory)({ points: r.points, duration: r.seconds, keyPrefix });

/** Builds the limiter of one rate (default: in this process's memory; rate-limits-redis.ts: shared in Redis). */
export type LimiterFactory = (r: Rate, keyPrefix: string) => RateLimiterAbstract;

/** The server's rate limiters. */
export class RateLimits {
  private readonly socket: RateLimiterAbstract;
  private readonly ip: RateLimiterAbstract;
  private readonly tenant: RateLimiterAbstract;
  private readonly tenantIp: RateLimiterAbstract;
  private readonly ceiling: RateLimiterAbstract;
  private readonly adminFailures: RateLimiterAbstract;
  // every charge, each with its limiter and scope: a message's (what every message goes through), then the others
  private readonly chargeClient: (key: string) => Promise<Limited>;
  private readonly chargeIp: (key: string) => Promise<Limited>;
  private readonly chargeShare: (key: string) => Promise<Limited>;
  private readonly chargeTenant: (key: string) => Promise<Limited>;
  private readonly chargeCeiling: (key: string) => Promise<Limited>;
  private readonly chargeReadIp: (key: string) => Promise<Limited>;
  private readonly chargeReadSession: (key: string) => Promise<Limited>;
  private readonly chargeStart: (key: string) => Promise<Limited>;
  private readonly chargeConnect: (key: string) => Promise<Limited>;

  constructor(settings: Partial<RateLimitSettings> = {}, make: LimiterFactory = memoryLimiter) {
    const s = { ...DEFAULT_RATE_LIMITS, ...settings };
    this.socket = make(s.perSocket, 'socket');
    this.ip = make(s.perIp, 'ip');
    this.tenant = make(s.perTenant, 'tenant');
    // counted over the tenant's window, so a share is comparable to the budget it divides
    this.tenantIp = make({ points: s.tenantFairShare.points, seconds: s.perTenant.seconds }, 'tenantip');
    this.ceiling = make(tenantCeilingOf(s), 'tenantmax');
    this.adminFailures = make(s.adminFailuresPerIp, 'admin');
    this.chargeClient = charger(this.socket, 'client');
    this.chargeIp = charger(this.ip, 'ip');
    this.chargeShare = charger(this.tenantIp, 'tenant');
    this.chargeTenant = charger(this.tenant, 'tenant');
    this.chargeCeiling = charger(this.ceiling, 'tenant');
    this.chargeReadIp = charger(make(s.readsPerIp, 'readsip'), 'ip');
    this.chargeReadSession = charger(make(s.readsPerSession, 'readssession'), 'session');
    this.chargeStart = charger(make(s.startsPerIp, 'starts'), 'ip');
    this.chargeConnect = charger(make(s.connectsPerIp, 'connects'), 'ip');
  }

  /**
   * Charges one message or command to its client, then to its IP and its
   * tenant at once (a refusal by the IP limit is refunded to the tenant); a
   * spent tenant budget refuses only an address above its fair share.
   */
  async message(who: { client: string; ip: string; tenant: string }): Promise<Limited> {
    const own = await this.messageClient(who.client);
    return own.ok ? this.messageShared(who) : own;
  }

  /** The first half of `message`: charges its client (socket or REST session; in this process's memory). */
  messageClient(client: string): Promise<Limited> {
    return this.chargeClient(client);
  }

  /** The second half of `message`, once its client's charge passed: its IP and its tenant, at once. */
  async messageShared(who: { ip: string; tenant: string }): Promise<Limited> {
    // the IP, fair-share and tenant charges go out together (in Redis: one round trip); a message the
    // IP limit refuses is refunded to the tenant's two counters before the answer, as if it never reached them
    const shareKey = `${who.tenant}|${who.ip}`;
    const charges = await Promise.all([this.chargeIp(who.ip), this.chargeShare(shareKey), this.chargeTenant(who.tenant), this.chargeCeiling(who.tenant)]);
    const verdict = sharedVerdict(charges);
    // the ceiling counts only what was let through
    if (verdict !== null && !verdict.ok) await this.ceiling.reward(who.tenant, 1);
    if (verdict !== null) return verdict;
    await Promise.all([this.tenantIp.reward(shareKey, 1), this.tenant.reward(who.tenant, 1), this.ceiling.reward(who.tenant, 1)]);
    return charges[0];
  }

  /** Charges one resume or transcript read to its IP, then (unless the IP's refused it) to its session. */
  async read(who: { ip: string; session: string }): Promise<Limited> {
    const byIp = await this.chargeReadIp(who.ip);
    return byIp.ok ? this.chargeReadSession(who.session) : byIp;
  }

  /** Charges one new session to an IP. */
  async start(ip: string): Promise<Limited> {
    return this.chargeStart(ip);
  }

  /** Charges one socket connection to an IP. */
  async connect(ip: string): Promise<Limited> {
    return this.chargeConnect(ip);
  }

  /**
   * Admits an admin request: the right key always passes; a wrong one is
   * charged to its address and, past the limit, answered with a wait
   * (so failures slow down the failing client, never the key's holder).
   */
  async admin(ip: string, keyMatches: boolean): Promise<{ ok: true } | { ok: false; limited: boolean; retryAfterMs: number }> {
    if (keyMatches) return { ok: true };
    const blocked = await this.adminBlocked(ip);
    if (!blocked.ok) return { ok: false, limited: true, retryAfterMs: blocked.retryAfterMs };
    await this.adminFailed(ip);
    return { ok: false, limited: false, retryAfterMs: 0 };
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
}
