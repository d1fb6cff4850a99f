import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { ConversationService } from '../../conversation/service.ts';
import type { TenantDirectory } from '../../catalog/tenants.ts';
import type { Logger } from '../../observability/logger.ts';
import type { Metrics } from '../../observability/metrics.ts';
import { LIMITS } from '../../protocol/index.ts';
import type { RateLimits } from '../rate-limits.ts';
import type { SessionStore } from '../../store/session-store.ts';
import { adminConsole } from './admin-console.ts';
import { studioPage } from './studio-page.ts';
import { adminRoutes } from './admin-routes.ts';
import { atMount } from './mount-path.ts';
import { bundleHandler, CLIENT_BUNDLES, type BundleName } from './client-assets.ts';
import { HttpError, httpErrorBody, httpStatus, storageError, type WireError } from '../errors.ts';
import { STORAGE_RETRY_AFTER_SECONDS } from '../../store/storage-fault.ts';
import type { InFlight } from '../inflight.ts';
import { metricsAllowed } from '../metrics-access.ts';
import type { TrustProxy } from '../client-address.ts';
import { isSameOrigin, type OriginGate } from '../origins.ts';
import { privacyRoutes } from './privacy-routes.ts';
import { insightsRoutes } from './insights-routes.ts';
import { STUDIO_TEXT_ROUTES, studioRoutes } from './studio-routes.ts';
import { MAX_FLOW_BYTES } from '../../flow/load.ts';
import type { Publisher } from '../../catalog/publisher.ts';
import type { Drafter } from '../../extract/anthropic/draft-flow.ts';
import { publicRoutes } from './public-routes.ts';
import type { AdminAccess } from '../admin-access.ts';

/** What the HTTP app needs. */
export interface AppDeps {
  service: ConversationService;
  tenants: TenantDirectory;
  store: SessionStore;
  metrics: Metrics;
  logger: Logger;
  limits: RateLimits;
  inflight: InFlight;
  gate: OriginGate;
  /** The admin key and named operator keys. */
  admins: AdminAccess;
  /**
   * Static files of the demo page, served at `/`; with it come the widget
   * bundles and the operator console. Without it the app is the API only.
   */
  demoDir?: string;
  /** Without demoDir: serve the widget's bundles alone (`pages: 'widget'`). */
  widgetBundles?: boolean;
  /** Where the host mounts the handler (createQuestline's mountPath); a request arriving under another mount is logged once. */
  mountPath?: string;
  /** Which proxies may name the client (TRUST_PROXY, express's `trust proxy`); default none. */
  trustProxy?: TrustProxy;
  /** Bearer token for /metrics (METRICS_TOKEN); without it /metrics answers loopback only. */
  metricsToken?: string;
  /** What `/healthz` reports (liveness: the process answers). */
  health: () => Record<string, unknown>;
  /** What `/readyz` checks (the store and the outbox take writes); absent: ready whenever alive. */
  ready?: () => Promise<{ ok: boolean; checks: Record<string, string> }>;
  /** The Studio's publisher (sources, check, publish, revisions, rollback); without it those routes are absent. */
  publisher?: Publisher;
  /** The Studio's "Describe your intake" (Claude); absent: POST /draft says what it needs. */
  drafter?: Drafter;
}

const DEMO_CSP = [
  "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
  "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
].join('; ');

/** The bundles a page embedding the widget loads (the widget, its socket.io client, its translations). */
const WIDGET_BUNDLES: readonly BundleName[] = ['widget.js', 'widget-socket.js', 'widget-texts.js'];

/** The express app: `/api/v1` (public and admin), `/healthz`, `/metrics` and the demo page. */

export function createApp(deps: AppDeps): express.Express {
  const { metrics, logger, inflight, gate } = deps;
  const app = express();
  let mountChecked = false;
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', deps.trustProxy ?? false);

  // count, log (route pattern and status, never bodies) and track for shutdown
  app.use((req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    let done!: () => void;
    void inflight.track(() => new Promise<void>((resolve) => (done = resolve)));
    res.once('close', () => {
      done();
      // the router's mount path is gone by now (express restores baseUrl), so routers leave it in res.locals
      const base = typeof res.locals.routeBase === 'string' ? res.locals.routeBase : '';
      // route patterns and mount paths only: never the request's own path or spelling (unbounded label values)
      const route = req.route ? `${base}${String(req.route.path)}` : base ? `${base}/*` : 'unmatched';
      metrics.httpRequests.inc({ method: req.method, route, status: String(res.statusCode) });
      const quiet = route.endsWith('/healthz') || route.endsWith('/readyz') || route.endsWith('/metrics');
      logger[quiet ? 'debug' : 'info']({ method: req.method, route, status: res.statusCode, ms: Math.round(performance.now() - started), ...(req.params?.id ? { sessionId: req.params.id } : {}) }, 'http');
    });
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    if (!mountChecked && deps.mountPath !== undefined) {
      mountChecked = true;
      if (req.baseUrl !== deps.mountPath) {
        logger.warn({ mountedAt: req.baseUrl || '/', mountPath: deps.mountPath || '/' },
          `the handler is mounted at ${req.baseUrl || '/'} but createQuestline's mountPath is ${deps.mountPath || "'' (the root)"}: set mountPath: '${req.baseUrl}' so the widget's socket finds the server`);
      }
    }
    next();
  });

  // CORS for tenants' pages (the widget calls the public API cross-origin);
  // which tenant an origin may act for is checked per route
  app.use('/api/v1', (req: Request, res: Response, next: NextFunction) => {
    const origin = req.get('origin');
    if (origin && !isSameOrigin(origin, req.get('host')) && gate.anyTenantAllows(origin) && !req.path.startsWith('/admin')) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Vary', 'Origin');
      if (req.method === 'OPTIONS') {
        res.setHeader('Access-Control-Allow-Methods', 'GET, POST');
        res.setHeader('Access-Control-Allow-Headers', 'Content-Type, Authorization, X-Questline-Key');
        res.setHeader('Access-Control-Max-Age', '600');
        res.status(204).end();
        return;
      }
    }
    next();
  });

  // the Studio sends whole flow files (a flow may be up to 2 MB); everything else keeps the small limit
  if (deps.publisher) app.use(STUDIO_TEXT_ROUTES.map((r) => `/api/v1/admin/${r}`), express.json({ limit: MAX_FLOW_BYTES + 64 * 1024, strict: true }));
  app.use('/api/v1', express.json({ limit: LIMITS.maxPayloadBytes, strict: true }));

  const health = (_req: Request, res: Response) => {
    res.json({ ok: true, ...deps.health() });
  };
  const prometheus = async (req: Request, res: Response) => {
    if (!metricsAllowed(req, deps.metricsToken)) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      throw new HttpError('forbidden', deps.metricsToken ? 'send the metrics token as "Authorization: Bearer <METRICS_TOKEN>"' : 'metrics are served only to this machine (loopback); set METRICS_TOKEN to read them from elsewhere');
    }
    const { contentType, body } = await metrics.render();
    res.type(contentType).send(body);
  };
  // readiness: 503 (with Retry-After) while the store or the outbox cannot take a write — a full disk, an unreachable Redis
  const ready = async (_req: Request, res: Response) => {
    const r = deps.ready ? await deps.ready() : { ok: true, checks: {} };
    if (!r.ok) {
      res.setHeader('Retry-After', String(STORAGE_RETRY_AFTER_SECONDS));
      logger.warn({ checks: r.checks }, 'not ready: the storage cannot take writes');
    }
    res.status(r.ok ? 200 : 503).json({ ok: r.ok, checks: r.checks });
  };
  app.get(['/healthz', '/api/v1/healthz'], health);
  app.get(['/readyz', '/api/v1/readyz'], ready);
  app.get(['/metrics', '/api/v1/metrics'], prometheus);

  app.use('/api/v1/admin', privacyRoutes(deps));
  app.use('/api/v1/admin', insightsRoutes(deps));
  if (deps.publisher) app.use('/api/v1/admin', studioRoutes({ ...deps, publisher: deps.publisher }));
  app.use('/api/v1/admin', adminRoutes(deps));
  app.use('/api/v1', publicRoutes(deps));
  app.use('/api', (req: Request) => {
    throw new HttpError('not_found', `no route ${req.method} ${req.baseUrl}${req.path}`);
  });

  if (deps.demoDir === undefined && deps.widgetBundles) {
    for (const name of WIDGET_BUNDLES) app.get(`/${name}`, bundleHandler(name));
  }
  if (deps.demoDir !== undefined) {
    // the widget and the operator console, bundled from client/ on first request
    for (const name of Object.keys(CLIENT_BUNDLES) as BundleName[]) {
      app.get(`/${name}`, bundleHandler(name));
    }

    app.use(adminConsole()); // the operator console at /admin
    app.use(studioPage()); // the Studio at /studio

    app.use((_req: Request, res: Response, next: NextFunction) => {
      res.setHeader('Content-Security-Policy', DEMO_CSP);
      next();
    });
    // the demo page names its scripts under the mount the host chose
    let demoHtml: Promise<string> | undefined;
    app.get(['/', '/index.html'], async (req: Request, res: Response) => {
      demoHtml ??= readFile(join(deps.demoDir!, 'index.html'), 'utf8');
      res.setHeader('Cache-Control', 'no-cache');
      res.type('text/html; charset=utf-8').send(atMount(await demoHtml, req.baseUrl));
    });
    app.use(express.static(deps.demoDir, { index: 'index.html', dotfiles: 'ignore', etag: false }));
  }

  // one place turns every failure into `{ error: { code, message } }` with the table's status
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const error = toWireError(err);
    if (error.code === 'internal') logger.error({ err, method: req.method, path: req.path }, 'request failed');
    else if (error.code === 'storage_unavailable') logger.error({ err, method: req.method, path: req.path }, 'storage unavailable: request refused, nothing saved');
    else metrics.rejected.inc({ transport: 'http', code: error.code });
    // the response says it in plain words; the developer detail is logged
    if (err instanceof HttpError && err.detail) logger.info({ code: error.code, detail: err.detail, method: req.method, route: `${String(res.locals.routeBase ?? '')}${String(req.route?.path ?? '')}` }, 'payload refused');
    if (res.headersSent) {
      res.end();
      return;
    }
    if (err instanceof HttpError && err.retryAfterSeconds) res.setHeader('Retry-After', String(err.retryAfterSeconds));
    if (error.code === 'storage_unavailable') res.setHeader('Retry-After', String(STORAGE_RETRY_AFTER_SECONDS));
    if (error.code === 'bad_token') res.setHeader('WWW-Authenticate', 'Bearer');
    res.status(httpStatus(error.code)).json(httpErrorBody(error));
  });

  return app;
}

/** An error as the wire sees it: our codes pass through; body-parser's become too_large / invalid_payload; anything else is internal. */
function toWireError(err: unknown): WireError {
  if (err instanceof HttpError) return { code: err.code, message: err.message, ...(err.field !== undefined ? { field: err.field } : {}) };
  const e = err as { type?: string; status?: number; message?: string };
  if (e?.type === 'entity.too.large') return { code: 'too_large', message: `the body is larger than ${LIMITS.maxPayloadBytes} bytes` };
  if (e?.type === 'entity.parse.failed') return { code: 'invalid_payload', message: 'the body is not valid JSON' };
  if (typeof e?.type === 'string' && e.status && e.status >= 400 && e.status < 500) return { code: 'invalid_payload', message: e.message ?? 'bad request body' };
  const storage = storageError(err);
  if (storage) return { code: storage.code, message: storage.message };
  // express's own 4xx, e.g. a path parameter that is not valid percent-encoding (`/sessions/%ff`)
  if (e instanceof URIError || (typeof e?.status === 'number' && e.status >= 400 && e.status < 500)) return { code: 'invalid_payload', message: 'the request path or query is malformed' };
  return { code: 'internal', message: 'something went wrong on the server' };
}
