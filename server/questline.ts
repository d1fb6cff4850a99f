import { TenantCpu, type TenantCpuSettings } from './conversation/tenant-cpu.ts';
import type { Server as HttpServer } from 'node:http';
import type { Express } from 'express';
import type { Server as SocketServer } from 'socket.io';
import { systemCallEnv, type ActionRegistry, type CallEnv } from './conversation/actions.ts';
import { MemoryArchive, type RevisionArchive } from './catalog/registry.ts';
import { TenantDirectory } from './catalog/tenants.ts';
import { Publisher } from './catalog/publisher.ts';
import { MemoryPublishLog, type PublishLog } from './store/publish-log.ts';
import type { Drafter } from './extract/anthropic/draft-flow.ts';
import { namesOf } from './catalog/implementations-check.ts';
import { flowsDirProblem } from './catalog/flows-dir.ts';
import { DeliveryWorker } from './delivery/delivery.ts';
import { deliverySink } from './delivery/hook.ts';
import type { DeliveryLog } from './delivery/log.ts';
import { checkReady, createEmbeddedBackend, type Backend } from './delivery/backend.ts';
import type { NamedValidator } from './engine/types.ts';
import type { Extractor } from './extract/extractor.ts';
import { ConversationService, wantsPartialLeads, type Broadcast } from './conversation/service.ts';
import { compileTrust, type TrustProxy } from './transport/client-address.ts';
import { createApp } from './transport/http/app.ts';
import { InFlight } from './transport/inflight.ts';
import { OriginGate } from './transport/origins.ts';
import { createLogger, type Logger } from './observability/logger.ts';
import { Metrics } from './observability/metrics.ts';
import { attachChat } from './transport/socket/chat.ts';
import { attachOperator } from './transport/socket/operator.ts';
import { RateLimits, type RateLimitSettings } from './transport/rate-limits.ts';
import { createSocketServer, roomBroadcast } from './transport/socket/socket-server.ts';
import { startRetention } from './store/retention.ts';
import { openSessionsOf } from './store/funnel-report.ts';
import type { SessionStore } from './store/session-store.ts';
import { AdminAccess, type OperatorKey } from './transport/admin-access.ts';
import { MountPath } from './transport/http/mount-path.ts';
import { checkArgs, fn } from './shared/check-args.ts';
import { QuestlineUsageError } from './shared/usage-error.ts';
import { checkedExtractor } from './conversation/checked-extractor.ts';
import { z } from 'zod';
import { rootPath } from './shared/root-dir.ts';

// The one composition of Questline's parts: backend (store, lock, outbox) →
// tenants and flows checked against the implementations → conversation service
// → express app (+ socket.io once attached to an http server). createQuestline
// hands it to an app of yours; startServer (main.ts) adds config, listen and signals.

const DEMO_DIR = rootPath('client/demo');
/** How far back start-up reconciliation looks for ended sessions without an outbox entry (the outbox keeps delivered entries at least this long). */
const RECONCILE_WINDOW_MS = 86_400_000;

/** What Questline is built from; everything but the flows has a default. */
export interface QuestlineOptions {
  /** A flows folder (global/, packs/, tenants/); or give `catalog`. */
  flowsDir?: string;
  /** Tenants and flows already loaded: TenantDirectory.load(dir, archive, names) checks them against the implementations' names. */
  catalog?: TenantDirectory;
  /** Store, turn lock and outbox; closed by close(). Default: in memory (createEmbeddedBackend({ memory: true })). */
  backend?: Backend;
  /** Reads messages into proposals: one extractor, or one per tenant. Default: the offline rules extractor. */
  extractor?: Extractor | ((tenant: string) => Extractor);
  /** Named validators flows use (`validate: [{ name }]`). */
  validators?: Readonly<Record<string, NamedValidator>>;
  /** Action handlers flows call (`call:`). */
  actions?: ActionRegistry;
  /** Clock and timers for action calls and session timestamps. */
  env?: CallEnv;
  logger?: Logger;
  /** Serve the demo page, the operator console and the widget bundles (default true); `'widget'` the widget bundles only; false mounts the API only. */
  pages?: boolean | 'widget';
  /**
   * The path the host mounts `handler` under (`app.use('/chat', questline.handler)` → `'/chat'`); default '' (the root).
   * socket.io then listens at `<mountPath>/socket.io`, where the widget and the console look for it.
   */
  mountPath?: string;
  /** The key of the admin API and operator console; without it (and without `operatorKeys`) they refuse every request. */
  adminKey?: string;
  /** Named operators' keys (SHA-256 hashes): each may do what the admin key does, and the audit log records the name. */
  operatorKeys?: readonly OperatorKey[];
  rateLimits?: Partial<RateLimitSettings>;
  /** Erase sessions idle this many days (a sweep runs in the background). */
  retentionDays?: number;
  /** How often idle sessions are ended (tenant settings.inactivity_s) and waiting interrupts time out (timeout_s); default 30 s, 0 turns the sweep off. */
  sweepIntervalMs?: number;
  /** Where flow revisions live sessions are pinned to are kept (default: in memory). */
  archive?: RevisionArchive;
  /** Random bytes for session ids and tokens. */
  random?: (n: number) => Buffer;
  /** How long a session may go without a turn before the metrics count it as idle (drop-off). */
  idleAfterMs?: number;
  /** Which proxies may name the client (express's `trust proxy`: a hop count, true/false, or addresses/CIDRs); default none. */
  trustProxy?: TrustProxy;
  /** Bearer token for /metrics; without it /metrics answers loopback clients only. */
  metricsToken?: string;
  /** The Prometheus metrics to record into (default: a new registry). */
  metrics?: Metrics;
  /** Transcript entries a session may hold before visitor messages get `session_full` (default 1000). */
  maxTranscriptEntries?: number;
  /** What `/healthz` adds to its report. */
  health?: () => Record<string, unknown>;
  /** Each tenant's share of the event loop (default 400 ms a second, 1 s burst); `{ msPerSecond: 0 }` turns it off. */
  tenantCpu?: TenantCpuSettings;
  /** Where the Studio's publishes are recorded (default: the backend's shared log, e.g. Redis, else in memory). */
  publishLog?: PublishLog;
  /** The Studio's "Describe your intake" (POST /api/v1/admin/draft); absent: the route says what it needs (ANTHROPIC_API_KEY). */
  drafter?: Drafter;
  /** false: a publish keeps its text in the publish log and leaves the flows folder alone (default: written back when writable). */
  flowsWriteBack?: boolean;
}

/** Questline mounted in your process. */
export interface Questline {
  /** The express app: `app.use(questline.handler)`, or `http.createServer(questline.handler)`. */
  handler: Express;
  /** Attaches the socket.io chat and operator namespaces to the http server that serves `handler`. */
  attach(http: HttpServer): SocketServer;
  /** Disconnects sockets, lets requests in progress finish, stops background work, closes the backend; idempotent. */
  close(): Promise<void>;
  service: ConversationService;
  tenants: TenantDirectory;
  store: SessionStore;
  metrics: Metrics;
  logger: Logger;
  /** The Studio's publisher: publish a flow's new text, list revisions, roll back (served under /api/v1/admin). */
  publisher: Publisher;
}

/** The composition with what startServer needs to close its http server in order. */
export interface Composed extends Questline {
  inflight: InFlight;
  /** The socket.io server once attached. */
  io(): SocketServer | undefined;
  /** close(), with `afterDrain` run once requests in progress finished (or timed out). */
  shutdown(afterDrain?: () => void): Promise<void>;
}

/** Builds Questline: an express handler and a socket.io attach, over a backend, for the flows of a folder. */
export async function createQuestline(opts: QuestlineOptions): Promise<Questline> {
  const { inflight: _i, io: _io, shutdown: _s, ...questline } = await compose(opts);
  return questline;
}

const anything = z.unknown().optional();
/** createQuestline's options as checked at the call: unknown names are refused (with the one probably meant), implementations must be functions. */
const QuestlineOptionsShape = z.strictObject({
  flowsDir: z.string().optional(), catalog: anything, backend: anything,
  extractor: z.union([fn('(tenant) => Extractor'), z.looseObject({ name: z.string(), extract: fn('extract(request) => proposal') })],
    { message: 'expected an extractor { name, extract(request) } or (tenant) => extractor' }).optional(),
  validators: z.record(z.string(), fn('(value, args, answers) => message | null')).optional(),
  actions: z.record(z.string(), fn('async (input, { signal, attempt }) => object')).optional(),
  env: anything, logger: anything,
  pages: z.union([z.boolean(), z.literal('widget')], { message: "expected true, false or 'widget'" }).optional(),
  mountPath: z.string().optional(), adminKey: z.string().optional(), operatorKeys: anything, rateLimits: anything,
  retentionDays: anything, sweepIntervalMs: anything, archive: anything, random: anything, idleAfterMs: anything,
  trustProxy: anything, metricsToken: z.string().optional(), metrics: anything, maxTranscriptEntries: anything, health: anything,
  publishLog: anything, flowsWriteBack: anything, tenantCpu: anything, drafter: anything,
});

// every option of QuestlineOptions is in the shape (a new option must be added there, or createQuestline refuses it)
type Unchecked = Exclude<keyof QuestlineOptions, keyof typeof QuestlineOptionsShape.shape>;
const allOptionsChecked: [Unchecked] extends [never] ? true : Unchecked = true;
void allOptionsChecked;

/** createQuestline's parts, shared with startServer. */
export async function compose(opts: QuestlineOptions): Promise<Composed> {
  checkArgs('createQuestline(options)', 'options', QuestlineOptionsShape, opts ?? {});
  const logger = opts.logger ?? createLogger('info');
  const backend = opts.backend ?? (await createEmbeddedBackend({ memory: true }));
  try {
    const catalog = loadCatalog(opts, logger);
    const publisher = await Publisher.open({ catalog, log: opts.publishLog ?? backend.publishes ?? new MemoryPublishLog(), ...(opts.flowsWriteBack === false ? { writeBack: false } : {}) });
    return build(opts, logger, backend, catalog, publisher);
  } catch (err) {
    await backend.close().catch(() => {});
    throw err;
  }
}

/**
 * Tenants and flows, each flow checked against the registered validators and
 * actions: a flow naming one that is missing is not served, and the log says
 * why with file:line:col.
 */
function loadCatalog(opts: QuestlineOptions, logger: Logger): TenantDirectory {
  if (!opts.catalog && !opts.flowsDir) throw new TypeError('createQuestline: give flowsDir or catalog');
  const names = namesOf(opts);
  const wrongDir = opts.catalog ? undefined : flowsDirProblem(opts.flowsDir!);
  if (wrongDir) throw new QuestlineUsageError('invalid_argument', `createQuestline: ${wrongDir}`);
  const tenants = opts.catalog ?? TenantDirectory.load(opts.flowsDir!, opts.archive ?? new MemoryArchive(), names);
  // flows still loading (startServer's TenantDirectory.open) are logged once compiled, by the caller
  if (tenants.loading() === 0) logTenants(tenants, logger);
  return tenants;
}

/** Logs the flows' problems and, per tenant, which flows are served. */
export function logTenants(tenants: TenantDirectory, logger: Logger): void {
  for (const problem of tenants.problems) logger.warn({ flowsDir: tenants.library.dir }, `flow problem: ${problem}`);
  for (const id of tenants.ids()) {
    const t = tenants.tenant(id)!;
    const served = tenants.flows(id);
    const missing = t.flows.filter((f) => !served.includes(f));
    logger[missing.length ? 'warn' : 'info']({ tenant: id, flows: served, notServed: missing, origins: t.origins }, `tenant ${id}: ${served.length} of ${t.flows.length} flows served`);
  }
  if (tenants.ids().length === 0) logger.warn({ flowsDir: tenants.library.dir }, 'no tenants: add flows/tenants/<tenant>/tenant.json');
}

function build(opts: QuestlineOptions, logger: Logger, backend: Backend, tenants: TenantDirectory, publisher: Publisher): Composed {
  const mount = MountPath.safeParse(opts.mountPath ?? '');
  if (!mount.success) throw new TypeError(`createQuestline: mountPath must be a path such as '/chat' (or '' for the root), not ${JSON.stringify(opts.mountPath)}`);
  const mountPath = mount.data;
  // endings go to the tenants' webhooks through the backend's durable outbox
  // (with Redis: one outbox for every instance, each entry leased to one worker at a time)
  const { store, outbox, kind: storeKind } = backend;
  const deliveryLog: DeliveryLog = (level, message, fields) => logger[level]({ component: 'delivery', ...fields }, message);
  const webhookFor = (tenant: string) => tenants.tenant(tenant)?.webhook;
  const worker = new DeliveryWorker({ outbox, store, webhookFor, log: deliveryLog });
  const deliveries = deliverySink(outbox, { webhookFor, log: deliveryLog, notify: () => worker.wake(),
    partialLeads: (tenant) => wantsPartialLeads(tenants.tenant(tenant)?.settings) });

  const metrics = opts.metrics ?? new Metrics({ ...(opts.idleAfterMs !== undefined ? { idleAfterMs: opts.idleAfterMs } : {}) });
  // a shared backend (Redis) spans every instance with the turn lock, the rate limits and socket.io rooms
  const limits = new RateLimits(opts.rateLimits, ...(backend.limiters ? [backend.limiters] : []));
  const inflight = new InFlight();
  const gate = new OriginGate(tenants);
  // the service broadcasts through socket.io, which needs the http server, which the caller owns
  let broadcast: Broadcast = () => {};
  // a person is online when an operator console is connected to this server (operator keys are not per tenant)
  let operatorsOnline = (_tenant: string): boolean => false;

  // the LLM metrics come from each extraction's own report (Proposal.llm / skipped / fallback)
  // the host's extractor is checked where it hands over a proposal (a developer error, never a crash mid-turn)
  const given = opts.extractor;
  const perTenant = typeof given === 'function' ? (tenant: string) => checkedExtractor(given(tenant)) : undefined;
  const single = typeof given === 'object' ? checkedExtractor(given) : undefined;
  const extractorFor = perTenant
    ? (tenant: string): Extractor => {
        const x = perTenant(tenant);
        return { name: x.name, extract: async (req) => {
          const proposal = await x.extract(req);
          metrics.extraction(tenant, proposal);
          return proposal;
        } };
      }
    : undefined;
  const service = new ConversationService({
    store, tenants,
    ...(extractorFor ? { extractorFor } : {}),
    ...(single ? { extractor: single } : {}),
    broadcast: (sessionId, entries, state) => broadcast(sessionId, entries, state),
    operatorsOnline: (tenant) => operatorsOnline(tenant),
    ...(opts.actions ? { actions: opts.actions } : {}),
    ...(opts.validators ? { validators: opts.validators } : {}),
    env: opts.env ?? systemCallEnv,
    ...(opts.random ? { random: opts.random } : {}),
    lock: backend.lock,
    ...(backend.counts ? { counts: backend.counts } : {}),
    onCountsError: (err, sessionId) => logger.error({ err, sessionId }, 'funnel counts missed a saved turn; run questline insights rebuild'),
    ...(opts.maxTranscriptEntries !== undefined ? { maxTranscriptEntries: opts.maxTranscriptEntries } : {}),
    ...(opts.tenantCpu ? { tenantCpu: new TenantCpu(opts.tenantCpu) } : {}),
    // an ending's delivery is written to the outbox before the commit that ends the session (delivery/hook.ts)
    deliveries,
    onComplete: (c) => {
      metrics.completions.inc({ tenant: c.tenant, flow: c.flowId, status: c.status });
      // keys, never values: answers may be pii
      logger.info({ tenant: c.tenant, sessionId: c.sessionId, flow: c.flowId, status: c.status, outcome: c.outcome, answerKeys: Object.keys(c.answers) }, 'session ended');
    },
    // an erased session's endings leave the outbox too: undelivered ones are not sent, and no answers stay in its journal
    onErase: async (sessionId) => {
      const forgotten = await outbox.forgetSession(sessionId, Date.now());
      if (forgotten > 0) logger.info({ sessionId, outboxEntries: forgotten }, 'erased session: its outbox entries are gone too');
    },
  });

  // the open-sessions gauge reads the stored counts: ended sessions leave it, every instance reports the same
  metrics.openSessions = async () => openSessionsOf(await service.counts.all());

  const started = Date.now();
  const admins = new AdminAccess(opts.adminKey, opts.operatorKeys);
  const handler = createApp({
    service, tenants, store, metrics, logger, limits, inflight, gate, admins, publisher, ...(opts.drafter ? { drafter: opts.drafter } : {}),
    ...(opts.pages === false ? {} : opts.pages === 'widget' ? { widgetBundles: true } : { demoDir: DEMO_DIR }),
    mountPath,
    trustProxy: opts.trustProxy ?? false, ...(opts.metricsToken ? { metricsToken: opts.metricsToken } : {}),
    ready: () => checkReady(backend),
    health: () => ({ uptimeSeconds: Math.round((Date.now() - started) / 1000), store: storeKind, tenants: tenants.ids().length, inFlight: inflight.size, ...opts.health?.() }),
  });

  let io: SocketServer | undefined;
  const attach = (http: HttpServer): SocketServer => {
    if (io) throw new Error('Questline is already attached to an http server');
    io = createSocketServer(http, gate, `${mountPath}/socket.io`);
    backend.attachSockets?.(io);
    broadcast = roomBroadcast(io);
    const operators = io.of('/operator');
    operatorsOnline = () => operators.sockets.size > 0;
    const trust = compileTrust(opts.trustProxy ?? false);
    attachChat(io, { service, tenants, metrics, logger, limits, inflight, trust });
    attachOperator(io, { service, store, metrics, logger, limits, inflight, admins, trust });
    return io;
  };

  worker.start();
  // ended sessions of the last day without an outbox entry get one (an earlier version's crash between its two writes),
  // once every flow has compiled: a session is read through its pinned flow
  const since = new Date(Date.now() - RECONCILE_WINDOW_MS).toISOString();
  const flowsReady = async () => {
    while (tenants.loading() > 0) await new Promise((r) => setTimeout(r, 250).unref());
  };
  void flowsReady().then(() => service.reconcile(since)).then(
    (ids) => { if (ids.length > 0) logger.warn({ deliveries: ids.length }, `start-up: ${ids.length} ended sessions had no outbox entry; written now`); },
    (err) => logger.error({ err }, 'start-up reconciliation of ended sessions failed'),
  );
  // idle sessions end (tenant settings.inactivity_s) and waiting interrupts time out (timeout_s)
  const sweepMs = opts.sweepIntervalMs ?? 30_000;
  const stopSweeps = sweepMs > 0 ? service.startSweeps(sweepMs, (err) => logger.error({ err }, 'inactivity sweep failed')) : () => {};
  const retention = opts.retentionDays
    ? startRetention({
        store, tenants: () => tenants.ids(), days: opts.retentionDays, erase: (id) => service.erase(id),
        onSweep: ({ erased, cutoff }) => logger.info({ erased, cutoff, retentionDays: opts.retentionDays }, `retention: erased ${erased} sessions last active before ${cutoff}`),
        onError: (err) => logger.error({ err }, 'retention sweep failed'),
      })
    : null;

  let closing: Promise<void> | undefined;
  const shutdown = (afterDrain?: () => void) => (closing ??= (async () => {
    // disconnects every socket and stops engine.io (closing the http server it is attached to)
    const socketsClosed = io ? new Promise<void>((done) => void io!.close(() => done())) : Promise.resolve();
    const drained = await inflight.drain(5_000);
    if (!drained) logger.warn({ inFlight: inflight.size }, 'requests still running after 5 s; closing anyway');
    afterDrain?.();
    await Promise.race([socketsClosed, new Promise((r) => setTimeout(r, 2_000).unref())]);
    retention?.stop();
    stopSweeps();
    await worker.stop();
    await backend.close();
  })());

  return {
    handler, attach, close: () => shutdown(), service, tenants, store, metrics, logger, publisher,
    inflight, io: () => io, shutdown,
  };
}
