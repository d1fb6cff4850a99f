import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killServers, spawnServer, type ServerProcess } from '../support/server-process.ts';
import { TEST_ADMIN_KEY } from '../support/server.ts';
import { ACME_KEY, ACME_SALES_SCRIPT, api } from './helpers.ts';

// Done-when of issue 35, over REST against the server as `npm start` runs it
// (a child process on its own port and temp DATA_DIR): 20 sessions played to
// known points give exactly those counts in the funnel, the same after a
// restart, and `questline insights rebuild` agrees. The dropped ones are
// ended by the inactivity sweep (acme with inactivity_s: 4, a sweep every second).

const flowsDir = mkdtempSync(join(tmpdir(), 'ql-funnel-flows-'));
cpSync('flows', flowsDir, { recursive: true });
const tenantFile = join(flowsDir, 'tenants', 'acme', 'tenant.json');
const acme = JSON.parse(readFileSync(tenantFile, 'utf8'));
writeFileSync(tenantFile, JSON.stringify({ ...acme, settings: { ...acme.settings, inactivity_s: 4 } }));
const dataDir = mkdtempSync(join(tmpdir(), 'ql-funnel-data-'));
const ENV = {
  DATA_DIR: dataDir, FLOWS_DIR: flowsDir, STORE: 'lowdb', ADMIN_KEY: TEST_ADMIN_KEY, SWEEP_INTERVAL_S: '1',
  RATE_LIMITS: 'perSocket=10000/1,perIp=10000/1,perTenant=10000/1,tenantFairShare=10000/1,startsPerIp=10000/60,readsPerIp=10000/60,readsPerSession=10000/60,adminFailuresPerIp=10000/60',
};
afterAll(async () => {
  await killServers();
  rmSync(flowsDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

const admin = { 'x-questline-admin': TEST_ADMIN_KEY };
const FUNNEL = '/admin/tenants/acme/flows/flow.sales/funnel';

/** Plays one session over REST: its messages in order; returns the final status. */
async function play(url: string, messages: readonly string[]): Promise<string> {
  const start = await api(url, '/tenants/acme/sessions', { body: { flow: 'flow.sales' }, headers: { 'x-questline-key': ACME_KEY } });
  expect(start.status).toBe(201);
  let status = start.body.state.status as string;
  for (const text of messages) {
    const r = await api(url, `/sessions/${start.body.sessionId}/messages`, { body: { text }, headers: { authorization: `Bearer ${start.body.token}` } });
    expect(r.status).toBe(200);
    status = r.body.state.status;
  }
  return status;
}

/** Runs `questline insights rebuild` (bin/questline.js, as npx questline runs it) with the server's environment. */
function rebuild(): Promise<{ code: number | null; out: string }> {
  return new Promise((done) => {
    const p = spawn(process.execPath, ['bin/questline.js', 'insights', 'rebuild', '--json'], { env: { ...process.env, ...ENV }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (c: Buffer) => (out += c.toString()));
    p.stderr.on('data', (c: Buffer) => (out += c.toString()));
    p.once('exit', (code) => done({ code, out }));
  });
}

async function stop(s: ServerProcess): Promise<void> {
  s.proc.kill('SIGTERM');
  await s.exited;
}

describe('the funnel over REST', () => {
  it('counts 20 sessions played to known points exactly, the same after a restart, and questline insights rebuild agrees', async () => {
    let server = await spawnServer(ENV);
    const completed = 8;
    const droppedAtArea = 7;
    const escalatedAtArea = 3;
    const escalatedAtHeight = 2;
    for (let i = 0; i < completed; i++) expect(await play(server.url, ACME_SALES_SCRIPT)).toBe('completed');
    // three refused areas, then the person the bot offers when attempts run out (misses no longer escalate on their own)
    for (let i = 0; i < escalatedAtArea; i++) expect(await play(server.url, [ACME_SALES_SCRIPT[0], 'huge', 'lots', 'zillions', 'Talk to a human'])).toBe('escalated');
    for (let i = 0; i < escalatedAtHeight; i++) expect(await play(server.url, [...ACME_SALES_SCRIPT.slice(0, 4), 'I want to talk to a human'])).toBe('escalated');
    // these stop at the area question and say nothing more: the inactivity sweep ends them
    for (let i = 0; i < droppedAtArea; i++) expect(await play(server.url, [ACME_SALES_SCRIPT[0]])).toBe('active');

    // wait (without asserting how long) until the sweep has ended the idle ones
    let funnel: { status: number; body: any } = await api(server.url, FUNNEL, { headers: admin });
    for (let tries = 0; funnel.body.abandoned < droppedAtArea && tries < 600; tries++) {
      await new Promise((r) => setTimeout(r, 250));
      funnel = await api(server.url, FUNNEL, { headers: admin });
    }
    expect(funnel.status).toBe(200);
    const expected = { sessions: 20, completed, escalated: escalatedAtArea + escalatedAtHeight, abandoned: droppedAtArea };
    const check = (body: any) => {
      expect(Object.keys(body).sort()).toEqual(['abandoned', 'completed', 'escalated', 'median_completion_s', 'nodes', 'p90_completion_s', 'sessions']);
      expect(body).toMatchObject(expected);
      expect(body.median_completion_s).toEqual(expect.any(Number));
      expect(body.p90_completion_s).toBeGreaterThanOrEqual(body.median_completion_s);
      const at = (id: string) => body.nodes.find((n: { id: string }) => n.id === id);
      expect(Object.keys(at('q.court_size')).sort()).toEqual(['answered', 'dropped', 'escalated', 'id', 'key', 'reached', 'reasked', 'reasons']);
      expect(at('q.court_size')).toMatchObject({ key: 'court_size', reached: 20, answered: completed + escalatedAtHeight, reasked: escalatedAtArea, dropped: droppedAtArea, escalated: escalatedAtArea });
      expect(at('q.court_size').reasons[0]).toEqual({ reason: "That doesn't look like a whole number.", count: 3 * escalatedAtArea });
      expect(at('q.mounting_height')).toMatchObject({ reached: completed + escalatedAtHeight, escalated: escalatedAtHeight, dropped: 0 });
      expect(at('n.done')).toMatchObject({ reached: completed });
    };
    check(funnel.body);

    // a restart of the server: the counts are read back from DATA_DIR
    await stop(server);
    server = await spawnServer(ENV);
    const again = await api(server.url, FUNNEL, { headers: admin });
    expect(again.body).toEqual(funnel.body);

    // the rebuild from the stored sessions (server stopped: it holds DATA_DIR) agrees with the maintained counts
    await stop(server);
    const r = await rebuild();
    expect(r.code, r.out).toBe(0);
    expect(JSON.parse(r.out.trim().split('\n').at(-1)!)).toMatchObject({ sessions: 20, differences: 0 });
    server = await spawnServer(ENV);
    expect((await api(server.url, FUNNEL, { headers: admin })).body).toEqual(funnel.body);

    // filters: the day range and the revision select the same sessions; a day with none gives zeros; CSV
    const day = new Date().toISOString().slice(0, 10);
    const revision = (await api(server.url, '/admin/tenants', { headers: admin })).body.tenants.find((t: { id: string }) => t.id === 'acme').flows[0].revision;
    expect((await api(server.url, `${FUNNEL}?from=${day}&to=${day}&revision=${revision}`, { headers: admin })).body).toEqual(funnel.body);
    expect((await api(server.url, `${FUNNEL}?from=2020-01-01&to=2020-01-02`, { headers: admin })).body).toMatchObject({ sessions: 0, median_completion_s: null });
    const csv = await api(server.url, `${FUNNEL}?format=csv`, { headers: admin });
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    expect(csv.text.split('\r\n')[0]).toBe('node_id,key,reached,answered,reasked,dropped,escalated,top_reasons');
    expect(csv.text).toContain(`q.court_size,court_size,20,${completed + escalatedAtHeight},${escalatedAtArea},${droppedAtArea},${escalatedAtArea},`);

    // a bad date or an unknown revision: 400 naming the parameter
    const bad = await api(server.url, `${FUNNEL}?from=2026-13-40`, { headers: admin });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'invalid_request', field: 'from' });
    const badTo = await api(server.url, `${FUNNEL}?to=yesterday`, { headers: admin });
    expect(badTo.body.error).toMatchObject({ code: 'invalid_request', field: 'to' });
    const unknownRev = await api(server.url, `${FUNNEL}?revision=0000000000000000`, { headers: admin });
    expect(unknownRev.status).toBe(400);
    expect(unknownRev.body.error).toMatchObject({ code: 'invalid_request', field: 'revision' });
    // and the admin key is required
    expect((await api(server.url, FUNNEL)).status).toBe(403);
    await stop(server);
  }, 180_000);
});
