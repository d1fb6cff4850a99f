import { describe, expect, it } from 'vitest';
import { sampleActions } from '../../examples/sample-actions.ts';
import { TenantDirectory } from '../../server/catalog/tenants.ts';
import { ConversationService } from '../../server/conversation/service.ts';
import { DeliveryWorker, vouchesFor } from '../../server/delivery/delivery.ts';
import { deliverySink } from '../../server/delivery/hook.ts';
import { MemoryOutbox, type Outbox } from '../../server/delivery/outbox.ts';
import { MemoryStore } from '../../server/store/memory.ts';
import type { SessionStore } from '../../server/store/session-store.ts';
import { ACME_SALES_SCRIPT } from '../support/scripts.ts';
import { must } from '../support/service.ts';

// The ending and its delivery are one durable step (docs/operations.md#durable-endings):
// the outbox entry is written before the commit that ends the session and the
// committed record names it, so a crash at any point between the two writes
// neither loses an acknowledged ending's webhook nor sends one that was never
// committed; a retry answered from the store and start-up reconciliation make
// sure an ended session the store holds has its entry.

const tenants = TenantDirectory.load('flows');
const hook = { url: 'https://hooks.example/x', secret: 'sekrit-sekrit-sekrit' };

function setup(opts: { store?: SessionStore; outbox?: Outbox } = {}) {
  const store = opts.store ?? new MemoryStore();
  const outbox = opts.outbox ?? new MemoryOutbox();
  let t = Date.parse('2026-01-15T10:00:00Z');
  const now = () => t;
  const svc = new ConversationService({
    store, tenants, actions: sampleActions,
    env: { now: () => new Date((t += 1000)).toISOString(), sleep: async () => {}, clock: () => 0 },
    deliveries: deliverySink(outbox, { webhookFor: () => hook, now, log: () => {} }),
  });
  const posted: string[] = [];
  const worker = new DeliveryWorker({
    outbox, store, webhookFor: () => hook, now, log: () => {}, sleep: async (ms) => void (t += ms), commitGraceMs: 10_000, recheckMs: 1_000,
    fetch: (async (_url: string, init: { headers: Record<string, string> }) => {
      posted.push(init.headers['X-Questline-Delivery']!);
      return new Response('ok', { status: 200 });
    }) as unknown as typeof fetch,
  });
  return { svc, store, outbox, worker, posted };
}

/** Runs the sales script up to (not including) its last line; resolves the session id. */
async function almostDone(svc: ConversationService): Promise<string> {
  const s = must(await svc.startSession({ tenant: 'acme', flow: 'flow.sales' }));
  for (const [i, text] of ACME_SALES_SCRIPT.slice(0, -1).entries()) must(await svc.message(s.sessionId, text, `c${i}`));
  return s.sessionId;
}
const last = ACME_SALES_SCRIPT.length - 1;

/** A store whose commits can be made to "crash": before the write (nothing saved) or after it (saved, the caller never hears). */
function crashingStore(): MemoryStore & { crash: 'before' | 'after' | null } {
  const store = new MemoryStore() as MemoryStore & { crash: 'before' | 'after' | null };
  store.crash = null;
  const commit = store.commit.bind(store);
  store.commit = async (record, expected, turn) => {
    if (store.crash === 'before') throw new Error('killed before the commit');
    const saved = await commit(record, expected, turn);
    if (store.crash === 'after') throw new Error('killed after the commit');
    return saved;
  };
  return store;
}

describe('durable endings', () => {
  it('writes the ending\'s outbox entry before the commit, and the committed record names it', async () => {
    const { svc, store, outbox, worker, posted } = setup();
    const id = await almostDone(svc);
    const done = must(await svc.message(id, ACME_SALES_SCRIPT[last]!, `c${last}`));
    expect(done.state.status).toBe('completed');
    const record = (await store.load(id))!;
    expect(record.deliveries).toEqual([`${id}:completed`]);
    expect(await outbox.get(`${id}:completed`)).toMatchObject({ state: 'pending', version: record.version });
    await worker.drain();
    expect(posted).toEqual([`${id}:completed`]);
  });

  it('a crash right after the commit that ended the session still delivers it (the entry was written first)', async () => {
    const store = crashingStore();
    const { svc, worker, posted } = setup({ store });
    const id = await almostDone(svc);
    store.crash = 'after';
    await expect(svc.message(id, ACME_SALES_SCRIPT[last]!, `c${last}`)).rejects.toThrow('killed after the commit');
    expect((await store.load(id))!.status).toBe('completed');
    await worker.drain();
    expect(posted).toEqual([`${id}:completed`]);
  });

  it('a crash before the commit sends nothing: the entry no record vouches for is dropped as uncommitted', async () => {
    const store = crashingStore();
    const { svc, outbox, worker, posted } = setup({ store });
    const id = await almostDone(svc);
    store.crash = 'before';
    await expect(svc.message(id, ACME_SALES_SCRIPT[last]!, `c${last}`)).rejects.toThrow('killed before the commit');
    await worker.drain();
    expect(posted).toEqual([]);
    expect(await outbox.get(`${id}:completed`)).toMatchObject({ state: 'dead', deadReason: 'uncommitted' });
    // the visitor's retry (same clientId) ends it for real: the same delivery id comes back to life and is sent once
    store.crash = null;
    expect(must(await svc.message(id, ACME_SALES_SCRIPT[last]!, `c${last}`)).duplicate).toBe(false);
    await worker.drain();
    expect(posted).toEqual([`${id}:completed`]);
  });

  it('a retry answered as a duplicate of the ending writes its entry again when the outbox lost it', async () => {
    const store = new MemoryStore();
    const first = setup({ store });
    const id = await almostDone(first.svc);
    must(await first.svc.message(id, ACME_SALES_SCRIPT[last]!, `c${last}`));
    // a server on the same store whose outbox never got the entry (an earlier version's crash between its two writes)
    const second = setup({ store });
    const again = must(await second.svc.message(id, ACME_SALES_SCRIPT[last]!, `c${last}`));
    expect(again.duplicate).toBe(true);
    expect(await second.outbox.get(`${id}:completed`)).toMatchObject({ state: 'pending' });
    await second.worker.drain();
    expect(second.posted).toEqual([`${id}:completed`]);
    // a second retry finds it there and writes nothing
    must(await second.svc.message(id, ACME_SALES_SCRIPT[last]!, `c${last}`));
    expect(await second.outbox.list()).toHaveLength(1);
  });

  it('start-up reconciliation gives every recently ended session without an entry one, and only those', async () => {
    const store = new MemoryStore();
    const first = setup({ store });
    const ended = await almostDone(first.svc);
    must(await first.svc.message(ended, ACME_SALES_SCRIPT[last]!, `c${last}`));
    const active = await almostDone(first.svc);
    const second = setup({ store });
    expect(await second.svc.reconcile('2026-01-15T00:00:00Z')).toEqual([`${ended}:completed`]);
    expect(await second.svc.reconcile('2026-01-15T00:00:00Z')).toEqual([]);
    // outside the window: left alone
    expect(await setup({ store }).svc.reconcile('2026-01-16T00:00:00Z')).toEqual([]);
    await second.worker.drain();
    expect(second.posted).toEqual([`${ended}:completed`]);
    expect(second.posted.join()).not.toContain(active);
  });

  it('a record vouches for an entry it names, or for the ending it holds; never for a different turn at that version', () => {
    const e = { id: 's:completed', version: 5, status: 'completed' as const };
    expect(vouchesFor({ version: 5, status: 'completed', deliveries: ['s:completed'] }, e)).toBe(true);
    expect(vouchesFor({ version: 9, status: 'active', deliveries: ['s:completed'] }, e)).toBe(true);
    expect(vouchesFor({ version: 5, status: 'completed', deliveries: [] }, e)).toBe(true);
    expect(vouchesFor({ version: 5, status: 'active', deliveries: [] }, e)).toBe(false);
    expect(vouchesFor({ version: 4, status: 'completed', deliveries: [] }, e)).toBe(false);
    // records saved before records named their deliveries: by version, as before
    expect(vouchesFor({ version: 5, status: 'active' }, e)).toBe(true);
  });
});
