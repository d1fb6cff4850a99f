import { EventEmitter } from 'node:events';
import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { coalesceWrites } from '../../server/realtime/socket-server.ts';

// engine.io calls its socket's flush() after every packet and emits 'flush'
// before it hands the buffered packets to the transport; the websocket
// transport's ws socket keeps the TCP socket as `_socket`.
class FakeConnection extends EventEmitter {
  constructor(readonly transport: { socket: { _socket: unknown } }, private readonly calls: string[]) {
    super();
  }
  flush(): void {
    this.emit('flush');
    this.calls.push('flushed');
  }
}

describe('coalesceWrites', () => {
  it("flushes a connection once per tick, with its TCP socket corked until the tick's work is done", async () => {
    const calls: string[] = [];
    const conn = new FakeConnection({ socket: { _socket: { cork: () => calls.push('cork'), uncork: () => calls.push('uncork') } } }, calls);
    coalesceWrites(conn);
    conn.flush();
    conn.flush();
    conn.flush();
    expect(calls).toEqual([]);
    await tick();
    expect(calls).toEqual(['cork', 'flushed', 'uncork']);
    conn.flush();
    await tick();
    expect(calls).toEqual(['cork', 'flushed', 'uncork', 'cork', 'flushed', 'uncork']);
  });

  it('still batches per tick a transport without a TCP socket of its own (long-polling)', async () => {
    const calls: string[] = [];
    const conn = new FakeConnection({ socket: { _socket: undefined } }, calls);
    coalesceWrites(conn);
    conn.flush();
    conn.flush();
    await tick();
    expect(calls).toEqual(['flushed']);
  });
});
