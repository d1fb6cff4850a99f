import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseOperatorKeys } from '../../server/config.ts';
import { createLogger } from '../../server/observability/logger.ts';
import { startTestServer, TEST_ADMIN_KEY, type TestServer } from '../support/server.ts';
import { ACME_KEY, api } from './helpers.ts';

// Named operator keys (OPERATOR_KEYS): each works where the admin key does,
// the admin key keeps working, and the audit log says who did what.

const ANA_KEY = 'ana-key-0123456789abcdef';
const BEN_KEY = 'ben-key-fedcba9876543210';
const BEN_HASH = createHash('sha256').update(BEN_KEY).digest('hex');

let server: TestServer;
const logLines: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) logLines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  server = await startTestServer({ env: { OPERATOR_KEYS: `ana=${ANA_KEY}, ben=sha256:${BEN_HASH}` }, overrides: { logger: createLogger('info', sink) } });
});
afterAll(async () => {
  await server.dispose();
});

const audits = () => logLines.filter((l) => l.audit === true);

describe('named operator keys', () => {
  it('let each operator in under their own name, keep the admin key working, and refuse a wrong key', async () => {
    const s = (await api(server.url, '/tenants/acme/sessions', { body: { flow: 'flow.sales' }, headers: { 'x-questline-key': ACME_KEY } })).body as { sessionId: string };
    for (const [key, actor] of [[ANA_KEY, 'ana'], [TEST_ADMIN_KEY, 'admin']] as const) {
      const said = await api(server.url, `/admin/sessions/${s.sessionId}/messages`, { body: { text: `hello from ${actor}` }, headers: { 'x-questline-admin': key } });
      expect(said.status).toBe(200);
      expect(audits().at(-1)).toMatchObject({ actor, action: 'message', sessionId: s.sessionId });
    }
    expect((await api(server.url, '/admin/tenants/acme/export', { headers: { 'x-questline-admin': BEN_KEY } })).status).toBe(200);
    expect(audits().at(-1)).toMatchObject({ actor: 'ben', action: 'export', tenant: 'acme' });
    // the hash itself is not a key
    expect((await api(server.url, '/admin/tenants', { headers: { 'x-questline-admin': `sha256:${BEN_HASH}` } })).status).toBe(403);
    expect((await api(server.url, '/admin/tenants', { headers: { 'x-questline-admin': 'nobody-0123456789abcdef' } })).status).toBe(403);

    const op = io(`${server.url}/operator`, { auth: { adminKey: BEN_KEY }, transports: ['websocket'], reconnection: false, forceNew: true });
    try {
      await new Promise<void>((resolve, reject) => { op.on('connect', resolve); op.on('connect_error', reject); });
      expect(await op.timeout(5_000).emitWithAck('operator:message', { sessionId: s.sessionId, text: 'Ben here' })).toEqual({ ok: true });
      expect(audits().at(-1)).toMatchObject({ actor: 'ben', action: 'message', sessionId: s.sessionId });
    } finally {
      op.close();
    }
    // no key, and no part of one, reaches the log
    const log = JSON.stringify(logLines);
    for (const secret of [ANA_KEY, BEN_KEY, TEST_ADMIN_KEY]) expect(log).not.toContain(secret);
  });

  it('refuses a malformed OPERATOR_KEYS at start, without echoing a key', () => {
    expect(parseOperatorKeys('ana=0123456789abcdef,ben=sha256:' + 'a'.repeat(64)).map((k) => k.name)).toEqual(['ana', 'ben']);
    for (const bad of ['ana=short', 'admin=0123456789abcdef', 'ana=0123456789abcdef,ana=fedcba9876543210', 'just-a-key-0123456789', 'ben=sha256:xyz']) {
      let thrown: unknown;
      try {
        loadConfig({ OPERATOR_KEYS: bad });
      } catch (e) {
        thrown = e;
      }
      expect(thrown, bad).toBeInstanceOf(ConfigError);
      expect((thrown as Error).message).not.toContain('0123456789abcdef');
      expect((thrown as Error).message).not.toContain('just-a-key');
    }
  });

  it('refuses two operators with one key (also as a hash), and an operator whose key is the ADMIN_KEY', () => {
    const hash = createHash('sha256').update('0123456789abcdef').digest('hex');
    for (const [env, says] of [
      [{ OPERATOR_KEYS: 'ana=0123456789abcdef,ben=0123456789abcdef' }, "operators 'ana' and 'ben' have the same key"],
      [{ OPERATOR_KEYS: `ana=0123456789abcdef,ben=sha256:${hash}` }, "operators 'ana' and 'ben' have the same key"],
      [{ OPERATOR_KEYS: 'ana=0123456789abcdef', ADMIN_KEY: '0123456789abcdef' }, "operator 'ana' has the ADMIN_KEY"],
    ] as const) {
      expect(() => loadConfig(env), says).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(says);
      try {
        loadConfig(env);
      } catch (e) {
        expect((e as Error).message).not.toContain('0123456789abcdef');
      }
    }
  });
});
