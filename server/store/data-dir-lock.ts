import { readFileSync, unlinkSync } from 'node:fs';
import { mkdir, readFile, realpath, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

// One process owns a data directory (lowdb's model: the process is the only
// writer, so its caches are never stale). The owner's pid sits in
// DATA_DIR/.lock; a lock whose process is gone is taken over.

/** A held lock on a data directory. */
export interface DataDirLock {
  readonly file: string;
  /** Removes the lock file if it is still ours; idempotent. */
  release(): Promise<void>;
}

/** An empty lock file younger than this is being written by its owner, not stale. */
const FRESH_EMPTY_MS = 5_000;

const held = new Set<string>();
let exitHookInstalled = false;

/** Best effort on exit: remove the lock files this process still holds. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const file of held) {
      try {
        if (readFileSync(file, 'utf8').trim() === String(process.pid)) unlinkSync(file);
      } catch {
        // already gone or unreadable: nothing to release
      }
    }
  });
}

/** Whether a process with this pid exists (EPERM: it exists but belongs to someone else). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function inUse(dir: string, pid: number | null): Error {
  const who = pid === null ? 'another process' : pid === process.pid ? `this process (${pid}, another store instance)` : `process ${pid}`;
  return Object.assign(
    new Error(`data directory ${dir} is in use by ${who}; run one server per data directory, or use STORE=redis`),
    { code: 'data_dir_in_use', pid },
  );
}

/**
 * Takes DATA_DIR/.lock (created with `wx`, holding this pid), creating the
 * directory if needed. Refuses when a live process holds it; takes over a
 * lock whose pid is dead. Two servers starting at the same instant on a stale
 * lock can both see it stale; that window is milliseconds, once, at startup.
 */
export async function acquireDataDirLock(dir: string): Promise<DataDirLock> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // one spelling per directory, so two stores in one process see the same lock
  const file = join(await realpath(dir), '.lock');
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      await writeFile(file, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      return hold(file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue; // released meanwhile
      throw e;
    }
    const pid = /^\s*(\d+)\s*$/.exec(text)?.[1];
    if (pid !== undefined) {
      const n = Number(pid);
      if (n === process.pid && held.has(file)) throw inUse(dir, n);
      if (n !== process.pid && isAlive(n)) throw inUse(dir, n);
      // our own pid but not held: left by a previous run that reused our pid
    } else {
      const age = await stat(file).then((s) => Date.now() - s.mtimeMs, () => Infinity);
      if (text.trim() === '' && age < FRESH_EMPTY_MS) throw inUse(dir, null);
    }
    await unlink(file).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
    });
  }
  throw inUse(dir, null);
}

function hold(file: string): DataDirLock {
  held.add(file);
  installExitHook();
  let released = false;
  return {
    file,
    async release() {
      if (released) return;
      released = true;
      held.delete(file);
      try {
        if ((await readFile(file, 'utf8')).trim() === String(process.pid)) await unlink(file);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
    },
  };
}
