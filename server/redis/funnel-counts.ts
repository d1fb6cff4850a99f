import type { Redis } from 'ioredis';
import { bucketsOf, type FunnelCounts } from '../store/funnel-counts.ts';
import { parseBucket, type CountChange, type Tally } from '../store/funnel-tally.ts';

// The funnel's counters in Redis, shared by every instance (STORE=redis):
//
//   P f:<bucket>           hash: counter → value (HINCRBY)
//   P fk:<bucket>          hash: counters kept of erased sessions
//   P fi:<tenant>          set of the tenant's bucket keys
//   P fi                   set of the tenants with buckets
//
// A turn's changes go in one MULTI (HINCRBY per counter, SADD of the
// bucket), so no reader sees half a turn and two instances' turns add up.

/** Funnel counters in Redis (keys under the store's prefix). */
export class RedisFunnelCounts implements FunnelCounts {
  constructor(private readonly client: Redis, private readonly prefix = 'ql:') {}

  async add(changes: readonly CountChange[]): Promise<void> {
    await this.#incr('f:', changes);
  }

  async retain(changes: readonly CountChange[]): Promise<void> {
    await this.#incr('fk:', changes);
  }

  async read(tenant: string, flow?: string): Promise<Tally> {
    const keys = await this.client.smembers(`${this.prefix}fi:${tenant}`);
    return bucketsOf(await this.#hashes('f:', keys), tenant, flow);
  }

  async all(): Promise<Tally> {
    return this.#hashes('f:', await this.#allBuckets());
  }

  async retained(): Promise<Tally> {
    return this.#hashes('fk:', await this.#allBuckets());
  }

  async replace(all: Tally): Promise<void> {
    const multi = this.client.multi();
    for (const b of await this.#allBuckets()) multi.del(`${this.prefix}f:${b}`);
    for (const [bucket, m] of all) {
      if (m.size === 0) continue;
      multi.hset(`${this.prefix}f:${bucket}`, Object.fromEntries(m));
      const tenant = parseBucket(bucket).tenant;
      multi.sadd(`${this.prefix}fi:${tenant}`, bucket).sadd(`${this.prefix}fi`, tenant);
    }
    await multi.exec();
  }

  async close(): Promise<void> {}

  async #incr(kind: 'f:' | 'fk:', changes: readonly CountChange[]): Promise<void> {
    if (changes.length === 0) return;
    const multi = this.client.multi();
    const buckets = new Set<string>();
    for (const c of changes) {
      multi.hincrby(`${this.prefix}${kind}${c.bucket}`, c.field, c.n);
      buckets.add(c.bucket);
    }
    for (const b of buckets) {
      const tenant = parseBucket(b).tenant;
      multi.sadd(`${this.prefix}fi:${tenant}`, b).sadd(`${this.prefix}fi`, tenant);
    }
    const res = await multi.exec();
    const failed = res?.find(([err]) => err);
    if (failed) throw failed[0];
  }

  async #allBuckets(): Promise<string[]> {
    const tenants = await this.client.smembers(`${this.prefix}fi`);
    const out: string[] = [];
    for (const t of tenants) out.push(...(await this.client.smembers(`${this.prefix}fi:${t}`)));
    return out;
  }

  async #hashes(kind: 'f:' | 'fk:', buckets: readonly string[]): Promise<Tally> {
    const out: Tally = new Map();
    if (buckets.length === 0) return out;
    const pipe = this.client.pipeline();
    for (const b of buckets) pipe.hgetall(`${this.prefix}${kind}${b}`);
    const res = (await pipe.exec()) ?? [];
    buckets.forEach((b, i) => {
      const h = res[i]?.[1] as Record<string, string> | undefined;
      const m = new Map<string, number>();
      for (const [f, v] of Object.entries(h ?? {})) if (Number(v) !== 0) m.set(f, Number(v));
      if (m.size) out.set(b, m);
    });
    return out;
  }
}
