import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { startServer, type RunningServer } from '../../server/main.ts';
import { createLogger } from '../../server/observability/logger.ts';
import { sessionPaths } from '../../server/store/lowdb-paths.ts';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { REPO_FLOWS, RELAXED_LIMITS, TEST_ADMIN_KEY } from '../support/server.ts';
import { ACME_KEY, ACME_SALES_SCRIPT, api, chat, NORTHSIDE_KEY } from '../e2e/helpers.ts';
import { recordTally } from './tally.ts';

// PII: the values of `pii: true` answers (the sales flow's email) never reach
// the logs (every level, captured), the metrics or the model's prompts (the
// bytes the fake Anthropic server receives), and a privacy request erases a
// session with its transcript and trace.

const EMAIL = 'ann@northside.edu';

let server: RunningServer;
let fake: FakeAnthropic;
let dataDir: string;
const logText: string[] = [];

beforeAll(async () => {
  fake = await startFakeAnthropic(); // no scripted replies: every model call fails (500) and the turn falls back offline
  dataDir = mkdtempSync(join(tmpdir(), 'questline-pii-'));
  const sink = new Writable({
    write(chunk, _enc, done) {
      logText.push(String(chunk));
      done();
    },
  });
  server = await startServer(
    loadConfig({
      PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, FLOWS_DIR: REPO_FLOWS, ADMIN_KEY: TEST_ADMIN_KEY,
      ANTHROPIC_API_KEY: 'sk-test-fake', ANTHROPIC_BASE_URL: fake.url,
    }),
    { logger: createLogger('trace', sink), rateLimits: RELAXED_LIMITS },
  );
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** Plays the sales script to the end over a socket; returns the session. */
async function conversation(): Promise<{ sessionId: string; token: string }> {
  const c = await chat(server.url);
  try {
    const start = await c.request('session:start', { flow: 'flow.sales' });
    expect(start.ok).toBe(true);
    for (const [i, text] of ACME_SALES_SCRIPT.entries()) expect(await c.request('message', { text, clientId: `pii-${i}` }, 10_000)).toEqual({ ok: true });
    await c.until((x) => x.lastState()?.status === 'completed');
    return { sessionId: start.sessionId, token: start.token };
  } finally {
    c.close();
  }
}

describe('pii answers', () => {
  it('never appear in logs, metrics or model prompts', async () => {
    const s = await conversation();
    const admin = { 'x-questline-admin': TEST_ADMIN_KEY };
    const view = await api(server.url, `/admin/sessions/${s.sessionId}`, { headers: admin });
    expect(view.body.answers.email).toBe(EMAIL); // it was collected…
    const logs = logText.join('');
    const metrics = await fetch(`${server.url}/metrics`).then((r) => r.text());
    const prompts = fake.requests.map((r) => JSON.stringify(r.body)).join('\n');
    // …the checks can fail: the model was asked, the logs and metrics are not empty
    expect(fake.requests.length).toBeGreaterThan(0);
    expect(logs).toContain(s.sessionId);
    expect(metrics).toContain('questline_');
    expect(prompts).toContain('basketball'); // non-pii user text does reach the model
    const leaks = { logs: logs.includes(EMAIL), metrics: metrics.includes(EMAIL), prompts: prompts.includes(EMAIL) };
    // the trace shows the pii answer as [pii]
    expect(JSON.stringify(view.body.events)).not.toContain(EMAIL);
    recordTally('privacy', { pii_checks: 4, pii_leaks: Object.values(leaks).filter(Boolean).length });
    expect(leaks).toEqual({ logs: false, metrics: false, prompts: false });
  });
});

describe('pii answers in a conversation that goes on after them', () => {
  it("never reach the model: neither the message that answers a pii question nor the later turns' history", async () => {
    const PII = ['Jane Marie Doe', '1984', '555-0132', 'XGP-449182'];
    const c = await chat(server.url, { key: NORTHSIDE_KEY });
    try {
      const start = await c.request('session:start', { flow: 'flow.patient_intake' });
      expect(start.ok).toBe(true);
      fake.requests.length = 0;
      const script = ['Jane Marie Doe', 'March 27, 1984', 'female', '(415) 555-0132', 'yes, through work', 'Blue Cross Blue Shield', 'XGP-449182',
        "I've been feeling sick, fever and a sore throat", 'for about three days now', 'yes, I take something for the pain'];
      for (const [i, text] of script.entries()) expect(await c.request('message', { text, clientId: `np-${i}` }, 10_000), text).toEqual({ ok: true });
    } finally {
      c.close();
    }
    const prompts = fake.requests.map((r) => JSON.stringify(r.body)).join('\n');
    expect(fake.requests.length).toBeGreaterThan(0); // the free-text turns after the pii ones did ask the model
    const leaked = PII.filter((p) => prompts.includes(p));
    recordTally('privacy', { pii_checks: PII.length, pii_leaks: leaked.length });
    expect(leaked).toEqual([]);
  });
});

describe('DELETE /api/v1/admin/sessions/:id', () => {
  it('erases the session, its transcript and events; the visitor token opens nothing afterwards', async () => {
    const s = await conversation();
    const files = sessionPaths(dataDir, s.sessionId);
    expect(readFileSync(files.file, 'utf8')).toContain("I'm Ann Lee");
    const admin = { 'x-questline-admin': TEST_ADMIN_KEY };

    expect((await api(server.url, `/admin/sessions/${s.sessionId}`, { method: 'DELETE' })).status).toBe(403);
    expect((await api(server.url, `/admin/sessions/${s.sessionId}`, { method: 'DELETE', headers: { 'x-questline-admin': 'wrong-wrong-wrong-key' } })).body.error.code).toBe('admin_only');
    expect((await api(server.url, `/sessions/${s.sessionId}`, { headers: { authorization: `Bearer ${s.token}` } })).status).toBe(200);

    const del = await api(server.url, `/admin/sessions/${s.sessionId}`, { method: 'DELETE', headers: admin });
    expect(del.status).toBe(204);
    expect(existsSync(files.file)).toBe(false);
    const sessionFiles = filesUnder(join(dataDir, 'sessions')).filter((f) => f.includes(s.sessionId));
    expect(sessionFiles).toEqual([]);
    expect(await api(server.url, `/admin/sessions/${s.sessionId}`, { headers: admin })).toMatchObject({ status: 404, body: { error: { code: 'unknown_session' } } });
    expect((await api(server.url, `/sessions/${s.sessionId}`, { headers: { authorization: `Bearer ${s.token}` } })).status).toBe(404);
    const list = await api(server.url, '/admin/tenants/acme/sessions', { headers: admin });
    expect(list.body.sessions.map((x: { id: string }) => x.id)).not.toContain(s.sessionId);
    // a second delete, an unknown id and a hostile id: 404, nothing else touched
    expect(await api(server.url, `/admin/sessions/${s.sessionId}`, { method: 'DELETE', headers: admin })).toMatchObject({ status: 404, body: { error: { code: 'unknown_session' } } });
    expect((await api(server.url, `/admin/sessions/..%2F..%2Fetc`, { method: 'DELETE', headers: admin })).status).toBe(404);
  });

  it('waits for turns in flight: nothing of the session is written after it is erased', async () => {
    const admin = { 'x-questline-admin': TEST_ADMIN_KEY };
    for (let round = 0; round < 5; round++) {
      const s = (await api(server.url, '/tenants/acme/sessions', { body: { flow: 'flow.sales' }, headers: { 'x-questline-key': ACME_KEY } })).body;
      const auth = { authorization: `Bearer ${s.token}` };
      const turns = ACME_SALES_SCRIPT.slice(0, 4).map((text) => api(server.url, `/sessions/${s.sessionId}/messages`, { body: { text }, headers: auth }));
      const del = api(server.url, `/admin/sessions/${s.sessionId}`, { method: 'DELETE', headers: admin });
      const results = await Promise.all([...turns, del]);
      expect(results.at(-1)!.status).toBe(204);
      // turns queued behind the erase find no session
      for (const r of results.slice(0, -1)) expect([200, 404]).toContain(r.status);
      await new Promise((r) => setTimeout(r, 100));
      expect(filesUnder(join(dataDir, 'sessions')).filter((f) => f.includes(s.sessionId)), `round ${round}`).toEqual([]);
    }
  });
});
