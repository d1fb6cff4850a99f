import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

// Lua scripts run by SHA (EVALSHA), loaded on first use or after a Redis
// restart (NOSCRIPT). Each script is atomic on the server: the compare-and-set
// steps of the Redis store, lock and outbox live in them.

/** A Lua script with its SHA-1. */
export class Script {
  readonly sha: string;
  constructor(readonly lua: string) {
    this.sha = createHash('sha1').update(lua).digest('hex');
  }

  async run(client: Redis, keys: readonly string[], args: ReadonlyArray<string | number>): Promise<unknown> {
    try {
      return await client.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (e) {
      if (!String((e as Error).message).includes('NOSCRIPT')) throw e;
      return client.eval(this.lua, keys.length, ...keys, ...args);
    }
  }
}
