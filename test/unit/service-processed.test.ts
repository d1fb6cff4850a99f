import { describe, expect, it } from 'vitest';
import { memoryService, must } from '../support/service.ts';

describe('processed client message ids', () => {
  it('keep the newest 64 in order: a retry of one of them is a duplicate, an older id runs again', async () => {
    const { svc, store } = memoryService();
    const { sessionId } = must(await svc.startSession({ tenant: 'acme', flow: 'flow.sales' }));
    // "back" at the first question asks it again: a turn that never ends the session
    for (let i = 0; i < 70; i++) must(await svc.message(sessionId, 'back', `m${i}`));
    const processed = (await store.load(sessionId))!.processed;
    expect(processed.map((p) => p.clientId)).toEqual(Array.from({ length: 64 }, (_, i) => `m${i + 6}`));
    // each entry names the seq of its user line
    for (let i = 1; i < processed.length; i++) expect(processed[i]!.seq).toBeGreaterThan(processed[i - 1]!.seq);
    expect(must(await svc.message(sessionId, 'back', 'm69')).duplicate).toBe(true);
    expect(must(await svc.message(sessionId, 'back', 'm6')).duplicate).toBe(true);
    expect(must(await svc.message(sessionId, 'back', 'm5')).duplicate).toBe(false);
  });
});
