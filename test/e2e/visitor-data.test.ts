import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_ADMIN_KEY, type TestServer } from '../support/server.ts';
import { ACME_KEY, ACME_SALES_SCRIPT, api } from './helpers.ts';

// A visitor's own data over REST: every session with their email found and
// exported as one, then erased — sessions, transcripts — and the export of
// that email is empty afterwards, while the funnel keeps them as numbers.

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.dispose();
});
const admin = { 'x-questline-admin': TEST_ADMIN_KEY };

async function play(url: string, email: string): Promise<{ sessionId: string; token: string }> {
  const start = await api(url, '/tenants/acme/sessions', { body: { flow: 'flow.sales' }, headers: { 'x-questline-key': ACME_KEY } });
  const script = ACME_SALES_SCRIPT.map((m) => (m === 'ann@northside.edu' ? email : m));
  for (const text of script) expect((await api(url, `/sessions/${start.body.sessionId}/messages`, { body: { text }, headers: { authorization: `Bearer ${start.body.token}` } })).status).toBe(200);
  return start.body;
}

describe("a visitor's own data", () => {
  it('finds every session of a visitor by email, exports them with answers and transcripts, erases them, and the export is then empty', async () => {
    const server = await startTestServer();
    servers.push(server);
    const ann1 = await play(server.url, 'ann@northside.edu');
    const ann2 = await play(server.url, 'Ann@Northside.edu');
    const bob = await play(server.url, 'bob@elsewhere.org');

    const found = await api(server.url, '/admin/tenants/acme/visitors?email=ann@northside.edu', { headers: admin });
    expect(found.status).toBe(200);
    expect(found.body.count).toBe(2);
    expect(found.body.sessions.map((s: { id: string }) => s.id).sort()).toEqual([ann1.sessionId, ann2.sessionId].sort());
    const one = found.body.sessions.find((s: { id: string }) => s.id === ann1.sessionId);
    expect(one.answers).toMatchObject({ email: 'ann@northside.edu', court_size: 420 });
    expect(one.transcript.some((m: { role: string; text: string }) => m.role === 'user' && m.text === 'ann@northside.edu')).toBe(true);

    const funnelBefore = (await api(server.url, '/admin/tenants/acme/flows/flow.sales/funnel', { headers: admin })).body;
    const erased = await api(server.url, '/admin/tenants/acme/visitors?email=ann@northside.edu', { method: 'DELETE', headers: admin });
    expect(erased.status).toBe(200);
    expect(erased.body.erased).toBe(2);

    const after = await api(server.url, '/admin/tenants/acme/visitors?email=ann@northside.edu', { headers: admin });
    expect(after.body).toMatchObject({ count: 0, sessions: [] });
    // the sessions themselves are gone for their tokens too; the other visitor's stays
    expect((await api(server.url, `/sessions/${ann1.sessionId}`, { headers: { authorization: `Bearer ${ann1.token}` } })).status).toBe(404);
    expect((await api(server.url, `/sessions/${bob.sessionId}`, { headers: { authorization: `Bearer ${bob.token}` } })).status).toBe(200);
    // the funnel keeps them as numbers
    expect((await api(server.url, '/admin/tenants/acme/flows/flow.sales/funnel', { headers: admin })).body).toEqual(funnelBefore);

    // exactly one of email and phone; a malformed email is 400 naming it
    expect((await api(server.url, '/admin/tenants/acme/visitors', { headers: admin })).body.error).toMatchObject({ code: 'invalid_request' });
    expect((await api(server.url, '/admin/tenants/acme/visitors?email=nope', { headers: admin })).body.error).toMatchObject({ code: 'invalid_request', field: 'email' });
    expect((await api(server.url, '/admin/tenants/acme/visitors?email=ann@northside.edu')).status).toBe(403);
  }, 60_000);
});
