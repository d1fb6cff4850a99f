import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_DIR, PRIVATE_FILE } from './lowdb-jsonl.ts';
import { MemoryFunnelCounts } from './funnel-counts.ts';
import { applyChanges, asChanges, type CountChange, type Tally } from './funnel-tally.ts';

// The funnel's counters of an embedded server, durable under DATA_DIR:
//
//   insights/counts.jsonl   {"s":{"live":[...],"kept":[...]}}   a snapshot (first line after a rewrite)
//                           {"c":[[bucket,field,n],...]}          a turn's changes, appended
//                           {"k":[[bucket,field,n],...]}          an erased session's counters kept
//
// Counters are held in memory and every change is one synchronous append
// (page cache, no fsync: like the session files, a killed process loses
// nothing acknowledged). The file is rewritten as one snapshot line when it
// opens and when it grows past REWRITE_BYTES (temp file, then rename). A torn
// last line (a crash mid-append) does not parse and is skipped. The data
// directory's lock (LowdbStore) keeps a second process out.

const REWRITE_BYTES = 8 * 1024 * 1024;

type Line = { s?: { live: Array<[string, string, number]>; kept: Array<[string, string, number]> }; c?: Array<[string, string, number]>; k?: Array<[string, string, number]> };

const rows = (changes: readonly CountChange[]): Array<[string, string, number]> => changes.map((c) => [c.bucket, c.field, c.n]);
const changesOf = (rs: ReadonlyArray<[string, string, number]>): CountChange[] => rs.map(([bucket, field, n]) => ({ bucket, field, n }));

/** Funnel counters in a file under a data directory (open it with `FileFunnelCounts.open`). */
export class FileFunnelCounts extends MemoryFunnelCounts {
  readonly file: string;
  #fd: number | null = null;
  #size = 0;

  private constructor(dir: string) {
    super();
    this.file = join(dir, 'counts.jsonl');
  }

  /** Reads `<dataDir>/insights/counts.jsonl` (if any), rewrites it as a snapshot and keeps it open for appends. */
  static open(dataDir: string): FileFunnelCounts {
    const dir = join(dataDir, 'insights');
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
    const c = new FileFunnelCounts(dir);
    if (existsSync(c.file)) {
      for (const text of readFileSync(c.file, 'utf8').split('\n')) {
        if (!text) continue;
        let line: Line;
        try {
          line = JSON.parse(text) as Line;
        } catch {
          continue; // a line torn by a crash
        }
        if (line.s) {
          c.live = applyChanges(new Map(), changesOf(line.s.live));
          c.kept = applyChanges(new Map(), changesOf(line.s.kept));
        }
        if (line.c) applyChanges(c.live, changesOf(line.c));
        if (line.k) applyChanges(c.kept, changesOf(line.k));
      }
    }
    c.#rewrite();
    return c;
  }

  override async add(changes: readonly CountChange[]): Promise<void> {
    if (changes.length === 0) return;
    this.#append({ c: rows(changes) });
    await super.add(changes);
  }

  override async retain(changes: readonly CountChange[]): Promise<void> {
    if (changes.length === 0) return;
    this.#append({ k: rows(changes) });
    await super.retain(changes);
  }

  override async replace(all: Tally): Promise<void> {
    await super.replace(all);
    this.#rewrite();
  }

  override async close(): Promise<void> {
    if (this.#fd !== null) closeSync(this.#fd);
    this.#fd = null;
  }

  #append(line: Line): void {
    if (this.#fd === null) throw new Error(`FileFunnelCounts(${this.file}) is closed`);
    const text = `${JSON.stringify(line)}\n`;
    writeSync(this.#fd, text);
    this.#size += Buffer.byteLength(text);
    if (this.#size > REWRITE_BYTES) this.#rewrite();
  }

  /** Writes the counters as one snapshot line (temp file, rename) and reopens the file for appends. */
  #rewrite(): void {
    if (this.#fd !== null) closeSync(this.#fd);
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, `${JSON.stringify({ s: { live: rows(asChanges(this.live)), kept: rows(asChanges(this.kept)) } })}\n`, { mode: PRIVATE_FILE });
    renameSync(tmp, this.file);
    this.#fd = openSync(this.file, 'a', PRIVATE_FILE);
    this.#size = fstatSync(this.#fd).size;
  }
}
