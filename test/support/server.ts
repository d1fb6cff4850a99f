import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../server/config.ts';
import { startServer, type RunningServer, type ServerOverrides } from '../../server/main.ts';
import type { RateLimitSettings } from '../../server/transport/rate-limits.ts';

// A real server on 127.0.0.1 with a free port, the repository's flows and a
// throwaway data directory, for the end-to-end tests.

/** The repository's flows folder. */
export const REPO_FLOWS = fileURLToPath(new URL('../../flows/', import.meta.url));
/** An origin the demo tenants allow (flows/tenants/*\/tenant.json). */
export const DEMO_ORIGIN = 'http://localhost:3000';
/** The admin key test servers start with. */
export const TEST_ADMIN_KEY = 'test-admin-key-0123456789abcdef';

/** Limits high enough that only the tests about limits meet them. */
export const RELAXED_LIMITS: RateLimitSettings = {
  perSocket: { points: 1_000, seconds: 1 },
  perIp: { points: 10_000, seconds: 1 },
  perTenant: { points: 10_000, seconds: 1 },
  tenantFairShare: { points: 10_000, seconds: 1 },
  readsPerIp: { points: 10_000, seconds: 60 },
  readsPerSession: { points: 10_000, seconds: 60 },
  startsPerIp: { points: 10_000, seconds: 60 },
  connectsPerIp: { points: 10_000, seconds: 60 },
  adminFailuresPerIp: { points: 10_000, seconds: 60 },
};

export interface TestServerOptions {
  /** Reuse a data directory (a restart); default: a new temp directory, removed by dispose(). */
  dataDir?: string;
  store?: 'lowdb' | 'memory';
  /** null: start without ADMIN_KEY. */
  adminKey?: string | null;
  rateLimits?: Partial<RateLimitSettings>;
  /** More server environment (TRUST_PROXY, METRICS_TOKEN, …). */
  env?: Record<string, string>;
  overrides?: ServerOverrides;
}

/** A running test server. */
export interface TestServer extends RunningServer {
  dataDir: string;
  /** Closes this server and starts another on the same data directory (a new port). */
  restart(): Promise<TestServer>;
  /** Closes the server and removes the data directory it created. */
  dispose(): Promise<void>;
}

/** Starts a server for a test. */
export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  const owned = opts.dataDir === undefined;
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'questline-e2e-'));
  const config = loadConfig({
    PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, FLOWS_DIR: REPO_FLOWS, STORE: opts.store ?? 'lowdb', LOG_LEVEL: 'silent',
    ...(opts.adminKey === null ? {} : { ADMIN_KEY: opts.adminKey ?? TEST_ADMIN_KEY }),
    ...opts.env,
  });
  const server = await startServer(config, { rateLimits: { ...RELAXED_LIMITS, ...opts.rateLimits }, ...opts.overrides });
  return {
    ...server,
    dataDir,
    async restart() {
      await server.close();
      return startTestServer({ ...opts, dataDir });
    },
    async dispose() {
      await server.close();
      if (owned) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
