import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
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

/**
 * This process as a writer: appends are tagged with it, so a save commits only
 * what its own process appended (a server whose turn lock expired cannot slip
 * its lines into another server's turn). One id per process, so a store
 * reopened in the same process keeps its uncommitted appends.
 */
export const PROCESS_WRITER = `${hostname().replace(/[^A-Za-z0-9_.-]/g, '_')}.${process.pid}.${randomBytes(4).toString('hex')}`;
