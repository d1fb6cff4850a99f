import { close, closeSync, fstat, fstatSync, open, openSync, read, readSync, writeSync } from 'node:fs';
import { promisify } from 'node:util';
import { readFile } from 'node:fs/promises';
import { LruCache } from '../shared/lru.ts';

// Append-only JSON Lines files: a turn appends its lines instead of
// rewriting a growing history. A crash mid-append can leave a torn last line;
// readers skip lines that do not parse, and the first append to a file in a
// process makes sure the file ends with a newline, so a torn line never glues
// itself to the next (retried) entry.
//
// Appends are synchronous write() calls on descriptors kept open for recently
// used files: a small append to a local file costs a few microseconds this
// way, far less than the thread-pool round trips and promises of the async
// API, and nothing else on the event loop can interleave with it.

/** An open append handle: the descriptor and the file's size (its tail known to end with a newline). */
interface Handle {
  fd: number;
  size: number;
  /** The file's last byte is not a newline (a line torn by a crash): the next append starts with one. */
  torn?: true;
}

/** The handle of a file just opened, from its size and last byte. */
const handle = (fd: number, size: number, lastByte: number | undefined): Handle => ({ fd, size, ...(size > 0 && lastByte !== 0x0a ? { torn: true as const } : {}) });

const openAsync = promisify(open);
/** Personal data: owner read/write only (a umask only removes bits, so 0600 stays 0600). */
export const PRIVATE_FILE = 0o600;
/** Folders of personal data: owner only. */
export const PRIVATE_DIR = 0o700;
const fstatAsync = promisify(fstat);
const readAsync = promisify(read);

/**
 * Appends text to files through descriptors it keeps open for the files
 * used most recently (a bounded LRU: an evicted file is closed, and checked
 * again when it is next opened), repairing a torn tail when it opens a file.
 */
export class JsonlAppender {
  readonly #open: LruCache<string, Handle>;

  /** `maxOpen`: how many files to keep open at most (each one file descriptor). */
  constructor(maxOpen = 1_024) {
    this.#open = new LruCache(maxOpen, (_file, h) => closeQuietly(h.fd));
  }

  /**
   * Opens `file` (creating it) on the thread pool and keeps it open, so the
   * next append does not block the event loop on an open() — creating a file
   * costs far more than appending to one. A file already open is left as is.
   */
  async openAsync(file: string): Promise<void> {
    if (this.#open.get(file)) return;
    const fd = await openAsync(file, 'a+', PRIVATE_FILE);
    let h: Handle;
    try {
      const size = (await fstatAsync(fd)).size;
      const last = Buffer.alloc(1);
      if (size > 0) await readAsync(fd, last, 0, 1, size - 1);
      h = handle(fd, size, last[0]);
    } catch (e) {
      closeQuietly(fd);
      throw e;
    }
    if (this.#open.peek(file)) {
      // opened meanwhile by a synchronous append: keep that one
      close(fd, () => {});
      return;
    }
    this.#open.set(file, h);
  }

  /**
   * Creates `file` on the thread pool, failing if it exists (O_EXCL), and
   * keeps it open; false when it already existed (nothing opened).
   */
  async createAsync(file: string): Promise<boolean> {
    let fd: number;
    try {
      fd = await openAsync(file, 'ax', PRIVATE_FILE);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e;
    }
    this.#open.set(file, { fd, size: 0 });
    return true;
  }

  /** Appends one JSON line per value; returns the file's size after the append. */
  appendSync(file: string, values: readonly unknown[]): number {
    let text = '';
    for (const v of values) text += JSON.stringify(v) + '\n';
    return this.appendTextSync(file, text);
  }

  /** Appends `text` (whole lines, each ending with a newline) with one write; returns the file's size after it. */
  appendTextSync(file: string, text: string): number {
    // peek, not get: an open file is taken out of the cache below and put back as the most recent
    let h = this.#open.peek(file);
    if (!h) {
      const fd = openSync(file, 'a+', PRIVATE_FILE);
      try {
        const size = fstatSync(fd).size;
        const last = Buffer.alloc(1);
        if (size > 0) readSync(fd, last, 0, 1, size - 1);
        h = handle(fd, size, last[0]);
      } catch (e) {
        closeQuietly(fd);
        throw e;
      }
    } else {
      // out of the cache while writing: if the write fails, the tail is unknown again
      this.#open.delete(file);
    }
    if (h.torn) {
      text = '\n' + text;
      delete h.torn;
    }
    let length: number;
    try {
      length = writeText(h.fd, text);
    } catch (e) {
      closeQuietly(h.fd);
      throw e;
    }
    h.size += length;
    this.#open.set(file, h);
    return h.size;
  }

  /** Closes and forgets a file (deleted, replaced by a rename, or written by someone else). */
  forget(file: string): void {
    const h = this.#open.peek(file);
    if (!h) return;
    this.#open.delete(file);
    closeQuietly(h.fd);
  }

  /** Closes every file (after close, another process may write). */
  reset(): void {
    for (const [, h] of this.#open.entries()) closeQuietly(h.fd);
    this.#open.clear();
  }

  /** How many files are open. */
  get openFiles(): number {
    return this.#open.size;
  }
}

/** Texts up to this many UTF-16 units are encoded into a reused buffer (three bytes a unit at most). */
const SCRATCH_UNITS = 64 * 1024;
let scratch = Buffer.alloc(0);

/**
 * Writes `text` as UTF-8 at the descriptor's position and returns its byte
 * length. A text of up to SCRATCH_UNITS is encoded once into a buffer kept
 * for the next write (no allocation, and no second pass over it to count
 * its bytes, which Buffer.byteLength costs: ~1.2 µs for a turn's 2 KB);
 * a longer one into a buffer of its own. A short write (a full disk)
 * continues from the bytes not written.
 */
function writeText(fd: number, text: string): number {
  let bytes: Buffer;
  let length: number;
  if (text.length <= SCRATCH_UNITS) {
    if (scratch.length < 3 * text.length) scratch = Buffer.allocUnsafe(Math.max(3 * text.length, 16 * 1024));
    bytes = scratch;
    length = scratch.write(text, 0, 'utf8');
  } else {
    bytes = Buffer.from(text, 'utf8');
    length = bytes.length;
  }
  for (let at = 0; at < length;) at += writeSync(fd, bytes, at, length - at);
  return length;
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed, or the file system is gone: nothing to flush (no buffering here)
  }
}

/** The parsed lines of a JSON Lines file, skipping blank and torn lines; [] when it does not exist. */
export async function readJsonl(file: string): Promise<unknown[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  return parseJsonLines(text);
}

/** The parsed lines of JSON Lines text, skipping blank lines and lines torn by a crash mid-append (never acknowledged). */
export function parseJsonLines(text: string): unknown[] {
  const out: unknown[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      // a torn line from a crash mid-append
    }
  }
  return out;
}

/** The last line of `text` that parses as a JSON object (a torn last line is skipped), or null. */
export function lastJsonObject(text: string): Record<string, unknown> | null {
  return lastJsonLine(text, (v) => (isObject(v) ? v : undefined));
}

/**
 * Reading from the end of JSON Lines text, the first line that parses and
 * that `pick` takes (returns a value for); lines torn by a crash mid-append
 * are skipped, so the one before them counts.
 */
export function lastJsonLine<T>(text: string, pick: (line: unknown) => T | undefined): T | null {
  let end = text.length;
  while (end > 0) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    const line = text.slice(start, end).trim();
    if (line !== '') {
      try {
        const v = pick(JSON.parse(line));
        if (v !== undefined) return v;
      } catch {
        // torn by a crash mid-append: the line before it is the last committed one
      }
    }
    end = start - 1;
  }
  return null;
}

/** A JSON object (not an array, not null). */
export const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
