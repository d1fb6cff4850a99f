import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { killServers, spawnServer, type ServerProcess } from '../support/server-process.ts';
import { REPO_FLOWS, TEST_ADMIN_KEY } from '../support/server.ts';
import { api, NORTHSIDE_KEY } from './helpers.ts';
import { exportPublishedCommand } from '../../server/cli/export-published.ts';

// The Studio's REST API against the server as `npm start` runs it, on a copy
// of flows/ (the repository's flows are never changed): publish a new prompt
// with no restart, running sessions keep theirs, a draft with a guard error is
// refused with its position, rollback, and all of it survives a restart.

const SOURCE = 'global/patient-intake.flow.yaml';
const OLD = "What is the patient's full legal name?";
const NEW = 'Please tell me the full legal name of the patient.';
const admin = { 'x-questline-admin': TEST_ADMIN_KEY };
const dirs: string[] = [];

afterEach(killServers);
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function workspace(): { flowsDir: string; dataDir: string } {
  const root = mkdtempSync(join(tmpdir(), 'questline-studio-'));
  dirs.push(root);
  cpSync(REPO_FLOWS, join(root, 'flows'), { recursive: true });
  return { flowsDir: join(root, 'flows'), dataDir: join(root, 'data') };
}

function serve(ws: { flowsDir: string; dataDir: string }, env: Record<string, string> = {}): Promise<ServerProcess> {
  return spawnServer({ DATA_DIR: ws.dataDir, FLOWS_DIR: ws.flowsDir, STORE: 'lowdb', ADMIN_KEY: TEST_ADMIN_KEY, ANTHROPIC_API_KEY: '', REDIS_URL: '', ...env }, { timeoutMs: 30_000 });
}

async function stop(s: ServerProcess): Promise<void> {
  s.proc.kill('SIGTERM');
  await s.exited;
}

/** Starts a northside-clinic session over REST; returns its id, token and the question it asked. */
async function startSession(url: string): Promise<{ id: string; token: string; question: string }> {
  const res = await api(url, '/tenants/northside-clinic/sessions', { body: { flow: 'flow.patient_intake' }, headers: { 'x-questline-key': NORTHSIDE_KEY } });
  expect(res.status).toBe(201);
  const question = res.body.messages.find((m: { kind?: string }) => m.kind === 'question').text as string;
  return { id: res.body.sessionId, token: res.body.token, question };
}

async function say(url: string, s: { id: string; token: string }, text: string, clientId: string): Promise<string[]> {
  const res = await api(url, `/sessions/${s.id}/messages`, { body: { text, clientId }, headers: { authorization: `Bearer ${s.token}` } });
  expect(res.status).toBe(200);
  return res.body.messages.map((m: { text: string }) => m.text);
}

const revisionsOf = async (url: string) =>
  (await api(url, '/admin/tenants/northside-clinic/flows/flow.patient_intake/revisions', { headers: admin })).body as Array<{ revision: string; current: boolean; by: string; note: string | null; kind: string }>;

describe('Studio publish over REST (npm start)', () => {
  it('serves a published prompt to new sessions at once, keeps running ones on theirs, refuses errors, rolls back, and survives restarts', async () => {
    const ws = workspace();
    let server = await serve(ws);
    let url = server.url;

    // the sources and who they feed
    const sources = await api(url, '/admin/sources', { headers: admin });
    expect(sources.status).toBe(200);
    expect(sources.body).toContainEqual({ path: SOURCE, kind: 'global', flows: [{ tenant: 'northside-clinic', flow: 'flow.patient_intake' }] });
    expect(sources.body.find((s: { path: string }) => s.path === 'tenants/acme/sales.json')).toMatchObject({ kind: 'tenant', flows: [{ tenant: 'acme', flow: 'flow.sales' }] });

    const before = await startSession(url);
    expect(before.question).toContain(OLD);
    const source = await api(url, `/admin/sources/${SOURCE}`, { headers: admin });
    expect(source.status).toBe(200);
    expect(source.body.text).toBe(readFileSync(join(ws.flowsDir, SOURCE), 'utf8'));
    const text: string = source.body.text;
    const baseline = (await revisionsOf(url))[0]!.revision;

    // a draft with a guard error: 422 with the error's line and column, nothing changes
    const guardLine = text.split('\n').findIndex((l) => /^\s+when: /.test(l));
    const broken = text.split('\n').map((l, i) => (i === guardLine ? l.replace(/when: .*/, 'when: answers.no_such_key == 3') : l)).join('\n');
    const refused = await api(url, '/admin/publish', { body: { path: SOURCE, text: broken, version: source.body.version }, headers: admin });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('invalid_flow');
    const err = refused.body.diagnostics.find((d: { severity: string }) => d.severity === 'error');
    expect(err).toMatchObject({ line: guardLine + 1, col: expect.any(Number), severity: 'error', file: SOURCE });
    expect(err.message).toContain('no_such_key');
    expect((await startSession(url)).question).toContain(OLD);

    // the check endpoint says the same without saving, and draws the draft
    const checked = await api(url, '/admin/check', { body: { path: SOURCE, text: broken }, headers: admin });
    expect(checked.body).toMatchObject({ ok: false, diagnostics: [expect.objectContaining({ line: guardLine + 1 })] });

    // publish the new prompt: 201, written back to FLOWS_DIR, served to the next session with no restart
    const published = await api(url, '/admin/publish', { body: { path: SOURCE, text: text.replace(OLD, NEW), version: source.body.version, note: 'friendlier' }, headers: admin });
    expect(published.status).toBe(201);
    expect(published.body.revisions).toEqual([{ tenant: 'northside-clinic', flow: 'flow.patient_intake', revision: expect.any(String) }]);
    const newRevision = published.body.revisions[0].revision as string;
    expect(newRevision).not.toBe(baseline);
    expect(readFileSync(join(ws.flowsDir, SOURCE), 'utf8')).toContain(NEW);
    const after = await startSession(url);
    expect(after.question).toContain(NEW);

    // the session started before keeps its revision: "back" asks its name again in the old words
    await say(url, before, 'Ann Lee', 'b1');
    expect((await say(url, before, 'back', 'b2')).join(' ')).toContain(OLD);

    // the same version again is stale: 409, not a silent overwrite
    const stale = await api(url, '/admin/publish', { body: { path: SOURCE, text: text.replace(OLD, 'Name?'), version: source.body.version }, headers: admin });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('stale_version');

    let revisions = await revisionsOf(url);
    expect(revisions.map((r) => [r.revision, r.current, r.kind])).toEqual([[baseline, false, 'baseline'], [newRevision, true, 'publish']]);
    expect(revisions[1]).toMatchObject({ by: 'admin', note: 'friendlier' });
    expect(server.logs.some((l) => l.includes('"audit":true') && l.includes('"action":"publish"'))).toBe(true);

    // a restart serves the published revision
    await stop(server);
    server = await serve(ws);
    url = server.url;
    expect((await startSession(url)).question).toContain(NEW);
    expect((await revisionsOf(url)).map((r) => r.revision)).toEqual([baseline, newRevision]);

    // rollback brings the old prompt back to new sessions
    const rolled = await api(url, '/admin/tenants/northside-clinic/flows/flow.patient_intake/rollback', { body: { revision: baseline }, headers: admin });
    expect(rolled.status).toBe(200);
    expect(rolled.body).toEqual({ revision: baseline });
    expect((await startSession(url)).question).toContain(OLD);
    expect(readFileSync(join(ws.flowsDir, SOURCE), 'utf8')).toBe(text);
    expect(server.logs.some((l) => l.includes('"audit":true') && l.includes('"action":"rollback"'))).toBe(true);

    // and so does the next start
    await stop(server);
    server = await serve(ws);
    url = server.url;
    expect((await startSession(url)).question).toContain(OLD);
    revisions = await revisionsOf(url);
    expect(revisions.map((r) => [r.revision, r.current, r.kind])).toEqual([[baseline, false, 'baseline'], [newRevision, false, 'publish'], [baseline, true, 'rollback']]);
  }, 120_000);

  it('refuses bad input naming the field, paths outside FLOWS_DIR, and callers without a key', async () => {
    const ws = workspace();
    const { url } = await serve(ws);
    const missing = await api(url, '/admin/publish', { body: { path: SOURCE, text: 'x' }, headers: admin });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'invalid_request', field: 'version' });
    for (const path of ['../package.json', 'global/../../package.json', '/etc/passwd', 'global/flow.schema.json', 'tenants/acme/tenant.json']) {
      const res = await api(url, '/admin/check', { body: { path, text: 'x' }, headers: admin });
      expect(res.status, path).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'path' });
    }
    expect((await api(url, '/admin/sources/..%2F..%2Fpackage.json', { headers: admin })).status).toBe(400);
    expect((await api(url, '/admin/sources')).status).toBe(403);
    // a whole flow file is larger than the API's usual 32 KB body limit: the Studio's routes take it
    const sales = await api(url, '/admin/sources/global/sales.flow.json', { headers: admin });
    expect(JSON.stringify({ path: 'global/sales.flow.json', text: sales.body.text }).length).toBeGreaterThan(32 * 1024);
    const checked = await api(url, '/admin/check', { body: { path: 'global/sales.flow.json', text: sales.body.text }, headers: admin });
    expect(checked.status).toBe(200);
    expect(checked.body).toMatchObject({ ok: true, flows: [{ tenant: 'acme', flow: 'flow.sales' }] });
    const rollback = await api(url, '/admin/tenants/northside-clinic/flows/flow.patient_intake/rollback', { body: { revision: 'nope' }, headers: admin });
    expect(rollback.body.error).toMatchObject({ code: 'invalid_request', field: 'revision' });
  }, 120_000);

  it('with FLOWS_WRITE_BACK=0 keeps the published text under DATA_DIR, serves it after a restart, and exports it with one command', async () => {
    const ws = workspace();
    let server = await serve(ws, { FLOWS_WRITE_BACK: '0' });
    const source = await api(server.url, `/admin/sources/${SOURCE}`, { headers: admin });
    const original = source.body.text as string;
    const published = await api(server.url, '/admin/publish', { body: { path: SOURCE, text: original.replace(OLD, NEW), version: source.body.version }, headers: admin });
    expect(published.body).toMatchObject({ writtenBack: false });
    expect(readFileSync(join(ws.flowsDir, SOURCE), 'utf8')).toBe(original);
    expect((await startSession(server.url)).question).toContain(NEW);
    expect((await api(server.url, `/admin/sources/${SOURCE}`, { headers: admin })).body.text).toContain(NEW);

    await stop(server);
    server = await serve(ws, { FLOWS_WRITE_BACK: '0' });
    expect((await startSession(server.url)).question).toContain(NEW);

    const out: string[] = [];
    const code = await exportPublishedCommand({ dataDir: ws.dataDir, out: ws.flowsDir }, { out: (s: string) => out.push(s), err: () => {} });
    expect(code).toBe(0);
    expect(out.join('\n')).toContain(SOURCE);
    expect(readFileSync(join(ws.flowsDir, SOURCE), 'utf8')).toContain(NEW);
  }, 120_000);
});
