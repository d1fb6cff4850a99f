import { z } from 'zod';
import { operatorKeyHash, type OperatorKey } from './transport/admin-access.ts';
import { parseTrustProxy } from './transport/client-address.ts';
import { DEFAULT_RATE_LIMITS, type RateLimitSettings } from './transport/rate-limits.ts';
import type { TenantCpuSettings } from './conversation/tenant-cpu.ts';

// The server's settings, read from the environment once, here and nowhere
// else (interfaces.md "Server environment"). Everything below main.ts gets a
// parsed Config; nothing else reads process.env.

/** An environment variable that is unset or blank reads as absent (`FOO=` in a .env file). */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema.optional());

const withDefault = <T extends z.ZodType>(schema: T, fallback: z.input<T>) =>
  z.preprocess((v) => (v === undefined || (typeof v === 'string' && v.trim() === '') ? fallback : v), schema);

/** The parsed environment. */
export const ConfigSchema = z.object({
  /** TCP port; 0 picks a free one (tests). */
  PORT: withDefault(z.coerce.number().int().min(0).max(65535), 3000),
  /** Interface to bind: 127.0.0.1 keeps the server local; HOST=0.0.0.0 exposes it on every interface. */
  HOST: withDefault(z.string().min(1), '127.0.0.1'),
  /** Sessions, transcripts and flow revisions (LowdbStore; one server per directory). */
  DATA_DIR: withDefault(z.string().min(1), './data'),
  /** global/, packs/ and tenants/ flows. */
  FLOWS_DIR: withDefault(z.string().min(1), './flows'),
  /** Secret for the admin endpoints and the /operator namespace; without it they refuse every request. */
  ADMIN_KEY: optional(z.string().min(16, 'ADMIN_KEY must be at least 16 characters (it guards every session of every tenant)')),
  /**
   * Named operators, each with a key of their own: `name=key` or
   * `name=sha256:<hex of the key's SHA-256>` pairs separated by commas. They
   * may do what the admin key does; the audit log records their name.
   */
  OPERATOR_KEYS: optional(z.string().transform((v, ctx) => {
    try {
      return parseOperatorKeys(v);
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: `OPERATOR_KEYS: ${(e as Error).message}` });
      return z.NEVER;
    }
  })),
  /** Turns on Claude extraction (hybrid: offline rules first, the model when a message needs understanding). */
  ANTHROPIC_API_KEY: optional(z.string().min(1)),
  /** The model when a tenant's `llm.model` does not say. */
  ANTHROPIC_MODEL: withDefault(z.string().min(1), 'claude-haiku-4-5'),
  /** Another endpoint for the Anthropic API (a proxy, or a local fake in tests). */
  ANTHROPIC_BASE_URL: optional(z.url()),
  /** Session store: lowdb (files under DATA_DIR, one server), memory (lost on exit), redis (several instances share REDIS_URL). */
  STORE: withDefault(z.enum(['lowdb', 'memory', 'redis']), 'lowdb'),
  /** redis://[user:password@]host:port[/db] (or rediss:// for TLS); required with STORE=redis. */
  REDIS_URL: optional(z.string().regex(/^rediss?:\/\/.+/, 'REDIS_URL must be a redis:// or rediss:// URL')),
  /** Prefix of every Redis key, so several deployments can share one Redis (default ql:). */
  REDIS_PREFIX: withDefault(z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'REDIS_PREFIX: 1-64 characters of A-Z a-z 0-9 _ . : -'), 'ql:'),
  /** Model calls per UTC day across every tenant, per server process; reached, turns go to the offline rules. Default 20,000; 0: no cap. */
  LLM_DAILY_CALLS: withDefault(z.coerce.number().int().min(0), 20_000),
  /** Model input+output tokens per UTC day across every tenant, per server process. Default 20,000,000; 0: no cap. */
  LLM_DAILY_TOKENS: withDefault(z.coerce.number().int().min(0), 20_000_000),
  /** Transcript entries a session may hold; past it visitor messages get `session_full`. */
  SESSION_MAX_ENTRIES: withDefault(z.coerce.number().int().positive(), 1000),
  LOG_LEVEL: withDefault(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info'),
  /**
   * Which proxies may name the client in X-Forwarded-For (express's `trust proxy`):
   * a hop count (1: the one proxy in front), a comma-separated list of
   * addresses/CIDRs/loopback/linklocal/uniquelocal, or true/false. Unset: the
   * socket's own address is the client's.
   */
  TRUST_PROXY: optional(z.string().transform((v, ctx) => {
    try {
      return parseTrustProxy(v);
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: `TRUST_PROXY: ${(e as Error).message} (a hop count, true/false, or addresses/CIDRs separated by commas)` });
      return z.NEVER;
    }
  })),
  /** Rate limits to change from their defaults: `perIp=40/1,perTenant=500/1` (points per seconds; names as in DEFAULT_RATE_LIMITS). */
  RATE_LIMITS: optional(z.string().transform((v, ctx) => {
    try {
      return parseRateLimits(v);
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: `RATE_LIMITS: ${(e as Error).message}` });
      return z.NEVER;
    }
  })),
  /** Bearer token for /metrics; unset: /metrics answers only requests from loopback. */
  METRICS_TOKEN: optional(z.string().min(16, 'METRICS_TOKEN must be at least 16 characters')),
  /** Erase sessions with no activity for this many days (sweep at start, then hourly); unset keeps them. */
  RETENTION_DAYS: optional(z.coerce.number().positive()),
  /** 1: start even when a tenant.json is invalid, leaving that tenant offline (logged as an error); default: refuse to start, naming the file and field. */
  SKIP_INVALID_TENANTS: optional(z.enum(['1', '0', 'true', 'false']).transform((v) => v === '1' || v === 'true')),
  /** 0: a Studio publish keeps the text under DATA_DIR and leaves FLOWS_DIR alone (export with `questline export-published`); default: written back to FLOWS_DIR when writable. */
  FLOWS_WRITE_BACK: optional(z.enum(['1', '0', 'true', 'false']).transform((v) => v === '1' || v === 'true')),
  /**
   * Each tenant's share of the event loop: `ms/burst`, milliseconds of turn work a second and how far a tenant
   * may run ahead (default 400/1000); past it that tenant's turns are `busy` (429) and other tenants' are not. 0: no budget.
   */
  TENANT_CPU: optional(z.string().regex(/^(0|\d{1,6}\/\d{1,7})$/, 'TENANT_CPU: ms/burst, e.g. 400/1000 (0 turns the budget off)')
    .transform((v): TenantCpuSettings => {
      if (v === '0') return { msPerSecond: 0, burstMs: 0 };
      const [ms, burst] = v.split('/').map(Number) as [number, number];
      return { msPerSecond: ms, burstMs: burst };
    })),
  /** Open connections one client address may hold (IPv6 by /64; a trusted proxy is exempt); past it a new one is closed at once. 0: no cap. */
  CONNECTIONS_PER_ADDRESS: withDefault(z.coerce.number().int().min(0), 64),
  /** How often idle sessions and waiting interrupts are checked for their timeouts, in seconds. */
  SWEEP_INTERVAL_S: z.coerce.number().positive().default(30),
});

/** The server's configuration. */
export type Config = z.infer<typeof ConfigSchema>;

/** A configuration problem, worded for the person starting the server. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Parses the environment (default: `process.env`); throws a ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(environment)'}: ${i.message}`);
    throw new ConfigError(`invalid server environment:\n${lines.join('\n')}`);
  }
  const { ADMIN_KEY: admin, OPERATOR_KEYS: operators } = parsed.data;
  const same = admin ? operators?.find((o) => o.sha256.equals(operatorKeyHash(admin))) : undefined;
  if (same) throw new ConfigError(`invalid server environment:\n  OPERATOR_KEYS: operator '${same.name}' has the ADMIN_KEY as their key; give them a key of their own`);
  return parsed.data;
}

const OPERATOR_NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

/** Parses OPERATOR_KEYS (`ana=key1,ben=sha256:…`): names unique and not "admin", plain keys 16 characters or more. */
export function parseOperatorKeys(value: string): OperatorKey[] {
  const seen = new Set<string>();
  const hashes = new Map<string, string>();
  return value.split(/[,\s]+/).filter(Boolean).map((entry, i) => {
    const eq = entry.indexOf('=');
    const name = eq > 0 ? entry.slice(0, eq) : '';
    const key = eq > 0 ? entry.slice(eq + 1) : '';
    // never echo the entry: it may be a key
    if (!OPERATOR_NAME.test(name)) throw new Error(`entry ${i + 1} is not name=key (a name of letters, digits and . _ @ -)`);
    if (name.toLowerCase() === 'admin') throw new Error('the name "admin" is the ADMIN_KEY holder\'s; choose another');
    if (seen.has(name)) throw new Error(`operator '${name}' is listed twice`);
    seen.add(name);
    if (!/^sha256:/i.test(key) && key.length < 16) throw new Error(`${name}'s key must be at least 16 characters, or sha256:<64 hex digits>`);
    if (/^sha256:/i.test(key) && !/^sha256:[0-9a-f]{64}$/i.test(key)) throw new Error(`${name}'s key: sha256: must be followed by 64 hex digits`);
    const sha256 = operatorKeyHash(key);
    // a shared key would make the audit log name the wrong person
    const twin = hashes.get(sha256.toString('hex'));
    if (twin) throw new Error(`operators '${twin}' and '${name}' have the same key; each operator needs a key of their own`);
    hashes.set(sha256.toString('hex'), name);
    return { name, sha256 };
  });
}

/** Parses RATE_LIMITS (`perIp=40/1,readsPerIp=120/60`): known names, whole positive points and seconds. */
export function parseRateLimits(value: string): Partial<RateLimitSettings> {
  const names = [...Object.keys(DEFAULT_RATE_LIMITS), 'tenantCeiling'] as Array<keyof RateLimitSettings>;
  const out: Partial<RateLimitSettings> = {};
  for (const entry of value.split(/[,\s]+/).filter(Boolean)) {
    const m = /^([A-Za-z]+)=(\d{1,9})\/(\d{1,9})$/.exec(entry);
    if (!m) throw new Error(`'${entry}' is not name=points/seconds (e.g. perIp=40/1)`);
    const name = names.find((n) => n === m[1]);
    if (!name) throw new Error(`no limit '${m[1]}' (one of ${names.join(', ')})`);
    if (out[name]) throw new Error(`${name} is given twice; give each limit once`);
    const points = Number(m[2]);
    const seconds = Number(m[3]);
    if (points < 1 || seconds < 1) throw new Error(`${name}: points and seconds must be 1 or more`);
    out[name] = { points, seconds };
  }
  return out;
}
