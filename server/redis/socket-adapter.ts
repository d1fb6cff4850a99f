import { createAdapter } from '@socket.io/redis-streams-adapter';
import type { Redis } from 'ioredis';
import type { Server } from 'socket.io';

// socket.io across instances (STORE=redis): every instance publishes room
// broadcasts to one Redis stream and reads the others' from it, so a turn
// run on instance A (a REST message, an operator's reply) reaches a visitor
// whose socket is on instance B. The streams adapter (rather than the pub/sub
// one) survives a short Redis outage without losing packets: it resumes
// reading the stream where it stopped. A reconnecting client still asks the
// store for what it missed (`lastSeq`), so nothing depends on the adapter for
// replay.

/** Puts `io` (and every namespace, present and future) on the Redis streams adapter. */
export function useRedisAdapter(io: Server, client: Redis, prefix = 'ql:'): void {
  io.adapter(createAdapter(client, {
    streamName: `${prefix}socket.io`,
    sessionKeyPrefix: `${prefix}sio:session:`,
    // a short block keeps shutdown quick: the reading connection closes after its current XREAD
    blockTimeInMs: 1_000,
  }));
}
