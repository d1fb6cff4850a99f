import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { startServer } from '../../server/main.ts';
import { MemoryStore } from '../../server/store/memory.ts';
import { startRetention } from '../../server/store/retention.ts';
import { line, storedSession } from '../../server/testing/session-store.contract.ts';
import { REPO_FLOWS, RELAXED_LIMITS } from '../support/server.ts';
import { ACME_KEY, api } from '../e2e/helpers.ts';

// RETENTION_DAYS: sessions last active before the period are erased, at
// start and then periodically; the clock is injected.

describe('retention', () => {
  it('erases the sessions last active before the period, of every tenant, and keeps the rest', async () => {
    const store = new MemoryStore();
    const at = (d: string) => `${d}T12:00:00.000Z`;
    const rows: Array<[string, string, string]> = [
      ['old-acme-1', 'acme', at('2026-01-01')], ['old-acme-2', 'acme', at('2026-01-30')],
      ['new-acme-1', 'acme', at('2026-02-20')], ['old-north-1', 'northside', at('2025-12-01')], ['new-north-1', 'northside', at('2026-03-01')],
      ['other-tenant-1', 'stranger', at('2025-01-01')],
    ];
    for (const [id, tenant, updatedAt] of rows) {
      await store.create(storedSession(id, { tenant, createdAt: updatedAt, updatedAt, seq: 1 }), { transcript: [line(1, `secret of ${id}`)], events: [] });
    }
    let now = Date.parse('2026-03-02T00:00:00Z');
    const sweeps: number[] = [];
    const r = startRetention({ store, tenants: () => ['acme', 'northside'], days: 30, erase: (id) => store.delete(id), now: () => now, everyMs: 60_000, onSweep: ({ erased }) => sweeps.push(erased) });
    try {
      await r.sweep(); // the sweep started at start has run by now (a sweep in progress is joined)
      expect(sweeps[0]).toBe(3);
      for (const id of ['old-acme-1', 'old-acme-2', 'old-north-1']) expect(await store.load(id), id).toBeNull();
      for (const id of ['new-acme-1', 'new-north-1', 'other-tenant-1']) expect(await store.load(id), id).not.toBeNull();
      // 25 days later the February session is past the period too
      now += 25 * 86_400_000;
      expect(await r.sweep()).toBe(1);
      expect(await store.load('new-acme-1')).toBeNull();
      expect(await store.load('new-north-1')).not.toBeNull();
    } finally {
      r.stop();
    }
    expect(() => startRetention({ store, tenants: () => [], days: 0, erase: async () => false })).toThrow(/positive/);
  });

  it('RETENTION_DAYS makes the server erase sessions past the period when it starts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'questline-retention-'));
    try {
      const env = { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, FLOWS_DIR: REPO_FLOWS, LOG_LEVEL: 'silent' as const };
      const first = await startServer(loadConfig(env), { rateLimits: RELAXED_LIMITS });
      const old = (await api(first.url, '/tenants/acme/sessions', { body: { flow: 'flow.sales' }, headers: { 'x-questline-key': ACME_KEY } })).body;
      await first.close();
      await new Promise((r) => setTimeout(r, 1_500));
      // 0.00001 days is 0.864 s: the session above is past it
      const second = await startServer(loadConfig({ ...env, RETENTION_DAYS: '0.00001' }), { rateLimits: RELAXED_LIMITS });
      try {
        const deadline = Date.now() + 5_000;
        while (Date.now() < deadline && (await second.store.load(old.sessionId))) await new Promise((r) => setTimeout(r, 50));
        expect(await second.store.load(old.sessionId)).toBeNull();
        expect((await api(second.url, `/sessions/${old.sessionId}`, { headers: { authorization: `Bearer ${old.token}` } })).status).toBe(404);
        const fresh = await api(second.url, '/tenants/acme/sessions', { body: { flow: 'flow.sales' }, headers: { 'x-questline-key': ACME_KEY } });
        expect(fresh.status).toBe(201);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
