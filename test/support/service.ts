import { sampleActions } from '../../examples/sample-actions.ts';
import { TenantDirectory } from '../../server/catalog/tenants.ts';
import { ConversationService } from '../../server/conversation/service.ts';
import { MemoryStore } from '../../server/store/memory.ts';

/** The value of a successful service result; a failed one throws with its code and message (the test fails there). */
export const must = <T>(r: { ok: true; value: T } | { ok: false; error: { code: string; message: string } }): T => {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
};

/**
 * A conversation service over the repository's tenants and flows, a memory
 * store and the sample actions, whose clock starts at 2026-01-15T10:00:00Z and
 * moves one second a call (so sessions sort by when they were made).
 */
export function memoryService(tenants: TenantDirectory = TenantDirectory.load('flows')): { svc: ConversationService; store: MemoryStore } {
  const store = new MemoryStore();
  let t = Date.parse('2026-01-15T10:00:00Z');
  const svc = new ConversationService({
    store, tenants, actions: sampleActions,
    env: { now: () => new Date((t += 1000)).toISOString(), sleep: async () => {}, clock: () => 0 },
  });
  return { svc, store };
}
