import { appendFile, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JournalRecord, MemoryOutbox, type Outbox } from '../../server/delivery/outbox.ts';
import { FileOutbox, type FileOutboxOptions } from '../../server/delivery/outbox-file.ts';
import { completion, outboxContract } from '../../server/testing/outbox.contract.ts';

const T0 = Date.parse('2026-01-15T10:00:00Z');

const dirs: string[] = [];
const opened: Outbox[] = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'questline-outbox-'));
  dirs.push(d);
  return d;
}

async function openFile(dir: string, opts?: FileOutboxOptions): Promise<FileOutbox> {
  const box = await FileOutbox.open(dir, opts);
  opened.push(box);
  return box;
}

outboxContract('MemoryOutbox', async () => ({ outbox: new MemoryOutbox() }));

outboxContract('FileOutbox', async () => {
  const dir = await tempDir();
  let current = await FileOutbox.open(dir);
  return {
    outbox: current,
    reopen: async () => {
      await current.close();
      current = await FileOutbox.open(dir);
      return current;
    },
    cleanup: () => current.close(),
  };
});

describe('FileOutbox journal', () => {
  it('keeps no answer of an erased session on disk, also after reopening', async () => {
    const dir = await tempDir();
    const box = await openFile(dir);
    await box.enqueue(completion('gone'), T0);
    await box.enqueue(completion('kept'), T0 + 1);
    expect(await readFile(join(dir, 'journal.jsonl'), 'utf8')).toContain('gone@acme.example');
    await box.forgetSession('gone', T0 + 2);
    const journal = await readFile(join(dir, 'journal.jsonl'), 'utf8');
    expect(journal).not.toContain('gone@acme.example');
    expect(journal).toContain('kept@acme.example');
    await box.close();
    const again = await openFile(dir);
    expect((await again.list()).map((e) => e.id)).toEqual(['kept:completed']);
  });

  it('survives reopening: pending, attempted, delivered and dead entries come back as they were', async () => {
    const dir = await tempDir();
    const box = await openFile(dir);
    for (const s of ['a', 'b', 'c', 'd']) await box.enqueue(completion(s), T0);
    await box.attempted('b:completed', { at: T0, attempts: 2, nextAt: T0 + 2_000, error: 'network error ECONNRESET' });
    await box.delivered('c:completed', { at: T0 + 1, attempts: 1, httpStatus: 200 });
    await box.dead('d:completed', { at: T0 + 2, attempts: 12, reason: 'max_attempts', error: 'HTTP 503', });
    const before = await box.list();
    await box.close();

    const again = await openFile(dir);
    expect(await again.list()).toEqual(before);
    expect((await again.pending()).map((e) => e.id)).toEqual(['a:completed', 'b:completed']);
  });

  it('writes one JSON line per record, each readable with the journal schema', async () => {
    const dir = await tempDir();
    const box = await openFile(dir);
    await box.enqueue(completion(), T0);
    await box.attempted('s1:completed', { at: T0, attempts: 1, nextAt: T0 + 1_000, error: 'HTTP 500', httpStatus: 500 });
    await box.delivered('s1:completed', { at: T0 + 1_000, attempts: 2, httpStatus: 200 });
    const lines = (await readFile(box.file, 'utf8')).trim().split('\n').map((l) => JournalRecord.parse(JSON.parse(l)));
    expect(lines.map((l) => l.t)).toEqual(['enqueued', 'attempted', 'delivered']);
  });

  it('skips a torn last line from a crash mid-append and keeps appending cleanly', async () => {
    const dir = await tempDir();
    const box = await openFile(dir);
    await box.enqueue(completion('a'), T0);
    await box.close();
    await appendFile(join(dir, 'journal.jsonl'), '{"t":"enqueued","id":"b:compl');

    const again = await openFile(dir);
    expect((await again.list()).map((e) => e.id)).toEqual(['a:completed']);
    await again.enqueue(completion('c'), T0);
    await again.close();
    expect((await (await openFile(dir)).list()).map((e) => e.id)).toEqual(['a:completed', 'c:completed']);
  });

  it('compacts when enough entries finished, keeping pending and dead entries and the newest delivered ones', async () => {
    const dir = await tempDir();
    const box = await openFile(dir, { compactAfter: 5, keepDelivered: 2 });
    await box.enqueue(completion('keep'), T0);
    await box.attempted('keep:completed', { at: T0, attempts: 3, nextAt: T0 + 4_000, error: 'HTTP 500', httpStatus: 500 });
    await box.enqueue(completion('gone'), T0);
    await box.dead('gone:completed', { at: T0, attempts: 12, reason: 'max_attempts', error: 'HTTP 500' });
    for (let i = 0; i < 5; i++) {
      await box.enqueue(completion(`d${i}`), T0 + i);
      await box.delivered(`d${i}:completed`, { at: T0 + i, attempts: 1, httpStatus: 200 });
    }
    expect(box.compactions).toBe(1);
    const size = (await stat(box.file)).size;
    const lines = (await readFile(box.file, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(2 + 2 + 2); // keep: enqueued+attempted, gone: enqueued+dead, two delivered tombstones
    expect(await readFile(box.file, 'utf8')).not.toContain('d0@acme.example');

    await box.enqueue(completion('after'), T0 + 10); // appends go to the new journal
    expect((await stat(box.file)).size).toBeGreaterThan(size);
    const before = await box.list();
    expect(before.map((e) => e.id)).toEqual(['keep:completed', 'gone:completed', 'd3:completed', 'd4:completed', 'after:completed']);
    await box.close();

    const again = await openFile(dir);
    expect(await again.list()).toEqual(before);
    expect(await again.get('keep:completed')).toMatchObject({ state: 'pending', attempts: 3, nextAt: T0 + 4_000, lastError: 'HTTP 500', completion: completion('keep') });
    expect(await again.get('gone:completed')).toMatchObject({ state: 'dead', deadReason: 'max_attempts', completion: completion('gone') });
    expect(await again.get('after:completed')).toMatchObject({ state: 'pending' });
    expect((await again.list({ state: 'delivered' })).map((e) => e.id)).toEqual(['d3:completed', 'd4:completed']);
    // a delivered ending kept as a tombstone is still not enqueued again
    expect((await again.enqueue(completion('d4'), T0 + 20)).created).toBe(false);
  });

  it('makes an enqueue durable before it resolves (a second reader sees it at once)', async () => {
    const dir = await tempDir();
    const box = await openFile(dir);
    await box.enqueue(completion(), T0);
    const reader = await openFile(dir);
    expect(await reader.get('s1:completed')).toMatchObject({ state: 'pending' });
  });
});
