import { Router, type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import type { ConversationService } from '../../conversation/service.ts';
import type { TenantDirectory } from '../../catalog/tenants.ts';
import type { Logger } from '../../observability/logger.ts';
import type { Metrics, TurnLabels } from '../../observability/metrics.ts';
import { Decision, HandBack, OperatorMessageBody, SessionId, Status, toWire } from '../../protocol/index.ts';
import type { RateLimits } from '../rate-limits.ts';
import type { SessionStore, StoredSession } from '../../store/session-store.ts';
import type { CompiledFlow } from '../../flow/compiled-flow.ts';
import type { SessionState } from '../../protocol/session.ts';
import { actorOf, admitAdmin, clientIp, param, parseWith } from './auth.ts';
import { audit } from '../audit-log.ts';
import { HttpError, unwrap } from '../errors.ts';
import { EXPORT_STATUSES, intakes as leads, intakesCsv } from './export.ts';
import { answersOf } from './public-routes.ts';
import { handBackDefault, handBackTargets, LastMessages, LayoutCache, listSessions, provenanceOf, trailOf } from './admin-views.ts';
import { SessionListQuery } from '../../protocol/admin-sessions.ts';
import type { AdminAccess } from '../admin-access.ts';

/** What the admin routes need. */
export interface AdminDeps {
  service: ConversationService;
  tenants: TenantDirectory;
  store: SessionStore;
  metrics: Metrics;
  limits: RateLimits;
  logger: Logger;
  /** The admin key and named operator keys. */
  admins: AdminAccess;
}

const ListQuery = z.object({ status: Status.optional(), limit: z.coerce.number().int().min(1).max(1000).default(100) });
const ExportQuery = z.object({ format: z.enum(['json', 'csv']).default('json'), status: z.enum(EXPORT_STATUSES).optional(), limit: z.coerce.number().int().min(1).max(10_000).default(10_000) });

/** A stored record without its secrets (the token hash) and bookkeeping (processed client ids). */
/** The interrupt a waiting session is held at, for the console: who decides, the question, the timeout. */
function interruptOf(flow: CompiledFlow | undefined, state: SessionState): { role: string | null; prompt: string | null; timeoutS: number | null } | null {
  const i = state.status === 'waiting' && state.nodeId ? flow?.nodes.get(state.nodeId)?.node.interrupt : undefined;
  return i ? { role: i.role ?? null, prompt: i.prompt ?? null, timeoutS: i.timeout_s ?? null } : null;
}

const publicRecord = ({ tokenHash: _t, processed: _p, ...rest }: StoredSession) => rest;

/** `/api/v1/admin`: every route needs `X-Questline-Admin:` the admin key or an operator's key; without any they are all off. */
export function adminRoutes(deps: AdminDeps): Router {
  const { service, tenants, store, metrics, limits, logger, admins } = deps;
  const r = Router();
  r.use((req, res, next) => {
    res.locals.routeBase = '/api/v1/admin'; // the mount path, not the request's spelling of it
    next();
  });

  r.use(async (req: Request, res: Response, next: NextFunction) => {
    res.locals.actor = await admitAdmin(limits, admins, req);
    next();
  });

  const tenantParam = (req: Request): string => {
    const id = param(req, 'tenant');
    if (!tenants.tenant(id)) throw new HttpError('unknown_tenant', `no tenant '${id}'`);
    return id;
  };
  const sessionParam = (req: Request): string => {
    if (!SessionId.safeParse(param(req, 'id')).success) throw new HttpError('unknown_session', 'no such session');
    return param(req, 'id');
  };
  const labelsOf = async (id: string, kind: TurnLabels['kind']): Promise<TurnLabels> => {
    const record = await store.load(id).catch(() => null);
    if (!record) throw new HttpError('unknown_session', 'no such session');
    return { tenant: record.tenant, flow: record.flowId, kind };
  };

  const layouts = new LayoutCache();
  const lastLines = new LastMessages();
  /** The flow revision a session is pinned to (its graph is what the operator sees). */
  const pinnedOf = (record: StoredSession) => tenants.pinned(record.flowId, record.revision);

  /** The tenants and their flows (the console's filters). */
  r.get('/tenants', (_req, res) => {
    res.json({
      tenants: tenants.ids().map((id) => {
        const t = tenants.tenant(id)!;
        return { id, name: t.name, flows: tenants.flows(id).map((f) => { const c = tenants.flow(id, f)!; return { id: c.id, label: c.label ?? null, revision: c.revision }; }) };
      }),
    });
  });

  /** Sessions across tenants (or one) for the person answering (admin-views `rowOrder`), filtered by status, flow and a search text. */
  r.get('/sessions', async (req, res) => {
    const q = parseWith(SessionListQuery, req.query);
    const tenant = q.tenant || undefined;
    if (tenant && !tenants.tenant(tenant)) throw new HttpError('unknown_tenant', `no tenant '${tenant}'`);
    res.json(await listSessions(store, tenants, {
      limit: q.limit, ...(tenant ? { tenant } : {}), ...(q.status ? { status: q.status } : {}), ...(q.flow ? { flow: q.flow } : {}), ...(q.q ? { q: q.q } : {}),
    }, lastLines));
  });

  r.get('/tenants/:tenant/sessions', async (req, res) => {
    const tenant = tenantParam(req);
    const q = parseWith(ListQuery, req.query);
    res.json({ tenant, sessions: await store.list(tenant, { limit: q.limit, ...(q.status ? { status: q.status } : {}) }) });
  });

  r.get('/sessions/:id', async (req, res) => {
    const id = sessionParam(req);
    const view = unwrap(await service.view(id, 0));
    const events = await store.events(id);
    const flow = pinnedOf(view.record);
    // without the layout's optional package the console still shows the session, without the path on the map
    const layout = flow ? await layouts.ifInstalled(flow) : null;
    const handBack = flow ? handBackTargets(flow, view.record) : [];
    res.json({
      session: publicRecord(view.record), state: view.state, answers: answersOf(view.record),
      messages: view.transcript.map(toWire), events,
      // for the console: provenance per answer, the path taken, where it can be handed back
      flow: { id: view.record.flowId, revision: view.record.revision, label: flow?.label ?? null },
      provenance: provenanceOf(flow, view.record),
      trail: layout ? trailOf(events, layout) : { nodes: [], edges: [] },
      handBack, handBackAt: handBackDefault(handBack, view.record, events),
      interrupt: interruptOf(flow, view.state),
    });
  });

  /** The graph layout (GraphLayout v1) of the flow revision the session runs on. */
  r.get('/sessions/:id/graph', async (req, res) => {
    const id = sessionParam(req);
    const record = await store.load(id).catch(() => null);
    if (!record) throw new HttpError('unknown_session', 'no such session');
    const flow = pinnedOf(record);
    if (!flow) throw new HttpError('flow_unavailable', `revision ${record.revision} of ${record.flowId} is not available on this server`);
    res.setHeader('Cache-Control', 'private, max-age=3600');
    res.json(await layouts.of(flow));
  });

  r.post('/sessions/:id/decision', async (req, res) => {
    const id = sessionParam(req);
    const body = parseWith(Decision, req.body);
    const done = unwrap(await metrics.turn(id, await labelsOf(id, 'decision'), () => service.decide(id, body.decision, body.answers, 'admin', body.role)));
    audit(logger, { actor: actorOf(res), ip: clientIp(req), action: `decision:${body.decision}`, sessionId: id, correctedKeys: Object.keys(body.answers ?? {}) });
    res.json({ messages: done.messages.map(toWire), state: done.state });
  });

  r.post('/sessions/:id/messages', async (req, res) => {
    const id = sessionParam(req);
    const body = parseWith(OperatorMessageBody, req.body);
    const done = unwrap(await metrics.turn(id, await labelsOf(id, 'operator'), () => service.operatorMessage(id, body.text, 'admin')));
    audit(logger, { actor: actorOf(res), ip: clientIp(req), action: 'message', sessionId: id });
    res.json({ messages: done.messages.map(toWire) });
  });

  r.post('/sessions/:id/hand-back', async (req, res) => {
    const id = sessionParam(req);
    const body = parseWith(HandBack, req.body);
    const done = unwrap(await metrics.turn(id, await labelsOf(id, 'hand_back'), () => service.handBack(id, body.nodeId, body.answers)));
    audit(logger, { actor: actorOf(res), ip: clientIp(req), action: 'hand-back', sessionId: id, nodeId: body.nodeId });
    res.json({ messages: done.messages.map(toWire), state: done.state });
  });

  // an operator ends a conversation a person was answering (no body)
  r.post('/sessions/:id/close', async (req, res) => {
    const id = sessionParam(req);
    const done = unwrap(await metrics.turn(id, await labelsOf(id, 'close'), () => service.close(id)));
    audit(logger, { actor: actorOf(res), ip: clientIp(req), action: 'close', sessionId: id });
    res.json({ messages: done.messages.map(toWire), state: done.state });
  });

  r.get('/tenants/:tenant/export', async (req, res) => {
    const tenant = tenantParam(req);
    const q = parseWith(ExportQuery, req.query);
    const intakes = await leads(store, tenant, q.limit, q.status);
    audit(logger, { actor: actorOf(res), ip: clientIp(req), action: 'export', tenant, count: intakes.length });
    if (q.format === 'csv') {
      res.type('text/csv; charset=utf-8').attachment(`${tenant}-intakes.csv`).send(intakesCsv(intakes));
    } else {
      res.json({ tenant, count: intakes.length, intakes });
    }
  });

  return r;
}
