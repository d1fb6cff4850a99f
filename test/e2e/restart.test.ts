import { afterAll, describe, expect, it } from 'vitest';
import type { WireMessage } from '../../server/protocol/index.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { ACME_SALES_SCRIPT, api, chat, contiguous } from './helpers.ts';

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers.reverse()) await s.dispose();
});

describe('a server restart', () => {
  it('resumes a session from disk on a new server over the same DATA_DIR', async () => {
    const first = await startTestServer();
    servers.push(first);
    const a = await chat(first.url);
    const start = await a.request('session:start', { flow: 'flow.sales' });
    for (const [i, text] of ACME_SALES_SCRIPT.slice(0, 4).entries()) expect(await a.request('message', { text, clientId: `r-${i}` })).toEqual({ ok: true });
    await a.until((x) => x.messages().filter((m) => m.role === 'bot').length >= 4);
    const before = [...start.messages, ...a.messages()].map((m: WireMessage) => m.id);
    a.close();

    const second = await first.restart();
    servers.push(second);
    expect(second.url).not.toBe(first.url);
    // the first server let go of the data directory; the second holds it
    const b = await chat(second.url, { token: start.token });
    const resumed = await b.request('session:start', { sessionId: start.sessionId, lastSeq: before.at(-1) });
    expect(resumed).toMatchObject({ ok: true, sessionId: start.sessionId, messages: [], state: { status: 'active', nodeId: 'q.mounting_height' } });

    for (const [i, text] of ACME_SALES_SCRIPT.slice(4).entries()) expect(await b.request('message', { text, clientId: `r2-${i}` })).toEqual({ ok: true });
    await b.until((x) => x.lastState()?.status === 'completed');
    const after = b.messages().map((m) => m.id);
    expect(contiguous([...before, ...after])).toBe(true);
    b.close();

    const view = await api(second.url, `/sessions/${start.sessionId}`, { headers: { authorization: `Bearer ${start.token}` } });
    expect(view.body).toMatchObject({ status: 'completed', answers: { court_size: 420, pole_count: 4, email: 'ann@northside.edu' } });
    expect(view.body.messages.map((m: WireMessage) => m.id)).toEqual([...before, ...after]);
  });

  it('refuses a second server on a data directory that is in use', async () => {
    const running = await startTestServer();
    servers.push(running);
    await expect(startTestServer({ dataDir: running.dataDir })).rejects.toThrow(/in use/);
    // the running server is unaffected
    expect((await api(running.url, '/healthz')).status).toBe(200);
  });
});
