import { chmod, mkdir, open, readFile, rename, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { probeWrite } from '../store/probe-write.ts';
import { JournalRecord, RecordingOutbox } from './outbox.ts';

// The embedded outbox: an append-only JSON Lines journal, DATA_DIR/outbox/journal.jsonl.
// Each mutation is written (and fsynced) before memory changes and before its
// promise resolves, so an acknowledged enqueue survives a crash. Opening replays
// the journal; a torn last line (a crash mid-append) was never acknowledged and
// is skipped. When enough entries have finished since the last compaction, the
// journal is rewritten from the live state (tmp file, fsync, rename, fsync dir).
// One process owns DATA_DIR (see store/data-dir-lock.ts), so there is one writer.

export interface FileOutboxOptions {
  /** fsync every append (default true); off only for benchmarks. */
  fsync?: boolean;
  /** Compact once this many entries finished (delivered or dead) since the last compaction (default 500). */
  compactAfter?: number;
  /** Delivered entries kept as tombstones by compaction, newest first (default 1000)… */
  keepDelivered?: number;
  /**
   * …and any delivered in the last this many milliseconds (default a day), so
   * start-up reconciliation, which looks a day back, never mistakes a
   * delivered ending for a lost one.
   */
  keepDeliveredMs?: number;
  /** Epoch milliseconds (default Date.now). */
  now?: () => number;
}

const JOURNAL = 'journal.jsonl';

/** A file-backed outbox: `await FileOutbox.open(join(DATA_DIR, 'outbox'))`. */
export class FileOutbox extends RecordingOutbox {
  private handle: FileHandle | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private finishedSinceCompaction = 0;
  private closed = false;
  /** The last append failed: the journal may end in a torn line. */
  private torn = false;
  /** Compactions so far (for tests and metrics). */
  compactions = 0;

  private constructor(readonly dir: string, private readonly opts: Required<FileOutboxOptions>) {
    super();
  }

  /** Opens (creating) the outbox in `dir` and replays its journal. */
  static async open(dir: string, options: FileOutboxOptions = {}): Promise<FileOutbox> {
    const box = new FileOutbox(dir, {
      fsync: options.fsync ?? true, compactAfter: options.compactAfter ?? 500, keepDelivered: options.keepDelivered ?? 1000,
      keepDeliveredMs: options.keepDeliveredMs ?? 86_400_000, now: options.now ?? Date.now,
    });
    // the journal carries answers (personal data): owner only whatever the umask
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await chmod(dir, 0o700);
    await box.replay();
    return box;
  }

  get file(): string {
    return join(this.dir, JOURNAL);
  }

  private async replay(): Promise<void> {
    let text = '';
    try {
      text = await readFile(this.file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    let lines = 0;
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      lines++;
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch {
        continue; // a torn line from a crash mid-append
      }
      const r = JournalRecord.safeParse(json);
      if (r.success) this.state.apply(r.data);
    }
    this.handle = await open(this.file, 'a', 0o600);
    await this.handle.chmod(0o600);
    // a torn tail must not glue itself to the next record
    if (text.length > 0 && !text.endsWith('\n')) await this.write('\n');
    // a journal holding much more than its live state (the server stopped
    // before it compacted) is compacted at once
    if (lines - this.state.snapshot(this.opts.keepDelivered, this.keepSince()).length > 2 * this.opts.compactAfter) await this.compact();
  }

  private async write(text: string): Promise<void> {
    if (!this.handle) throw new Error('outbox: closed');
    // after a failed append (a full disk) the tail may be a torn line: the next record starts on a line of its own
    const out = this.torn ? '\n' + text : text;
    this.torn = true;
    await this.handle.appendFile(out, 'utf8');
    if (this.opts.fsync) await this.handle.sync();
    this.torn = false;
  }

  /**
   * Resolves when the journal's disk takes a write now (for /readyz): a small
   * file written, fsynced and removed next to the journal. Rejects with the
   * file system's error (ENOSPC, EROFS…) otherwise.
   */
  async ready(): Promise<void> {
    if (this.closed) throw new Error('outbox: closed');
    await probeWrite(join(this.dir, '.ready-probe'));
  }

  /** Runs mutations one at a time, in call order. */
  protected exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(() => {
      if (this.closed) throw new Error('outbox: closed');
      return task();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Journal first, memory second: memory never shows what the disk does not have. */
  protected async keep(r: JournalRecord): Promise<void> {
    await this.write(JSON.stringify(r) + '\n');
    this.state.apply(r);
    if ((r.t === 'delivered' || r.t === 'dead') && ++this.finishedSinceCompaction > this.opts.compactAfter) {
      // the record is durable already; a failed compaction only leaves a longer journal
      await this.compact().catch(() => undefined);
    }
  }

  /** The journal still holds the forgotten entries' `enqueued` lines: rewrite it now, not at the next compaction. */
  protected override purge(): Promise<void> {
    return this.compact();
  }

  /**
   * Rewrites the journal from the live state, atomically: the old journal stays
   * open for appends until the new one has replaced it, so a failure at any
   * step leaves a complete journal behind.
   */
  private async compact(): Promise<void> {
    const tmp = `${this.file}.tmp`;
    const keepSince = this.keepSince();
    const text = this.state.snapshot(this.opts.keepDelivered, keepSince).map((r) => JSON.stringify(r) + '\n').join('');
    const out = await open(tmp, 'w', 0o600);
    try {
      await out.writeFile(text, 'utf8');
      await out.sync();
    } finally {
      await out.close();
    }
    await rename(tmp, this.file);
    await syncDir(this.dir);
    this.state.forgetDelivered(this.opts.keepDelivered, keepSince);
    const old = this.handle;
    this.handle = await open(this.file, 'a', 0o600);
    await old?.close();
    this.finishedSinceCompaction = 0;
    this.compactions++;
  }

  /** Delivered entries that finished since then are kept by compaction whatever their number. */
  private keepSince(): number {
    return this.opts.now() - this.opts.keepDeliveredMs;
  }

  /** Waits for queued writes and closes the journal; idempotent. */
  async close(): Promise<void> {
    await this.queue;
    if (this.closed) return;
    this.closed = true;
    await this.handle?.close();
    this.handle = null;
  }
}

/** Makes a rename durable (directories cannot be fsynced on every platform: best effort). */
async function syncDir(dir: string): Promise<void> {
  let h: FileHandle | undefined;
  try {
    h = await open(dir, 'r');
    await h.sync();
  } catch {
    // not supported here (e.g. Windows): the rename is still atomic
  } finally {
    await h?.close();
  }
}
