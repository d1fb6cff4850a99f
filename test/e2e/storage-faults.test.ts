import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEmbeddedBackend, type Backend } from '../../server/delivery/backend.ts';
import { FileOutbox } from '../../server/delivery/outbox-file.ts';
import { LowdbStore } from '../../server/store/lowdb.ts';
import { storageFault } from '../../server/store/storage-fault.ts';
import { ACME_SALES_SCRIPT } from '../support/scripts.ts';
import { REPO_FLOWS, startTestServer } from '../support/server.ts';
import { api, chat } from './helpers.ts';

// A full disk while the server runs: the file store and the file outbox
// answer every write with ENOSPC (injected here, so the test runs anywhere;
// the reliability runner does it with a real, small tmpfs). Every refused
// request is a retryable `storage_unavailable` (503 with Retry-After, the
// socket ack with the code), /readyz says not ready while /healthz stays
// alive, nothing acknowledged is lost, and once the disk has room again the
// same requests succeed without a restart — including the ending, whose
// outbox entry is written before its commit.

const temps: string[] = [];
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

/** An errno error as the file system gives it. */
const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });

/** Makes every write method of `target` throw ENOSPC while `disk.full` (reads go on). */
function onFullDisk<T extends object>(target: T, writes: readonly string[], disk: { full: boolean }): T {
  return new Proxy(target, {
    get(t, key, receiver) {
      const v = Reflect.get(t, key, receiver) as unknown;
      if (typeof v !== 'function') return v;
      const bound = (v as (...a: unknown[]) => unknown).bind(t);
      if (!writes.includes(String(key))) return bound;
      return async (...args: unknown[]) => {
        if (disk.full) throw enospc();
        return bound(...args);
      };
    },
  });
}

async function receiver(): Promise<{ url: string; ids: string[]; close: () => Promise<void> }> {
  const ids: string[] = [];
  const server: Server = createServer((req, res) => {
    ids.push(String(req.headers['x-questline-delivery']));
    req.resume().on('end', () => res.writeHead(200).end('ok'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, ids,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}

describe('a full disk', () => {
  it('is classified as a storage fault, as an unreachable Redis is; a bug is not', () => {
    expect(storageFault(enospc())).toBe('disk');
    expect(storageFault(Object.assign(new Error('x'), { code: 'EROFS' }))).toBe('disk');
    expect(storageFault(Object.assign(new Error('x'), { code: 'EDQUOT' }))).toBe('disk');
    expect(storageFault(Object.assign(new Error('Reached the max retries per request limit (which is 3).'), { name: 'MaxRetriesPerRequestError' }))).toBe('unreachable');
    expect(storageFault(new Error('Connection is closed.'))).toBe('unreachable');
    expect(storageFault(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' }))).toBe('unreachable');
    expect(storageFault(new Error("MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to disk"))).toBe('unreachable');
    expect(storageFault(new Error('wrapped', { cause: enospc() }))).toBe('disk');
    expect(storageFault(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBeNull();
  });

  it('answers storage_unavailable (503, Retry-After) with nothing lost, /readyz not ready, and recovers without a restart', async () => {
    const hook = await receiver();
    const dataDir = mkdtempSync(join(tmpdir(), 'questline-full-'));
    const flowsDir = mkdtempSync(join(tmpdir(), 'questline-full-flows-'));
    temps.push(dataDir, flowsDir);
    cpSync(REPO_FLOWS, flowsDir, { recursive: true });
    const tenantFile = join(flowsDir, 'tenants', 'acme', 'tenant.json');
    writeFileSync(tenantFile, JSON.stringify({ ...JSON.parse(readFileSync(tenantFile, 'utf8')), webhook: { url: hook.url, secret: 'full-disk-secret' } }));

    const disk = { full: false };
    const outboxDisk = { get full() { return disk.full || outboxOnly.full; } };
    const outboxOnly = { full: false };
    const store = await LowdbStore.open(dataDir);
    const outbox = await FileOutbox.open(join(dataDir, 'outbox'));
    const backend: Backend = await createEmbeddedBackend({
      kind: 'lowdb',
      store: onFullDisk(store, ['create', 'commit', 'delete', 'ready'], disk),
      outbox: onFullDisk(outbox, ['enqueue', 'attempted', 'delivered', 'dead', 'forgetSession', 'ready'], outboxDisk),
    });
    const server = await startTestServer({ dataDir, env: { FLOWS_DIR: flowsDir }, overrides: { backend } });
    const c = await chat(server.url);
    try {
      expect((await api(server.url, '/readyz')).status).toBe(200);
      const start = await api(server.url, '/tenants/acme/sessions', { body: { flow: 'flow.sales' }, headers: { 'X-Questline-Key': 'pk_acme_demo' } });
      expect(start.status).toBe(201);
      const { sessionId, token } = start.body as { sessionId: string; token: string };
      const auth = { Authorization: `Bearer ${token}` };
      const script = ACME_SALES_SCRIPT;
      for (const [i, text] of script.slice(0, -2).entries()) {
        expect((await api(server.url, `/sessions/${sessionId}/messages`, { body: { text, clientId: `m${i}` }, headers: auth })).status).toBe(200);
      }

      disk.full = true;
      const n = script.length - 2;
      // REST: 503 storage_unavailable with Retry-After; /readyz says why, /healthz stays alive
      const refused = await api(server.url, `/sessions/${sessionId}/messages`, { body: { text: script[n], clientId: `m${n}` }, headers: auth });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(refused.body.error.code).toBe('storage_unavailable');
      const ready = await api(server.url, '/readyz');
      expect(ready.status).toBe(503);
      expect(ready.headers.get('retry-after')).toBe('5');
      expect(ready.body.checks.store).toContain('ENOSPC');
      expect(ready.body.checks.outbox).toContain('ENOSPC');
      expect((await api(server.url, '/healthz')).status).toBe(200);
      // a new session too, and the socket ack carries the code
      expect((await api(server.url, '/tenants/acme/sessions', { body: { flow: 'flow.sales' }, headers: { 'X-Questline-Key': 'pk_acme_demo' } })).body.error.code).toBe('storage_unavailable');
      const socketStart = await c.request('session:start', { flow: 'flow.sales' });
      expect(socketStart).toMatchObject({ ok: false, error: { code: 'storage_unavailable' } });

      // the disk has room again: the same message (same clientId) goes through, once
      disk.full = false;
      expect((await api(server.url, '/readyz')).status).toBe(200);
      const retried = await api(server.url, `/sessions/${sessionId}/messages`, { body: { text: script[n], clientId: `m${n}` }, headers: auth });
      expect(retried.status).toBe(200);
      expect(retried.body.duplicate).toBe(false);

      // the ending with the outbox full and the store fine: refused, and the session did NOT end (the entry comes first)
      outboxOnly.full = true;
      const last = script.length - 1;
      const endRefused = await api(server.url, `/sessions/${sessionId}/messages`, { body: { text: script[last], clientId: `m${last}` }, headers: auth });
      expect(endRefused.body.error.code).toBe('storage_unavailable');
      outboxOnly.full = false;
      expect((await api(server.url, `/sessions/${sessionId}`, { headers: auth })).body.state.status).toBe('active');
      const ended = await api(server.url, `/sessions/${sessionId}/messages`, { body: { text: script[last], clientId: `m${last}` }, headers: auth });
      expect(ended.status).toBe(200);
      expect(ended.body.state.status).toBe('completed');

      // every acknowledged message is in the transcript once, and the ending's webhook arrives
      const view = await api(server.url, `/sessions/${sessionId}`, { headers: auth });
      const users = (view.body.messages as Array<{ role: string; clientId?: string }>).filter((m) => m.role === 'user').map((m) => m.clientId);
      expect(users).toEqual(script.map((_, i) => `m${i}`));
      const deadline = Date.now() + 15_000;
      while (hook.ids.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(hook.ids).toEqual([`${sessionId}:completed`]);
    } finally {
      c.close();
      await server.close();
      await hook.close();
    }
  }, 60_000);
});
