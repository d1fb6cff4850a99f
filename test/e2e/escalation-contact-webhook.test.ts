import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { webhookReceiver as receiver } from '../support/webhook-receiver.ts';
import { ACME_KEY, api } from './helpers.ts';
import { REPO_FLOWS, startTestServer, TEST_ADMIN_KEY, type TestServer } from '../support/server.ts';

// Issue 31: contact details given after an escalation reach the business —
// in the stored session, the export, and the webhook as a follow-up
// `intake.contact` (the `intake.escalated` went out before them). A real
// server, its outbox worker, and a webhook receiver on 127.0.0.1.

const admin = { 'x-questline-admin': TEST_ADMIN_KEY };
const HAZARD = ['I need help with our existing stadium lights', 'skip',
  'A pole light on the north side is sparking and the fixture is hanging loose from the bracket.', 'yes, it is sparking'];

describe('contact details after an escalation', () => {
  const flowsDir = mkdtempSync(join(tmpdir(), 'questline-contact-flows-'));
  let server: TestServer | undefined;
  let hook: Awaited<ReturnType<typeof receiver>> | undefined;
  afterAll(async () => {
    await server?.dispose();
    await hook?.close();
    rmSync(flowsDir, { recursive: true, force: true });
  });

  it('reach the webhook as intake.contact, the stored session and the export; one typed to an operator too', async () => {
    hook = await receiver();
    cpSync(REPO_FLOWS, flowsDir, { recursive: true });
    const tenantFile = join(flowsDir, 'tenants', 'acme', 'tenant.json');
    const acme = JSON.parse(readFileSync(tenantFile, 'utf8'));
    writeFileSync(tenantFile, JSON.stringify({ ...acme, webhook: { url: hook.url, secret: 'contact-test-secret' } }));
    server = await startTestServer({ store: 'memory', env: { FLOWS_DIR: flowsDir } });

    const start = await api(server.url, '/tenants/acme/sessions', { body: { flow: 'flow.sales' }, headers: { 'x-questline-key': ACME_KEY } });
    const { sessionId, token } = start.body as { sessionId: string; token: string };
    const send = (text: string) => api(server!.url, `/sessions/${sessionId}/messages`, { body: { text }, headers: { authorization: `Bearer ${token}` } });
    for (const text of HAZARD) expect((await send(text)).status).toBe(200);
    const mine = () => hook!.got.filter((d) => d.body.sessionId === sessionId);
    await expect.poll(() => mine().length, { timeout: 15_000, interval: 50 }).toBe(1);
    expect(mine()[0]!.body).toMatchObject({ event: 'intake.escalated', status: 'escalated' });
    expect(mine()[0]!.body.answers.phone).toBeUndefined();

    // the bot's contact question answered after the escalation
    expect((await send('call me on 415-555-0132')).status).toBe(200);
    await expect.poll(() => mine().length, { timeout: 15_000, interval: 50 }).toBe(2);
    const follow = mine()[1]!;
    expect(follow.headers['x-questline-event']).toBe('intake.contact');
    expect(follow.body).toMatchObject({ event: 'intake.contact', status: 'escalated', answers: { phone: '+14155550132' } });
    expect(follow.body.provenance).toMatchObject({ phone: { source: 'user' } });
    expect(follow.body.deliveryId).not.toBe(mine()[0]!.body.deliveryId);

    // an email typed to the operator who took over: kept, and a second follow-up
    expect((await api(server.url, `/admin/sessions/${sessionId}/messages`, { body: { text: 'Hi, this is Kim from Acme.' }, headers: admin })).status).toBe(200);
    expect((await send('you can also email me at dana@stadium.example')).status).toBe(200);
    await expect.poll(() => mine().length, { timeout: 15_000, interval: 50 }).toBe(3);
    expect(mine()[2]!.body).toMatchObject({ event: 'intake.contact', answers: { phone: '+14155550132', email: 'dana@stadium.example' } });
    // a message without contact details sends nothing more
    expect((await send('thanks, waiting for you')).status).toBe(200);

    const view = await api(server.url, `/admin/sessions/${sessionId}`, { headers: admin });
    expect(view.body.answers).toMatchObject({ phone: '+14155550132', email: 'dana@stadium.example' });
    const exported = await api(server.url, '/admin/tenants/acme/export?status=escalated', { headers: admin });
    expect(exported.body.intakes.find((i: { sessionId: string }) => i.sessionId === sessionId)).toMatchObject({ status: 'escalated', answers: { phone: '+14155550132', email: 'dana@stadium.example' } });
    const csv = await api(server.url, '/admin/tenants/acme/export?status=escalated&format=csv', { headers: admin });
    expect(csv.text).toContain('dana@stadium.example');
    expect(mine()).toHaveLength(3);
  }, 40_000);
});
