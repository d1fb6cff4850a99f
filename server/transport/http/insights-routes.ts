import type * as CsvSync from 'csv-stringify/sync';
import { lazyRequire } from '../../shared/lazy-require.ts';
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { TenantDirectory } from '../../catalog/tenants.ts';
import type { ConversationService } from '../../conversation/service.ts';
import type { CompiledFlow } from '../../flow/compiled-flow.ts';
import type { Logger } from '../../observability/logger.ts';
import { toWire } from '../../protocol/index.ts';
import { daysOf, edgesOf, funnelOf, openSessionsOf, revisionsOf, type Funnel, type FunnelFilter } from '../../store/funnel-report.ts';
import type { SessionStore } from '../../store/session-store.ts';
import type { AdminAccess } from '../admin-access.ts';
import { audit } from '../audit-log.ts';
import { HttpError } from '../errors.ts';
import type { RateLimits } from '../rate-limits.ts';
import { actorOf, admitAdmin, clientIp, param } from './auth.ts';
import { answersOf } from './public-routes.ts';
import { LayoutCache } from './admin-views.ts';
import { visitorSessions, type VisitorQuery } from './visitor-data.ts';

/** csv-stringify/sync, loaded on the first request that needs it, not with the server (server/shared/lazy-require.ts). */
const csv = lazyRequire<typeof CsvSync>('csv-stringify/sync');

// Insights (docs/insights.md), under /api/v1/admin with the admin routes'
// keys: the funnel of a flow from the maintained counts, what the console's
// Insights view draws besides it, and a visitor's own data (show, erase).

/** What the insights routes need. */
export interface InsightsDeps {
  service: ConversationService;
  tenants: TenantDirectory;
  store: SessionStore;
  limits: RateLimits;
  logger: Logger;
  admins: AdminAccess;
}

/** A 400 naming the query parameter at fault. */
const badParam = (field: string, message: string) => Object.assign(new HttpError('invalid_request', message), { field });

/** A query parameter given once as text, else undefined (a repeated one is refused). */
function queryText(req: Request, name: string): string | undefined {
  const v = req.query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw badParam(name, `'${name}' must be given once, as text`);
  return v;
}

/** A day (YYYY-MM-DD, or an ISO date-time: its UTC day), or a 400 naming the parameter. */
function dayParam(req: Request, name: 'from' | 'to'): string | undefined {
  const v = queryText(req, name);
  if (v === undefined || v === '') return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(v) ? Date.parse(`${v}T00:00:00Z`) : /^\d{4}-\d{2}-\d{2}T/.test(v) ? Date.parse(v) : NaN;
  if (!Number.isFinite(ms)) throw badParam(name, `'${name}' must be a date like 2026-03-01 (got '${v.slice(0, 40)}')`);
  const day = new Date(ms).toISOString().slice(0, 10);
  // Date.parse rolls 2026-02-31 over to March: refuse a day that does not exist
  if (/^\d{4}-\d{2}-\d{2}$/.test(v) && day !== v) throw badParam(name, `'${name}' is not a day of the calendar (got '${v}')`);
  return day;
}

/** The flow's nodes in order, with the answer key of each question. */
const nodeOrder = (flow: CompiledFlow | undefined) =>
  flow ? [...flow.nodes.values()].map((c) => ({ id: c.node.id, key: c.node.type === 'question' ? ((c.node as { key?: string }).key ?? null) : null })) : [];

/** The funnel as CSV: one row per node. */
function funnelCsv(f: Funnel): string {
  const header = ['node_id', 'key', 'reached', 'answered', 'reasked', 'dropped', 'escalated', 'top_reasons'];
  const rows = f.nodes.map((n) => [n.id, n.key ?? '', n.reached, n.answered, n.reasked, n.dropped, n.escalated, n.reasons.map((r) => `${r.reason} (${r.count})`).join('; ')]);
  return csv().stringify([header, ...rows], { quoted_match: /[",\r\n]/, record_delimiter: 'windows' });
}

/** `/api/v1/admin/tenants/:tenant/flows/:flow/funnel`, `…/insights`, and `/api/v1/admin/tenants/:tenant/visitors`. */
export function insightsRoutes(deps: InsightsDeps): Router {
  const { service, tenants, store, limits, logger, admins } = deps;
  const r = Router();
  const admit = async (req: Request, res: Response, next: NextFunction) => {
    res.locals.routeBase = '/api/v1/admin';
    res.locals.actor = await admitAdmin(limits, admins, req);
    next();
  };
  const tenantParam = (req: Request): string => {
    const id = param(req, 'tenant');
    if (!tenants.tenant(id)) throw new HttpError('unknown_tenant', `no tenant '${id}'`);
    return id;
  };

  /** The tenant, flow, counts of the flow and the filter of a funnel request; 400 naming a bad parameter. */
  const funnelRequest = async (req: Request) => {
    const tenant = tenantParam(req);
    const flowId = param(req, 'flow');
    const counted = await service.counts.read(tenant, flowId);
    if (!tenants.tenant(tenant)!.flows.includes(flowId) && counted.size === 0) throw new HttpError('unknown_flow', `tenant '${tenant}' has no flow '${flowId}'`);
    const filter: FunnelFilter = {};
    const from = dayParam(req, 'from');
    const to = dayParam(req, 'to');
    if (from !== undefined) filter.from = from;
    if (to !== undefined) filter.to = to;
    if (from !== undefined && to !== undefined && from > to) throw badParam('to', `'to' (${to}) is before 'from' (${from})`);
    const revision = queryText(req, 'revision');
    const revisions = revisionsOf(counted);
    if (revision !== undefined && revision !== '') {
      if (!revisions.some((x) => x.revision === revision) && !tenants.pinned(flowId, revision)) throw badParam('revision', `flow '${flowId}' has no revision '${revision.slice(0, 40)}'`);
      filter.revision = revision;
    }
    const locale = queryText(req, 'locale');
    if (locale !== undefined && locale !== '') {
      if (locale.length > 35 || !/^[A-Za-z0-9-]+$/.test(locale)) throw badParam('locale', `'locale' must be a language tag like en or de-CH`);
      filter.locale = locale;
    }
    const format = queryText(req, 'format') ?? 'json';
    if (format !== 'json' && format !== 'csv') throw badParam('format', `'format' is json or csv`);
    const current = tenants.flow(tenant, flowId);
    const shown = filter.revision ? tenants.pinned(flowId, filter.revision) ?? current : current;
    return { tenant, flowId, counted, filter, format, current, shown, revisions };
  };

  r.get('/tenants/:tenant/flows/:flow/funnel', admit, async (req, res) => {
    const q = await funnelRequest(req);
    const funnel = funnelOf(q.counted, q.filter, nodeOrder(q.shown));
    if (q.format === 'csv') res.type('text/csv; charset=utf-8').attachment(`${q.tenant}-${q.flowId}-funnel.csv`).send(funnelCsv(funnel));
    else res.json(funnel);
  });

  /** What the console's Insights view draws besides the funnel: the revisions counted, sessions per day, open sessions by node. */
  r.get('/tenants/:tenant/flows/:flow/insights', admit, async (req, res) => {
    const q = await funnelRequest(req);
    const open: Record<string, number> = {};
    for (const row of openSessionsOf(q.counted)) open[row.node] = (open[row.node] ?? 0) + row.n;
    res.json({
      tenant: q.tenant, flow: q.flowId, current: q.current?.revision ?? null, label: q.current?.label ?? null,
      variant: tenants.tenant(q.tenant)?.variants?.[q.current?.id ?? q.flowId] ?? null,
      revisions: q.revisions, days: daysOf(q.counted, q.filter), open, edges: edgesOf(q.counted, q.filter),
    });
  });

  const layouts = new LayoutCache();
  /** The graph layout of the flow's revision (`revision`, else the current one), for the Insights map. */
  r.get('/tenants/:tenant/flows/:flow/graph', admit, async (req, res) => {
    const q = await funnelRequest(req);
    if (!q.shown) throw new HttpError('flow_unavailable', `flow '${q.flowId}' is not available on this server`);
    res.setHeader('Cache-Control', 'private, max-age=3600');
    res.json(await layouts.of(q.shown));
  });

  /** The visitor named by `email` or `phone` (exactly one). */
  const visitorQuery = (req: Request): VisitorQuery => {
    const email = queryText(req, 'email');
    const phone = queryText(req, 'phone');
    if ((email === undefined) === (phone === undefined)) throw badParam(email === undefined ? 'email' : 'phone', 'give either email or phone, not both');
    if (email !== undefined) {
      if (!/^[^\s@]+@[^\s@]+$/.test(email.trim()) || email.length > 320) throw badParam('email', `'email' is not an email address`);
      return { email };
    }
    if (phone!.replace(/\D/g, '').length < 7 || phone!.length > 40) throw badParam('phone', `'phone' needs at least 7 digits`);
    return { phone: phone! };
  };

  r.get('/tenants/:tenant/visitors', admit, async (req, res) => {
    const tenant = tenantParam(req);
    const q = visitorQuery(req);
    const found = await visitorSessions(store, tenant, q);
    const sessions = [];
    for (const rec of found) {
      sessions.push({
        id: rec.id, flowId: rec.flowId, revision: rec.revision, status: rec.status, createdAt: rec.createdAt, updatedAt: rec.updatedAt,
        ...((rec as { preview?: unknown }).preview === true ? { preview: true } : {}),
        answers: answersOf(rec), transcript: (await store.transcript(rec.id)).map(toWire),
      });
    }
    audit(logger, { actor: actorOf(res), ip: clientIp(req), action: 'visitor:export', tenant, by: 'email' in q ? 'email' : 'phone', sessions: sessions.map((s) => s.id) });
    res.json({ tenant, visitor: q, exportedAt: new Date().toISOString(), count: sessions.length, sessions });
  });

  r.delete('/tenants/:tenant/visitors', admit, async (req, res) => {
    const tenant = tenantParam(req);
    const q = visitorQuery(req);
    const erased: string[] = [];
    for (const rec of await visitorSessions(store, tenant, q)) if (await service.erase(rec.id)) erased.push(rec.id);
    audit(logger, { actor: actorOf(res), ip: clientIp(req), action: 'visitor:erase', tenant, by: 'email' in q ? 'email' : 'phone', sessions: erased });
    res.json({ tenant, erased: erased.length, sessions: erased });
  });

  return r;
}
