import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConversationService } from '../../server/conversation/service.ts';
import { TenantDirectory } from '../../server/catalog/tenants.ts';
import type { NamedValidator } from '../../server/engine/types.ts';
import { MemoryStore } from '../../server/store/memory.ts';
import { must } from '../support/service.ts';

// A flow whose question names a validator the host registers: the server's
// service must run it as `questline run` and goldens do, through the same
// registry of implementations.

const dir = mkdtempSync(join(tmpdir(), 'questline-validators-'));
mkdirSync(join(dir, 'global'));
mkdirSync(join(dir, 'tenants', 'shop'), { recursive: true });
writeFileSync(join(dir, 'global', 'order.flow.json'), JSON.stringify({
  version: 'v1',
  id: 'flow.order',
  nodes: [
    { id: 'q.order', type: 'question', key: 'order_no', prompt: 'What is your order number?', validate: [{ name: 'order_number', message: 'Order numbers look like ORD-1234.' }] },
    { id: 'n.done', type: 'terminal', say: 'Thanks, we will look it up.' },
  ],
}));
writeFileSync(join(dir, 'tenants', 'shop', 'tenant.json'), JSON.stringify({ id: 'shop', name: 'Shop', keys: ['pk_shop_demo'], origins: [], flows: ['flow.order'] }));

const orderNumber: NamedValidator = (v) => (/^ORD-\d{4}$/.test(String(v)) ? null : 'not an order number');

function service() {
  const tenants = TenantDirectory.load(dir);
  expect(tenants.problems).toEqual([]);
  let t = Date.parse('2026-01-15T10:00:00Z');
  return new ConversationService({
    store: new MemoryStore(), tenants, validators: { order_number: orderNumber },
    env: { now: () => new Date((t += 1000)).toISOString(), sleep: async () => {}, clock: () => 0 },
  });
}

describe('named validators in the conversation service', () => {
  it('accepts an answer the registered validator passes', async () => {
    const svc = service();
    const s = must(await svc.startSession({ tenant: 'shop', flow: 'flow.order' }));
    const done = must(await svc.message(s.sessionId, 'ORD-1234', 'c-1'));
    expect(done.state.status).toBe('completed');
    expect(done.events).toContainEqual(expect.objectContaining({ type: 'answer_set', key: 'order_no' }));
  });

  it("re-asks with the flow's message after an answer the validator refuses", async () => {
    const svc = service();
    const s = must(await svc.startSession({ tenant: 'shop', flow: 'flow.order' }));
    const again = must(await svc.message(s.sessionId, 'ORD-42', 'c-1'));
    expect(again.state).toMatchObject({ status: 'active', nodeId: 'q.order' });
    expect(again.events).toContainEqual(expect.objectContaining({ type: 'validation_failed', key: 'order_no', reason: 'Order numbers look like ORD-1234.' }));
    expect(again.messages.at(-1)).toMatchObject({ role: 'bot', kind: 'invalid', nodeId: 'q.order' });
    // a reply with no code in it is asked for the code before any validator runs
    const vague = must(await svc.message(s.sessionId, 'my order from Tuesday', 'c-1b'));
    expect(vague.state).toMatchObject({ status: 'active', nodeId: 'q.order' });
    expect(vague.events).not.toContainEqual(expect.objectContaining({ type: 'answer_set' }));
    const done = must(await svc.message(s.sessionId, 'ORD-0042', 'c-2'));
    expect(done.state.status).toBe('completed');
  });
});
