import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GraphLayout } from '../../server/render/graph-layout.ts';
import { ACME_SALES_SCRIPT, api, chat, NORTHSIDE_KEY, type ChatClient } from './helpers.ts';
import { startTestServer, TEST_ADMIN_KEY, type TestServer } from '../support/server.ts';

// The reads the operator console needs (README "Operator console"): sessions
// across tenants with filters, the tenants and their flows, a session's
// provenance, trail and hand-back targets, its revision's graph, and the page.

const admin = { 'x-questline-admin': TEST_ADMIN_KEY };
let server: TestServer;
const visitors: ChatClient[] = [];

beforeAll(async () => {
  server = await startTestServer({ store: 'memory' });
});
afterAll(async () => {
  for (const v of visitors) v.close();
  await server?.dispose();
});

async function talk(lines: readonly string[], opts: { key?: string; flow?: string } = {}): Promise<{ v: ChatClient; sessionId: string }> {
  const v = await chat(server.url, opts.key ? { key: opts.key } : {});
  visitors.push(v);
  const start = await v.request('session:start', { flow: opts.flow ?? 'flow.sales' });
  for (const [i, text] of lines.entries()) expect(await v.request('message', { text, clientId: `m${i}` })).toMatchObject({ ok: true });
  return { v, sessionId: start.sessionId as string };
}

describe('console reads', () => {
  it('lists sessions of every tenant, newest first, filtered by tenant, status and flow', async () => {
    const sales = await talk([ACME_SALES_SCRIPT[0], 'talk to a human']);
    const clinic = await talk(['Jane Marie Doe'], { key: NORTHSIDE_KEY, flow: 'flow.patient_intake' });
    const all = await api(server.url, '/admin/sessions', { headers: admin });
    expect(all.status).toBe(200);
    const ids = all.body.sessions.map((s: { id: string }) => s.id);
    expect(ids.indexOf(clinic.sessionId)).toBeGreaterThanOrEqual(0);
    // the sales visitor asked for a person and waits for one: above the newer conversation the bot is having
    expect(ids.indexOf(sales.sessionId)).toBeLessThan(ids.indexOf(clinic.sessionId));
    expect(all.body.sessions.find((s: { id: string }) => s.id === sales.sessionId)).toMatchObject({
      tenant: 'acme', flowId: 'flow.sales', status: 'escalated', nodeId: 'q.court_size', operator: false, answered: 3,
    });

    const escalated = await api(server.url, '/admin/sessions?status=escalated', { headers: admin });
    expect(escalated.body.sessions.map((s: { id: string }) => s.id)).toContain(sales.sessionId);
    expect(escalated.body.sessions.every((s: { status: string }) => s.status === 'escalated')).toBe(true);

    const byTenant = await api(server.url, '/admin/sessions?tenant=northside-clinic', { headers: admin });
    expect(byTenant.body.sessions.map((s: { id: string }) => s.id)).toEqual([clinic.sessionId]);
    const byFlow = await api(server.url, '/admin/sessions?flow=flow.patient_intake', { headers: admin });
    expect(byFlow.body.sessions.map((s: { id: string }) => s.id)).toEqual([clinic.sessionId]);
    const none = await api(server.url, '/admin/sessions?tenant=acme&flow=flow.patient_intake', { headers: admin });
    expect(none.body.sessions).toEqual([]);

    expect(await api(server.url, '/admin/sessions?tenant=nobody', { headers: admin })).toMatchObject({ status: 404, body: { error: { code: 'unknown_tenant' } } });
    expect(await api(server.url, '/admin/sessions?status=sleeping', { headers: admin })).toMatchObject({ status: 400, body: { error: { code: 'invalid_payload' } } });
  });

  it('puts urgent sessions first with their reason, and refuses a decision in another role than the interrupt\'s', async () => {
    const urgent = await talk(['I am having severe chest pain right now and cannot breathe'], { key: NORTHSIDE_KEY, flow: 'flow.patient_intake' });
    const nurse = await talk(['Jane Marie Doe', 'March 27, 1984', 'female', '(415) 555-0132', 'no',
      'I feel sick: I have had trouble breathing and a cough', 'not right now, it stopped this morning'], { key: NORTHSIDE_KEY, flow: 'flow.patient_intake' });
    expect(nurse.v.lastState()).toMatchObject({ status: 'waiting', nodeId: 'n.nurse_review' });
    const list = (await api(server.url, '/admin/sessions', { headers: admin })).body.sessions as Array<{ id: string; urgent: { reason: string } | null }>;
    expect(list[0]).toMatchObject({ id: urgent.sessionId, urgent: { reason: 'Red-flag symptoms reported (chest pain or trouble breathing)' } });
    expect(list.find((s) => s.id === nurse.sessionId)?.urgent).toBeNull();

    const path = `/admin/sessions/${nurse.sessionId}/decision`;
    const wrong = await api(server.url, path, { body: { decision: 'approve', role: 'manager' }, headers: admin });
    expect(wrong).toMatchObject({ status: 403, body: { error: { code: 'wrong_role', message: expect.stringContaining("'nurse'") } } });
    expect((await api(server.url, `/admin/sessions/${nurse.sessionId}`, { headers: admin })).body.state.status).toBe('waiting');
    const right = await api(server.url, path, { body: { decision: 'approve', role: 'nurse' }, headers: admin });
    expect(right.status).toBe(200);
    expect(right.body.state.status).not.toBe('waiting');
  });

  it('gives each row who the visitor is, the last line and since when a person is waited for; urgent, then unanswered, first', async () => {
    // a lead who gave name and email, then asked for a person, then wrote again
    const lead = await talk([...ACME_SALES_SCRIPT.slice(0, 11), 'talk to a human', 'my number is 0171 555 0199 if that is easier']);
    const patient = await talk(['Jane Marie Doe', 'March 27, 1984', 'female', '(415) 555-0132'], { key: NORTHSIDE_KEY, flow: 'flow.patient_intake' });
    const red = await talk(['I am having severe chest pain right now and cannot breathe'], { key: NORTHSIDE_KEY, flow: 'flow.patient_intake' });
    const list = (await api(server.url, '/admin/sessions', { headers: admin })).body.sessions as Array<Record<string, any>>;
    const row = (id: string) => list.find((s) => s.id === id)!;
    expect(row(lead.sessionId)).toMatchObject({
      status: 'escalated', visitor: { name: 'Ann Lee', contact: 'ann@northside.edu' },
      unanswered: { count: 1 }, lastMessage: { role: 'user', text: 'my number is 0171 555 0199 if that is easier' },
    });
    expect(row(lead.sessionId).waitingSince).toBe(row(lead.sessionId).unanswered.since);
    expect(row(patient.sessionId)).toMatchObject({ status: 'active', visitor: { name: 'Jane Marie Doe', contact: expect.stringContaining('415') }, waitingSince: null, lastMessage: { role: 'user', text: '(415) 555-0132' } });
    expect(row(red.sessionId)).toMatchObject({ status: 'escalated', urgent: { reason: expect.any(String) }, visitor: { name: null, contact: null }, waitingSince: expect.any(String) });
    // the red flag first, then the visitor waiting for a reply, then the rest
    const order = list.map((s) => s.id);
    // (an earlier test's red flag has waited longer: it is above this one)
    expect(list.slice(0, order.indexOf(red.sessionId) + 1).every((s) => s.urgent && !s.operator)).toBe(true);
    expect(order.indexOf(red.sessionId)).toBeLessThan(order.indexOf(lead.sessionId));
    expect(order.indexOf(lead.sessionId)).toBeLessThan(order.indexOf(patient.sessionId));
    expect(list.findIndex((s) => !s.urgent && !s.unanswered && !s.waitingSince)).toBeGreaterThan(order.indexOf(lead.sessionId));
  });

  it('searches by name, email, phone (however it is spaced) and any answer text, server-side', async () => {
    const lead = await talk([...ACME_SALES_SCRIPT.slice(0, 11)]);
    const patient = await talk(['Jane Marie Doe', 'March 27, 1984', 'female', '(415) 555-0132'], { key: NORTHSIDE_KEY, flow: 'flow.patient_intake' });
    const find = async (q: string) => {
      const r = await api(server.url, `/admin/sessions?q=${encodeURIComponent(q)}`, { headers: admin });
      expect(r.status, q).toBe(200);
      return { ids: (r.body.sessions as Array<{ id: string }>).map((s) => s.id), search: r.body.search };
    };
    for (const q of ['ann lee', 'ANN@NORTHSIDE.EDU', 'northside high', 'basketball']) {
      const { ids } = await find(q);
      expect(ids, q).toContain(lead.sessionId);
      expect(ids, q).not.toContain(patient.sessionId);
    }
    for (const q of ['jane doe', '415-555-0132', '4155550132', '+1 415 555 0132']) {
      const { ids } = await find(q);
      expect(ids, q).toContain(patient.sessionId);
      expect(ids, q).not.toContain(lead.sessionId);
    }
    expect(await find('nobody-has-this-answer')).toEqual({ ids: [], search: { scanned: expect.any(Number), complete: true } });
    expect((await find(patient.sessionId)).ids).toEqual([patient.sessionId]);
    // with the other filters
    expect((await find('jane')).ids).toContain(patient.sessionId);
    const r = await api(server.url, '/admin/sessions?tenant=acme&q=jane', { headers: admin });
    expect(r.body.sessions.map((s: { id: string }) => s.id)).not.toContain(patient.sessionId);
    expect(await api(server.url, `/admin/sessions?q=${'x'.repeat(201)}`, { headers: admin })).toMatchObject({ status: 413, body: { error: { code: 'too_large' } } });
  });

  it('lists a closed escalation as closed: nobody waited for, no longer first', async () => {
    const red = await talk(['I am having severe chest pain right now and cannot breathe', 'I am in your waiting room'], { key: NORTHSIDE_KEY, flow: 'flow.patient_intake' });
    const rowOf = async () => ((await api(server.url, '/admin/sessions', { headers: admin })).body.sessions as Array<Record<string, any>>);
    const before = (await rowOf()).find((s) => s.id === red.sessionId)!;
    expect(before).toMatchObject({ status: 'escalated', unanswered: { count: 1 }, waitingSince: expect.any(String) });
    expect(before.closed).toBeUndefined();
    expect((await api(server.url, `/admin/sessions/${red.sessionId}/close`, { body: {}, headers: admin })).status).toBe(200);
    const list = await rowOf();
    const after = list.find((s) => s.id === red.sessionId)!;
    expect(after).toMatchObject({ status: 'escalated', closed: true, unanswered: null, waitingSince: null, urgent: { reason: expect.any(String) } });
    // below every session still waited for
    const waited = list.filter((s) => s.waitingSince || s.unanswered || (s.urgent && !s.operator && !s.closed && s.status !== 'completed' && s.status !== 'abandoned'));
    for (const w of waited) expect(list.indexOf(w)).toBeLessThan(list.indexOf(after));
  });

  it('starts the hand-back picker at the question the bot was on, also after a red flag moved the session to its advice', async () => {
    const red = await talk(['Jane Marie Doe', 'March 27, 1984', 'he has crushing chest pain and cannot breathe'], { key: NORTHSIDE_KEY, flow: 'flow.patient_intake' });
    const one = (await api(server.url, `/admin/sessions/${red.sessionId}`, { headers: admin })).body;
    expect(one.state).toMatchObject({ status: 'escalated', urgent: expect.anything() });
    expect(one.state.nodeId).not.toBe('q.sex');
    expect(one.handBackAt).toBe('q.sex'); // the age is derived from the date of birth: the bot was on the sex question
    const hazard = await talk([...ACME_SALES_SCRIPT.slice(0, 8), 'hold on, there are sparks and the pole is leaning']);
    const h = (await api(server.url, `/admin/sessions/${hazard.sessionId}`, { headers: admin })).body;
    expect(h.state).toMatchObject({ status: 'escalated', nodeId: 'n.escalate' });
    // not merely the first unanswered question of the flow
    expect(h.handBack.find((t: { answered: boolean }) => !t.answered).id).not.toBe('q.name');
    expect(h.handBackAt).toBe('q.name');
    const human = await talk([ACME_SALES_SCRIPT[0], ACME_SALES_SCRIPT[1], 'talk to a human']);
    expect((await api(server.url, `/admin/sessions/${human.sessionId}`, { headers: admin })).body.handBackAt).toBe('q.current_lighting');
  });

  it('lists tenants with the flows they serve', async () => {
    const r = await api(server.url, '/admin/tenants', { headers: admin });
    expect(r.body.tenants.map((t: { id: string }) => t.id)).toEqual(['acme', 'northside-clinic']);
    expect(r.body.tenants[0].flows[0]).toMatchObject({ id: 'flow.sales', revision: expect.stringMatching(/^[0-9a-f]{16}$/) });
  });

  it("shows a session's provenance, trail and hand-back targets, and follows a hand-back on the trail", async () => {
    const { v, sessionId } = await talk([ACME_SALES_SCRIPT[0], ACME_SALES_SCRIPT[1], 'talk to a human']);
    const one = await api(server.url, `/admin/sessions/${sessionId}`, { headers: admin });
    expect(one.body.flow).toMatchObject({ id: 'flow.sales', revision: one.body.session.revision });
    expect(one.body.provenance.find((a: { key: string }) => a.key === 'court_size')).toEqual({
      key: 'court_size', value: 420, turn: 2, source: 'user', extractor: 'rules', confidence: expect.any(Number),
      utterance: 'about 420 m2', validation: 'passed', nodeId: 'q.court_size',
    });
    expect(one.body.trail.nodes).toEqual(['n.start', 'q.intent', 'sg.led', 'q.court_size', 'q.sport', 'q.current_lighting']);
    expect(one.body.trail.edges).toEqual(['e.start', 'e.intent.buy', 'sg.led/call', 'e.court_size.sport', 'e.sport.venue']);
    const targets = one.body.handBack.map((t: { id: string }) => t.id);
    // top-level questions, and those of the subgraph the conversation is in
    expect(targets).toEqual(expect.arrayContaining(['q.intent', 'q.email', 'q.court_size', 'q.pole_count']));
    expect(one.body.handBack.find((t: { id: string }) => t.id === 'q.court_size')).toMatchObject({ answered: true, scope: 'subgraph.led_path' });

    // every trail id names something in the revision's layout
    const graph = await api(server.url, `/admin/sessions/${sessionId}/graph`, { headers: admin });
    const layout = GraphLayout.parse(graph.body);
    expect(layout.flow).toMatchObject({ id: 'flow.sales', revision: one.body.session.revision });
    const nodeIds = new Set(layout.nodes.map((n) => n.id));
    const edgeIds = new Set(layout.edges.map((e) => e.id));
    expect(one.body.trail.nodes.filter((id: string) => !nodeIds.has(id))).toEqual([]);
    expect(one.body.trail.edges.filter((id: string) => !edgeIds.has(id))).toEqual([]);
    // no target the service would refuse
    for (const t of one.body.handBack) expect(nodeIds.has(t.id)).toBe(true);

    expect((await api(server.url, `/admin/sessions/${sessionId}/hand-back`, { body: { nodeId: 'q.pole_count' }, headers: admin })).status).toBe(200);
    await v.request('message', { text: '4', clientId: 'after' });
    const after = await api(server.url, `/admin/sessions/${sessionId}`, { headers: admin });
    expect(after.body.trail.nodes.slice(-3)).toEqual(['q.current_lighting', 'q.pole_count', after.body.state.nodeId]);
    expect(after.body.trail.edges.at(-1)).toBe('e.poles.height');
  });

  it('refuses the new reads without the admin key', async () => {
    const { sessionId } = await talk([]);
    for (const path of ['/admin/sessions', '/admin/tenants', `/admin/sessions/${sessionId}/graph`]) {
      expect(await api(server.url, path), path).toMatchObject({ status: 403, body: { error: { code: 'admin_only' } } });
    }
    expect(await api(server.url, '/admin/sessions/AAAAAAAAAAAAAAAAAAAAAA/graph', { headers: admin })).toMatchObject({ status: 404, body: { error: { code: 'unknown_session' } } });
  });

  it('serves the console page with a strict CSP, no inline script, and its stylesheet and bundle', async () => {
    const page = await fetch(`${server.url}/admin`);
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await page.text();
    expect(html).toContain('<script defer src="/admin.js"></script>');
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toMatch(/\son[a-z]+=|style=/i);
    const css = await fetch(`${server.url}/admin/console.css`);
    expect(css.headers.get('content-type')).toMatch(/text\/css/);
    const js = await fetch(`${server.url}/admin.js`);
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    expect((await js.text()).length).toBeGreaterThan(10_000);
  });
});
