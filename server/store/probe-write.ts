import { open, unlink } from 'node:fs/promises';

/**
 * Writes, fsyncs and removes a small file: resolves when the disk under
 * `file` takes a write now, rejects with the file system's error (ENOSPC,
 * EDQUOT, EROFS…) otherwise. Readiness checks (/readyz) of the file store and
 * the file outbox.
 */
export async function probeWrite(file: string): Promise<void> {
  const h = await open(file, 'w', 0o600);
  try {
    await h.writeFile('ready\n', 'utf8');
    await h.sync();
  } finally {
    await h.close();
    await unlink(file).catch(() => undefined);
  }
}
