import { randomUUID } from 'node:crypto';
import { Router, type Request } from 'express';
import type { ConversationService } from '../../conversation/service.ts';
import type { TenantDirectory } from '../../catalog/tenants.ts';
import type { CompiledFlow } from '../../flow/compiled-flow.ts';
import { outputsJsonSchema } from '../../flow/json-schema.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import type { Metrics } from '../../observability/metrics.ts';
import { MessageBody, StartBody, toWire } from '../../protocol/index.ts';
import type { RateLimits } from '../rate-limits.ts';
import type { StoredSession } from '../../store/session-store.ts';
import { adminOf, clientIp, param, parseWith, sessionByToken, tenantByKey } from './auth.ts';
import { HttpError, unwrap } from '../errors.ts';
import { importLayoutModule } from './layout-loader.ts';
import { wantedLocales } from '../accept-language.ts';
import { EMPTY_MESSAGE, hasVisibleText } from '../visible-text.ts';
import type { AdminAccess } from '../admin-access.ts';

/** What the public routes need. */
export interface PublicDeps {
  service: ConversationService;
  tenants: TenantDirectory;
  metrics: Metrics;
  limits: RateLimits;
  /** The admin key and named operator keys. */
  admins: AdminAccess;
}

/** The answers committed so far, by key (the visitor's own, shown to the token holder). */
export function answersOf(record: StoredSession): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record.session.answers).map(([k, a]) => [k, a.value]));
}

/** The public API (interfaces.md "REST"): sessions by key and token, flows by key. */
export function publicRoutes(deps: PublicDeps): Router {
  const { service, tenants, metrics, limits } = deps;
  const r = Router();
  r.use((req, res, next) => {
    res.locals.routeBase = '/api/v1'; // the mount path, not the request's spelling of it (metric labels stay bounded)
    next();
  });

  const throttle = async (req: Request, scope: { client: string; tenant: string }) => {
    const limited = await limits.message({ ...scope, ip: clientIp(req) });
    if (!limited.ok) throw new HttpError('rate_limited', 'Too many messages at once. Please wait a moment and try again.', Math.ceil(limited.retryAfterMs / 1000));
  };

  r.post('/tenants/:tenant/sessions', async (req, res) => {
    const tenant = tenantByKey(tenants, req, param(req, 'tenant'));
    const body = parseWith(StartBody, req.body);
    const limited = await limits.start(clientIp(req));
    if (!limited.ok) throw new HttpError('rate_limited', 'too many new sessions from this address; try again later', Math.ceil(limited.retryAfterMs / 1000));
    const started = unwrap(await service.startSession({ tenant: tenant.id, flow: body.flow, ...(body.context ? { context: body.context } : {}), ...(body.visitor ? { visitor: body.visitor } : {}),
      // the body's locale, then the browser's Accept-Language; the engine matches them against the flow's locales
      locale: wantedLocales(body.locale, req.headers) }));
    const flowId = tenants.flow(tenant.id, body.flow)?.id ?? body.flow;
    metrics.sessionsStarted.inc({ tenant: tenant.id, flow: flowId, transport: 'rest' });
    metrics.positions.update(started.sessionId, tenant.id, flowId, started.state);
    res.status(201).json({ sessionId: started.sessionId, token: started.token, messages: started.messages.map(toWire), state: started.state });
  });

  r.post('/sessions/:id/messages', async (req, res) => {
    const id = param(req, 'id');
    const { record } = await sessionByToken(service, tenants, req, id);
    const body = parseWith(MessageBody, req.body);
    if (!hasVisibleText(body.text)) throw new HttpError(EMPTY_MESSAGE.code, EMPTY_MESSAGE.message);
    await throttle(req, { client: `session:${id}`, tenant: record.tenant });
    const clientId = body.clientId ?? `rest-${randomUUID()}`;
    const turn = unwrap(await metrics.turn(id, { tenant: record.tenant, flow: record.flowId, kind: 'message' }, () => service.message(id, body.text, clientId)));
    res.json({ clientId, duplicate: turn.duplicate, messages: turn.messages.map(toWire), state: turn.state });
  });

  // a visitor back after going idle: within the tenant's resume_s the same session goes on (welcomed, asked again)
  r.post('/sessions/:id/resume', async (req, res) => {
    const id = param(req, 'id');
    const { record } = await sessionByToken(service, tenants, req, id);
    await throttle(req, { client: `session:${id}`, tenant: record.tenant });
    const done = unwrap(await service.resume(id));
    res.json({ messages: done.messages.map(toWire), state: done.state });
  });

  r.get('/sessions/:id', async (req, res) => {
    const id = param(req, 'id');
    await sessionByToken(service, tenants, req, id);
    const read = await limits.read({ ip: clientIp(req), session: id });
    if (!read.ok) throw new HttpError('rate_limited', 'Too many requests for this conversation. Please wait a moment and try again.', Math.ceil(read.retryAfterMs / 1000));
    const after = typeof req.query.after === 'string' && /^\d{1,9}$/.test(req.query.after) ? Number(req.query.after) : 0;
    const view = unwrap(await service.view(id, after));
    const rec = view.record;
    res.json({
      sessionId: rec.id, tenant: rec.tenant, flowId: rec.flowId, revision: rec.revision, status: rec.status,
      createdAt: rec.createdAt, updatedAt: rec.updatedAt, state: view.state, answers: view.visitorAnswers, messages: view.transcript.map(toWire),
    });
  });

  /** Flows are read with the tenant's key (Origin checked) or the admin key. */
  const reader = (req: Request): Tenant => {
    const id = param(req, 'tenant');
    if (adminOf(deps.admins, req) !== undefined) {
      const t = tenants.tenant(id);
      if (!t) throw new HttpError('unknown_tenant', `no tenant '${id}'`);
      return t;
    }
    return tenantByKey(tenants, req, id);
  };
  const flowOf = (req: Request): CompiledFlow => {
    const tenant = reader(req);
    const flowId = param(req, 'flow');
    const flow = tenants.flow(tenant.id, flowId);
    if (flow) return flow;
    const why = tenants.unavailable(tenant.id, flowId);
    if (why) throw new HttpError('flow_unavailable', why.reason, why.loading ? 1 : undefined);
    if (tenant.flows.includes(flowId)) throw new HttpError('flow_unavailable', `flow '${flowId}' does not compile on this server; see the server log`);
    throw new HttpError('unknown_flow', `tenant '${tenant.id}' offers no flow '${flowId}'`);
  };

  r.get('/tenants/:tenant/flows', (req, res) => {
    const tenant = reader(req);
    const flows = tenant.flows.map((id) => {
      const f = tenants.flow(tenant.id, id);
      const why = f ? undefined : tenants.unavailable(tenant.id, id);
      return f ? { id, effectiveId: f.id, label: f.label ?? null, revision: f.revision, available: true } : { id, available: false, ...(why ? { reason: why.reason } : {}) };
    });
    res.json({ tenant: tenant.id, name: tenant.name, flows });
  });

  r.get('/tenants/:tenant/flows/:flow', (req, res) => {
    const flow = flowOf(req);
    res.json({ id: param(req, 'flow'), effectiveId: flow.id, revision: flow.revision, flow: flow.source });
  });

  r.get('/tenants/:tenant/flows/:flow/graph', async (req, res) => {
    // the layout (dagre, an optional peer) is loaded when a graph is first asked for; without it: not_installed
    const { renderJson } = await importLayoutModule(() => import('../../render/json.ts'));
    res.type('application/json').send(renderJson(flowOf(req)));
  });

  r.get('/tenants/:tenant/flows/:flow/schema', (req, res) => {
    res.json(outputsJsonSchema(flowOf(req)));
  });

  return r;
}
