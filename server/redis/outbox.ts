import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import { Script } from './script.ts';
import {
  applyAttempt, applyDeath, applyDelivered, entryId, type AttemptFailure, type EntryMeta, type Death, type DeliveryDone, type EntryState, type Outbox, type OutboxEntry,
} from '../delivery/outbox.ts';
import type { Completion } from '../delivery/completion.ts';

// The webhook outbox in Redis, shared by every server instance (STORE=redis).
// Every instance runs a DeliveryWorker over it; an entry is delivered by one
// of them at a time because `pending()` hands out due entries only under a
// lease: a Lua script marks each due entry with this instance and an expiry
// (longer than a POST's timeout), and entries leased to another instance come
// back with their lease's end as `nextAt`, so no other worker takes them
// before then. Transitions check the lease too: a finished entry is not
// changed again, and an instance whose lease ran out cannot overwrite the
// outcome another one recorded.
//
// Keys (P = prefix): P ob:e:<id> hash (m: entry JSON without the completion,
// c: completion JSON, ver, dead, owner, until, n); P ob:due sorted set of
// pending ids by nextAt; P ob:all sorted set of every id by enqueue order;
// P ob:done delivered ids by delivery time; P ob:n the enqueue counter.
// A delivered entry expires after `keepDeliveredMs` (its listing entry goes
// with a later delivery), so the outbox does not grow without bound.

// KEYS: due, all, counter   ARGV: prefix, id, version, now, meta (without id), completion
const ENQUEUE = new Script(`
local id = ARGV[2]
local k = ARGV[1] .. 'ob:e:' .. id
local fv = redis.call('HGET', k, 'ver')
if fv and tonumber(ARGV[3]) > tonumber(fv) and redis.call('HGET', k, 'dead') ~= 'uncommitted' then
  id = id .. ':' .. ARGV[3]
  k = ARGV[1] .. 'ob:e:' .. id
end
if redis.call('EXISTS', k) == 1 and redis.call('HGET', k, 'dead') ~= 'uncommitted' then return {0, id} end
local n = redis.call('INCR', KEYS[3])
redis.call('DEL', k)
redis.call('HSET', k, 'm', ARGV[5], 'c', ARGV[6], 'ver', ARGV[3], 'dead', '', 'owner', '', 'until', 0, 'n', n)
redis.call('ZADD', KEYS[1], ARGV[4], id)
redis.call('ZREM', KEYS[2], id)
redis.call('ZADD', KEYS[2], n, id)
return {1, id}
`);

// KEYS: due   ARGV: prefix, now, me, leaseMs, max
// Returns { claimed ids, { id, lease end } of entries leased to others, the next not-due id or '' }
const CLAIM = new Script(`
local now = tonumber(ARGV[2])
local claimed, held = {}, {}
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[5]) * 4)
for _, id in ipairs(due) do
  local k = ARGV[1] .. 'ob:e:' .. id
  local owner = redis.call('HGET', k, 'owner')
  if not owner then
    redis.call('ZREM', KEYS[1], id)
  else
    local til = tonumber(redis.call('HGET', k, 'until') or '0')
    if owner == '' or owner == ARGV[3] or til <= now then
      if #claimed < tonumber(ARGV[5]) then
        redis.call('HSET', k, 'owner', ARGV[3], 'until', now + tonumber(ARGV[4]))
        table.insert(claimed, id)
      end
    else
      table.insert(held, id)
      table.insert(held, til)
    end
  end
end
local nxt = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. now, '+inf', 'LIMIT', 0, 1)
return {claimed, held, nxt[1] or ''}
`);

// KEYS: entry, due, all, done   ARGV: id, now, me, meta, state, dead, nextAt, keepMs, finishedAt
const FINISH = new Script(`
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local m = cjson.decode(redis.call('HGET', KEYS[1], 'm'))
if m.state ~= 'pending' then return 0 end
local owner = redis.call('HGET', KEYS[1], 'owner')
local til = tonumber(redis.call('HGET', KEYS[1], 'until') or '0')
if owner ~= '' and owner ~= ARGV[3] and til > tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], 'm', ARGV[4], 'dead', ARGV[6], 'owner', '', 'until', 0)
if ARGV[5] == 'pending' then
  redis.call('ZADD', KEYS[2], ARGV[7], ARGV[1])
else
  redis.call('ZREM', KEYS[2], ARGV[1])
end
if ARGV[5] == 'delivered' then
  redis.call('HDEL', KEYS[1], 'c')
  redis.call('PEXPIRE', KEYS[1], ARGV[8])
  redis.call('ZADD', KEYS[4], ARGV[9], ARGV[1])
  -- forget the listing entries of deliveries past their retention (a few at a time)
  local old = redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', tonumber(ARGV[9]) - tonumber(ARGV[8]), 'LIMIT', 0, 100)
  if #old > 0 then
    redis.call('ZREM', KEYS[3], unpack(old))
    redis.call('ZREM', KEYS[4], unpack(old))
  end
end
return 1
`);

export interface RedisOutboxOptions {
  prefix?: string;
  /** This instance (default: host, pid and a random suffix). */
  instance?: string;
  /** How long a claimed entry stays with this instance (default 60 s; keep it above the POST timeout). */
  leaseMs?: number;
  /** Entries claimed by one `pending()` call at most (default 16). */
  claimLimit?: number;
  /** Delivered entries are forgotten this long after delivery (default 7 days). */
  keepDeliveredMs?: number;
  /** Epoch milliseconds (the same clock as the worker's). */
  now?: () => number;
}

type Meta = EntryMeta;

/** An Outbox in Redis with a lease per entry, so several instances deliver each ending once. */
export class RedisOutbox implements Outbox {
  private readonly prefix: string;
  readonly instance: string;
  private readonly leaseMs: number;
  private readonly claimLimit: number;
  private readonly keepMs: number;
  private readonly now: () => number;

  constructor(private readonly client: Redis, opts: RedisOutboxOptions = {}) {
    this.prefix = opts.prefix ?? 'ql:';
    this.instance = opts.instance ?? `${hostname()}.${process.pid}.${randomBytes(4).toString('hex')}`;
    this.leaseMs = opts.leaseMs ?? 60_000;
    this.claimLimit = opts.claimLimit ?? 16;
    this.keepMs = opts.keepDeliveredMs ?? 7 * 86_400_000;
    this.now = opts.now ?? Date.now;
  }

  private key(id: string): string {
    return `${this.prefix}ob:e:${id}`;
  }
  private get due(): string {
    return `${this.prefix}ob:due`;
  }
  private get all(): string {
    return `${this.prefix}ob:all`;
  }

  async enqueue(c: Completion, now: number): Promise<{ entry: OutboxEntry; created: boolean }> {
    const meta: Meta = {
      sessionId: c.sessionId, tenant: c.tenant, status: c.status, version: c.version, state: 'pending',
      attempts: 0, enqueuedAt: now, nextAt: now,
    };
    const [created, id] = (await ENQUEUE.run(this.client, [this.due, this.all, `${this.prefix}ob:n`], [
      this.prefix, entryId(c), c.version, now, JSON.stringify(meta), JSON.stringify(c),
    ])) as [number, string];
    const entry = await this.get(id);
    if (!entry) throw new Error(`outbox: entry ${id} vanished after enqueue`);
    return { entry, created: created === 1 };
  }

  /** Claims due entries for this instance; entries leased elsewhere come back due at their lease's end. */
  async pending(): Promise<OutboxEntry[]> {
    const now = this.now();
    const [claimed, held, next] = (await CLAIM.run(this.client, [this.due], [this.prefix, now, this.instance, this.leaseMs, this.claimLimit])) as [
      string[], Array<string | number>, string,
    ];
    const heldUntil = new Map<string, number>();
    for (let i = 0; i < held.length; i += 2) heldUntil.set(String(held[i]), Number(held[i + 1]));
    const ids = [...claimed, ...heldUntil.keys(), ...(next ? [next] : [])];
    const entries = await this.read(ids);
    return entries
      .filter((e) => e.entry.state === 'pending')
      .map((e) => (heldUntil.has(e.entry.id) ? { ...e, entry: { ...e.entry, nextAt: Math.max(e.entry.nextAt, heldUntil.get(e.entry.id)!) } } : e))
      .sort((a, b) => a.entry.nextAt - b.entry.nextAt || a.n - b.n)
      .map((e) => e.entry);
  }

  async get(id: string): Promise<OutboxEntry | undefined> {
    return (await this.read([id]))[0]?.entry;
  }

  async list(filter?: { state?: EntryState }): Promise<OutboxEntry[]> {
    const ids = await this.client.zrangebyscore(this.all, '-inf', '+inf');
    const entries = await this.read(ids);
    const present = new Set(entries.map((e) => e.entry.id));
    const gone = ids.filter((id) => !present.has(id));
    if (gone.length) await this.client.zrem(this.all, ...gone); // delivered entries past their retention
    return entries.map((e) => e.entry).filter((e) => !filter?.state || e.state === filter.state);
  }

  attempted(id: string, f: AttemptFailure): Promise<void> {
    return this.finish(id, (m) => applyAttempt(m, f));
  }

  delivered(id: string, d: DeliveryDone): Promise<void> {
    return this.finish(id, (m) => applyDelivered(m, d));
  }

  dead(id: string, d: Death): Promise<void> {
    return this.finish(id, (m) => applyDeath(m, d));
  }

  /** The connection belongs to the caller. */
  /** Erases a session's entries (hash with its answers, and its places in the due, all and done sets). */
  async forgetSession(sessionId: string, _now: number): Promise<number> {
    const ids: string[] = [];
    const pattern = `${sessionId.replace(/[\\*?[\]]/g, '\\$&')}:*`;
    let cursor = '0';
    do {
      const [next, batch] = await this.client.zscan(this.all, cursor, 'MATCH', pattern, 'COUNT', 500);
      cursor = next;
      for (let i = 0; i < batch.length; i += 2) ids.push(batch[i]!);
    } while (cursor !== '0');
    if (ids.length === 0) return 0;
    const tx = this.client.multi();
    for (const id of ids) tx.del(this.key(id)).zrem(this.due, id).zrem(this.all, id).zrem(`${this.prefix}ob:done`, id);
    await tx.exec();
    return ids.length;
  }

  /** Resolves when Redis takes a write now (a short-lived key set), for /readyz. */
  async ready(): Promise<void> {
    await this.client.set(`${this.prefix}ob:ready`, '1', 'PX', 10_000);
  }

  async close(): Promise<void> {}

  /**
   * Applies a transition to a pending entry this instance holds (or nobody
   * holds). An entry already finished, or leased to another instance meanwhile,
   * is left alone (that instance's outcome stands) and the call fails, as a
   * transition of a finished entry does in every outbox.
   */
  private async finish(id: string, change: (m: Meta) => void): Promise<void> {
    const json = await this.client.hget(this.key(id), 'm');
    if (json === null) throw new Error(`outbox: no entry ${id}`);
    const m = JSON.parse(json) as Meta;
    if (m.state !== 'pending') throw new Error(`outbox: entry ${id} is already ${m.state}`);
    change(m);
    const r = await FINISH.run(this.client, [this.key(id), this.due, this.all, `${this.prefix}ob:done`], [
      id, this.now(), this.instance, JSON.stringify(m), m.state, m.deadReason ?? '', m.nextAt, this.keepMs, m.finishedAt ?? 0,
    ]);
    if (r === -1) throw new Error(`outbox: no entry ${id}`);
    if (r === 0) throw new Error(`outbox: entry ${id} was finished or leased by another instance meanwhile`);
  }

  private async read(ids: readonly string[]): Promise<Array<{ entry: OutboxEntry; n: number }>> {
    if (ids.length === 0) return [];
    const pipe = this.client.pipeline();
    for (const id of ids) pipe.hmget(this.key(id), 'm', 'c', 'n');
    const rows = (await pipe.exec()) ?? [];
    const out: Array<{ entry: OutboxEntry; n: number }> = [];
    rows.forEach(([, row], i) => {
      const [m, c, n] = (row ?? []) as Array<string | null>;
      if (!m) return;
      out.push({ entry: { id: ids[i]!, ...(JSON.parse(m) as Meta), completion: c ? (JSON.parse(c) as Completion) : null }, n: Number(n) });
    });
    return out;
  }
}
