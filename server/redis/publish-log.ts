import type { Redis } from 'ioredis';
import { PublishRecord, type PublishLog } from '../store/publish-log.ts';
import { RedisTurnLock } from './lock.ts';
import { Script } from './script.ts';

// The Studio's publish log in Redis (STORE=redis), shared by every instance:
// one list of records, P studio:publishes, a record's seq being its place in
// the list (1-based). An instance reads what it has not seen before each
// session start (LRANGE from its last seq: one round trip, empty when nothing
// is new), so a publish on one instance is served by all of them from their
// next new session on.
//
// Two instances publishing at the same moment: a publish runs under a Redis
// lock (`<P>lock:studio-publish`, the turn lock's SET NX + token + renewal),
// so the second reads the first's record before it compares versions and is
// refused as stale; and the append is a compare-and-set on the list's length
// (a publish that lost its lock past the expiry appends nothing).

// KEYS: the list   ARGV: the length the publisher read, then the records' JSON
const APPEND_AFTER = new Script(`
if redis.call('LLEN', KEYS[1]) ~= tonumber(ARGV[1]) then return -1 end
return redis.call('RPUSH', KEYS[1], unpack(ARGV, 2))
`);

/** A PublishLog in a Redis list. */
export class RedisPublishLog implements PublishLog {
  readonly shared = true;
  private readonly key: string;
  private readonly lock: RedisTurnLock;

  constructor(private readonly client: Redis, prefix = 'ql:') {
    this.key = `${prefix}studio:publishes`;
    this.lock = new RedisTurnLock(client, { prefix });
  }

  exclusive<T>(task: () => Promise<T>): Promise<T> {
    return this.lock.run('studio-publish', task);
  }

  async all(): Promise<PublishRecord[]> {
    return this.since(0);
  }

  async since(seq: number): Promise<PublishRecord[]> {
    const raw = await this.client.lrange(this.key, seq, -1);
    return raw.map((json, i) => PublishRecord.parse({ ...(JSON.parse(json) as object), seq: seq + i + 1 }));
  }

  async append(records: ReadonlyArray<Omit<PublishRecord, 'seq'>>, after?: number): Promise<PublishRecord[] | undefined> {
    if (records.length === 0) return [];
    const json = records.map((r) => JSON.stringify(r));
    // RPUSH of several values is atomic: the new length numbers them
    const length = after === undefined
      ? await this.client.rpush(this.key, ...json)
      : Number(await APPEND_AFTER.run(this.client, [this.key], [after, ...json]));
    if (length < 0) return undefined;
    return records.map((r, i) => ({ ...r, seq: length - records.length + i + 1 }));
  }
}
