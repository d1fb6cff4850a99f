import { Router, type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import type { Publisher } from '../../catalog/publisher.ts';
import type { Drafter } from '../../extract/anthropic/draft-flow.ts';
import { compileText } from '../../flow/document.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type * as Yaml from 'yaml';
import { lazyRequire } from '../../shared/lazy-require.ts';
import type { ConversationService } from '../../conversation/service.ts';
import { toWire } from '../../protocol/index.ts';
import { sourceFile, sourceKind } from '../../catalog/sources.ts';
import { flowDocumentJsonSchemaText } from '../../flow/json-schema.ts';
import type { DraftGoldenRun } from '../../golden/draft-goldens.ts';
import { existsSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Diagnostic } from '../../flow/diagnostic.ts';
import type { Logger } from '../../observability/logger.ts';
import type { RateLimits } from '../rate-limits.ts';
import type { AdminAccess } from '../admin-access.ts';
import { audit } from '../audit-log.ts';
import { HttpError } from '../errors.ts';
import { LayoutCache } from './admin-views.ts';
import { actorOf, admitAdmin, clientIp, param } from './auth.ts';

/** yaml, loaded on the first request that needs it, not with the server (server/shared/lazy-require.ts). */
const yaml = lazyRequire<typeof Yaml>('yaml');
/** The golden runner (and the yaml package it reads goldens with), imported on the first golden request, not with the server. */
const goldenRunner = () => import('../../golden/draft-goldens.ts');

// The Studio's REST API under /api/v1/admin (docs/studio.md): read the source
// files under FLOWS_DIR, check a draft, publish it without a restart, list a
// tenant's flow's revisions and roll back. Same keys as the other admin routes.

/** What the Studio routes need. */
export interface StudioDeps {
  publisher: Publisher;
  /** "Describe your intake" (Claude); absent without ANTHROPIC_API_KEY. */
  drafter?: Drafter;
  service: ConversationService;
  limits: RateLimits;
  logger: Logger;
  admins: AdminAccess;
}

const MAX_TEXT = 2 * 1024 * 1024;
/** The routes that take a whole source text (their bodies may be larger than the API's usual limit). */
export const STUDIO_TEXT_ROUTES = ['check', 'publish', 'preview', 'goldens/run', 'draft', 'sources'] as const;
const Path = z.string().min(1).max(300);
const CheckBody = z.object({ path: Path, text: z.string().max(MAX_TEXT) });
const PublishBody = CheckBody.extend({ version: z.string().min(1).max(100), note: z.string().max(500).optional() });
const PreviewBody = CheckBody.extend({ tenant: z.string().min(1).max(100).optional(), flow: z.string().min(1).max(200).optional(), locale: z.string().min(1).max(35).optional() });
const DraftBody = z.object({ description: z.string().trim().min(10).max(4000), locale: z.string().min(2).max(35).optional(), tenant: z.string().min(1).max(100).optional() });
const GoldenBody = z.object({ path: Path, sessionId: z.string().min(1).max(100), name: z.string().regex(/^[a-z0-9][a-z0-9-]{0,60}$/, 'lower-case letters, digits and "-" (the file becomes <name>.golden.yaml)') });
const NewSourceBody = CheckBody.extend({ note: z.string().max(500).optional() });
/** A new file's name: lower-case words joined by "-", a flow or overlay extension. */
const NEW_NAME = /^[a-z0-9][a-z0-9-]{0,79}(\.flow)?\.(ya?ml|json)$/;
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
  const { publisher, service, limits, logger, admins, drafter } = deps;
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

  /** The flow document's JSON Schema (flows/flow.schema.json): the editor's completion and hover text. */
  let schema: string | undefined;
  r.get('/flow-schema', gate, (_req, res) => {
    res.type('application/json').send((schema ??= flowDocumentJsonSchemaText()));
  });

  r.get('/sources', gate, (_req, res) => {
    res.json(publisher.sources());
  });

  /**
   * Saves a draft as a new source file under FLOWS_DIR: a global flow
   * (`global/<name>.flow.yaml`) or an overlay in an existing tenant's or
   * pack's folder. The name is checked (lower-case words and "-", not an
   * existing file); a text with errors is refused with 422. From then on it is
   * an ordinary source (GET /sources/<path>, /check, /publish).
   */
  r.post('/sources', gate, async (req, res) => {
    const body = parseBody(NewSourceBody, req.body);
    checkPath(body.path);
    const name = body.path.split('/').at(-1)!;
    const bad = (message: string) => Object.assign(new HttpError('invalid_request', `path: ${message}`), { field: 'path' });
    if (!NEW_NAME.test(name)) throw bad(`'${name}' is not a name for a new file: lower-case letters, digits and "-", ending in .flow.yaml, .yaml or .json`);
    const kind = sourceKind(body.path);
    if (kind === 'tenant' && !publisher.catalog.tenant(body.path.split('/')[1]!)) throw bad(`there is no tenant '${body.path.split('/')[1]}' (a tenant's overlay goes in its folder, tenants/<tenant>/)`);
    const by = actorOf(res);
    const out = await publisher.create(body.path, body.text, { by, ...(body.note ? { note: body.note } : {}) });
    if (!out.ok) {
      if (out.reason === 'exists') throw bad(`${body.path} exists already: choose another name (or open it and publish)`);
      if (out.reason === 'no_folder') throw bad(`the folder of ${body.path} does not exist under FLOWS_DIR`);
      const diagnostics = wire(out.diagnostics, body.path);
      const first = diagnostics.find((d) => d.severity === 'error');
      res.status(422).json({ error: { code: 'invalid_flow', message: `the draft has ${diagnostics.filter((d) => d.severity === 'error').length} error(s); first: ${first ? `${first.file ?? body.path}:${first.line}:${first.col} ${first.message}` : ''}` }, diagnostics });
      return;
    }
    audit(logger, { actor: by, ip: clientIp(req), action: 'create', path: body.path, note: body.note ?? null, revisions: out.revisions });
    const info = publisher.sources().find((s) => s.path === body.path);
    res.status(201).json({ path: body.path, kind, version: out.version, flows: info?.flows ?? [], revisions: out.revisions, writtenBack: out.writtenBack });
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

  /**
   * A preview session on a draft (the Studio's chat): the draft's revision is
   * kept (not made current) and the session is marked `preview: true`, so it
   * is never delivered, exported or counted. The widget resumes it with the
   * returned id and token.
   */
  r.post('/preview', gate, async (req, res) => {
    const body = parseBody(PreviewBody, req.body);
    checkPath(body.path);
    const checked = publisher.check(body.path, body.text);
    if (!checked.ok) {
      res.status(422).json({ error: { code: 'invalid_flow', message: 'fix the errors first: a draft with errors cannot run' }, diagnostics: wire(checked.diagnostics, body.path) });
      return;
    }
    const target = checked.flows.find((f) => f.compiled && (!body.tenant || f.tenant === body.tenant) && (!body.flow || f.flow === body.flow));
    if (!target?.compiled) {
      throw Object.assign(new HttpError('invalid_request', `tenant: no tenant${body.tenant ? ` '${body.tenant}'` : ''} offers the flow this file feeds, so there is nothing to preview`), { field: 'tenant' });
    }
    publisher.catalog.registry.keep(target.compiled);
    const started = await service.startSession({ tenant: target.tenant, flow: target.flow, draft: target.compiled, ...(body.locale ? { locale: body.locale } : {}) });
    if (!started.ok) throw new HttpError(started.error.code, started.error.message);
    audit(logger, { actor: actorOf(res), ip: clientIp(req), action: 'preview', tenant: target.tenant, sessionId: started.value.sessionId, path: body.path, revision: target.compiled.revision });
    res.status(201).json({
      sessionId: started.value.sessionId, token: started.value.token, tenant: target.tenant, flow: target.flow, revision: target.compiled.revision,
      key: publisher.catalog.tenant(target.tenant)?.keys[0] ?? null, messages: started.value.messages.map(toWire), state: started.value.state,
    });
  });

  /** Runs the goldens beside the flow a source feeds against the draft, with the coverage they reach. */
  r.post('/goldens/run', gate, async (req, res) => {
    const body = parseBody(CheckBody, req.body);
    checkPath(body.path);
    const checked = publisher.check(body.path, body.text);
    if (!checked.ok) {
      res.status(422).json({ error: { code: 'invalid_flow', message: 'fix the errors first: goldens run on a draft that compiles' }, diagnostics: wire(checked.diagnostics, body.path) });
      return;
    }
    const file = join(publisher.dir, body.path);
    const lib = checked.catalog.library;
    const own = [...lib.flows.values()].find((f) => f.file === file);
    const { goldensOfFlow, runDraftGoldens, tenantGoldenJobs } = await goldenRunner();
    if (own?.flow) {
      // a global flow runs the goldens beside it, as written
      const run = await runDraftGoldens(goldensOfFlow(own.file), own.flow, service.implementations);
      res.json({ ...goldenRunBody(run), tenants: [] });
      return;
    }
    // an overlay: every tenant's merged flow it feeds runs the goldens that tenant answers to
    // (the inherited ones with its skips and overrides from goldens.yaml, and its own)
    const fed = checked.flows.filter((f) => f.compiled);
    if (!fed.length) throw Object.assign(new HttpError('invalid_request', 'path: this file feeds no flow that compiles, so there are no goldens to run'), { field: 'path' });
    const runs = [];
    for (const f of fed) {
      const { jobs, problems } = tenantGoldenJobs(lib, f.tenant, f.flow);
      runs.push({ ...f, run: await runDraftGoldens(jobs, f.compiled!, service.implementations), problems });
    }
    const results = runs.flatMap((r) => r.run.results);
    const passed = results.filter((r) => r.ok).length;
    res.json({
      ...goldenRunBody({ passed, failed: results.length - passed, results, coverage: runs[0]!.run.coverage }),
      tenants: runs.map((r) => ({ tenant: r.tenant, flow: r.flow, passed: r.run.passed, failed: r.run.failed, problems: r.problems })),
    });
  });

  /** Writes a preview chat as a golden file beside the flow (`<name>.golden.yaml`). */
  r.post('/goldens', gate, async (req, res) => {
    const body = parseBody(GoldenBody, req.body);
    checkPath(body.path);
    const view = await service.view(body.sessionId, 0);
    if (!view.ok || !view.value.record.preview) throw Object.assign(new HttpError('invalid_request', 'sessionId: no preview session with this id'), { field: 'sessionId' });
    const file = join(publisher.dir, body.path);
    const target = join(dirname(file), `${body.name}.golden.yaml`);
    if (existsSync(target)) throw new HttpError('stale_version', `${basename(target)} exists already: choose another name`);
    const global = body.path.startsWith('global/');
    const { record, transcript, state } = view.value;
    const text = (await goldenRunner()).goldenFromTranscript({
      name: body.name, flow: global ? basename(body.path) : record.flowId, ...(global ? {} : { tenant: record.tenant }),
      now: record.createdAt, transcript, status: state.status, ...(state.locale ? { locale: state.locale } : {}),
    });
    writeFileSync(target, text, { flag: 'wx' });
    audit(logger, { actor: actorOf(res), ip: clientIp(req), action: 'golden', path: body.path, file: basename(target), sessionId: body.sessionId });
    res.status(201).json({ file: `${dirname(body.path)}/${basename(target)}`, text });
  });

  /**
   * "Describe your intake": Claude drafts a flow (forced tool use against the
   * flow JSON Schema), repaired with the compiler's diagnostics for up to
   * three rounds, with two or three proposed goldens, run on the draft. Never
   * published: the page opens it as a draft.
   */
  r.post('/draft', gate, async (req, res) => {
    const body = parseBody(DraftBody, req.body);
    if (body.tenant && !publisher.catalog.tenant(body.tenant)) throw Object.assign(new HttpError('invalid_request', `tenant: no tenant '${body.tenant}'`), { field: 'tenant' });
    if (!drafter) throw new HttpError('not_installed', 'Drafting a flow from a description needs Claude: start the server with ANTHROPIC_API_KEY set (and the @anthropic-ai/sdk package installed).');
    let draft;
    try {
      draft = await drafter({ description: body.description, ...(body.locale ? { locale: body.locale } : {}), ...(body.tenant ? { tenant: body.tenant } : {}) });
    } catch (err) {
      logger.warn({ err }, 'draft failed');
      throw new HttpError('flow_unavailable', `The model did not give a draft: ${(err as Error).message}`);
    }
    const compiled = compileText(draft.text, 'draft.flow.yaml');
    let goldens: Array<{ name: string; text: string; ok: boolean | null; message?: string }> = draft.goldens.map((g) => ({ name: g.name, text: goldenText(g), ok: null }));
    if (compiled.kind === 'flow' && compiled.flow) {
      // the proposed goldens run on the draft (from a temporary folder: nothing is written beside the flows)
      const dir = mkdtempSync(join(tmpdir(), 'questline-draft-'));
      try {
        const files = goldens.map((g, i) => {
          const file = join(dir, `${String(i + 1)}-${g.name.replace(/[^a-z0-9-]/gi, '-')}.golden.yaml`);
          writeFileSync(file, g.text);
          return file;
        });
        const run = await (await goldenRunner()).runDraftGoldens(files, compiled.flow, service.implementations);
        goldens = goldens.map((g, i) => ({ ...g, ok: run.results[i]?.ok ?? null, ...(run.results[i]?.message ? { message: run.results[i]!.message! } : {}) }));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    audit(logger, { actor: actorOf(res), ip: clientIp(req), action: 'draft', ...(body.tenant ? { tenant: body.tenant } : {}), rounds: draft.rounds, tokens: draft.usage.inputTokens + draft.usage.outputTokens });
    res.json({ text: draft.text, diagnostics: wire(draft.diagnostics), goldens, rounds: draft.rounds, usage: draft.usage });
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
    if (!out.ok && out.reason === 'stale') throw new HttpError('stale_version', `someone published ${tenant}/${flow} at the same moment; look at the revisions again, then roll back if it is still what you want`);
    if (!out.ok) {
      res.status(422).json({ error: { code: 'invalid_flow', message: 'that revision no longer compiles against the other files' }, diagnostics: wire(out.diagnostics) });
      return;
    }
    audit(logger, { actor: by, ip: clientIp(req), action: 'rollback', tenant, flow, revision: out.revision, revisions: out.revisions });
    res.json({ revision: out.revision });
  });

  return r;
}

/** The answer of `POST /goldens/run`: per golden, and the coverage painted on the graph. */
function goldenRunBody(run: DraftGoldenRun) {
  const c = run.coverage;
  return {
    passed: run.passed, failed: run.failed, results: run.results,
    coverage: c ? { nodes: c.coveredNodes, edges: c.coveredEdges, missing: { nodes: c.nodes.missing, edges: c.edges.missing, guardArms: c.guardArms.missing }, report: c } : null,
  };
}

/** A proposed golden as a golden file for the draft (`draft.flow.yaml` beside it). */
function goldenText(g: { name: string; turns: Array<{ user: string; node?: string }> }): string {
  return yaml().stringify({ name: g.name, flow: 'draft.flow.yaml', extractor: 'rules', turns: g.turns.map((t) => ({ user: String(t.user), ...(t.node ? { expect: { node: t.node } } : {}) })) }, { lineWidth: 0 });
}
