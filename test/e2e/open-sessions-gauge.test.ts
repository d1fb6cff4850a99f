import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { ACME_KEY, ACME_SALES_SCRIPT, api } from './helpers.ts';

// questline_open_sessions reads the stored funnel counts: a session that ends
// leaves it, and a restarted server reports the sessions still open.

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers.reverse()) await s.dispose();
});

async function play(url: string, messages: readonly string[]): Promise<void> {
  const start = await api(url, '/tenants/acme/sessions', { body: { flow: 'flow.sales' }, headers: { 'x-questline-key': ACME_KEY } });
  for (const text of messages) await api(url, `/sessions/${start.body.sessionId}/messages`, { body: { text }, headers: { authorization: `Bearer ${start.body.token}` } });
}

const gauge = async (url: string): Promise<string[]> =>
  (await (await fetch(`${url}/metrics`)).text()).split('\n').filter((l) => l.startsWith('questline_open_sessions{')).sort();

describe('the open sessions gauge', () => {
  it('counts sessions still open by node, not those that ended, and the same after a restart', async () => {
    const first = await startTestServer();
    servers.push(first);
    await play(first.url, ACME_SALES_SCRIPT); // completes
    await play(first.url, ACME_SALES_SCRIPT.slice(0, 1)); // at the area question
    await play(first.url, ACME_SALES_SCRIPT.slice(0, 1));
    await play(first.url, [ACME_SALES_SCRIPT[0], 'huge', 'lots', 'zillions', 'Talk to a human']); // escalated: ended
    const open = await gauge(first.url);
    expect(open).toEqual(['questline_open_sessions{tenant="acme",flow="flow.sales",node="q.court_size"} 2']);

    const second = await first.restart();
    servers.push(second);
    expect(await gauge(second.url)).toEqual(open);
  }, 60_000);
});
