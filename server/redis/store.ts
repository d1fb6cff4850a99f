import { Redis } from 'ioredis';
import type { EngineEvent } from '../engine/types.ts';
import { assertSessionId, SESSION_ID_PATTERN } from '../store/session-id.ts';
import { Script } from './script.ts';
import { summaryOf, type SaveResult, type SessionStore, type SessionSummary, type StoredSession, type TranscriptEntry, type TurnWrites } from '../store/session-store.ts';

// Sessions in Redis, shared by every server instance (STORE=redis).
//
// Keys (P = prefix, default "ql:"):
//   P s:<id>    hash: ver, seq, tenant, rec (the record JSON), sum (listing summary JSON), idx (index member)
//   P t:<id>    sorted set of transcript entries, score = seq
//   P e:<id>    sorted set of event batches, score = seq
//   P i:<tenant> sorted set of the tenant's sessions, score = createdAt (ms), member "<counter>|<id>"
//   P n         the creation counter (ties in listings: later first)
//
// A turn is one Lua script (create or commit): the version check, the
// record, and the turn's transcript entries and events, atomically. A server
// whose commit loses the version race writes nothing. (Data of earlier
// versions may hold staged-append hashes P tp:<id> and P ep:<id>; delete
// removes them.) Scripts build a tenant index key from the record, so use
// one Redis (with replicas or Sentinel), not Redis Cluster.

// Adds the turn's entries (ARGV from `at`: count, then seq/json pairs) and its event batch (seq, json; seq -1 for none).
const TURN = `
local function turn(t, e, at)
  local n = tonumber(ARGV[at])
  for i = 0, n - 1 do
    local s = tonumber(ARGV[at + 1 + 2 * i])
    redis.call('ZREMRANGEBYSCORE', t, s, s)
    redis.call('ZADD', t, s, ARGV[at + 2 + 2 * i])
  end
  local es = tonumber(ARGV[at + 1 + 2 * n])
  if es >= 0 then
    redis.call('ZREMRANGEBYSCORE', e, es, es)
    redis.call('ZADD', e, es, ARGV[at + 2 + 2 * n])
  end
end
`;

// KEYS: rec, t, e, index, counter   ARGV: ver, seq, tenant, rec, sum, createdMs, id, ...turn
const CREATE = new Script(`${TURN}
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('DEL', KEYS[2], KEYS[3])
local n = redis.call('INCR', KEYS[5])
local member = string.format('%016d', n) .. '|' .. ARGV[7]
redis.call('ZADD', KEYS[4], ARGV[6], member)
redis.call('HSET', KEYS[1], 'ver', ARGV[1], 'seq', ARGV[2], 'tenant', ARGV[3], 'rec', ARGV[4], 'sum', ARGV[5], 'idx', member)
turn(KEYS[2], KEYS[3], 8)
return 1
`);

// KEYS: rec, t, e   ARGV: expected, seq, rec, sum, ...turn
const COMMIT = new Script(`${TURN}
local cur = redis.call('HGET', KEYS[1], 'ver')
if not cur then return {0, -1} end
if tonumber(cur) ~= tonumber(ARGV[1]) then return {0, tonumber(cur)} end
local ver = tonumber(ARGV[1]) + 1
redis.call('HSET', KEYS[1], 'ver', ver, 'seq', ARGV[2], 'rec', ARGV[3], 'sum', ARGV[4])
turn(KEYS[2], KEYS[3], 5)
return {1, ver}
`);

// KEYS: rec, t, e, tp, ep (tp, ep: staged appends of earlier versions)   ARGV: prefix
const DELETE = new Script(`
local tenant = redis.call('HGET', KEYS[1], 'tenant')
local existed = 0
if tenant then
  redis.call('ZREM', ARGV[1] .. 'i:' .. tenant, redis.call('HGET', KEYS[1], 'idx'))
  existed = 1
end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5])
return existed
`);

/** A turn's writes as script arguments: entry count, seq/JSON pairs, then the event batch's seq (-1: none) and JSON. */
function turnArgs(seq: number, turn: TurnWrites): Array<string | number> {
  const args: Array<string | number> = [turn.transcript.length];
  for (const e of turn.transcript) args.push(e.seq, JSON.stringify(e));
  if (turn.events.length > 0) args.push(seq, JSON.stringify({ seq, events: turn.events }));
  else args.push(-1, '');
  return args;
}

export interface RedisStoreOptions {
  /** Key prefix (default "ql:"); several deployments (or tests) can share one Redis. */
  prefix?: string;
}

const toMs = (iso: string): number => {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? ms : 0;
};

/** A SessionStore in Redis: `new RedisStore(new Redis(url))` or `RedisStore.connect(url)`. */
export class RedisStore implements SessionStore {
  readonly prefix: string;
  private closed = false;
  /** Records read together with a session's turn lock (RedisTurnLock), taken by the next `load` of that session. */
  private readonly primed = new Map<string, string | null>();

  constructor(readonly client: Redis, opts: RedisStoreOptions = {}, private readonly owned = false) {
    this.prefix = opts.prefix ?? 'ql:';
  }

  /** Connects to `url` (redis://…) and checks that the server answers; the store owns the connection. */
  static async connect(url: string, opts: RedisStoreOptions = {}): Promise<RedisStore> {
    // auto-pipelining: the commands issued in the same tick (a turn's broadcast XADDs, its rate-limit scripts) go in one round trip
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3, enableAutoPipelining: true });
    client.on('error', () => {}); // reconnects on its own; commands fail meanwhile and the caller sees those
    try {
      await client.connect();
      await client.ping();
    } catch (e) {
      client.disconnect();
      throw e;
    }
    return new RedisStore(client, opts, true);
  }

  private keys(id: string): [rec: string, t: string, e: string] {
    assertSessionId(id);
    const p = this.prefix;
    return [`${p}s:${id}`, `${p}t:${id}`, `${p}e:${id}`];
  }

  private check(): void {
    if (this.closed) throw new Error('RedisStore: closed');
  }

  async create(record: StoredSession, turn: TurnWrites): Promise<{ ok: true } | { ok: false; exists: true }> {
    const keys = this.keys(record.id);
    this.primed.delete(record.id);
    this.check();
    const r = await CREATE.run(this.client, [...keys, `${this.prefix}i:${record.tenant}`, `${this.prefix}n`], [
      record.version, record.seq, record.tenant, JSON.stringify(record), JSON.stringify(summaryOf(record)),
      toMs(record.createdAt), record.id, ...turnArgs(record.seq, turn),
    ]);
    return r === 1 ? { ok: true } : { ok: false, exists: true };
  }

  async load(id: string): Promise<StoredSession | null> {
    const [rec] = this.keys(id);
    this.check();
    const primed = this.primed.get(id);
    if (primed !== undefined) this.primed.delete(id);
    const json = primed !== undefined ? primed : await this.client.hget(rec, 'rec');
    return json === null ? null : (JSON.parse(json) as StoredSession);
  }

  /** The key of a session's record hash (RedisTurnLock reads its `rec` field with the lock); undefined for an id no store accepts. */
  recordKey(id: string): string | undefined {
    return SESSION_ID_PATTERN.test(id) ? this.keys(id)[0] : undefined;
  }

  /** A record's JSON read with the session's turn lock held (null: none): the next `load` of `id` returns it without a round trip. */
  prime(id: string, json: string | null): void {
    this.primed.set(id, json);
  }

  /** Forgets what `prime` handed over and no `load` took. */
  unprime(id: string): void {
    this.primed.delete(id);
  }

  async commit(record: StoredSession, expected: number, turn: TurnWrites): Promise<SaveResult> {
    const keys = this.keys(record.id);
    this.primed.delete(record.id);
    this.check();
    const next = { ...record, version: expected + 1 };
    const [ok, version] = (await COMMIT.run(this.client, keys, [
      expected, record.seq, JSON.stringify(next), JSON.stringify(summaryOf(next)), ...turnArgs(record.seq, turn),
    ])) as [number, number];
    return ok === 1 ? { ok: true, version } : { ok: false, conflict: true, current: version };
  }

  async transcript(id: string, after = 0): Promise<TranscriptEntry[]> {
    const [rec, t] = this.keys(id);
    this.check();
    const res = await this.client.multi().hget(rec, 'seq').zrangebyscore(t, `(${after}`, '+inf').exec();
    const seq = res?.[0]?.[1] as string | null;
    if (seq === null || seq === undefined) return [];
    const upTo = Number(seq);
    return ((res?.[1]?.[1] as string[]) ?? []).map((j) => JSON.parse(j) as TranscriptEntry).filter((e) => e.seq <= upTo);
  }

  async events(id: string): Promise<EngineEvent[]> {
    const [rec, , e] = this.keys(id);
    this.check();
    const res = await this.client.multi().hget(rec, 'seq').zrangebyscore(e, '-inf', '+inf').exec();
    const seq = res?.[0]?.[1] as string | null;
    if (seq === null || seq === undefined) return [];
    const upTo = Number(seq);
    return ((res?.[1]?.[1] as string[]) ?? [])
      .map((j) => JSON.parse(j) as { seq: number; events: EngineEvent[] })
      .filter((b) => b.seq <= upTo)
      .flatMap((b) => b.events);
  }

  async list(tenant: string, opts: { status?: StoredSession['status']; limit?: number } = {}): Promise<SessionSummary[]> {
    this.check();
    const limit = Math.max(0, opts.limit ?? Infinity);
    const index = `${this.prefix}i:${tenant}`;
    const out: SessionSummary[] = [];
    const page = 200;
    for (let start = 0; out.length < limit; start += page) {
      const members = await this.client.zrevrange(index, start, start + page - 1);
      if (members.length === 0) break;
      const pipe = this.client.pipeline();
      for (const m of members) pipe.hget(`${this.prefix}s:${m.slice(m.indexOf('|') + 1)}`, 'sum');
      for (const [, sum] of (await pipe.exec()) ?? []) {
        if (typeof sum !== 'string') continue; // deleted meanwhile
        const s = JSON.parse(sum) as SessionSummary;
        if (opts.status !== undefined && s.status !== opts.status) continue;
        out.push(s);
        if (out.length >= limit) break;
      }
    }
    return out;
  }

  async delete(id: string): Promise<boolean> {
    const keys = this.keys(id);
    this.primed.delete(id);
    this.check();
    return (await DELETE.run(this.client, [...keys, `${this.prefix}tp:${id}`, `${this.prefix}ep:${id}`], [this.prefix])) === 1;
  }

  /** Resolves when Redis takes a write now (a short-lived key set): not when it is unreachable or refuses writes (OOM, MISCONF, READONLY). */
  async ready(): Promise<void> {
    this.check();
    await this.client.set(`${this.prefix}ready:store`, '1', 'PX', 10_000);
  }

  /** Closes the connection when the store opened it; idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.owned) await this.client.quit().catch(() => this.client.disconnect());
  }
}
