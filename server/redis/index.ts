import type { Backend } from '../delivery/backend.ts';
import { RedisFunnelCounts } from './funnel-counts.ts';
import { RedisTurnLock } from './lock.ts';
import { RedisOutbox } from './outbox.ts';
import { redisLimiters } from './rate-limits.ts';
import { useRedisAdapter } from './socket-adapter.ts';
import { RedisStore } from './store.ts';
import { RedisPublishLog } from './publish-log.ts';

// Every Redis piece behind one factory (STORE=redis): sessions, the turn lock,
// the webhook outbox, the rate limits and the socket.io adapter share one
// connection and one key prefix, so several instances pointed at the same
// Redis behave as one server.

/** Where the shared Redis is and how to name its keys. */
export interface RedisBackendOptions {
  /** redis://[user:password@]host:port[/db] or rediss:// */
  url: string;
  /** Prefix of every key (default ql:). */
  prefix?: string;
  /** Called when a turn outlived its lock (its save is still fenced by the session version). */
  onLockLost?: (sessionId: string) => void;
}

/** Connects to Redis (rejects if it does not answer) and builds every shared piece on that connection. */
export async function createRedisBackend(opts: RedisBackendOptions): Promise<Backend> {
  const store = await RedisStore.connect(opts.url, opts.prefix === undefined ? {} : { prefix: opts.prefix });
  const { client, prefix } = store;
  const outbox = new RedisOutbox(client, { prefix });
  return {
    kind: 'redis', store, outbox, counts: new RedisFunnelCounts(client, prefix),
    lock: new RedisTurnLock(client, { prefix, prime: store, ...(opts.onLockLost ? { onLost: opts.onLockLost } : {}) }),
    limiters: redisLimiters(client, prefix),
    publishes: new RedisPublishLog(client, prefix),
    attachSockets: (io) => useRedisAdapter(io, client, prefix),
    async close() {
      try {
        await outbox.close();
      } finally {
        await store.close(); // the store owns the connection: this quits it
      }
    },
  };
}
