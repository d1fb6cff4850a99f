import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WireMessage } from '../../server/protocol/index.ts';
import { startTestServer, TEST_ADMIN_KEY, type TestServer } from '../support/server.ts';
import { ACME_KEY, ACME_SALES_SCRIPT, api, chat, contiguous } from './helpers.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.dispose();
});

const admin = { 'x-questline-admin': TEST_ADMIN_KEY };

async function restConversation(script: readonly string[]): Promise<{ sessionId: string; token: string; last: { state: { status: string } } }> {
  const start = await api(server.url, '/tenants/acme/sessions', { body: { flow: 'flow.sales' }, headers: { 'x-questline-key': ACME_KEY } });
  expect(start.status).toBe(201);
  const { sessionId, token } = start.body;
  let last = start.body;
  for (const text of script) {
    const r = await api(server.url, `/sessions/${sessionId}/messages`, { body: { text }, headers: { authorization: `Bearer ${token}` } });
    expect(r.status, `${text}: ${r.text}`).toBe(200);
    last = r.body;
  }
  return { sessionId, token, last };
}

describe('the REST API', () => {
  it('holds a whole conversation: start with the key, one turn per POST with the token, then read it back', async () => {
    const start = await api(server.url, '/tenants/acme/sessions', { body: { flow: 'flow.sales' }, headers: { 'x-questline-key': ACME_KEY } });
    expect(start.body).toMatchObject({ sessionId: expect.any(String), token: expect.any(String), state: { status: 'active', nodeId: 'q.intent' } });
    const auth = { authorization: `Bearer ${start.body.token}` };
    const first = await api(server.url, `/sessions/${start.body.sessionId}/messages`, { body: { text: ACME_SALES_SCRIPT[0], clientId: 'rest-0' }, headers: auth });
    expect(first.body).toMatchObject({ clientId: 'rest-0', duplicate: false, state: { nodeId: 'q.court_size' } });
    expect(first.body.messages[0]).toMatchObject({ id: 3, role: 'user', text: ACME_SALES_SCRIPT[0] });
    const again = await api(server.url, `/sessions/${start.body.sessionId}/messages`, { body: { text: ACME_SALES_SCRIPT[0], clientId: 'rest-0' }, headers: auth });
    expect(again.body).toMatchObject({ duplicate: true, messages: first.body.messages });
    let last = first.body;
    for (const text of ACME_SALES_SCRIPT.slice(1)) {
      const r = await api(server.url, `/sessions/${start.body.sessionId}/messages`, { body: { text }, headers: auth });
      expect(r.status).toBe(200);
      expect(r.body.clientId).toMatch(/^rest-/);
      last = r.body;
    }
    expect(last.state.status).toBe('completed');
    expect(last.messages.at(-1)).toMatchObject({ role: 'bot', kind: 'done' });
    const view = await api(server.url, `/sessions/${start.body.sessionId}`, { headers: auth });
    expect(view.body).toMatchObject({ status: 'completed', tenant: 'acme', flowId: 'flow.sales', answers: { email: 'ann@northside.edu', timeline: 'within_3_months' } });
    expect(contiguous(view.body.messages.map((m: WireMessage) => m.id))).toBe(true);
    const tail = await api(server.url, `/sessions/${start.body.sessionId}?after=20`, { headers: auth });
    expect(tail.body.messages[0].id).toBe(21);
  });

  it('applies a correction typed a turn late in words and says it back', async () => {
    const script = ['we need new LED lights for our tennis courts', '1340 m2', 'no lights yet', '6 poles', '8 m', 'within 3 months', 'skip', '20k', 'Jon Baker'];
    const { sessionId, token } = await restConversation(script);
    const auth = { authorization: `Bearer ${token}` };
    const send = async (text: string) => (await api(server.url, `/sessions/${sessionId}/messages`, { body: { text }, headers: auth })).body;
    const said = (body: { messages: WireMessage[] }) => body.messages.filter((m) => m.role === 'bot').map((m) => m.text).join(' / ');
    expect(said(await send("it's John with an h btw. Lakeside Tennis Club"))).toContain("I've changed name to John Baker.");
    expect(said(await send('sorry its Lakeside Padel Club not tennis club. email john@lakeside.org'))).toContain("I've changed organisation to Lakeside Padel Club.");
    // at the review, a number the reply ties to no question corrects none ("ends in 0192" is no area size)
    expect(said(await send('the mobile ends in 0192 not 0129, my bad'))).not.toContain("I've changed");
    const view = await api(server.url, `/sessions/${sessionId}`, { headers: auth });
    expect(view.body.answers).toMatchObject({ name: 'John Baker', company: 'Lakeside Padel Club', email: 'john@lakeside.org', court_size: 1340 });
  });

  it("lists a tenant's flows and serves each flow, its graph layout and its outputs schema", async () => {
    const headers = { 'x-questline-key': ACME_KEY };
    const list = await api(server.url, '/tenants/acme/flows', { headers });
    expect(list.body).toMatchObject({ tenant: 'acme', flows: [{ id: 'flow.sales', available: true, revision: expect.any(String) }] });
    const flow = await api(server.url, '/tenants/acme/flows/flow.sales', { headers });
    expect(JSON.stringify(flow.body.flow)).toContain('q.install_date'); // Acme's overlay applied (inside the LED subgraph)
    const graph = await api(server.url, '/tenants/acme/flows/flow.sales/graph', { headers });
    expect(graph.body).toMatchObject({ version: 1, flow: { id: 'flow.sales' }, nodes: expect.any(Array), edges: expect.any(Array) });
    const schema = await api(server.url, '/tenants/acme/flows/flow.sales/schema', { headers });
    expect(schema.body).toMatchObject({ type: 'object', properties: { email: expect.any(Object) } });
    expect((await api(server.url, '/tenants/acme/flows/flow.nope', { headers })).body.error.code).toBe('unknown_flow');
    expect((await api(server.url, '/tenants/acme/flows', { headers: admin })).status).toBe(200);
  });

  it('reports liveness and Prometheus metrics', async () => {
    await restConversation(ACME_SALES_SCRIPT.slice(0, 2));
    const health = await api(server.url, '/healthz');
    expect(health.body).toMatchObject({ ok: true, store: 'lowdb' });
    const res = await fetch(`${server.url}/metrics`);
    expect(res.headers.get('content-type')).toMatch(/text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/questline_turns_total\{tenant="acme",kind="message",result="ok"\} \d+/);
    expect(text).toMatch(/questline_turn_duration_seconds_bucket/);
    expect(text).toMatch(/questline_open_sessions\{tenant="acme",flow="flow.sales",node="q\.\w+"\} \d+/);
    expect(text).toMatch(/process_cpu_user_seconds_total/);
    expect(text).not.toMatch(/Northside High|ann@/);
  });

  it('serves the demo page under a strict CSP, and the widget bundle it loads', async () => {
    const page = await fetch(server.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    const html = await page.text();
    expect(html).toContain('src="/widget.js"');
    expect(html).not.toMatch(/<script>(?!<)/); // no inline script under the CSP
    const widget = await fetch(`${server.url}/widget.js`);
    expect(widget.status).toBe(200);
    expect(widget.headers.get('content-type')).toMatch(/javascript/);
    expect((await widget.text()).length).toBeGreaterThan(1000);
  });

  it('takes a flow by its short name (an embed\'s data-flow="sales"), and still refuses an unknown one', async () => {
    const short = await api(server.url, '/tenants/acme/sessions', { body: { flow: 'sales' }, headers: { 'x-questline-key': ACME_KEY } });
    expect(short.status).toBe(201);
    const state = await api(server.url, `/sessions/${short.body.sessionId}`, { headers: { authorization: `Bearer ${short.body.token}` } });
    expect(JSON.stringify(state.body)).toContain('flow.sales');
    const unknown = await api(server.url, '/tenants/acme/sessions', { body: { flow: 'nothing' }, headers: { 'x-questline-key': ACME_KEY } });
    expect(unknown.body).toMatchObject({ error: { code: 'unknown_flow' } });
  });

  it('answers unknown routes and sessions with JSON errors', async () => {
    expect(await api(server.url, '/nothing-here')).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
    const ghost = await api(server.url, '/sessions/AAAAAAAAAAAAAAAAAAAAAA', { headers: { authorization: 'Bearer nope' } });
    expect(ghost).toMatchObject({ status: 404, body: { error: { code: 'unknown_session' } } });
  });
});

describe('the admin API', () => {
  it('lists sessions, shows one with its events, and exports every lead with its status as JSON and CSV, filtered by status', async () => {
    const done = await restConversation([...ACME_SALES_SCRIPT]);
    expect(done.last.state.status).toBe('completed');
    const odd = await restConversation(ACME_SALES_SCRIPT.slice(0, 9));
    for (const text of ['=HYPERLINK("http://x"), "quoted" Co', 'bob@example.com', 'yes']) {
      await api(server.url, `/sessions/${odd.sessionId}/messages`, { body: { text }, headers: { authorization: `Bearer ${odd.token}` } });
    }

    const list = await api(server.url, '/admin/tenants/acme/sessions?status=completed', { headers: admin });
    expect(list.body.sessions.map((s: { id: string }) => s.id)).toEqual(expect.arrayContaining([done.sessionId, odd.sessionId]));
    expect(list.body.sessions.every((s: { status: string }) => s.status === 'completed')).toBe(true);

    const one = await api(server.url, `/admin/sessions/${done.sessionId}`, { headers: admin });
    expect(one.body.session).toMatchObject({ id: done.sessionId, tenant: 'acme' });
    expect(one.body.session.tokenHash).toBeUndefined();
    expect(one.body.events.some((e: { type: string }) => e.type === 'completed')).toBe(true);

    const json = await api(server.url, '/admin/tenants/acme/export?format=json', { headers: admin });
    const mine = json.body.intakes.find((i: { sessionId: string }) => i.sessionId === done.sessionId);
    expect(mine).toMatchObject({ status: 'completed', completedAt: expect.any(String) });
    expect(mine.answers).toMatchObject({ email: 'ann@northside.edu', budget: 25000 });

    // every lead is exported with its status, not only completed ones; a filter picks one status, an unknown one is refused
    const human = await restConversation([ACME_SALES_SCRIPT[0], 'talk to a human']);
    expect(human.last.state.status).toBe('escalated');
    const all = await api(server.url, '/admin/tenants/acme/export', { headers: admin });
    expect(all.body.intakes.find((i: { sessionId: string }) => i.sessionId === human.sessionId)).toMatchObject({
      status: 'escalated', completedAt: null, answers: { intention: 'buy_led' },
    });
    const escalated = await api(server.url, '/admin/tenants/acme/export?status=escalated', { headers: admin });
    expect(escalated.body.intakes.map((i: { sessionId: string }) => i.sessionId)).toContain(human.sessionId);
    expect(escalated.body.intakes.every((i: { status: string }) => i.status === 'escalated')).toBe(true);
    const completed = await api(server.url, '/admin/tenants/acme/export?status=completed', { headers: admin });
    expect(completed.body.intakes.map((i: { sessionId: string }) => i.sessionId)).not.toContain(human.sessionId);
    expect(await api(server.url, '/admin/tenants/acme/export?status=finished', { headers: admin })).toMatchObject({ status: 400, body: { error: { code: 'invalid_payload' } } });

    const res = await fetch(`${server.url}/api/v1/admin/tenants/acme/export?format=csv`, { headers: admin });
    expect(res.headers.get('content-type')).toMatch(/text\/csv/);
    const csv = await res.text();
    const [header, ...rows] = csv.trim().split('\r\n');
    expect(header).toMatch(/^session_id,flow_id,revision,status,completed_at,updated_at,outcome,urgent,/);
    expect(rows.find((r) => r.startsWith(human.sessionId))).toMatch(/,escalated,,/);
    expect(header!.split(',')).toEqual(expect.arrayContaining(['email', 'court_size', 'company']));
    expect(rows.find((r) => r.startsWith(done.sessionId))).toContain('ann@northside.edu');
    // a formula is defused and quotes are escaped
    const oddRow = rows.find((r) => r.startsWith(odd.sessionId))!;
    expect(oddRow).toContain(`"'=HYPERLINK(""http://x""), ""quoted"" Co"`);
  });

  it('lets an operator write into a session over REST and hand it back to the bot', async () => {
    const s = await restConversation(ACME_SALES_SCRIPT.slice(0, 2));
    const visitor = await chat(server.url, { token: s.token });
    expect((await visitor.request('session:start', { sessionId: s.sessionId, lastSeq: 1_000 })).ok).toBe(true);
    const said = await api(server.url, `/admin/sessions/${s.sessionId}/messages`, { body: { text: 'Hi, Sam from Acme here.' }, headers: admin });
    expect(said.status).toBe(200);
    await visitor.until((c) => c.received.some((r) => r.event === 'operator:message'));
    expect(visitor.received.find((r) => r.event === 'operator:message')?.data).toMatchObject({ role: 'operator', text: 'Hi, Sam from Acme here.' });
    // while the operator holds it, the bot stays quiet
    expect(await visitor.request('message', { text: 'hello Sam', clientId: 'to-sam' })).toEqual({ ok: true });
    const back = await api(server.url, `/admin/sessions/${s.sessionId}/hand-back`, { body: { nodeId: 'q.pole_count' }, headers: admin });
    expect(back).toMatchObject({ status: 200, body: { state: { nodeId: 'q.pole_count' } } });
    await visitor.until((c) => c.messages().some((m) => m.role === 'bot' && m.nodeId === 'q.pole_count'));
    const bad = await api(server.url, `/admin/sessions/${s.sessionId}/hand-back`, { body: { nodeId: 'q.nope' }, headers: admin });
    expect(bad).toMatchObject({ status: 400, body: { error: { code: 'invalid_payload' } } });
    const notWaiting = await api(server.url, `/admin/sessions/${s.sessionId}/decision`, { body: { decision: 'approve' }, headers: admin });
    expect(notWaiting).toMatchObject({ status: 409, body: { error: { code: 'not_waiting' } } });
    visitor.close();
  });
});

describe('the /operator namespace', () => {
  it("joins a session's room, sees the visitor's messages and writes back", async () => {
    const visitor = await chat(server.url);
    const start = await visitor.request('session:start', { flow: 'flow.sales' });
    const op: Socket = io(`${server.url}/operator`, { auth: { adminKey: TEST_ADMIN_KEY }, transports: ['websocket'], reconnection: false, forceNew: true });
    const seen: WireMessage[] = [];
    op.on('user:message', (m: WireMessage) => seen.push(m));
    await new Promise<void>((resolve, reject) => {
      op.once('connect', resolve);
      op.once('connect_error', reject);
    });
    const joined = await op.timeout(5_000).emitWithAck('operator:join', { sessionId: start.sessionId });
    expect(joined).toMatchObject({ ok: true, tenant: 'acme', messages: start.messages });
    await visitor.request('message', { text: ACME_SALES_SCRIPT[0], clientId: 'op-0' });
    await visitor.until(() => seen.length === 1);
    expect(seen[0]).toMatchObject({ text: ACME_SALES_SCRIPT[0] });
    expect(await op.timeout(5_000).emitWithAck('operator:message', { sessionId: start.sessionId, text: 'Sam here' })).toEqual({ ok: true });
    await visitor.until((c) => c.messages().some((m) => m.role === 'operator'));
    expect(await op.timeout(5_000).emitWithAck('operator:join', { sessionId: 'not-a-session-id!' })).toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
    op.close();
    visitor.close();
  });
});
