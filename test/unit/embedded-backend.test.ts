import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEmbeddedBackend } from '../../server/delivery/backend.ts';
import { FileOutbox } from '../../server/delivery/outbox-file.ts';
import { MemoryOutbox } from '../../server/delivery/outbox.ts';
import { LowdbStore } from '../../server/store/lowdb.ts';
import { MemoryStore } from '../../server/store/memory.ts';
import { KeyedMutex } from '../../server/store/turn-lock.ts';

describe('embedded backend', () => {
  it('keeps sessions and the outbox journal under the data directory, with a process-local lock', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'questline-embedded-'));
    try {
      const backend = await createEmbeddedBackend({ dataDir });
      expect(backend.kind).toBe('lowdb');
      expect(backend.store).toBeInstanceOf(LowdbStore);
      expect(backend.outbox).toBeInstanceOf(FileOutbox);
      expect((backend.outbox as FileOutbox).dir).toBe(join(dataDir, 'outbox'));
      expect(existsSync(join(dataDir, 'outbox'))).toBe(true);
      expect(backend.lock).toBeInstanceOf(KeyedMutex);
      expect(backend.limiters).toBeUndefined();
      expect(backend.attachSockets).toBeUndefined();
      // one process owns a data directory: a second backend on it is refused until the first closes
      await expect(createEmbeddedBackend({ dataDir })).rejects.toMatchObject({ code: 'data_dir_in_use' });
      await backend.close();
      await (await createEmbeddedBackend({ dataDir })).close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('keeps everything in memory when asked to', async () => {
    const backend = await createEmbeddedBackend({ memory: true });
    expect(backend.kind).toBe('memory');
    expect(backend.store).toBeInstanceOf(MemoryStore);
    expect(backend.outbox).toBeInstanceOf(MemoryOutbox);
    expect(backend.lock).toBeInstanceOf(KeyedMutex);
    await backend.close();
  });

  it("pairs a caller's store with the outbox the caller chose, and closes the store even when the outbox fails to close", async () => {
    const closed: string[] = [];
    const store = new (class extends MemoryStore {
      override async close() { closed.push('store'); }
    })();
    const outbox = new (class extends MemoryOutbox {
      override async close() { throw new Error('disk gone'); }
    })();
    const backend = await createEmbeddedBackend({ store, outbox, kind: 'slow' });
    expect(backend.kind).toBe('slow');
    expect(backend.store).toBe(store);
    expect(backend.outbox).toBe(outbox);
    await expect(backend.close()).rejects.toThrow('disk gone');
    expect(closed).toEqual(['store']);
  });
});
