import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { KeyedMutex } from './turn-lock.ts';

// The Studio's revision store: one record per publish (or rollback), with the
// source text it put in place, who did it, when and why. Records are only
// appended; the revisions a tenant's flow went through are read from them.
// Kept under DATA_DIR (a JSON file), in memory (STORE=memory), or in Redis
// (shared by every instance: server/redis/publish-log.ts).

/** One tenant's flow and the revision a publish made it serve. */
export const PublishedRevision = z.object({ tenant: z.string(), flow: z.string(), revision: z.string() });
export type PublishedRevision = z.infer<typeof PublishedRevision>;

/** One publish: a source file's new text and the revisions it produced. */
export const PublishRecord = z.object({
  /** 1, 2, 3…: the order of publishes, across every source file. */
  seq: z.number().int().positive(),
  /** The source file, relative to FLOWS_DIR with forward slashes. */
  path: z.string(),
  text: z.string(),
  /** "baseline": the text that was served before this file's first publish (recorded with it). */
  kind: z.enum(['baseline', 'publish', 'rollback']),
  by: z.string(),
  publishedAt: z.string(),
  note: z.string().optional(),
  revisions: z.array(PublishedRevision),
  /** Whether the text was written back to FLOWS_DIR (false: FLOWS_DIR is read-only, the text lives here). */
  writtenBack: z.boolean(),
});
export type PublishRecord = z.infer<typeof PublishRecord>;

/** Where publish records are kept. */
export interface PublishLog {
  /** True when every instance reads the same log (Redis): each then serves the newest text of a file, whatever its FLOWS_DIR holds. */
  readonly shared: boolean;
  /** Every record, oldest first. */
  all(): Promise<PublishRecord[]>;
  /** Records after `seq`, oldest first (cheap when nothing is new). */
  since(seq: number): Promise<PublishRecord[]>;
  /**
   * Appends records (numbered here, in order) and returns them; with `after`,
   * only if the log holds exactly `after` records (compare-and-set: undefined
   * when another publish came in between, nothing appended).
   */
  append(records: ReadonlyArray<Omit<PublishRecord, 'seq'>>, after?: number): Promise<PublishRecord[] | undefined>;
  /** Runs `task` while no other publish of any instance sharing this log runs (a process lock, or Redis's across instances); without it, publishes queue in this process only. */
  exclusive?<T>(task: () => Promise<T>): Promise<T>;
}

/** A log in memory (STORE=memory, tests). */
export class MemoryPublishLog implements PublishLog {
  readonly shared: boolean = false;
  protected records: PublishRecord[] = [];
  private readonly lock = new KeyedMutex();

  exclusive<T>(task: () => Promise<T>): Promise<T> {
    return this.lock.run('publish', task);
  }

  async all(): Promise<PublishRecord[]> {
    return this.records.slice();
  }

  async since(seq: number): Promise<PublishRecord[]> {
    return this.records.filter((r) => r.seq > seq);
  }

  async append(records: ReadonlyArray<Omit<PublishRecord, 'seq'>>, after?: number): Promise<PublishRecord[] | undefined> {
    if (after !== undefined && after !== this.records.length) return undefined;
    const added = records.map((r, i) => ({ ...r, seq: this.records.length + i + 1 }));
    this.records = [...this.records, ...added];
    return added;
  }
}

/** A log in one JSON file under DATA_DIR (written whole to a temporary file, then renamed). */
export class FilePublishLog extends MemoryPublishLog {
  constructor(private readonly file: string) {
    super();
    if (existsSync(file)) {
      const parsed = z.array(PublishRecord).safeParse(JSON.parse(readFileSync(file, 'utf8')));
      if (!parsed.success) throw new Error(`${file} is not a publish log: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      this.records = parsed.data;
    }
  }

  override async append(records: ReadonlyArray<Omit<PublishRecord, 'seq'>>, after?: number): Promise<PublishRecord[] | undefined> {
    const before = this.records;
    const added = await super.append(records, after);
    if (!added) return undefined;
    try {
      // inside the data directory: owner only, like the sessions
      mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
      const tmp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(this.records, null, 1), { mode: 0o600 });
      renameSync(tmp, this.file);
    } catch (err) {
      this.records = before;
      throw err;
    }
    return added;
  }
}

/** The newest published text of every source file in a log, sorted by path (baselines are not publishes). */
export function latestPublished(records: readonly PublishRecord[]): Array<{ path: string; text: string; seq: number }> {
  const latest = new Map<string, PublishRecord>();
  for (const r of records) if (r.kind !== 'baseline') latest.set(r.path, r);
  return [...latest.values()].sort((a, b) => a.path.localeCompare(b.path)).map((r) => ({ path: r.path, text: r.text, seq: r.seq }));
}
