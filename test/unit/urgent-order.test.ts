import { describe, expect, it } from 'vitest';
import { TenantDirectory } from '../../server/catalog/tenants.ts';
import { listSessions } from '../../server/transport/http/admin-views.ts';
import { memoryService, must } from '../support/service.ts';

const tenants = TenantDirectory.load('flows');

describe('the console list of sessions', () => {
  it('puts an urgent session first until an operator takes it, then sorts it newest first like the others', async () => {
    const { svc, store } = memoryService(tenants);
    const red = must(await svc.startSession({ tenant: 'northside-clinic', flow: 'flow.patient_intake' }));
    must(await svc.message(red.sessionId, 'I am having severe chest pain right now and cannot breathe', '1'));
    const later = must(await svc.startSession({ tenant: 'northside-clinic', flow: 'flow.patient_intake' }));
    must(await svc.message(later.sessionId, 'Jane Marie Doe', '1'));

    const list = async () => (await listSessions(store, tenants, { tenant: 'northside-clinic', limit: 10 })).sessions;
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
