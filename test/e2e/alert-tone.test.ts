import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME_KEY, api, NORTHSIDE_KEY } from './helpers.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import type { WireMessage } from '../../server/protocol/index.ts';

// The safety advice after a red flag or a hazard goes out marked
// `tone: "alert"` (interfaces.md), over REST and in the stored transcript, so
// a client can show it as an alert; no other line carries a tone.

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ store: 'memory' });
});
afterAll(async () => {
  await server?.dispose();
});

/** Starts a session over REST and sends the lines; every bot line the visitor got, in order. */
async function converse(key: string, flow: string, lines: readonly string[]): Promise<{ lines: WireMessage[]; sessionId: string; token: string }> {
  const tenant = key === NORTHSIDE_KEY ? 'northside-clinic' : 'acme';
  const start = await api(server.url, `/tenants/${tenant}/sessions`, { body: { flow }, headers: { 'x-questline-key': key } });
  expect(start.status).toBe(201);
  const got: WireMessage[] = [...start.body.messages];
  for (const text of lines) {
    const r = await api(server.url, `/sessions/${start.body.sessionId}/messages`, { body: { text }, headers: { authorization: `Bearer ${start.body.token}` } });
    expect(r.status, text).toBe(200);
    got.push(...r.body.messages);
  }
  return { lines: got, sessionId: start.body.sessionId, token: start.body.token };
}

describe('safety advice is marked as an alert', () => {
  it('a red flag: the emergency advice has tone alert, nothing else does, and the stored transcript keeps it', async () => {
    const { lines, sessionId, token } = await converse(NORTHSIDE_KEY, 'flow.patient_intake', ['Jane Marie Doe', 'he has crushing chest pain and cannot breathe']);
    const alerts = lines.filter((m) => m.tone === 'alert');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ role: 'bot', nodeId: 'n.emergency', text: expect.stringMatching(/^Please call 911 now/) });
    const stored = await api(server.url, `/sessions/${sessionId}`, { headers: { authorization: `Bearer ${token}` } });
    expect((stored.body.messages as WireMessage[]).filter((m) => m.tone === 'alert').map((m) => m.id)).toEqual([alerts[0]!.id]);
  });

  it('a hazard, by the trigger or by answering the safety question yes: the technician advice has tone alert', async () => {
    const byTrigger = await converse(ACME_KEY, 'flow.sales', ['Hi, I want LED lights for a basketball court', 'there are sparks and the pole is leaning']);
    expect(byTrigger.lines.filter((m) => m.tone === 'alert').map((m) => m.nodeId)).toEqual(['n.escalate']);
    const byAnswer = await converse(ACME_KEY, 'flow.sales', ['Hi, the LED lights on our tennis court are flickering', 'skip',
      'Two of the four pole lights on court 3 have been flickering since last Tuesday, and one now won\'t turn on at all.', "yes, it's unsafe"]);
    expect(byAnswer.lines.filter((m) => m.tone === 'alert')).toMatchObject([{ nodeId: 'n.escalate', text: expect.stringMatching(/^Please keep people clear/) }]);
  });

  it('an ordinary conversation has no tone on any line', async () => {
    const { lines } = await converse(ACME_KEY, 'flow.sales', ['Hi, I want LED lights for a basketball court', 'about 420 m2']);
    expect(lines.filter((m) => 'tone' in m)).toEqual([]);
  });
});
