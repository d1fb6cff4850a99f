import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Completion } from '../delivery/completion.ts';
import type { Outbox } from '../delivery/outbox.ts';

// One suite, every Outbox (the webhook queue of session endings): each
// implementation's test file calls outboxContract with a factory. The suite
// depends on vitest and the Outbox interface only, so it can be handed to
// users who write an outbox.

/** What a contract test gets: a fresh, empty outbox, and optionally a way to reopen it on the same data. */
export interface OutboxHarness {
  outbox: Outbox;
  /** Closes `outbox` and returns a new instance over the same data (persistent outboxes only). */
  reopen?: () => Promise<Outbox>;
  /** Closes whatever is open and removes the data; `outbox.close()` when absent. */
  cleanup?: () => Promise<void>;
}

/** The clock of the suite's entries (epoch ms). */
export const T0 = Date.parse('2026-01-15T10:00:00Z');

/** A session ending as the service hands it to the outbox. */
export function completion(sessionId = 's1', over: Partial<Completion> = {}): Completion {
  return {
    sessionId, tenant: 'acme', flowId: 'flow.sales', revision: 'rev1', status: 'completed', version: 2,
    answers: { email: `${sessionId}@acme.example`, tags: [], nested: {} }, provenance: {}, at: '2026-01-15T10:00:00.000Z', ...over,
  };
}

/** Registers the Outbox contract tests for one implementation. */
export function outboxContract(name: string, make: () => Promise<OutboxHarness>): void {
  describe(`Outbox contract: ${name}`, () => {
    let h: OutboxHarness;
    let box: Outbox;

    beforeEach(async () => {
      h = await make();
      box = h.outbox;
    });
    afterEach(async () => {
      await (h.cleanup ? h.cleanup() : box.close());
    });

    it('enqueues an ending as pending and due now, with id session:status, and keeps the completion as given', async () => {
      const { entry, created } = await box.enqueue(completion(), T0);
      expect(created).toBe(true);
      expect(entry).toMatchObject({ id: 's1:completed', sessionId: 's1', tenant: 'acme', status: 'completed', version: 2, state: 'pending', attempts: 0, enqueuedAt: T0, nextAt: T0 });
      expect(entry.completion).toStrictEqual(completion());
      expect(await box.get('s1:completed')).toMatchObject({ id: 's1:completed', state: 'pending', completion: completion() });
    });

    it('treats the same ending enqueued twice as one', async () => {
      await box.enqueue(completion(), T0);
      const again = await box.enqueue(completion(), T0 + 5);
      expect(again.created).toBe(false);
      expect(again.entry.enqueuedAt).toBe(T0);
      expect(await box.list()).toHaveLength(1);
    });

    it('keeps escalation and completion of one session apart, listed in enqueue order', async () => {
      await box.enqueue(completion('s1', { status: 'escalated' }), T0);
      await box.enqueue(completion('s1', { version: 5 }), T0 + 1);
      expect((await box.list()).map((e) => e.id)).toEqual(['s1:escalated', 's1:completed']);
    });

    it('orders pending entries by when they are due, then by enqueue order, and records a failed attempt', async () => {
      for (const s of ['a', 'b', 'c']) await box.enqueue(completion(s), T0);
      await box.attempted('a:completed', { at: T0, attempts: 1, nextAt: T0 + 1_000, error: 'HTTP 500', httpStatus: 500 });
      expect((await box.pending()).map((e) => e.id)).toEqual(['b:completed', 'c:completed', 'a:completed']);
      expect(await box.get('a:completed')).toMatchObject({ state: 'pending', attempts: 1, lastError: 'HTTP 500', lastHttpStatus: 500, nextAt: T0 + 1_000 });
    });

    it('forgets the answers of a delivered entry but remembers that it was delivered', async () => {
      await box.enqueue(completion(), T0);
      await box.delivered('s1:completed', { at: T0 + 10, attempts: 1, httpStatus: 200 });
      expect(await box.pending()).toEqual([]);
      expect(await box.get('s1:completed')).toMatchObject({ state: 'delivered', finishedAt: T0 + 10, completion: null });
      expect((await box.list({ state: 'delivered' })).map((e) => e.id)).toEqual(['s1:completed']);
      expect((await box.enqueue(completion(), T0 + 20)).created).toBe(false);
    });

    it('keeps a dead entry with its answers and reason, and refuses transitions of finished entries', async () => {
      await box.enqueue(completion(), T0);
      await box.dead('s1:completed', { at: T0 + 10, attempts: 12, reason: 'max_attempts', error: 'HTTP 500' });
      expect(await box.pending()).toEqual([]);
      expect(await box.list({ state: 'dead' })).toEqual([expect.objectContaining({ id: 's1:completed', deadReason: 'max_attempts', lastError: 'HTTP 500', completion: completion() })]);
      await expect(box.attempted('s1:completed', { at: T0, attempts: 13, nextAt: T0, error: 'x' })).rejects.toThrow(/already dead/);
      await box.enqueue(completion('s2'), T0);
      await box.delivered('s2:completed', { at: T0 + 1, attempts: 1 });
      await expect(box.delivered('s2:completed', { at: T0 + 2, attempts: 2 })).rejects.toThrow(/already delivered/);
    });

    it('lets the same ending replace one dropped as never committed', async () => {
      await box.enqueue(completion(), T0);
      await box.dead('s1:completed', { at: T0 + 10, attempts: 0, reason: 'uncommitted', error: 'never committed' });
      const again = await box.enqueue(completion(), T0 + 20);
      expect(again.created).toBe(true);
      expect(again.entry).toMatchObject({ id: 's1:completed', state: 'pending', enqueuedAt: T0 + 20 });
    });

    it('says it is ready (ready() resolves) while it takes writes, and the check adds no entry', async () => {
      if (!box.ready) return;
      await box.ready();
      expect(await box.list()).toEqual([]);
    });

    it('lets an ending committed at a later version take the id of one written ahead of a commit that never happened', async () => {
      // the service writes an ending's entry before its commit; a refused commit gives it up as uncommitted
      await box.enqueue(completion('s1', { version: 2 }), T0);
      await box.dead('s1:completed', { at: T0 + 1, attempts: 0, reason: 'uncommitted', error: 'the commit was refused' });
      const later = await box.enqueue(completion('s1', { version: 3, answers: { email: 'later@acme.example' } }), T0 + 2);
      expect(later).toMatchObject({ created: true, entry: { id: 's1:completed', version: 3, state: 'pending' } });
      expect((await box.get('s1:completed'))!.completion!.answers).toEqual({ email: 'later@acme.example' });
      expect(await box.list()).toHaveLength(1);
    });

    it('gives a later ending of a restarted session its own id, and ignores a stale one', async () => {
      await box.enqueue(completion('s1', { version: 2 }), T0);
      await box.delivered('s1:completed', { at: T0, attempts: 1 });
      expect((await box.enqueue(completion('s1', { version: 7 }), T0 + 1)).entry.id).toBe('s1:completed:7');
      expect((await box.enqueue(completion('s1', { version: 7 }), T0 + 2)).created).toBe(false);
      expect((await box.enqueue(completion('s1', { version: 1 }), T0 + 3)).created).toBe(false);
    });

    it('drops every entry of an erased session, pending, delivered or dead, and leaves the others', async () => {
      await box.enqueue(completion('gone', { status: 'escalated' }), T0);
      await box.enqueue(completion('gone'), T0 + 1);
      await box.enqueue(completion('kept'), T0 + 2);
      await box.delivered('gone:escalated', { at: T0 + 3, attempts: 1, httpStatus: 200 });
      expect(await box.forgetSession('gone', T0 + 4)).toBe(2);
      expect((await box.list()).map((e) => e.id)).toEqual(['kept:completed']);
      expect((await box.pending()).map((e) => e.id)).toEqual(['kept:completed']);
      expect(await box.get('gone:completed')).toBeUndefined();
      expect(await box.forgetSession('gone', T0 + 5)).toBe(0);
    });

    it('keeps pending, attempted, delivered and dead entries across close and reopen', async (ctx) => {
      if (!h.reopen) return ctx.skip();
      for (const s of ['p', 'a', 'd', 'x']) await box.enqueue(completion(s), T0);
      await box.attempted('a:completed', { at: T0 + 1, attempts: 1, nextAt: T0 + 500, error: 'timeout' });
      await box.delivered('d:completed', { at: T0 + 2, attempts: 1, httpStatus: 204 });
      await box.dead('x:completed', { at: T0 + 3, attempts: 0, reason: 'invalid_url', error: 'no url' });
      const before = await box.list();
      box = await h.reopen();
      expect(await box.list()).toEqual(before);
      expect((await box.pending()).map((e) => e.id)).toEqual(['p:completed', 'a:completed']);
    });
  });
}
