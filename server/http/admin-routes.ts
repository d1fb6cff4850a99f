import { Router, type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import type { ConversationService } from '../conversation/service.ts';
import type { TenantDirectory } from '../conversation/tenants.ts';
import type { Logger } from '../observability/logger.ts';
import type { Metrics, TurnLabels } from '../observability/metrics.ts';
import { Decision, HandBack, OperatorMessageBody, SessionId, toWire } from '../realtime/protocol.ts';
import type { RateLimits } from '../realtime/rate-limits.ts';
import type { SessionStore, StoredSession } from '../store/session-store.ts';
import { clientIp, isAdmin, param, parseWith } from './auth.ts';
import { HttpError, unwrap } from './errors.ts';
import { completedIntakes, intakesCsv } from './export.ts';
import { answersOf } from './public-routes.ts';

/** What the admin routes need. */
export interface AdminDeps {
  service: ConversationService;
  tenants: TenantDirectory;
  store: SessionStore;
  metrics: Metrics;
  limits: RateLimits;
  logger: Logger;
  adminKey: string | undefined;
}

const Status = z.enum(['active', 'waiting', 'completed', 'escalated', 'abandoned', 'error']);
const ListQuery = z.object({ status: Status.optional(), limit: z.coerce.number().int().min(1).max(1000).default(100) });
const ExportQuery = z.object({ format: z.enum(['json', 'csv']).default('json'), limit: z.coerce.number().int().min(1).max(10_000).default(10_000) });

/** A stored record without its secrets (the token hash) and bookkeeping (processed client ids). */
const publicRecord = ({ tokenHash: _t, processed: _p, ...rest }: StoredSession) => rest;

/** `/api/v1/admin`: every route needs `X-Questline-Admin: <ADMIN_KEY>`; without ADMIN_KEY they are all off. */
export function adminRoutes(deps: AdminDeps): Router {
  const { service, tenants, store, metrics, limits, logger, adminKey } = deps;
  const r = Router();
  r.use((req, res, next) => {
    res.locals.routeBase = req.baseUrl;
    next();
  });

  r.use(async (req: Request, _res: Response, next: NextFunction) => {
    if (!adminKey) throw new HttpError('admin_only', 'admin endpoints are off: start the server with ADMIN_KEY');
    const ip = clientIp(req);
    const blocked = await limits.adminBlocked(ip);
    if (!blocked.ok) throw new HttpError('rate_limited', 'too many wrong admin keys from this address; wait a minute', Math.ceil(blocked.retryAfterMs / 1000));
    if (!isAdmin(adminKey, req)) {
      await limits.adminFailed(ip);
      throw new HttpError('admin_only', 'send the admin key in X-Questline-Admin');
    }
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

  r.get('/tenants/:tenant/sessions', async (req, res) => {
    const tenant = tenantParam(req);
    const q = parseWith(ListQuery, req.query);
    res.json({ tenant, sessions: await store.list(tenant, { limit: q.limit, ...(q.status ? { status: q.status } : {}) }) });
  });

  r.get('/sessions/:id', async (req, res) => {
    const id = sessionParam(req);
    const view = unwrap(await service.view(id, 0));
    res.json({
      session: publicRecord(view.record), state: view.state, answers: answersOf(view.record),
      messages: view.transcript.map(toWire), events: await store.events(id),
    });
  });

  r.post('/sessions/:id/decision', async (req, res) => {
    const id = sessionParam(req);
    const body = parseWith(Decision, req.body);
    const done = unwrap(await metrics.turn(id, await labelsOf(id, 'decision'), () => service.decide(id, body.decision, body.answers, 'admin')));
    logger.info({ sessionId: id, decision: body.decision, correctedKeys: Object.keys(body.answers ?? {}) }, 'operator decision');
    res.json({ messages: done.messages.map(toWire), state: done.state });
  });

  r.post('/sessions/:id/messages', async (req, res) => {
    const id = sessionParam(req);
    const body = parseWith(OperatorMessageBody, req.body);
    const done = unwrap(await metrics.turn(id, await labelsOf(id, 'operator'), () => service.operatorMessage(id, body.text, 'admin')));
    res.json({ messages: done.messages.map(toWire) });
  });

  r.post('/sessions/:id/hand-back', async (req, res) => {
    const id = sessionParam(req);
    const body = parseWith(HandBack, req.body);
    const done = unwrap(await metrics.turn(id, await labelsOf(id, 'hand_back'), () => service.handBack(id, body.nodeId)));
    res.json({ messages: done.messages.map(toWire), state: done.state });
  });

  r.get('/tenants/:tenant/export', async (req, res) => {
    const tenant = tenantParam(req);
    const q = parseWith(ExportQuery, req.query);
    const intakes = await completedIntakes(store, tenant, q.limit);
    if (q.format === 'csv') {
      res.type('text/csv; charset=utf-8').attachment(`${tenant}-intakes.csv`).send(intakesCsv(intakes));
    } else {
      res.json({ tenant, count: intakes.length, intakes });
    }
  });

  return r;
}
