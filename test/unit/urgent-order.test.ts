import { describe, expect, it } from 'vitest';
import { TenantDirectory } from '../../server/catalog/tenants.ts';
import { sampleActions } from '../../examples/sample-actions.ts';
import { ConversationService } from '../../server/conversation/service.ts';
import { MemoryStore } from '../../server/store/memory.ts';
import { listSessions } from '../../server/transport/http/admin-views.ts';

const tenants = TenantDirectory.load('flows');

const must = <T>(r: { ok: true; value: T } | { ok: false; error: { code: string; message: string } }): T => {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
};

describe('the console list of sessions', () => {
  it('puts an urgent session first until an operator takes it, then sorts it newest first like the others', async () => {
    const store = new MemoryStore();
    let t = Date.parse('2026-01-15T10:00:00Z');
    const svc = new ConversationService({
      store, tenants, actions: sampleActions,
      env: { now: () => new Date((t += 1000)).toISOString(), sleep: async () => {}, clock: () => 0 },
    });
    const red = must(await svc.startSession({ tenant: 'northside-clinic', flow: 'flow.patient_intake' }));
    must(await svc.message(red.sessionId, 'I am having severe chest pain right now and cannot breathe', '1'));
    const later = must(await svc.startSession({ tenant: 'northside-clinic', flow: 'flow.patient_intake' }));
    must(await svc.message(later.sessionId, 'Jane Marie Doe', '1'));

    const list = () => listSessions(store, tenants, { tenant: 'northside-clinic', limit: 10 });
    const before = await list();
    expect(before.map((r) => r.id)).toEqual([red.sessionId, later.sessionId]);
    expect(before[0]).toMatchObject({ urgent: { reason: 'Red-flag symptoms reported (chest pain or trouble breathing)' }, operator: false });

    // a nurse takes the red flag: it keeps its reason but no longer jumps the queue
    must(await svc.operatorMessage(red.sessionId, 'This is Sam, a nurse. Please call 911 now.', 'sam'));
    const after = await list();
    expect(after.map((r) => r.id)).toEqual([later.sessionId, red.sessionId]);
    expect(after[1]).toMatchObject({ urgent: { reason: 'Red-flag symptoms reported (chest pain or trouble breathing)' }, operator: true });
  });
});
