import type { Redis } from 'ioredis';
import { PublishRecord, type PublishLog } from '../store/publish-log.ts';

// The Studio's publish log in Redis (STORE=redis), shared by every instance:
// one list of records, P studio:publishes, a record's seq being its place in
// the list (1-based). An instance reads what it has not seen before each
// session start (LRANGE from its last seq: one round trip, empty when nothing
// is new), so a publish on one instance is served by all of them from their
// next new session on.

/** A PublishLog in a Redis list. */
export class RedisPublishLog implements PublishLog {
  readonly shared = true;
  private readonly key: string;

  constructor(private readonly client: Redis, prefix = 'ql:') {
    this.key = `${prefix}studio:publishes`;
  }

  async all(): Promise<PublishRecord[]> {
    return this.since(0);
  }

  async since(seq: number): Promise<PublishRecord[]> {
    const raw = await this.client.lrange(this.key, seq, -1);
    return raw.map((json, i) => PublishRecord.parse({ ...(JSON.parse(json) as object), seq: seq + i + 1 }));
  }

  async append(records: ReadonlyArray<Omit<PublishRecord, 'seq'>>): Promise<PublishRecord[]> {
    if (records.length === 0) return [];
    // RPUSH of several values is atomic: the new length numbers them
    const length = await this.client.rpush(this.key, ...records.map((r) => JSON.stringify(r)));
    return records.map((r, i) => ({ ...r, seq: length - records.length + i + 1 }));
  }
}
