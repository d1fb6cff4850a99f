import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { io } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, TEST_ADMIN_KEY, type TestServer } from '../support/server.ts';
import { ACME_KEY, ACME_SALES_SCRIPT, api, sessionView } from '../e2e/helpers.ts';
import { recordTally } from './tally.ts';

// The abuse and privacy edges as measured checks (npm run reliability): each
// figure must be zero. Files are checked under the usual umask (022).

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function server(opts: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const s = await startTestServer(opts);
  cleanup.push(() => s.dispose());
  return s;
}

/** Every file and folder under `dir` whose mode lets anyone but the owner in. */
function openToOthers(dir: string): string[] {
  const found: string[] = [];
  if (statSync(dir).mode & 0o077) found.push(dir);
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) found.push(...openToOthers(p));
    else if (st.mode & 0o077) found.push(p);
  }
  return found;
}

async function completeSalesConversation(url: string): Promise<{ sessionId: string; token: string }> {
  const s = (await api(url, '/tenants/acme/sessions', { body: { flow: 'flow.sales' }, headers: { 'x-questline-key': ACME_KEY } })).body;
  for (const text of ACME_SALES_SCRIPT) {
    const r = await api(url, `/sessions/${s.sessionId}/messages`, { body: { text }, headers: { authorization: `Bearer ${s.token}` } });
    expect(r.status).toBe(200);
  }
  return s;
}

describe('privacy edges', () => {
  it('keeps action outputs out of the visitor view, and every stored file owner-only under umask 022', async () => {
    const before = process.umask(0o022);
    cleanup.push(() => void process.umask(before));
    const s = await server();
    const { sessionId, token } = await completeSalesConversation(s.url);
    const stored = await s.store.load(sessionId);
    const internalKeys = Object.entries(stored!.session.answers).filter(([, a]) => a.source === 'action').map(([k]) => k);
    expect(internalKeys).toContain('crm_account_id'); // the lookup did run: the check is not vacuous
    const view = await sessionView(s.url, sessionId, token);
    const exposed = internalKeys.filter((k) => k in view.answers);
    // the operator's export still carries them
    const exported = await api(s.url, '/admin/tenants/acme/export', { headers: { 'x-questline-admin': TEST_ADMIN_KEY } });
    expect(JSON.stringify(exported.body)).toContain('crm_account_id');
    const files = openToOthers(s.dataDir);
    recordTally('edges', { internal_values_exposed: exposed.length, world_readable_files: files.length });
    expect(exposed).toEqual([]);
    expect(files).toEqual([]);
  });
});

/** A flow with an `internal: true` question, an action with default (internal) outputs and one with `internal: false`, then a review. */
const INTERNAL_FLOWS = fileURLToPath(new URL('../fixtures/internal-answers/', import.meta.url));

describe('internal answers', () => {
  it('keeps internal questions and internal action outputs out of the visitor view and the review; the export carries them', async () => {
    const s = await server({ env: { FLOWS_DIR: INTERNAL_FLOWS } });
    const started = await api(s.url, '/tenants/kiosk/sessions', { body: { flow: 'flow.kiosk' }, headers: { 'x-questline-key': 'pk_kiosk_test' } });
    expect(started.status).toBe(201);
    const { sessionId, token } = started.body as { sessionId: string; token: string };
    const bot: string[] = [];
    for (const text of ['Globex Corporation', '4921-7730']) {
      const r = await api(s.url, `/sessions/${sessionId}/messages`, { body: { text }, headers: { authorization: `Bearer ${token}` } });
      expect(r.status).toBe(200);
      bot.push(...(r.body.messages as Array<{ role: string; text: string }>).filter((m) => m.role === 'bot').map((m) => m.text));
    }
    const review = bot.find((t) => t.includes('please check'));
    expect(review).toContain('Globex Corporation'); // the review did run and shows the visitor's own answer
    const before = await sessionView(s.url, sessionId, token);
    const confirmed = await api(s.url, `/sessions/${sessionId}/messages`, { body: { text: 'yes' }, headers: { authorization: `Bearer ${token}` } });
    expect(confirmed.body.state.status).toBe('completed');
    const view = await sessionView(s.url, sessionId, token);
    const stored = (await s.store.load(sessionId))!.session.answers as Record<string, { value: unknown }>;
    const internal = ['account_pin', 'crm_account_id'];
    for (const k of [...internal, 'account_owner', 'company']) expect(stored).toHaveProperty(k); // every value was collected: the check is not vacuous
    const exposed = [
      ...internal.filter((k) => k in view.answers || k in before.answers),
      ...internal.filter((k) => [...bot, ...view.messages.filter((m) => m.role === 'bot').map((m) => m.text)].some((t) => t.includes(String(stored[k]!.value)))),
    ];
    recordTally('edges', { internal_values_exposed: exposed.length });
    expect(exposed).toEqual([]);
    expect(view.answers).toEqual({ company: 'Globex Corporation', account_owner: 'Sales team' }); // internal: false shows an action's output
    const exported = JSON.stringify((await api(s.url, '/admin/tenants/kiosk/export', { headers: { 'x-questline-admin': TEST_ADMIN_KEY } })).body);
    for (const k of internal) expect(exported).toContain(String(stored[k]!.value));
  });
});

describe('operator corrections', () => {
  it('refuses an approval whose corrections name an unknown key or an invalid value (REST 400, socket error ack), applying nothing', async () => {
    const s = await server({ env: { FLOWS_DIR: INTERNAL_FLOWS } });
    const admin = { 'x-questline-admin': TEST_ADMIN_KEY };
    const { sessionId, token } = (await api(s.url, '/tenants/kiosk/sessions', { body: { flow: 'flow.approval' }, headers: { 'x-questline-key': 'pk_kiosk_test' } })).body as { sessionId: string; token: string };
    for (const text of ['Dana Scully', '34']) await api(s.url, `/sessions/${sessionId}/messages`, { body: { text }, headers: { authorization: `Bearer ${token}` } });
    const waiting = async () => (await s.store.load(sessionId))!;
    expect((await waiting()).status).toBe('waiting');
    const op = io(`${s.url}/operator`, { auth: { adminKey: TEST_ADMIN_KEY }, transports: ['websocket'], reconnection: false, forceNew: true });
    cleanup.push(() => void op.close());
    await new Promise<void>((resolve, reject) => { op.on('connect', resolve); op.on('connect_error', reject); });
    const invalid: Array<{ answers: Record<string, unknown>; field: string }> = [
      { answers: { age: 'old' }, field: 'answers.age' },
      { answers: { age: 200 }, field: 'answers.age' },
      { answers: { nickname: 'Dee' }, field: 'answers.nickname' },
      { answers: { name: 'Dana Katherine Scully', age: -1 }, field: 'answers.age' },
    ];
    let accepted = 0;
    for (const { answers, field } of invalid) {
      const rest = await api(s.url, `/admin/sessions/${sessionId}/decision`, { body: { decision: 'approve', answers }, headers: admin });
      const ack = await op.timeout(5_000).emitWithAck('operator:decision', { sessionId, decision: 'approve', answers });
      if (rest.status !== 400) accepted++;
      if (ack.ok !== false) accepted++;
      expect(rest.body.error).toMatchObject({ code: 'invalid_payload' });
      expect(rest.body.error.message).toContain(field);
      expect(ack.error).toMatchObject({ code: 'invalid_payload' });
      expect(ack.error.message).toContain(field);
    }
    const after = await waiting();
    if (after.status !== 'waiting' || after.session.answers.age?.value !== 34 || after.session.answers.name?.value !== 'Dana Scully') accepted++;
    recordTally('edges', { operator_corrections_accepted_invalid: accepted });
    expect(accepted).toBe(0);
    // a valid correction is applied
    const ok = await api(s.url, `/admin/sessions/${sessionId}/decision`, { body: { decision: 'approve', answers: { age: 35 } }, headers: admin });
    expect(ok.status).toBe(200);
    expect((await waiting()).session.answers.age?.value).toBe(35);
  });
});

describe('abuse edges', () => {
  it('never locks the right admin key out after a flood of wrong ones', async () => {
    const s = await server({ rateLimits: { adminFailuresPerIp: { points: 10, seconds: 60 } } });
    for (let i = 0; i < 15; i++) await api(s.url, '/admin/tenants', { headers: { 'x-questline-admin': `wrong-key-${i}-xxxxxxxx` } });
    let lockouts = 0;
    for (let i = 0; i < 3; i++) if ((await api(s.url, '/admin/tenants', { headers: { 'x-questline-admin': TEST_ADMIN_KEY } })).status !== 200) lockouts++;
    recordTally('edges', { admin_lockouts_of_valid_key: lockouts });
    expect(lockouts).toBe(0);
  });

  it('serves a real visitor while 15 addresses flood the same tenant', async () => {
    const s = await server({
      env: { TRUST_PROXY: 'loopback' },
      rateLimits: { perSocket: { points: 100, seconds: 60 }, perIp: { points: 6, seconds: 60 }, perTenant: { points: 40, seconds: 60 }, tenantFairShare: { points: 3, seconds: 60 } },
    });
    const open = async (ip: string) =>
      (await api(s.url, '/tenants/acme/sessions', { body: { flow: 'flow.sales' }, headers: { 'x-questline-key': ACME_KEY, 'x-forwarded-for': ip } })).body as { sessionId: string; token: string };
    const send = (ip: string, sess: { sessionId: string; token: string }, text: string) =>
      api(s.url, `/sessions/${sess.sessionId}/messages`, { body: { text }, headers: { authorization: `Bearer ${sess.token}`, 'x-forwarded-for': ip } });
    let floodRefusals = 0;
    for (let n = 0; n < 15; n++) {
      const ip = `203.0.113.${n + 1}`;
      const sess = await open(ip);
      for (let m = 0; m < 6; m++) if ((await send(ip, sess, 'hello')).status === 429) floodRefusals++;
    }
    expect(floodRefusals).toBeGreaterThan(0); // the flood did spend the tenant's budget
    const visitor = await open('198.51.100.20');
    let starved = 0;
    for (const text of ACME_SALES_SCRIPT.slice(0, 3)) {
      const r = await send('198.51.100.20', visitor, text);
      if (r.status === 429) starved++;
    }
    recordTally('edges', { tenant_starvation_rejections: starved });
    expect(starved).toBe(0);
  });
});
