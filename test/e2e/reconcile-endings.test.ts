import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ACME_SALES_SCRIPT } from '../support/scripts.ts';
import { startTestServer } from '../support/server.ts';
import { flowsWithWebhook, startReceiver } from '../reliability/rest-visitor.ts';
import { api } from './helpers.ts';

// Start-up reconciliation, through the server as it starts: an ended session
// whose outbox entry is gone (here: the journal removed while the server was
// down — as an earlier version's crash between its two writes left it) gets
// its entry written again when the server starts, once its flows are loaded,
// and the webhook goes out under the ending's delivery id.

const temps: string[] = [];
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

describe('start-up reconciliation', () => {
  it('delivers an ended session whose outbox entry was lost while the server was down', async () => {
    const hook = await startReceiver();
    hook.mode = { kind: 'status', status: 500 }; // nothing delivered by the first server
    const flowsDir = flowsWithWebhook(hook.url);
    temps.push(flowsDir);
    let server = await startTestServer({ env: { FLOWS_DIR: flowsDir } });
    try {
      const start = await api(server.url, '/tenants/acme/sessions', { body: { flow: 'flow.sales' }, headers: { 'X-Questline-Key': 'pk_acme_demo' } });
      const { sessionId, token } = start.body as { sessionId: string; token: string };
      let last: { state: { status: string } } | undefined;
      for (const [i, text] of ACME_SALES_SCRIPT.entries()) {
        last = (await api(server.url, `/sessions/${sessionId}/messages`, { body: { text, clientId: `m${i}` }, headers: { Authorization: `Bearer ${token}` } })).body;
      }
      expect(last!.state.status).toBe('completed');
      const dataDir = server.dataDir;
      await server.close();
      rmSync(join(dataDir, 'outbox', 'journal.jsonl'), { force: true });
      hook.mode = { kind: 'ok' };
      server = await startTestServer({ dataDir, env: { FLOWS_DIR: flowsDir } });
      temps.push(dataDir);
      const deadline = Date.now() + 20_000;
      while (!hook.bySession.has(sessionId) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(hook.bySession.get(sessionId)).toEqual([`${sessionId}:completed`]);
    } finally {
      await server.close();
      await hook.close();
    }
  }, 60_000);
});
