import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRedis, type TestRedis } from '../support/redis.ts';
import { REPO_FLOWS, TEST_ADMIN_KEY } from '../support/server.ts';
import { killServers, spawnServer, type ServerProcess } from '../support/server-process.ts';
import { api, NORTHSIDE_KEY } from './helpers.ts';

// Two instances sharing a Redis, each with its own copy of the flows folder:
// a publish on one is served by the other from its next new session, with no
// restart; a rollback on the other comes back the same way.

const SOURCE = 'global/patient-intake.flow.yaml';
const OLD = "What is the patient's full legal name?";
const NEW = 'Please tell me the full legal name of the patient.';
const admin = { 'x-questline-admin': TEST_ADMIN_KEY };
const temps: string[] = [];
let redis: TestRedis | undefined;
let a: ServerProcess;
let b: ServerProcess;

const tempDir = (name: string) => {
  const d = mkdtempSync(join(tmpdir(), `questline-${name}-`));
  temps.push(d);
  return d;
};

function instance(name: string): Promise<ServerProcess> {
  const flowsDir = tempDir(`studio-flows-${name}`);
  cpSync(REPO_FLOWS, flowsDir, { recursive: true });
  return spawnServer({
    DATA_DIR: tempDir(`studio-redis-${name}`), FLOWS_DIR: flowsDir, STORE: 'redis',
    REDIS_URL: redis!.url, REDIS_PREFIX: 'studio:', ADMIN_KEY: TEST_ADMIN_KEY, ANTHROPIC_API_KEY: '',
  }, { label: name, timeoutMs: 60_000 });
}

const question = async (url: string) => {
  const res = await api(url, '/tenants/northside-clinic/sessions', { body: { flow: 'flow.patient_intake' }, headers: { 'x-questline-key': NORTHSIDE_KEY } });
  return res.body.messages.find((m: { kind?: string }) => m.kind === 'question').text as string;
};

beforeAll(async () => {
  redis = await startTestRedis();
  [a, b] = await Promise.all([instance('A'), instance('B')]);
}, 120_000);

afterAll(async () => {
  await killServers();
  await redis?.stop();
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

describe('Studio publish with Redis (two instances)', () => {
  it('a publish on one instance is served by the other at once; a rollback on the other comes back', async () => {
    expect(await question(b.url)).toContain(OLD);
    const source = await api(a.url, `/admin/sources/${SOURCE}`, { headers: admin });
    const published = await api(a.url, '/admin/publish', { body: { path: SOURCE, text: source.body.text.replace(OLD, NEW), version: source.body.version }, headers: admin });
    expect(published.status).toBe(201);
    // the publishing instance wrote its own FLOWS_DIR too, and says so
    expect(published.body.writtenBack).toBe(true);
    expect(await question(b.url)).toContain(NEW);
    // B's FLOWS_DIR is untouched; it serves the shared log's text, and says so when asked for the source
    expect((await api(b.url, `/admin/sources/${SOURCE}`, { headers: admin })).body.text).toContain(NEW);

    const revisions = (await api(b.url, '/admin/tenants/northside-clinic/flows/flow.patient_intake/revisions', { headers: admin })).body;
    expect(revisions).toHaveLength(2);
    const rolled = await api(b.url, '/admin/tenants/northside-clinic/flows/flow.patient_intake/rollback', { body: { revision: revisions[0].revision }, headers: admin });
    expect(rolled.status).toBe(200);
    expect(await question(a.url)).toContain(OLD);
    expect(await question(b.url)).toContain(OLD);
  }, 60_000);
});
