import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.ts';
import { createEmbeddedBackend } from '../../server/delivery/backend.ts';
import { MemoryOutbox } from '../../server/delivery/outbox.ts';
import { startServer, StartupError } from '../../server/main.ts';
import { createLogger } from '../../server/observability/logger.ts';
import { MemoryStore } from '../../server/store/memory.ts';
import { REPO_FLOWS, RELAXED_LIMITS } from '../support/server.ts';
import { freePort } from '../support/redis.ts';
import { startFakeAnthropic, tool } from '../support/fake-anthropic.ts';
import { ACME_KEY, ACME_SALES_SCRIPT, api, chat } from './helpers.ts';

/** A logger whose JSON lines land in `lines`. */
function capture(): { lines: Array<Record<string, unknown>>; logger: ReturnType<typeof createLogger> } {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger('info', sink) };
}

describe('configuration', () => {
  it('reads the documented defaults from an empty environment', () => {
    expect(loadConfig({})).toEqual({ PORT: 3000, HOST: '127.0.0.1', DATA_DIR: './data', FLOWS_DIR: './flows', STORE: 'lowdb', LOG_LEVEL: 'info', ANTHROPIC_MODEL: 'claude-haiku-4-5', REDIS_PREFIX: 'ql:', SESSION_MAX_ENTRIES: 1000, SWEEP_INTERVAL_S: 30, CONNECTIONS_PER_ADDRESS: 64, LLM_DAILY_CALLS: 20_000, LLM_DAILY_TOKENS: 20_000_000 });
    // model spend is capped unless asked otherwise
    expect(loadConfig({ LLM_DAILY_CALLS: '0' }).LLM_DAILY_CALLS).toBe(0);
    expect(loadConfig({ PORT: '8080', HOST: '0.0.0.0', ADMIN_KEY: '', STORE: 'memory' })).toMatchObject({ PORT: 8080, HOST: '0.0.0.0', STORE: 'memory' });
  });

  it('names every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'eighty', STORE: 'mongo', ADMIN_KEY: 'short', LOG_LEVEL: 'loud' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', STORE: 'mongo', ADMIN_KEY: 'short', LOG_LEVEL: 'loud' });
    } catch (e) {
      for (const name of ['PORT', 'STORE', 'ADMIN_KEY', 'LOG_LEVEL']) expect((e as Error).message).toContain(name);
    }
  });

  it('refuses STORE=redis without REDIS_URL, and a Redis that does not answer, with a clear message', async () => {
    const { logger } = capture();
    await expect(startServer(loadConfig({ STORE: 'redis', PORT: '0' }), { logger })).rejects.toThrow(StartupError);
    await expect(startServer(loadConfig({ STORE: 'redis', PORT: '0' }), { logger })).rejects.toThrow(/STORE=redis needs REDIS_URL/);
    expect(() => loadConfig({ STORE: 'redis', REDIS_URL: 'http://127.0.0.1:6379' })).toThrow(/REDIS_URL/);
    const port = await freePort();
    await expect(startServer(loadConfig({ STORE: 'redis', REDIS_URL: `redis://127.0.0.1:${port}`, PORT: '0' }), { logger })).rejects.toThrow(/cannot reach Redis/);
  });
});

describe('rate limits from the environment', () => {
  it('RATE_LIMITS changes a limit the server enforces, and an unknown name stops the start', async () => {
    expect(() => loadConfig({ RATE_LIMITS: 'startsPerIP=2/60' })).toThrow(/no limit 'startsPerIP'/);
    expect(() => loadConfig({ RATE_LIMITS: 'perIp=40/1,perIp=5/1' })).toThrow(/perIp is given twice/);
    const server = await startServer(loadConfig({ PORT: '0', STORE: 'memory', FLOWS_DIR: REPO_FLOWS, RATE_LIMITS: 'startsPerIp=2/60' }), { logger: capture().logger });
    try {
      const start = () => api(server.url, '/tenants/acme/sessions', { body: { flow: 'flow.sales' }, headers: { 'x-questline-key': ACME_KEY } });
      expect([(await start()).status, (await start()).status, (await start()).status]).toEqual([201, 201, 429]);
    } finally {
      await server.close();
    }
  });
});

describe('tenant files', () => {
  it('refuses to start on an invalid tenant.json, naming the file, position and field; SKIP_INVALID_TENANTS=1 starts without that tenant', async () => {
    const flows = mkdtempSync(join(tmpdir(), 'questline-bad-tenant-'));
    try {
      cpSync(REPO_FLOWS, flows, { recursive: true });
      const file = join(flows, 'tenants', 'acme', 'tenant.json');
      writeFileSync(file, '{\n  "id": "acme",\n  "name": "Acme",\n  "keys": ["pk_acme_demo"],\n  "origins": [],\n  "flows": ["flow.sales"],\n  "llm": { "budget": { "token": 5000 } }\n}\n');
      const env = { PORT: '0', STORE: 'memory', FLOWS_DIR: flows };
      const refused = await startServer(loadConfig(env), { logger: capture().logger }).then(() => null, (e: unknown) => e);
      expect(refused).toBeInstanceOf(StartupError);
      expect((refused as Error).message).toContain(`${file}:7:`);
      expect((refused as Error).message).toMatch(/llm\.budget: unknown field 'token' \(did you mean 'tokens'\?\)/);
      expect((refused as Error).message).toContain('SKIP_INVALID_TENANTS=1');
      const { lines, logger } = capture();
      const server = await startServer(loadConfig({ ...env, SKIP_INVALID_TENANTS: '1' }), { logger, rateLimits: RELAXED_LIMITS });
      try {
        expect(server.tenants.ids()).toEqual(['northside-clinic']);
        expect(lines.find((l) => l.level === 'error' && l.tenant === 'acme')?.msg).toMatch(/tenant acme is offline/);
      } finally {
        await server.close();
      }
    } finally {
      rmSync(flows, { recursive: true, force: true });
    }
  });
});

describe('storage backends', () => {
  it('refuses a bare store, which would leave the turn lock and the outbox to guesswork', async () => {
    const { logger } = capture();
    const overrides = { logger, store: new MemoryStore() } as unknown as Parameters<typeof startServer>[1];
    await expect(startServer(loadConfig({ PORT: '0', STORE: 'memory', FLOWS_DIR: REPO_FLOWS }), overrides)).rejects.toThrow(/pass `backend`/);
  });

  it("runs on a caller's whole backend and closes its outbox and store with the server", async () => {
    const closed: string[] = [];
    const store = new (class extends MemoryStore {
      override async close() { closed.push('store'); }
    })();
    const outbox = new (class extends MemoryOutbox {
      override async close() { closed.push('outbox'); }
    })();
    const dataDir = mkdtempSync(join(tmpdir(), 'questline-backend-'));
    const { logger } = capture();
    const server = await startServer(loadConfig({ PORT: '0', DATA_DIR: dataDir, FLOWS_DIR: REPO_FLOWS }), {
      logger, rateLimits: RELAXED_LIMITS, backend: await createEmbeddedBackend({ store, outbox }),
    });
    try {
      expect(server.store).toBe(store);
      const health = await (await fetch(`${server.url}/healthz`)).json() as Record<string, unknown>;
      expect(health).toMatchObject({ ok: true, store: 'custom' });
    } finally {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
    expect(closed).toEqual(['outbox', 'store']);
  });
});

describe('logs', () => {
  it('say first that extraction is offline, and never carry what visitors typed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'questline-logs-'));
    const { lines, logger } = capture();
    const server = await startServer(loadConfig({ PORT: '0', DATA_DIR: dataDir, FLOWS_DIR: REPO_FLOWS }), { logger, rateLimits: RELAXED_LIMITS });
    try {
      expect(lines[0]?.msg).toMatch(/^offline extraction/);
      expect(lines.some((l) => /^Questline listening on http:\/\/127\.0\.0\.1:\d+ — demo at \/$/.test(String(l.msg)))).toBe(true);
      const c = await chat(server.url);
      await c.request('session:start', { flow: 'flow.sales' });
      for (const [i, text] of ACME_SALES_SCRIPT.entries()) await c.request('message', { text, clientId: `log-${i}` });
      await c.until((x) => x.lastState()?.status === 'completed');
      c.close();
    } finally {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
    const text = JSON.stringify(lines);
    expect(text).not.toContain('ann@northside.edu');
    expect(text).not.toContain('Northside High School');
    expect(text).not.toContain('sk-test');
    const ended = lines.find((l) => l.msg === 'session ended');
    expect(ended).toMatchObject({ tenant: 'acme', status: 'completed', answerKeys: expect.arrayContaining(['email', 'company']) });
    const { lines: plain, logger: quiet } = capture();
    const offline = await startServer(loadConfig({ PORT: '0', STORE: 'memory', FLOWS_DIR: REPO_FLOWS }), { logger: quiet });
    await offline.close();
    expect(plain[0]?.msg).toMatch(/^offline extraction/);
  });
});

describe('Claude extraction', () => {
  it('with a key set, a free-text message is extracted in one model call and validated by the engine', async () => {
    const fake = await startFakeAnthropic();
    const { lines, logger } = capture();
    const server = await startServer(loadConfig({ PORT: '0', STORE: 'memory', FLOWS_DIR: REPO_FLOWS, ANTHROPIC_API_KEY: 'sk-test-key', ANTHROPIC_BASE_URL: fake.url }),
      { logger, rateLimits: RELAXED_LIMITS });
    try {
      expect(lines[0]?.msg).toMatch(/^Claude extraction \(claude-haiku-4-5/);
      const started = await fetch(`${server.url}/api/v1/tenants/acme/sessions`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-questline-key': 'pk_acme_demo' }, body: JSON.stringify({ flow: 'flow.sales' }) });
      const { sessionId, token } = await started.json() as { sessionId: string; token: string };
      fake.script(tool('update_answers', { updates: { intention: 'buy_led', sport: 'tennis', discount: 50 }, vote_path: { path: 'buy_led', confidence: 0.9 } }));
      const turn = await fetch(`${server.url}/api/v1/sessions/${sessionId}/messages`, { method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ text: "we're a tennis club and we'd like a quote for new LED lights", clientId: 'llm-1' }) });
      expect(turn.status).toBe(200);
      expect(fake.requests).toHaveLength(1);
      const view = await (await fetch(`${server.url}/api/v1/sessions/${sessionId}`, { headers: { authorization: `Bearer ${token}` } })).json() as { answers: Record<string, unknown>; state: { path: { active: string } } };
      expect(view.answers).toMatchObject({ intention: 'buy_led', sport: 'tennis' });
      expect(view.answers).not.toHaveProperty('discount');
      expect(view.state.path.active).toBe('buy_led');
      const exact = await fetch(`${server.url}/api/v1/sessions/${sessionId}/messages`, { method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ text: '420', clientId: 'llm-2' }) });
      expect(exact.status).toBe(200);
      expect(fake.requests).toHaveLength(1); // an exact number needs no model call
      expect(JSON.stringify(lines)).not.toContain('sk-test-key');
    } finally {
      await server.close();
      await fake.close();
    }
  });
});
