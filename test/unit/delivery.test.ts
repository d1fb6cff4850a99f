import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { backoffDelay, defaultRetry, DeliveryWorker, type DeliveryWorkerOptions, type Webhook } from '../../server/delivery/delivery.ts';
import { deliveryHook } from '../../server/delivery/hook.ts';
import type { DeliveryLog } from '../../server/delivery/log.ts';
import { IntakePayload } from '../../server/delivery/payload.ts';
import { verifySignature } from '../../server/delivery/signature.ts';
import { MemoryOutbox, type Outbox } from '../../server/delivery/outbox.ts';
import { FileOutbox } from '../../server/delivery/outbox-file.ts';
import type { Completion } from '../../server/delivery/completion.ts';
import type { StoredSession } from '../../server/store/session-store.ts';

// A real receiver on 127.0.0.1, a fake clock whose sleep advances it (so
// retries are instant and their waits observable), and a store that only
// knows each session's committed version.

const SECRET = 'whsec_test_0123456789';
/** The worker signs with the test's clock, not the system's: the timestamp check is off here (delivery-signature.test.ts tests it). */
const ANY_TIME = { toleranceSeconds: Infinity };
const T0 = Date.parse('2026-01-15T10:00:00Z');

interface Received { headers: IncomingMessage['headers']; body: string }
type Behaviour = (n: number, req: IncomingMessage, res: ServerResponse) => void;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A webhook receiver; `behaviour` answers the n-th request (1-based); default 200. */
async function receiver(behaviour: Behaviour = (_n, _req, res) => res.end('ok')) {
  const requests: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      behaviour(requests.length, req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks/intake`, requests, successes: () => requests.length };
}

function fakeClock(start = T0) {
  let t = start;
  const sleeps: number[] = [];
  return {
    now: () => t,
    sleeps,
    advance: (ms: number) => void (t += ms),
    sleep: async (ms: number) => {
      sleeps.push(ms);
      t += ms;
    },
  };
}

/** A store that knows only committed versions. */
function fakeStore(versions: Record<string, number>) {
  return { load: async (id: string) => (id in versions ? ({ id, version: versions[id] } as unknown as StoredSession) : null) };
}

function completion(over: Partial<Completion> = {}): Completion {
  return {
    sessionId: 's1', tenant: 'acme', flowId: 'flow.sales', revision: 'rev1', status: 'completed', version: 3,
    answers: { email: 'ann@acme.example', budget: 40_000, name: 'Ann Lee' },
    provenance: { email: { turn: 4, source: 'user', extractor: 'offline', confidence: 1, validation: 'ok' } },
    at: '2026-01-15T10:00:00.000Z', ...over,
  };
}

function collectingLog() {
  const lines: Array<{ level: string; message: string; fields: Record<string, unknown> }> = [];
  const log: DeliveryLog = (level, message, fields) => void lines.push({ level, message, fields });
  return { log, lines, text: () => JSON.stringify(lines) };
}

function setup(opts: { url?: string; webhooks?: Record<string, Webhook | undefined>; versions?: Record<string, number>; outbox?: Outbox; worker?: Partial<DeliveryWorkerOptions> } = {}) {
  const clock = fakeClock();
  const logs = collectingLog();
  const outbox = opts.outbox ?? new MemoryOutbox();
  const webhooks = opts.webhooks ?? { acme: { url: opts.url ?? 'http://127.0.0.1:9/none', secret: SECRET } };
  const webhookFor = (t: string) => webhooks[t];
  const worker = new DeliveryWorker({
    outbox, store: fakeStore(opts.versions ?? { s1: 3, s2: 1, s3: 1, s4: 1, s5: 1, s6: 1 }), webhookFor,
    now: clock.now, sleep: clock.sleep, random: () => 0.5, log: logs.log, timeoutMs: 2_000, ...opts.worker,
  });
  const hook = deliveryHook(outbox, { webhookFor, now: clock.now, log: logs.log });
  return { clock, logs, outbox, worker, hook };
}

/** A fetch that counts how many requests are in flight at once; `most()` is the peak. */
function concurrencyProbe() {
  let active = 0;
  let peak = 0;
  const counting = (async (...args: Parameters<typeof fetch>) => {
    peak = Math.max(peak, ++active);
    try {
      return await fetch(...args);
    } finally {
      active--;
    }
  }) as typeof fetch;
  return { counting, most: () => peak };
}

describe('DeliveryWorker with a real receiver', () => {
  it('POSTs the intake once, signed with the tenant secret, with the documented headers and body', async () => {
    const r = await receiver();
    const { worker, hook, outbox } = setup({ url: r.url });
    await hook(completion({ outcome: 'quote' }));
    await worker.drain();

    expect(r.requests).toHaveLength(1);
    const { headers, body } = r.requests[0]!;
    expect(headers['content-type']).toBe('application/json');
    expect(headers['x-questline-event']).toBe('intake.completed');
    expect(headers['x-questline-delivery']).toBe('s1:completed');
    expect(headers['x-questline-timestamp']).toBe(String(T0 / 1000));
    expect(verifySignature(SECRET, headers['x-questline-timestamp'] as string, body, headers['x-questline-signature'] as string, ANY_TIME)).toBe(true);
    expect(verifySignature('another-secret-1', headers['x-questline-timestamp'] as string, body, headers['x-questline-signature'] as string, ANY_TIME)).toBe(false);

    const payload = IntakePayload.parse(JSON.parse(body));
    expect(payload).toEqual({
      event: 'intake.completed', deliveryId: 's1:completed', sessionId: 's1', tenant: 'acme', flow: { id: 'flow.sales', revision: 'rev1' },
      status: 'completed', outcome: 'quote', answers: { email: 'ann@acme.example', budget: 40_000, name: 'Ann Lee' },
      provenance: { email: { turn: 4, source: 'user', extractor: 'offline', confidence: 1, validation: 'ok' } },
      completedAt: '2026-01-15T10:00:00.000Z',
    });
    const entry = await outbox.get('s1:completed');
    expect(entry).toMatchObject({ state: 'delivered', attempts: 1, lastHttpStatus: 200, completion: null });
  });

  it('names an escalation intake.escalated', async () => {
    const r = await receiver();
    const { worker, hook } = setup({ url: r.url });
    await hook(completion({ status: 'escalated' }));
    await worker.drain();
    expect(r.requests.map((q) => q.headers['x-questline-event'])).toEqual(['intake.escalated']);
    expect(JSON.parse(r.requests[0]!.body)).toMatchObject({ event: 'intake.escalated', status: 'escalated', outcome: null });
  });

  it('retries a receiver that answers 500 and then resets the connection, and delivers exactly once', async () => {
    const r = await receiver((n, req, res) => {
      if (n === 1) res.writeHead(500).end('boom');
      else if (n === 2) req.socket.destroy();
      else res.writeHead(204).end();
    });
    const { worker, hook, outbox, clock, logs } = setup({ url: r.url });
    await hook(completion());
    await worker.drain();

    expect(r.requests).toHaveLength(3);
    expect(new Set(r.requests.map((q) => q.headers['x-questline-delivery']))).toEqual(new Set(['s1:completed']));
    expect(clock.sleeps).toEqual([1_000, 2_000]);
    expect(await outbox.get('s1:completed')).toMatchObject({ state: 'delivered', attempts: 3, lastHttpStatus: 204 });
    // each attempt is signed afresh, with its own timestamp
    for (const q of r.requests) {
      expect(verifySignature(SECRET, q.headers['x-questline-timestamp'] as string, q.body, q.headers['x-questline-signature'] as string, ANY_TIME)).toBe(true);
    }
    expect(r.requests.map((q) => Number(q.headers['x-questline-timestamp']) - T0 / 1000)).toEqual([0, 1, 3]);
    const retries = logs.lines.filter((l) => l.message.includes('will retry'));
    expect(retries.map((l) => l.fields.error)).toEqual(['HTTP 500', expect.stringMatching(/^network error/)]);
    expect(logs.text()).not.toContain('ann@acme.example');
    expect(logs.text()).not.toContain('Ann Lee');
  });

  it('counts a receiver that does not answer within the timeout as a failed attempt', async () => {
    const r = await receiver((n, _req, res) => {
      if (n > 1) res.end('ok'); // the first request is left hanging
    });
    const { worker, hook, outbox, logs } = setup({ url: r.url, worker: { timeoutMs: 150 } });
    await hook(completion());
    await worker.drain();
    expect(r.requests).toHaveLength(2);
    expect(await outbox.get('s1:completed')).toMatchObject({ state: 'delivered', attempts: 2 });
    expect(logs.lines.find((l) => l.message.includes('will retry'))?.fields.error).toBe('no response within 150 ms');
  });

  it('waits as long as a Retry-After header asks, within the cap', async () => {
    const r = await receiver((n, _req, res) => (n === 1 ? res.writeHead(503, { 'Retry-After': '30' }).end() : res.end()));
    const { worker, hook, clock } = setup({ url: r.url });
    await hook(completion());
    await worker.drain();
    expect(r.requests).toHaveLength(2);
    expect(clock.sleeps).toEqual([30_000]);
  });

  it('delivers exactly once after a crash mid-retry, from the reopened file outbox', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'questline-outbox-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    let failing = true;
    const r = await receiver((_n, _req, res) => res.writeHead(failing ? 500 : 200).end());

    const first = setup({ url: r.url, outbox: await FileOutbox.open(dir) });
    await first.hook(completion());
    await first.worker.tick(); // attempt 1 fails; the retry is scheduled 1 s later
    expect(r.requests).toHaveLength(1);
    expect(await first.outbox.get('s1:completed')).toMatchObject({ state: 'pending', attempts: 1, nextAt: T0 + 1_000 });
    // the process dies here: the worker and the outbox are dropped without stop() or close()

    failing = false;
    const reopened = await FileOutbox.open(dir);
    cleanups.push(() => reopened.close());
    const second = setup({ url: r.url, outbox: reopened });
    expect(await reopened.get('s1:completed')).toMatchObject({ state: 'pending', attempts: 1, nextAt: T0 + 1_000 });
    await second.worker.drain();

    expect(r.requests).toHaveLength(2);
    expect(second.clock.sleeps).toEqual([1_000]); // it waited for the scheduled retry, not more, not less
    expect(await reopened.get('s1:completed')).toMatchObject({ state: 'delivered', attempts: 2 });
    await second.worker.drain();
    const third = await FileOutbox.open(dir);
    cleanups.push(() => third.close());
    expect(await third.pending()).toEqual([]);
    expect(r.requests).toHaveLength(2);
  });

  it('delivers an ending enqueued twice only once', async () => {
    const r = await receiver();
    const { worker, hook, outbox } = setup({ url: r.url });
    await hook(completion());
    await hook(completion());
    await worker.drain();
    await hook(completion()); // and once more after it was delivered
    await worker.drain();
    expect(r.requests).toHaveLength(1);
    expect(await outbox.list()).toHaveLength(1);
  });

  it('delivers a second ending of a restarted session under its own delivery id', async () => {
    const r = await receiver();
    const { worker, hook } = setup({ url: r.url, versions: { s1: 9 } });
    await hook(completion({ version: 3 }));
    await worker.drain();
    await hook(completion({ version: 9, answers: { email: 'bob@acme.example' } }));
    await worker.drain();
    expect(r.requests.map((q) => q.headers['x-questline-delivery'])).toEqual(['s1:completed', 's1:completed:9']);
  });

  it('does not deliver an ending whose session version was never saved, and drops it after the grace period', async () => {
    const r = await receiver();
    const { worker, hook, outbox, clock, logs } = setup({ url: r.url, versions: { s1: 2 }, worker: { commitGraceMs: 10_000, recheckMs: 2_500 } });
    await hook(completion({ version: 3 }));
    await worker.drain();
    expect(r.requests).toHaveLength(0);
    expect(clock.sleeps).toEqual([2_500, 2_500, 2_500, 2_500]);
    expect(await outbox.get('s1:completed')).toMatchObject({ state: 'dead', deadReason: 'uncommitted', attempts: 0 });
    expect(logs.lines.some((l) => l.level === 'warn' && l.message.includes('never saved'))).toBe(true);
  });

  it('delivers once the session version shows up in the store within the grace period', async () => {
    const r = await receiver();
    const versions: Record<string, number> = { s1: 2 };
    const { worker, hook, clock } = setup({ url: r.url, worker: { store: fakeStore(versions), recheckMs: 1_000 } });
    await hook(completion({ version: 3 }));
    await worker.tick();
    expect(r.requests).toHaveLength(0);
    versions.s1 = 3;
    clock.advance(1_000);
    await worker.drain();
    expect(r.requests).toHaveLength(1);
  });

  it('declares an entry dead after the maximum number of attempts and keeps it for the admin', async () => {
    const r = await receiver((_n, _req, res) => res.writeHead(500).end('{"echo":"ann@acme.example"}'));
    const { worker, hook, outbox, clock, logs } = setup({ url: r.url, worker: { retry: { maxAttempts: 4 } } });
    await hook(completion());
    await worker.drain();
    expect(r.requests).toHaveLength(4);
    expect(clock.sleeps).toEqual([1_000, 2_000, 4_000]);
    const dead = await outbox.list({ state: 'dead' });
    expect(dead).toHaveLength(1);
    expect(dead[0]).toMatchObject({ id: 's1:completed', deadReason: 'max_attempts', attempts: 4, lastError: 'HTTP 500' });
    expect(dead[0]!.completion?.answers).toEqual(completion().answers); // kept, so the admin can act on it
    expect(logs.lines.some((l) => l.level === 'error' && l.message.includes('given up'))).toBe(true);
    expect(logs.text()).not.toContain('ann@acme.example');
  });

  it('gives up when the next retry would come after the maximum age', async () => {
    const r = await receiver((_n, _req, res) => res.writeHead(502).end());
    const { worker, hook, outbox } = setup({ url: r.url, worker: { retry: { maxAgeMs: 5_000 } } });
    await hook(completion());
    await worker.drain();
    expect(r.requests).toHaveLength(3); // at 0, 1 s and 3 s; the next would be at 7 s
    expect(await outbox.get('s1:completed')).toMatchObject({ state: 'dead', deadReason: 'max_age' });
  });

  it('makes no request and writes no journal entry for a tenant without a webhook', async () => {
    const r = await receiver();
    const { worker, hook, outbox } = setup({ webhooks: { acme: undefined } });
    await hook(completion());
    await worker.drain();
    expect(r.requests).toHaveLength(0);
    expect(await outbox.get('s1:completed')).toBeUndefined();
  });

  it('marks an ending delivered, skipped, when the webhook was removed after it was enqueued', async () => {
    const r = await receiver();
    const webhooks: Record<string, { url: string; secret: string } | undefined> = { acme: { url: r.url, secret: 's3cret' } };
    const { worker, outbox } = setup({ webhooks });
    await outbox.enqueue(completion(), 0);
    webhooks.acme = undefined;
    await worker.drain();
    expect(r.requests).toHaveLength(0);
    expect(await outbox.get('s1:completed')).toMatchObject({ state: 'delivered', skipped: 'no webhook', attempts: 0 });
  });

  it('refuses a webhook URL that is not http(s) at enqueue, with a logged error', async () => {
    const fetched: string[] = [];
    const { worker, hook, outbox, logs } = setup({
      webhooks: { acme: { url: 'file:///etc/passwd', secret: SECRET } },
      worker: { fetch: (async (u: string) => void fetched.push(u)) as unknown as typeof fetch },
    });
    await hook(completion());
    await worker.drain();
    expect(fetched).toEqual([]);
    expect(await outbox.get('s1:completed')).toMatchObject({ state: 'dead', deadReason: 'invalid_url' });
    expect(logs.lines.find((l) => l.level === 'error')?.message).toMatch(/webhook of tenant acme refused: webhook URLs must be http or https, not file/);
  });

  it('never has more POSTs in flight than the concurrency limit', async () => {
    const r = await receiver();
    const { counting, most } = concurrencyProbe();
    const { worker, hook } = setup({ url: r.url, worker: { concurrency: 2, fetch: counting } });
    for (const id of ['s1', 's2', 's3', 's4', 's5', 's6']) await hook(completion({ sessionId: id, version: id === 's1' ? 3 : 1 }));
    await worker.drain();
    expect(r.requests).toHaveLength(6);
    expect(most()).toBe(2);
  });

  it('sends one ending of a session at a time', async () => {
    const r = await receiver();
    const { counting, most } = concurrencyProbe();
    const { worker, hook } = setup({ url: r.url, versions: { s1: 5 }, worker: { fetch: counting } });
    await hook(completion({ status: 'escalated', version: 4 }));
    await hook(completion({ status: 'completed', version: 5 }));
    await worker.drain();
    expect(r.requests.map((q) => q.headers['x-questline-event'])).toEqual(['intake.escalated', 'intake.completed']);
    expect(most()).toBe(1);
  });

  it('delivers in the background once started, as soon as the hook wakes it', async () => {
    let arrived!: () => void;
    const got = new Promise<void>((resolve) => (arrived = resolve));
    const r = await receiver((_n, _req, res) => {
      res.end('ok');
      arrived();
    });
    const outbox = new MemoryOutbox();
    const webhookFor = () => ({ url: r.url, secret: SECRET });
    const worker = new DeliveryWorker({ outbox, store: fakeStore({ s1: 3 }), webhookFor, log: () => {}, pollMs: 60_000 });
    worker.start();
    cleanups.push(() => worker.stop());
    const hook = deliveryHook(outbox, { webhookFor, log: () => {}, notify: () => worker.wake() });
    await hook(completion());
    await got; // would hang for the 60 s poll if the hook did not wake the worker
    await worker.stop();
    expect(r.requests).toHaveLength(1);
    expect(await outbox.get('s1:completed')).toMatchObject({ state: 'delivered' });
  });

  it('logs a failed enqueue instead of failing the turn', async () => {
    const logs = collectingLog();
    const broken = new MemoryOutbox();
    broken.enqueue = async () => {
      throw new Error('disk full');
    };
    const hook = deliveryHook(broken, { webhookFor: () => ({ url: 'http://127.0.0.1:9/hook', secret: SECRET }), log: logs.log });
    await expect(hook(completion())).resolves.toBeUndefined();
    expect(logs.lines).toEqual([expect.objectContaining({ level: 'error', fields: expect.objectContaining({ session: 's1', error: 'disk full' }) })]);
  });
});

describe('backoffDelay', () => {
  it('doubles from 1 s and stops at 10 minutes', () => {
    const mid = () => 0.5;
    expect([1, 2, 3, 4, 10, 11, 20].map((n) => backoffDelay(n, defaultRetry, mid))).toEqual([1_000, 2_000, 4_000, 8_000, 512_000, 600_000, 600_000]);
  });

  it('jitters by at most ±20 % and never beyond the cap', () => {
    expect(backoffDelay(3, defaultRetry, () => 0)).toBe(3_200);
    expect(backoffDelay(3, defaultRetry, () => 0.999_999)).toBe(4_800);
    expect(backoffDelay(15, defaultRetry, () => 0.999_999)).toBe(600_000);
  });
});
