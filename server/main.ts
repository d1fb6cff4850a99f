import { existsSync, realpathSync } from 'node:fs';
import { createServer, type RequestListener, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server as SocketServer } from 'socket.io';
import { loadConfig, ConfigError, type Config } from './config.ts';
import { withLocalAdminKey } from './local-admin-key.ts';
import { flowsDirProblem } from './catalog/flows-dir.ts';
import { guardConnections } from './transport/connection-guard.ts';
import type { ActionRegistry, CallEnv } from './conversation/actions.ts';
import type { Backend } from './delivery/backend.ts';
import type { NamedValidator } from './engine/types.ts';
import type { Extractor } from './extract/extractor.ts';
import type { Drafter } from './extract/anthropic/draft-flow.ts';
import type { ConversationService } from './conversation/service.ts';
import type { TenantDirectory } from './catalog/tenants.ts';
import { ANTHROPIC_PACKAGE, importOptional, isMissingPackage, MissingPeerError, notInstalledMessage } from './shared/optional-peer.ts';
import { createLogger, type Logger } from './observability/logger.ts';
import type { Metrics } from './observability/metrics.ts';
import type { RateLimitSettings } from './transport/rate-limits.ts';
import type { SessionStore } from './store/session-store.ts';
import type { QuestlineConfig } from './project-config.ts';
import type { Composed } from './questline.ts';

/** A session's model calls when its tenant file sets no `llm.budget`. */
export const DEFAULT_SESSION_LLM = { calls: 60 } as const;
/** A tenant's model calls per UTC day when its tenant file sets no `llm.daily`. */
export const DEFAULT_TENANT_DAILY_LLM = { calls: 5_000 } as const;

/** The modules the server needs once it listens (see server-parts.ts). */
type Parts = typeof import('./server-parts.ts');

// `npm start` and `questline serve`: config (environment + questline.config) →
// backend → createQuestline's composition → one http.Server → listen.
// Redis and the Anthropic SDK are imported only when configured, so the
// server runs without those optional peers installed.

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
  /** Action handlers flows call; default: the project config's (questline.config in the working directory). */
  actions?: ActionRegistry;
  /** Named validators flows use; default: the project config's. */
  validators?: Readonly<Record<string, NamedValidator>>;
  /** The extractor for every tenant, in place of the offline rules or Claude (ANTHROPIC_API_KEY); default: the project config's. */
  extractor?: Extractor;
  /**
   * The project's implementations: a questline.config file to load, `false`
   * for none, or (default) the one in the working directory if there is one.
   * Fields given here directly (actions, validators, extractor) win over it.
   */
  projectConfig?: string | false;
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

/**
 * An invalid tenant.json would take its tenant offline without a word: the
 * server refuses to start, naming each file, position and field, unless
 * SKIP_INVALID_TENANTS=1, when each is logged as an error and left out.
 */
function refuseInvalidTenants(catalog: TenantDirectory, skip: boolean, logger: Logger, { formatDiagnostic }: Parts): void {
  if (catalog.invalid.length === 0) return;
  const lines = catalog.invalid.flatMap((t) => t.diagnostics.map((d) => `  ${formatDiagnostic(d)}`));
  if (!skip) {
    throw new StartupError(`invalid tenant file${catalog.invalid.length > 1 ? 's' : ''} (${catalog.invalid.map((t) => t.id).join(', ')}):\n${lines.join('\n')}\n`
      + 'Fix the file (questline validate FLOWS_DIR shows every problem), or set SKIP_INVALID_TENANTS=1 to start without these tenants.');
  }
  for (const t of catalog.invalid) {
    logger.error({ tenant: t.id, file: t.file, problems: t.diagnostics.map(formatDiagnostic) }, `tenant ${t.id} is offline: its tenant.json is invalid (SKIP_INVALID_TENANTS=1)`);
  }
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
  const wrongDir = flowsDirProblem(flowsDir);
  if (wrongDir) throw new StartupError(`FLOWS_DIR: ${wrongDir}`);

  // the listener first: /healthz answers while the store opens and the flows compile; anything else gets a retryable 503 until then
  let handle: RequestListener = starting;
  const http = createServer((req, res) => handle(req, res));
  // header and idle timeouts under Node's 60 s, and a cap on the connections one address holds open
  const refusedAt = new Map<string, number>();
  guardConnections(http, { perAddress: config.CONNECTIONS_PER_ADDRESS, ...(config.TRUST_PROXY !== undefined ? { trustProxy: config.TRUST_PROXY } : {}),
    onRefused: (address) => {
      const now = Date.now();
      if ((refusedAt.get(address) ?? 0) > now - 10_000) return;
      if (refusedAt.size > 1000) refusedAt.clear();
      refusedAt.set(address, now);
      logger.warn({ address, cap: config.CONNECTIONS_PER_ADDRESS }, `connections from ${address} past CONNECTIONS_PER_ADDRESS (${config.CONNECTIONS_PER_ADDRESS}) are closed`);
    } });
  await listen(http, config);
  const url = urlOf(config, http);
  logger.info({ host: config.HOST, port: (http.address() as AddressInfo).port, url }, `accepting connections on ${url}: /healthz answers while the flows load`);
  const stopListening = () => new Promise<void>((resolve) => {
    http.closeAllConnections();
    http.close(() => resolve());
  });

  let project: QuestlineConfig;
  let backend: Backend;
  let parts: Parts;
  try {
    parts = await import('./server-parts.ts');
    project = await projectImplementations(overrides, parts);
    backend = overrides.backend ?? (await openBackend(config, dataDir, logger));
  } catch (err) {
    await stopListening();
    throw err;
  }
  const kind = backend.kind;
  logger.info({ store: kind, ...(kind === 'lowdb' ? { dataDir } : {}), ...(kind === 'redis' ? { prefix: config.REDIS_PREFIX } : {}) }, `session store: ${kind}`);
  const actions = overrides.actions ?? project.actions;
  const validators = overrides.validators ?? project.validators;
  let questline: Composed;
  let catalog: TenantDirectory;
  try {
    // revisions are archived beside the data unless nothing is kept on disk
    const { MemoryArchive, DirectoryArchive, TenantDirectory, namesOf, Metrics, FilePublishLog, compose } = parts;
    const archive = backend.kind === 'memory' ? new MemoryArchive() : new DirectoryArchive(join(dataDir, 'revisions'));
    // tenants and keys now, their flows compiled once the server serves (compileInBackground below)
    catalog = TenantDirectory.open(flowsDir, archive, namesOf({ ...(actions ? { actions } : {}), ...(validators ? { validators } : {}) }));
    refuseInvalidTenants(catalog, config.SKIP_INVALID_TENANTS === true, logger, parts);
    const metrics = new Metrics({ ...(overrides.idleAfterMs !== undefined ? { idleAfterMs: overrides.idleAfterMs } : {}) });
    const tenants = catalog;
    questline = await compose({
      catalog, backend, logger,
      ...(await extractorOption(config, overrides, project, catalog, logger, metrics)),
      metrics,
      health: () => ({ flowsLoading: tenants.loading() }),
      // the Studio's publishes: Redis shares its own log between instances; lowdb keeps it under DATA_DIR
      ...(backend.kind === 'lowdb' ? { publishLog: new FilePublishLog(join(dataDir, 'studio', 'publishes.json')) } : {}),
      ...(config.FLOWS_WRITE_BACK === false ? { flowsWriteBack: false } : {}),
      maxTranscriptEntries: config.SESSION_MAX_ENTRIES,
      ...(config.TRUST_PROXY !== undefined ? { trustProxy: config.TRUST_PROXY } : {}),
      ...(config.METRICS_TOKEN ? { metricsToken: config.METRICS_TOKEN } : {}),
      ...(actions ? { actions } : {}),
      ...(validators ? { validators } : {}),
      ...(overrides.env ? { env: overrides.env } : {}),
      ...(config.ADMIN_KEY ? { adminKey: config.ADMIN_KEY } : {}),
      ...(config.OPERATOR_KEYS?.length ? { operatorKeys: config.OPERATOR_KEYS } : {}),
      ...(config.RATE_LIMITS || overrides.rateLimits ? { rateLimits: { ...config.RATE_LIMITS, ...overrides.rateLimits } } : {}),
      ...(config.RETENTION_DAYS ? { retentionDays: config.RETENTION_DAYS } : {}),
      sweepIntervalMs: config.SWEEP_INTERVAL_S * 1000,
      ...(config.TENANT_CPU ? { tenantCpu: config.TENANT_CPU } : {}),
      ...(overrides.random ? { random: overrides.random } : {}),
      ...(overrides.idleAfterMs !== undefined ? { idleAfterMs: overrides.idleAfterMs } : {}),
    });
  } catch (err) {
    await backend.close().catch(() => {});
    await stopListening();
    throw err;
  }
  handle = questline.handler;
  const running = serve(config, questline, http, url);
  // each tenant's flows are served as they compile (smallest first); a flow still loading answers flow_unavailable (503, retryable)
  const t0 = performance.now();
  await catalog.compileInBackground((tenant, flow, served) => {
    if (!served) logger.warn({ tenant, flow }, `tenant ${tenant}: flow ${flow} is not served (its problems follow)`);
  });
  parts.logTenants(catalog, logger);
  logger.info({ host: config.HOST, port: running.port, url, flowsMs: Math.round(performance.now() - t0) }, `Questline listening on ${url} — demo at /`);
  return running;
}

/** What the listener answers before the composition is built: /healthz, and a retryable 503 for the rest. */
const starting: RequestListener = (req, res) => {
  const path = (req.url ?? '').split('?')[0];
  const health = path === '/healthz' || path === '/api/v1/healthz';
  res.statusCode = health ? 200 : 503;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (!health) res.setHeader('Retry-After', '1');
  res.end(JSON.stringify(health ? { ok: true, starting: true }
    : { error: { code: 'flow_unavailable', message: 'the server is starting; try again in a moment' } }));
};

/** The URL the server is reached at, for the log. */
function urlOf(config: Config, http: HttpServer): string {
  const port = (http.address() as AddressInfo).port;
  const shownHost = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  return `http://${shownHost}:${port}`;
}

/** The backend STORE names (memory, lowdb under dataDir, redis at REDIS_URL), opened; failures worded for the person starting it. */
export async function openBackend(config: Config, dataDir: string, logger: Logger): Promise<Backend> {
  const { createEmbeddedBackend } = await import('./delivery/backend.ts');
  if (config.STORE === 'memory') return createEmbeddedBackend({ memory: true });
  if (config.STORE === 'redis') {
    try {
      // loaded only for STORE=redis: ioredis and the streams adapter are optional peers
      const { createRedisBackend } = await import('./redis/index.ts');
      return await createRedisBackend({
        url: config.REDIS_URL!, prefix: config.REDIS_PREFIX,
        onLockLost: (sessionId) => logger.warn({ sessionId }, 'turn lock expired while the turn ran; its save is fenced by the session version'),
      });
    } catch (err) {
      const missing = ['ioredis', '@socket.io/redis-streams-adapter'].find((name) => isMissingPackage(err, name));
      if (missing) throw new StartupError(notInstalledMessage('STORE=redis', missing));
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

/** The project config startServer runs with (see ServerOverrides.projectConfig). */
async function projectImplementations(overrides: ServerOverrides, { loadProjectConfig, ProjectConfigError }: Parts): Promise<QuestlineConfig> {
  if (overrides.projectConfig === false) return {};
  try {
    return (await loadProjectConfig(overrides.projectConfig !== undefined ? { file: overrides.projectConfig } : {})).config;
  } catch (err) {
    if (err instanceof ProjectConfigError) throw new StartupError(err.message);
    throw err;
  }
}

/**
 * The extractor option: one given by the caller or the project config, else
 * Claude per tenant when ANTHROPIC_API_KEY is set (the SDK loaded only then),
 * else none (the offline rules).
 */
async function extractorOption(config: Config, overrides: ServerOverrides, project: QuestlineConfig, tenants: TenantDirectory, logger: Logger, metrics: Metrics):
  Promise<{ extractor?: Extractor | ((tenant: string) => Extractor); drafter?: Drafter }> {
  const given = overrides.extractor ?? project.extractor;
  if (given) return { extractor: given };
  if (!config.ANTHROPIC_API_KEY) return {};
  const [{ AnthropicExtractor }, { DailySpend }] = await Promise.all([
    importOptional(() => import('./extract/anthropic/index.ts'), ANTHROPIC_PACKAGE, 'ANTHROPIC_API_KEY (Claude extraction)')
      .catch((err: unknown) => { throw err instanceof MissingPeerError ? new StartupError(err.message) : err; }),
    import('./extract/budget.ts'),
  ]);
  // today's model spend of every tenant and in total (per process), for the daily caps
  const ledger = new DailySpend();
  const global = { ...(config.LLM_DAILY_CALLS ? { calls: config.LLM_DAILY_CALLS } : {}), ...(config.LLM_DAILY_TOKENS ? { tokens: config.LLM_DAILY_TOKENS } : {}) };
  // one extractor per tenant: each keeps its own usage figures and budget; composition adds the extraction metrics
  const extractors = new Map<string, Extractor>();
  const perTenant = (tenant: string): Extractor => {
    let x = extractors.get(tenant);
    if (!x) {
      const llm = tenants.tenant(tenant)?.llm;
      x = new AnthropicExtractor({
        apiKey: config.ANTHROPIC_API_KEY!, model: llm?.model ?? config.ANTHROPIC_MODEL,
        ...(config.ANTHROPIC_BASE_URL ? { baseURL: config.ANTHROPIC_BASE_URL } : {}),
        // caps are on by default (docs/operations.md "Model spend"); a tenant file's own replace them
        budget: llm?.budget ?? DEFAULT_SESSION_LLM, daily: llm?.daily ?? DEFAULT_TENANT_DAILY_LLM, global, tenant, ledger,
        onEvent: (e) => {
          if (e.type === 'llm_budget_exhausted') {
            metrics.llmBudgetExhausted.inc({ scope: e.scope });
            // one warning when a tenant's or the global cap is first reached today (and per session turn)
            if (e.first) logger.warn({ tenant, scope: e.scope, sessionId: e.session }, `llm budget spent (${e.scope}): turns use the offline rules`);
            return;
          }
          // a budget fallback was just logged; other fallbacks are worth a warning; per-message events at debug (the metrics count them)
          const level = e.type === 'llm_fallback' && e.reason !== 'budget' ? 'warn' : 'debug';
          logger[level]({ tenant, llm: e.type, ...('reason' in e ? { reason: e.reason } : {}) }, `llm ${e.type}`);
        },
      });
      extractors.set(tenant, x);
    }
    return x;
  };
  // the Studio's "Describe your intake": the same key, model and ledger, so a draft counts against the tenant's daily model budget
  const drafter: Drafter = async (req) => {
    const [{ default: Anthropic }, { draftFlow }, { capped }, { compileText }, { flowDocumentJsonSchema }] = await Promise.all([
      import('@anthropic-ai/sdk'), import('./extract/anthropic/draft-flow.ts'), import('./extract/budget.ts'), import('./flow/document.ts'), import('./flow/json-schema.ts'),
    ]);
    const client = new Anthropic({ apiKey: config.ANTHROPIC_API_KEY!, ...(config.ANTHROPIC_BASE_URL ? { baseURL: config.ANTHROPIC_BASE_URL } : {}), maxRetries: 1 });
    const tenant = req.tenant ?? '~studio';
    const daily = req.tenant ? tenants.tenant(req.tenant)?.llm?.daily : undefined;
    return draftFlow({
      client, model: (req.tenant ? tenants.tenant(req.tenant)?.llm?.model : undefined) ?? config.ANTHROPIC_MODEL, description: req.description, ...(req.locale ? { locale: req.locale } : {}),
      schema: flowDocumentJsonSchema(), check: (text) => compileText(text, 'draft.flow.yaml').diagnostics,
      admit: () => !capped(ledger.get(tenant), daily) && !capped(ledger.get(), global),
      onUsage: (tokens) => ledger.add(tenant, 1, tokens),
    });
  };
  return { extractor: perTenant, drafter };
}

/** Serves the composition on the http.Server that already listens at HOST:PORT. */
function serve(config: Config, questline: Composed, http: HttpServer, url: string): RunningServer {
  const { logger } = questline;
  const io = questline.attach(http);
  if (!config.ADMIN_KEY) logger.info('ADMIN_KEY is not set: admin endpoints and /operator refuse every request');
  const port = (http.address() as AddressInfo).port;

  let closing: Promise<void> | undefined;
  const close = () => (closing ??= (async () => {
    logger.info('shutting down');
    http.closeIdleConnections();
    await questline.shutdown(() => http.closeAllConnections());
    logger.info('stopped');
  })());

  const { service, tenants, store, metrics } = questline;
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

/** `npm start` and `questline serve`: read the environment and the project config, start, stop cleanly on SIGINT/SIGTERM. */
export async function runFromEnv(opts: { configFile?: string } = {}): Promise<void> {
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
    server = await startServer(local.config, opts.configFile !== undefined ? { projectConfig: opts.configFile } : {});
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
