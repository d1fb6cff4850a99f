import { existsSync, realpathSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server as SocketServer } from 'socket.io';
import { loadConfig, ConfigError, type Config } from './config.ts';
import { withLocalAdminKey } from './local-admin-key.ts';
import { systemCallEnv, type ActionRegistry, type CallEnv } from './conversation/actions.ts';
import { DirectoryArchive, MemoryArchive } from './catalog/registry.ts';
import { DeliveryWorker } from './delivery/delivery.ts';
import { deliveryHook } from './delivery/hook.ts';
import type { DeliveryLog } from './delivery/log.ts';
import { createEmbeddedBackend, type Backend } from './delivery/backend.ts';
import { sampleActions } from './conversation/sample-actions.ts';
import { AnthropicExtractor } from './extract/anthropic/index.ts';
import type { Extractor } from './extract/extractor.ts';
import { ConversationService, type Broadcast } from './conversation/service.ts';
import { TenantDirectory } from './catalog/tenants.ts';
import { createApp } from './transport/http/app.ts';
import { InFlight } from './transport/inflight.ts';
import { OriginGate } from './transport/origins.ts';
import { createLogger, type Logger } from './observability/logger.ts';
import { Metrics } from './observability/metrics.ts';
import { attachChat } from './transport/socket/chat.ts';
import { compileTrust } from './transport/client-address.ts';
import { attachOperator } from './transport/socket/operator.ts';
import { RateLimits, type RateLimitSettings } from './transport/rate-limits.ts';
import { createSocketServer, roomBroadcast } from './transport/socket/socket-server.ts';
import { createRedisBackend } from './redis/index.ts';
import { startRetention } from './store/retention.ts';
import type { SessionStore } from './store/session-store.ts';

// The composition root: config → backend (store, lock, outbox) → tenants and flows → service →
// express + socket.io on one http.Server → listen. `npm start` runs this file;
// tests call startServer() with port 0 and their own data directory.

const DEMO_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'client', 'demo');

/** What tests and embedders may replace. */
export interface ServerOverrides {
  /**
   * Storage to use instead of the one STORE names (the server closes it on
   * close()). A whole backend, never a bare store: a store alone would leave
   * the server to guess its turn lock and outbox. For a store of your own in
   * one process, say so: `createEmbeddedBackend({ store, outbox: new MemoryOutbox() })`.
   */
  backend?: Backend;
  flowsDir?: string;
  dataDir?: string;
  actions?: ActionRegistry;
  /** Clock and timers for action calls and session timestamps. */
  env?: CallEnv;
  logLevel?: Config['LOG_LEVEL'];
  logger?: Logger;
  rateLimits?: Partial<RateLimitSettings>;
  /** Random bytes for session ids and tokens. */
  random?: (n: number) => Buffer;
  /** How long a session may go without a turn before the metrics count it as idle (drop-off). */
  idleAfterMs?: number;
}

/** A running server. */
export interface RunningServer {
  url: string;
  host: string;
  port: number;
  config: Config;
  service: ConversationService;
  tenants: TenantDirectory;
  store: SessionStore;
  metrics: Metrics;
  logger: Logger;
  io: SocketServer;
  http: HttpServer;
  /** Stops taking connections, disconnects sockets, lets turns in progress finish, closes the store; idempotent. */
  close(): Promise<void>;
}

/** A reason the server cannot start, worded for the person starting it. */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

/** Starts the server; resolves once it listens. */
export async function startServer(config: Config, overrides: ServerOverrides = {}): Promise<RunningServer> {
  const logger = overrides.logger ?? createLogger(overrides.logLevel ?? config.LOG_LEVEL);
  logger.info(
    config.ANTHROPIC_API_KEY ? { extraction: 'anthropic', model: config.ANTHROPIC_MODEL } : { extraction: 'offline' },
    config.ANTHROPIC_API_KEY
      ? `Claude extraction (${config.ANTHROPIC_MODEL}, a tenant's llm.model overrides it), offline rules first for exact answers`
      : 'offline extraction (rules): no LLM is called (set ANTHROPIC_API_KEY for Claude extraction)',
  );
  if ('store' in overrides) {
    // the field this replaced: refuse it rather than quietly pairing the store with an in-memory outbox and a local lock
    throw new StartupError('startServer: pass `backend` (e.g. createEmbeddedBackend({ store, outbox })), not `store`');
  }
  if (config.STORE === 'redis' && !config.REDIS_URL && !overrides.backend) {
    throw new StartupError('STORE=redis needs REDIS_URL (e.g. redis://127.0.0.1:6379); every instance points at the same Redis');
  }
  const dataDir = resolve(overrides.dataDir ?? config.DATA_DIR);
  const flowsDir = resolve(overrides.flowsDir ?? config.FLOWS_DIR);
  if (!existsSync(flowsDir)) throw new StartupError(`FLOWS_DIR ${flowsDir} does not exist`);

  const backend = overrides.backend ?? (await openBackend(config, dataDir, logger));
  const kind = backend.kind;
  logger.info({ store: kind, ...(kind === 'lowdb' ? { dataDir } : {}), ...(kind === 'redis' ? { prefix: config.REDIS_PREFIX } : {}) }, `session store: ${kind}`);
  try {
    return await serve(config, overrides, logger, backend, loadTenants(logger, backend, dataDir, flowsDir));
  } catch (err) {
    await backend.close().catch(() => {});
    throw err;
  }
}

/** The backend STORE names, its failures worded for the person starting the server. */
async function openBackend(config: Config, dataDir: string, logger: Logger): Promise<Backend> {
  if (config.STORE === 'memory') return createEmbeddedBackend({ memory: true });
  if (config.STORE === 'redis') {
    try {
      return await createRedisBackend({
        url: config.REDIS_URL!, prefix: config.REDIS_PREFIX,
        onLockLost: (sessionId) => logger.warn({ sessionId }, 'turn lock expired while the turn ran; its save is fenced by the session version'),
      });
    } catch (err) {
      throw new StartupError(`cannot reach Redis at REDIS_URL: ${(err as Error).message}`);
    }
  }
  try {
    return await createEmbeddedBackend({ dataDir });
  } catch (err) {
    const e = err as Error & { code?: string };
    if (e.code === 'data_dir_in_use') throw new StartupError(`${e.message} (DATA_DIR)`);
    throw new StartupError(`cannot open the data directory ${dataDir}: ${e.message}`);
  }
}

/** Flows and tenants from FLOWS_DIR; revisions are archived beside the data unless nothing is kept on disk. */
function loadTenants(logger: Logger, backend: Backend, dataDir: string, flowsDir: string): TenantDirectory {
  const archive = backend.kind === 'memory' ? new MemoryArchive() : new DirectoryArchive(join(dataDir, 'revisions'));
  const tenants = TenantDirectory.load(flowsDir, archive);
  for (const problem of tenants.problems) logger.warn({ flowsDir }, `flow problem: ${problem}`);
  for (const id of tenants.ids()) {
    const t = tenants.tenant(id)!;
    const served = tenants.flows(id);
    const missing = t.flows.filter((f) => !served.includes(f));
    logger[missing.length ? 'warn' : 'info']({ tenant: id, flows: served, notServed: missing, origins: t.origins }, `tenant ${id}: ${served.length} of ${t.flows.length} flows served`);
  }
  if (tenants.ids().length === 0) logger.warn({ flowsDir }, 'no tenants: add flows/tenants/<tenant>/tenant.json');
  return tenants;
}

async function serve(
  config: Config, overrides: ServerOverrides, logger: Logger, backend: Backend, tenants: TenantDirectory,
): Promise<RunningServer> {
  // endings go to the tenants' webhooks through the backend's durable outbox
  // (with Redis: one outbox for every instance, each entry leased to one worker at a time)
  const { store, outbox, kind: storeKind } = backend;
  const deliveryLog: DeliveryLog = (level, message, fields) => logger[level]({ component: 'delivery', ...fields }, message);
  const webhookFor = (tenant: string) => tenants.tenant(tenant)?.webhook;
  const worker = new DeliveryWorker({ outbox, store, webhookFor, log: deliveryLog });
  const enqueue = deliveryHook(outbox, { webhookFor, log: deliveryLog, notify: () => worker.wake() });

  const metrics = new Metrics({ ...(overrides.idleAfterMs !== undefined ? { idleAfterMs: overrides.idleAfterMs } : {}) });
  // a shared backend (Redis) spans every instance with the turn lock, the rate limits and socket.io rooms
  const limits = new RateLimits(overrides.rateLimits, ...(backend.limiters ? [backend.limiters] : []));
  const inflight = new InFlight();
  const gate = new OriginGate(tenants);
  // the service broadcasts through socket.io, which needs the http server, which needs the app, which needs the service
  let broadcast: Broadcast = () => {};

  // one extractor per tenant: each keeps its own usage figures and budget; the
  // LLM metrics come from each extraction's own report (Proposal.llm / skipped /
  // fallback: one call at most, tokens included even when its answer was malformed)
  const extractors = new Map<string, Extractor>();
  const extractorFor = config.ANTHROPIC_API_KEY
    ? (tenant: string) => {
        let x = extractors.get(tenant);
        if (!x) {
          const llm = tenants.tenant(tenant)?.llm;
          const claude = new AnthropicExtractor({
            apiKey: config.ANTHROPIC_API_KEY!, model: llm?.model ?? config.ANTHROPIC_MODEL,
            ...(config.ANTHROPIC_BASE_URL ? { baseURL: config.ANTHROPIC_BASE_URL } : {}),
            ...(llm?.budget ? { budget: llm.budget } : {}),
            // per-message events at debug (the metrics count them); a fallback is worth a warning
            onEvent: (e) => logger[e.type === 'llm_fallback' ? 'warn' : 'debug']({ tenant, llm: e.type, ...('reason' in e ? { reason: e.reason } : {}) }, `llm ${e.type}`),
          });
          x = {
            name: claude.name,
            extract: async (req) => {
              const proposal = await claude.extract(req);
              metrics.extraction(tenant, proposal);
              return proposal;
            },
          };
          extractors.set(tenant, x);
        }
        return x;
      }
    : undefined;
  const service = new ConversationService({
    store, tenants,
    ...(extractorFor ? { extractorFor } : {}),
    broadcast: (sessionId, entries, state) => broadcast(sessionId, entries, state),
    actions: overrides.actions ?? sampleActions,
    env: overrides.env ?? systemCallEnv,
    ...(overrides.random ? { random: overrides.random } : {}),
    lock: backend.lock,
    onComplete: async (c) => {
      metrics.completions.inc({ tenant: c.tenant, flow: c.flowId, status: c.status });
      // keys, never values: answers may be pii
      logger.info({ tenant: c.tenant, sessionId: c.sessionId, flow: c.flowId, status: c.status, outcome: c.outcome, answerKeys: Object.keys(c.answers) }, 'session ended');
      await enqueue(c);
    },
    // an erased session's endings leave the outbox too: undelivered ones are not sent, and no answers stay in its journal
    onErase: async (sessionId) => {
      const forgotten = await outbox.forgetSession(sessionId, Date.now());
      if (forgotten > 0) logger.info({ sessionId, outboxEntries: forgotten }, 'erased session: its outbox entries are gone too');
    },
  });

  const started = Date.now();
  const app = createApp({
    service, tenants, store, metrics, logger, limits, inflight, gate, adminKey: config.ADMIN_KEY, demoDir: DEMO_DIR,
    trustProxy: config.TRUST_PROXY ?? false, ...(config.METRICS_TOKEN ? { metricsToken: config.METRICS_TOKEN } : {}),
    health: () => ({ uptimeSeconds: Math.round((Date.now() - started) / 1000), store: storeKind, tenants: tenants.ids().length, inFlight: inflight.size }),
  });
  // the app is the server's request listener before socket.io attaches, so socket.io can take /socket.io/ requests from it
  const http = createServer(app);
  const io = createSocketServer(http, gate);
  backend.attachSockets?.(io);
  broadcast = roomBroadcast(io);
  const trust = compileTrust(config.TRUST_PROXY ?? false);
  attachChat(io, { service, tenants, metrics, logger, limits, inflight, trust });
  attachOperator(io, { service, store, metrics, logger, limits, inflight, adminKey: config.ADMIN_KEY, trust });
  if (!config.ADMIN_KEY) logger.info('ADMIN_KEY is not set: admin endpoints and /operator refuse every request');

  await listen(http, config).catch(async (err: unknown) => {
    await io.close();
    throw err;
  });
  worker.start();
  const retention = config.RETENTION_DAYS
    ? startRetention({
        store, tenants: () => tenants.ids(), days: config.RETENTION_DAYS, erase: (id) => service.erase(id),
        onSweep: ({ erased, cutoff }) => logger.info({ erased, cutoff, retentionDays: config.RETENTION_DAYS }, `retention: erased ${erased} sessions last active before ${cutoff}`),
        onError: (err) => logger.error({ err }, 'retention sweep failed'),
      })
    : null;
  const port = (http.address() as AddressInfo).port;
  const shownHost = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  const url = `http://${shownHost}:${port}`;
  logger.info({ host: config.HOST, port, url }, `Questline listening on ${url} — demo at /`);

  let closing: Promise<void> | undefined;
  const close = () => (closing ??= (async () => {
    logger.info('shutting down');
    const httpClosed = new Promise<void>((done) => {
      // disconnects every socket, stops engine.io, then closes the http server
      void io.close(() => done());
    });
    http.closeIdleConnections();
    const drained = await inflight.drain(5_000);
    if (!drained) logger.warn({ inFlight: inflight.size }, 'requests still running after 5 s; closing anyway');
    http.closeAllConnections();
    await Promise.race([httpClosed, new Promise((r) => setTimeout(r, 2_000).unref())]);
    retention?.stop();
    await worker.stop();
    await backend.close();
    logger.info('stopped');
  })());

  return { url, host: config.HOST, port, config, service, tenants, store, metrics, logger, io, http, close };
}

/** Listens on HOST:PORT; a busy port is a StartupError. */
function listen(http: HttpServer, config: Config): Promise<void> {
  return new Promise<void>((ok, fail) => {
    const onError = (err: NodeJS.ErrnoException) => {
      fail(err.code === 'EADDRINUSE'
        ? new StartupError(`port ${config.PORT} on ${config.HOST} is in use: stop the other server or set PORT`)
        : new StartupError(`cannot listen on ${config.HOST}:${config.PORT}: ${err.message}`));
    };
    http.once('error', onError);
    http.listen(config.PORT, config.HOST, () => {
      http.off('error', onError);
      ok();
    });
  });
}

/** `npm start` and `questline serve`: read the environment, start, stop cleanly on SIGINT/SIGTERM. */
export async function runFromEnv(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    process.stderr.write(`questline: ${(err as Error).message}\n`);
    process.exit(err instanceof ConfigError ? 2 : 1);
  }
  let server: RunningServer;
  let local: ReturnType<typeof withLocalAdminKey>;
  try {
    local = withLocalAdminKey(config);
    server = await startServer(local.config);
  } catch (err) {
    process.stderr.write(`questline: ${err instanceof StartupError ? err.message : (err as Error).stack}\n`);
    process.exit(1);
  }
  if (local.generated) {
    const { file, key, created } = local.generated;
    server.logger.info({ adminKeyFile: file }, `operator console at ${server.url}/admin — admin key ${key} (${created ? 'generated into' : 'read from'} ${file}; made only for a server on loopback; set ADMIN_KEY to choose your own)`);
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      process.stderr.write(`questline: ${signal} again, exiting now\n`);
      process.exit(1);
    }
    stopping = true;
    server.logger.info({ signal }, 'signal received');
    server.close().then(() => process.exit(0), (err: unknown) => {
      server.logger.error({ err }, 'shutdown failed');
      process.exit(1);
    });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

const entry = process.argv[1];
if (entry && realpathSafe(entry) === realpathSafe(fileURLToPath(import.meta.url))) void runFromEnv();

function realpathSafe(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
