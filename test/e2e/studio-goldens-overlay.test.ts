import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_FLOWS, startTestServer, TEST_ADMIN_KEY, type TestServer } from '../support/server.ts';
import { api } from './helpers.ts';

// "Run goldens" on an overlay runs, for every tenant whose flow the overlay
// feeds, the goldens that tenant answers to on its merged draft flow: the
// inherited ones with the divergences it declares in goldens.yaml (skips,
// overrides) and its own. A golden that passes on the global flow but fails
// for the tenant is reported with the tenant's name.

const OVERLAY = 'tenants/northside-clinic/patient-intake.json';
const CONSENT = 'Last step: do you agree to our privacy notice and consent to treatment at Northside Community Clinic? (The notice is linked below this chat.)';
const admin = { 'x-questline-admin': TEST_ADMIN_KEY };

describe('Studio goldens on an overlay', () => {
  let server: TestServer;
  let root: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'questline-studio-goldens-'));
    cpSync(REPO_FLOWS, join(root, 'flows'), { recursive: true });
    server = await startTestServer({ env: { FLOWS_DIR: join(root, 'flows') } });
  }, 60_000);
  afterAll(async () => {
    await server?.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  const run = (path: string, text: string) => api(server.url, '/admin/goldens/run', { body: { path, text }, headers: admin });
  type Result = { file: string; ok: boolean; tenant?: string; message?: string };

  it("runs the tenant's goldens on its merged flow, with the divergences it declares: all pass as the files are", async () => {
    const res = await run(OVERLAY, readFileSync(join(REPO_FLOWS, OVERLAY), 'utf8'));
    expect(res.status).toBe(200);
    const results = res.body.results as Result[];
    expect(res.body.failed, results.filter((r) => !r.ok).map((r) => `${r.file}: ${r.message}`).join('\n')).toBe(0);
    expect(res.body.tenants).toEqual([{ tenant: 'northside-clinic', flow: 'flow.patient_intake', passed: results.length, failed: 0, problems: [] }]);
    // inherited goldens (patient-commands has an override: Northside's welcome) and the tenant's own
    expect(results.map((r) => r.file)).toEqual(expect.arrayContaining(['patient-commands.golden.yaml', 'patient-unwell.golden.yaml', 'northside-nurse-command.golden.yaml']));
    expect(results.every((r) => r.tenant === 'northside-clinic')).toBe(true);
    expect(res.body.coverage.nodes.length).toBeGreaterThan(10);
  }, 120_000);

  it('a draft that breaks a golden only for the tenant is reported with the tenant; the global flow still passes it', async () => {
    const text = readFileSync(join(REPO_FLOWS, OVERLAY), 'utf8').replace(CONSENT, 'Last step: do you consent to treatment here?');
    const res = await run(OVERLAY, text);
    expect(res.status).toBe(200);
    const failed = (res.body.results as Result[]).filter((r) => !r.ok);
    // the inherited golden whose override expects Northside's consent prompt, and the tenant's own that does too
    expect(failed.map((r) => [r.file, r.tenant]).sort()).toEqual([['northside-sports-physical.golden.yaml', 'northside-clinic'], ['patient-unwell.golden.yaml', 'northside-clinic']]);
    expect(failed.find((r) => r.file === 'patient-unwell.golden.yaml')!.message).toMatch(/^turn 17/); // the consent turn of patient-unwell (the age is derived, not asked)
    expect(res.body.tenants[0]).toMatchObject({ tenant: 'northside-clinic', failed: 2 });

    const global = await run('global/patient-intake.flow.yaml', readFileSync(join(REPO_FLOWS, 'global/patient-intake.flow.yaml'), 'utf8'));
    const unwell = (global.body.results as Result[]).find((r) => r.file === 'patient-unwell.golden.yaml');
    expect(unwell).toMatchObject({ ok: true });
    expect(unwell!.tenant).toBeUndefined();
  }, 180_000);
});
