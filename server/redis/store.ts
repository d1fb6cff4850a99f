import { Redis } from 'ioredis';
import type { EngineEvent } from '../engine/types.ts';
import { assertSessionId } from '../store/lowdb-paths.ts';
import { summaryOf } from '../store/lowdb-read.ts';
import { PROCESS_WRITER, Script } from './script.ts';
import type { SaveResult, SessionStore, SessionSummary, StoredSession, TranscriptEntry } from '../store/session-store.ts';

// Sessions in Redis, shared by every server instance (STORE=redis).
//
// Keys (P = prefix, default "ql:"):
//   P s:<id>    hash: ver, seq, tenant, rec (the record JSON), sum (listing summary JSON), idx (index member)
//   P tp:<id>   hash of appended, uncommitted transcript entries: "<writer>|<seq>" → entry JSON
//   P ep:<id>   the same for event batches: "<writer>|<seq>" → events JSON
//   P t:<id>    sorted set of committed transcript entries, score = seq
//   P e:<id>    sorted set of committed event batches, score = seq
//   P i:<tenant> sorted set of the tenant's sessions, score = createdAt (ms), member "<counter>|<id>"
//   P n         the creation counter (ties in listings: later first)
//
// The commit protocol of SessionStore, made safe for several writers: an
// append only stages lines under the appending process; `save` compares the
// version and, in the same Lua script, moves that process's staged lines with
// seq in (old seq, new seq] into the committed sets (the later write of a seq
// wins) and drops staged lines at or below the new seq. A server whose save
// loses the version race commits nothing, and its staged lines can never show.
// Scripts build a tenant index key from the record, so use one Redis (with
// replicas or Sentinel), not Redis Cluster.

const COMMIT = `
local function commit(staged, committed, writer, old, new)
  local fields = redis.call('HKEYS', staged)
  local move, drop = {}, {}
  for _, f in ipairs(fields) do
    local bar = string.find(f, '|', 1, true)
    local s = bar and tonumber(string.sub(f, bar + 1))
    if not s then
      table.insert(drop, f)
    elseif s <= new then
      if s > old and string.sub(f, 1, bar - 1) == writer then table.insert(move, {s, f}) end
      table.insert(drop, f)
    end
  end
  table.sort(move, function(a, b) return a[1] < b[1] end)
  for _, m in ipairs(move) do
    redis.call('ZREMRANGEBYSCORE', committed, m[1], m[1])
    redis.call('ZADD', committed, m[1], redis.call('HGET', staged, m[2]))
  end
  for i = 1, #drop, 500 do
    redis.call('HDEL', staged, unpack(drop, i, math.min(i + 499, #drop)))
  end
end
`;

// KEYS: rec, tp, t, ep, e, index, counter   ARGV: writer, ver, seq, tenant, rec, sum, createdMs, id
const CREATE = new Script(`${COMMIT}
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('DEL', KEYS[3], KEYS[5])
local n = redis.call('INCR', KEYS[7])
local member = string.format('%016d', n) .. '|' .. ARGV[8]
redis.call('ZADD', KEYS[6], ARGV[7], member)
redis.call('HSET', KEYS[1], 'ver', ARGV[2], 'seq', ARGV[3], 'tenant', ARGV[4], 'rec', ARGV[5], 'sum', ARGV[6], 'idx', member)
commit(KEYS[2], KEYS[3], ARGV[1], 0, tonumber(ARGV[3]))
commit(KEYS[4], KEYS[5], ARGV[1], 0, tonumber(ARGV[3]))
return 1
`);

// KEYS: rec, tp, t, ep, e   ARGV: writer, expected, seq, rec, sum
const SAVE = new Script(`${COMMIT}
local cur = redis.call('HGET', KEYS[1], 'ver')
if not cur then return {0, -1} end
if tonumber(cur) ~= tonumber(ARGV[2]) then return {0, tonumber(cur)} end
local old = tonumber(redis.call('HGET', KEYS[1], 'seq'))
local ver = tonumber(ARGV[2]) + 1
redis.call('HSET', KEYS[1], 'ver', ver, 'seq', ARGV[3], 'rec', ARGV[4], 'sum', ARGV[5])
commit(KEYS[2], KEYS[3], ARGV[1], old, tonumber(ARGV[3]))
commit(KEYS[4], KEYS[5], ARGV[1], old, tonumber(ARGV[3]))
return {1, ver}
`);

// KEYS: rec, tp, t, ep, e   ARGV: prefix
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

export interface RedisStoreOptions {
  /** Key prefix (default "ql:"); several deployments (or tests) can share one Redis. */
  prefix?: string;
  /** The writer tag of appends (default: this process). */
  writer?: string;
}

const toMs = (iso: string): number => {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? ms : 0;
};

/** A SessionStore in Redis: `new RedisStore(new Redis(url))` or `RedisStore.connect(url)`. */
export class RedisStore implements SessionStore {
  readonly prefix: string;
  private readonly writer: string;
  private closed = false;

  constructor(readonly client: Redis, opts: RedisStoreOptions = {}, private readonly owned = false) {
    this.prefix = opts.prefix ?? 'ql:';
    this.writer = (opts.writer ?? PROCESS_WRITER).replace(/\|/g, '_');
  }

  /** Connects to `url` (redis://…) and checks that the server answers; the store owns the connection. */
  static async connect(url: string, opts: RedisStoreOptions = {}): Promise<RedisStore> {
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
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

  private keys(id: string): [rec: string, tp: string, t: string, ep: string, e: string] {
    assertSessionId(id);
    const p = this.prefix;
    return [`${p}s:${id}`, `${p}tp:${id}`, `${p}t:${id}`, `${p}ep:${id}`, `${p}e:${id}`];
  }

  private check(): void {
    if (this.closed) throw new Error('RedisStore: closed');
  }

  async create(record: StoredSession): Promise<{ ok: true } | { ok: false; exists: true }> {
    const keys = this.keys(record.id);
    this.check();
    const r = await CREATE.run(this.client, [...keys, `${this.prefix}i:${record.tenant}`, `${this.prefix}n`], [
      this.writer, record.version, record.seq, record.tenant, JSON.stringify(record), JSON.stringify(summaryOf(record)),
      toMs(record.createdAt), record.id,
    ]);
    return r === 1 ? { ok: true } : { ok: false, exists: true };
  }

  async load(id: string): Promise<StoredSession | null> {
    const [rec] = this.keys(id);
    this.check();
    const json = await this.client.hget(rec, 'rec');
    return json === null ? null : (JSON.parse(json) as StoredSession);
  }

  async save(record: StoredSession, expected: number): Promise<SaveResult> {
    const keys = this.keys(record.id);
    this.check();
    const next = { ...record, version: expected + 1 };
    const [ok, version] = (await SAVE.run(this.client, keys, [
      this.writer, expected, record.seq, JSON.stringify(next), JSON.stringify(summaryOf(next)),
    ])) as [number, number];
    return ok === 1 ? { ok: true, version } : { ok: false, conflict: true, current: version };
  }

  async appendTranscript(id: string, entries: readonly TranscriptEntry[]): Promise<void> {
    const [, tp] = this.keys(id);
    this.check();
    if (entries.length === 0) return;
    const fields: string[] = [];
    for (const e of entries) fields.push(`${this.writer}|${e.seq}`, JSON.stringify(e));
    await this.client.hset(tp, ...fields);
  }

  async transcript(id: string, after = 0): Promise<TranscriptEntry[]> {
    const [rec, , t] = this.keys(id);
    this.check();
    const res = await this.client.multi().hget(rec, 'seq').zrangebyscore(t, `(${after}`, '+inf').exec();
    const seq = res?.[0]?.[1] as string | null;
    if (seq === null || seq === undefined) return [];
    const upTo = Number(seq);
    return ((res?.[1]?.[1] as string[]) ?? []).map((j) => JSON.parse(j) as TranscriptEntry).filter((e) => e.seq <= upTo);
  }

  async appendEvents(id: string, seq: number, events: readonly EngineEvent[]): Promise<void> {
    const [, , , ep] = this.keys(id);
    this.check();
    await this.client.hset(ep, `${this.writer}|${seq}`, JSON.stringify({ seq, events }));
  }

  async events(id: string): Promise<EngineEvent[]> {
    const [rec, , , , e] = this.keys(id);
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
    this.check();
    return (await DELETE.run(this.client, keys, [this.prefix])) === 1;
  }

  /** Closes the connection when the store opened it; idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.owned) await this.client.quit().catch(() => this.client.disconnect());
  }
}
