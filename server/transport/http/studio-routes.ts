import { Router, type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import type { Publisher } from '../../catalog/publisher.ts';
import { sourceFile } from '../../catalog/sources.ts';
import type { Diagnostic } from '../../flow/diagnostic.ts';
import type { Logger } from '../../observability/logger.ts';
import type { RateLimits } from '../rate-limits.ts';
import type { AdminAccess } from '../admin-access.ts';
import { audit } from '../audit-log.ts';
import { HttpError } from '../errors.ts';
import { LayoutCache } from './admin-views.ts';
import { actorOf, admitAdmin, clientIp, param } from './auth.ts';

// The Studio's REST API under /api/v1/admin (docs/studio.md): read the source
// files under FLOWS_DIR, check a draft, publish it without a restart, list a
// tenant's flow's revisions and roll back. Same keys as the other admin routes.

/** What the Studio routes need. */
export interface StudioDeps {
  publisher: Publisher;
  limits: RateLimits;
  logger: Logger;
  admins: AdminAccess;
}

const MAX_TEXT = 2 * 1024 * 1024;
const Path = z.string().min(1).max(300);
const CheckBody = z.object({ path: Path, text: z.string().max(MAX_TEXT) });
const PublishBody = CheckBody.extend({ version: z.string().min(1).max(100), note: z.string().max(500).optional() });
const RollbackBody = z.object({ revision: z.string().min(1).max(200), note: z.string().max(500).optional() });

/** Parses a body, or answers 400 `invalid_request` naming the first field at fault. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.map(String).join('.') || '(body)';
  throw Object.assign(new HttpError('invalid_request', `${field}: ${issue.message}`), { field });
}

/** A diagnostic as the Studio sends it: position in its file (relative to FLOWS_DIR). */
function wireDiagnostic(d: Diagnostic, dir: string): { line: number; col: number; code: string; message: string; severity: Diagnostic['severity']; file?: string } {
  const file = d.file?.startsWith(`${dir}/`) ? d.file.slice(dir.length + 1) : d.file;
  return { line: d.line ?? 1, col: d.col ?? 1, code: d.code, message: d.message, severity: d.severity, ...(file ? { file } : {}) };
}

/** `/api/v1/admin/sources|check|publish|tenants/:t/flows/:f/revisions|rollback` (admin or operator key). */
export function studioRoutes(deps: StudioDeps): Router {
  const { publisher, limits, logger, admins } = deps;
  const r = Router();
  const layouts = new LayoutCache();
  const wire = (ds: readonly Diagnostic[], path?: string) =>
    ds.map((d) => wireDiagnostic(d, publisher.dir)).map((d) => (path && d.file === path ? (({ file: _f, ...rest }) => ({ ...rest, file: path }))(d) : d));
  const checkPath = (path: string): string => {
    if (!sourceFile(publisher.dir, path)) {
      throw Object.assign(new HttpError('invalid_request', `path: '${path}' is not a flow or overlay under FLOWS_DIR (global/<file>, packs/<pack>/<file> or tenants/<tenant>/<file>, no '..')`), { field: 'path' });
    }
    return path;
  };
  const tenantFlow = (req: Request) => {
    const tenant = param(req, 'tenant');
    const flow = param(req, 'flow');
    if (!publisher.catalog.tenant(tenant)) throw new HttpError('unknown_tenant', `no tenant '${tenant}'`);
    if (!publisher.catalog.tenant(tenant)!.flows.includes(flow)) throw new HttpError('unknown_flow', `tenant '${tenant}' offers no flow '${flow}'`);
    return { tenant, flow };
  };

  const gate = async (req: Request, res: Response, next: NextFunction) => {
    res.locals.routeBase = '/api/v1/admin';
    res.locals.actor = await admitAdmin(limits, admins, req);
    next();
  };

  r.get('/sources', gate, (_req, res) => {
    res.json(publisher.sources());
  });

  r.get('/sources/*path', gate, (req, res) => {
    const path = checkPath(param(req, 'path'));
    const source = publisher.read(path);
    if (!source) throw new HttpError('not_found', `no source file '${path}' under FLOWS_DIR`);
    res.json(source);
  });

  r.post('/check', gate, async (req, res) => {
    const body = parseBody(CheckBody, req.body);
    checkPath(body.path);
    const checked = publisher.check(body.path, body.text);
    const graph = checked.graph ? await layouts.ifInstalled(checked.graph) : null;
    res.json({
      ok: checked.ok, diagnostics: wire(checked.diagnostics, body.path), graph,
      flows: checked.flows.map((f) => ({ tenant: f.tenant, flow: f.flow, revision: f.compiled?.revision ?? null })),
      report: checked.report ?? null,
    });
  });

  r.post('/publish', gate, async (req, res) => {
    const body = parseBody(PublishBody, req.body);
    checkPath(body.path);
    if (!publisher.read(body.path)) throw new HttpError('not_found', `no source file '${body.path}' under FLOWS_DIR`);
    const by = actorOf(res);
    const out = await publisher.publish(body.path, body.text, body.version, { by, ...(body.note ? { note: body.note } : {}) });
    if (!out.ok && out.reason === 'stale') {
      res.status(409).json({ error: { code: 'stale_version', message: `${body.path} was published by someone else since you opened it (your version ${body.version}, now ${out.version}); reload it, then apply your change again` }, version: out.version });
      return;
    }
    if (!out.ok) {
      const diagnostics = wire(out.diagnostics, body.path);
      const first = diagnostics.find((d) => d.severity === 'error');
      res.status(422).json({ error: { code: 'invalid_flow', message: `the draft has ${diagnostics.filter((d) => d.severity === 'error').length} error(s); first: ${first ? `${first.file ?? body.path}:${first.line}:${first.col} ${first.message}` : ''}` }, diagnostics });
      return;
    }
    audit(logger, { actor: by, ip: clientIp(req), action: 'publish', path: body.path, note: body.note ?? null, revisions: out.revisions });
    res.status(201).json({ revisions: out.revisions, writtenBack: out.writtenBack });
  });

  r.get('/tenants/:tenant/flows/:flow/revisions', gate, async (req, res) => {
    const { tenant, flow } = tenantFlow(req);
    const withText = req.query.text === '1' || req.query.text === 'true';
    const list = await publisher.revisions(tenant, flow);
    res.json(list.map(({ text, ...e }) => (withText ? { ...e, text } : e)));
  });

  r.post('/tenants/:tenant/flows/:flow/rollback', gate, async (req, res) => {
    const { tenant, flow } = tenantFlow(req);
    const body = parseBody(RollbackBody, req.body);
    const by = actorOf(res);
    const out = await publisher.rollback(tenant, flow, body.revision, { by, ...(body.note ? { note: body.note } : {}) });
    if (!out.ok && out.reason === 'unknown_revision') {
      throw Object.assign(new HttpError('invalid_request', `revision: ${tenant}/${flow} never served revision '${body.revision}' (GET …/revisions lists them)`), { field: 'revision' });
    }
    if (!out.ok) {
      res.status(422).json({ error: { code: 'invalid_flow', message: 'that revision no longer compiles against the other files' }, diagnostics: wire(out.diagnostics) });
      return;
    }
    audit(logger, { actor: by, ip: clientIp(req), action: 'rollback', tenant, flow, revision: out.revision, revisions: out.revisions });
    res.json({ revision: out.revision });
  });

  return r;
}
