import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { webhookReceiver as receiver } from '../support/webhook-receiver.ts';
import { api, chat, type ChatClient } from './helpers.ts';
import { REPO_FLOWS, startTestServer, TEST_ADMIN_KEY, type TestServer } from '../support/server.ts';

// Issue 17, done when: an idle session ends and its partial lead reaches the
// business's webhook. A real server (its background sweep every 0.2 s and its
// outbox worker) with Acme ending sessions idle for 1 s and wanting partial
// leads, and a webhook receiver on 127.0.0.1.

describe('an idle session with a short inactivity setting', () => {
  const flowsDir = mkdtempSync(join(tmpdir(), 'questline-idle-flows-'));
  let server: TestServer | undefined;
  let hook: Awaited<ReturnType<typeof receiver>> | undefined;
  let visitor: ChatClient | undefined;
  afterAll(async () => {
    visitor?.close();
    await server?.dispose();
    await hook?.close();
    rmSync(flowsDir, { recursive: true, force: true });
  });

  it('ends as abandoned / timed_out on its own and its partial lead is delivered to the webhook', async () => {
    hook = await receiver();
    cpSync(REPO_FLOWS, flowsDir, { recursive: true });
    const tenantFile = join(flowsDir, 'tenants', 'acme', 'tenant.json');
    const acme = JSON.parse(readFileSync(tenantFile, 'utf8'));
    writeFileSync(tenantFile, JSON.stringify({ ...acme, webhook: { url: hook.url, secret: 'idle-test-secret' },
      settings: { ...acme.settings, inactivity_s: 1, partial_leads: true } }));
    server = await startTestServer({ store: 'memory', env: { FLOWS_DIR: flowsDir, SWEEP_INTERVAL_S: '0.2' } });

    visitor = await chat(server.url);
    const start = await visitor.request('session:start', { flow: 'flow.sales' });
    expect(start.ok).toBe(true);
    const sessionId = start.sessionId as string;
    expect(await visitor.request('message', { text: 'We want to buy new lights for a tennis court', clientId: 'c1' })).toMatchObject({ ok: true });
    expect(visitor.lastState()).toMatchObject({ status: 'active' });

    // then the visitor says nothing more
    await expect.poll(() => hook!.got.filter((d) => d.body.sessionId === sessionId).length, { timeout: 15_000, interval: 100 }).toBe(1);
    const [delivery] = hook.got.filter((d) => d.body.sessionId === sessionId);
    expect(delivery!.headers['x-questline-event']).toBe('intake.abandoned');
    expect(delivery!.body).toMatchObject({ event: 'intake.abandoned', status: 'abandoned', outcome: 'timed_out', tenant: 'acme',
      answers: { intention: 'buy_led', sport: 'tennis' } });
    // the visitor's open socket is told too
    await visitor.until((c) => c.lastState()?.status === 'abandoned', 5_000);
    // and the export lists the partial lead as timed out
    const exported = await api(server.url, '/admin/tenants/acme/export?status=timed_out', { headers: { 'x-questline-admin': TEST_ADMIN_KEY } });
    expect(exported.body.intakes.find((i: { sessionId: string }) => i.sessionId === sessionId)).toMatchObject({ status: 'timed_out', answers: { sport: 'tennis' } });
  }, 30_000);
});
