import { describe, expect, it } from 'vitest';
import { sampleActions } from '../../examples/sample-actions.ts';
import { ConversationService } from '../../server/conversation/service.ts';
import { TenantDirectory } from '../../server/catalog/tenants.ts';
import { MemoryStore } from '../../server/store/memory.ts';

const tenants = TenantDirectory.load('flows');

/** The tenants as loaded, but with the clinic's settings (which supply `clinic_id`) left out. */
const withoutSettings: TenantDirectory = Object.assign(Object.create(tenants) as TenantDirectory, {
  tenant: (id: string) => {
    const t = tenants.tenant(id);
    return t && { ...t, settings: {} };
  },
});

function service(dir: TenantDirectory) {
  let t = Date.parse('2026-01-15T10:00:00Z');
  return new ConversationService({
    store: new MemoryStore(), tenants: dir, actions: sampleActions,
    env: { now: () => new Date((t += 1000)).toISOString(), sleep: async () => {}, clock: () => 0 },
  });
}

describe('a session start checks interface.context', () => {
  it('refuses a context without a required field, naming it', async () => {
    const r = await service(withoutSettings).startSession({ tenant: 'northside-clinic', flow: 'flow.patient_intake' });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_payload', message: 'context: clinic_id is required' } });
  });
  it('refuses a field of the wrong type', async () => {
    const r = await service(withoutSettings).startSession({ tenant: 'northside-clinic', flow: 'flow.patient_intake', context: { clinic_id: 7 } });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_payload', message: 'context: clinic_id must be string, not integer' } });
  });
  it('starts when the tenant settings supply it', async () => {
    expect((await service(tenants).startSession({ tenant: 'northside-clinic', flow: 'flow.patient_intake' })).ok).toBe(true);
  });
});

describe('an urgent trigger shows in the session state', () => {
  it('a red flag as the first reply ends at the emergency outcome, urgent with the reason', async () => {
    const svc = service(tenants);
    const s = await svc.startSession({ tenant: 'northside-clinic', flow: 'flow.patient_intake' });
    if (!s.ok) throw new Error(s.error.message);
    expect(s.value.state.urgent).toBeUndefined();
    const r = await svc.message(s.value.sessionId, 'I am having severe chest pain right now and cannot breathe', 'c1');
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.state).toMatchObject({ status: 'escalated', nodeId: 'n.emergency', urgent: { reason: 'Red-flag symptoms reported (chest pain or trouble breathing)' } });
  });
});
