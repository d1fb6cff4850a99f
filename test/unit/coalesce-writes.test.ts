import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { coalesceWrites } from '../../server/transport/socket/socket-server.ts';

// engine.io emits 'flush' before it hands a flush's packets to the transport;
// the websocket transport's ws socket keeps the TCP socket as `_socket`.
function fakeConnection(raw: unknown) {
  const conn = Object.assign(new EventEmitter(), { transport: { socket: { _socket: raw } } });
  coalesceWrites(conn);
  return conn;
}

describe('coalesceWrites', () => {
  it('corks the TCP socket for a flush and uncorks it once the tick is done, so the packets leave in one write', async () => {
    const calls: string[] = [];
    const raw = { cork: () => calls.push('cork'), uncork: () => calls.push('uncork') };
    const conn = fakeConnection(raw);
    conn.emit('flush');
    calls.push('packets written');
    conn.emit('flush');
    expect(calls).toEqual(['cork', 'packets written', 'cork']);
    await new Promise((r) => process.nextTick(r));
    expect(calls).toEqual(['cork', 'packets written', 'cork', 'uncork', 'uncork']);
  });

  it('defers engine.io flushes to the end of the event loop iteration: packets sent meanwhile go in one flush', async () => {
    const flushed: number[][] = [];
    const conn = Object.assign(new EventEmitter(), {
      transport: undefined,
      writeBuffer: [] as number[],
      flush(this: { writeBuffer: number[] }) {
        if (this.writeBuffer.length) flushed.push(this.writeBuffer.splice(0));
      },
    });
    coalesceWrites(conn);
    const send = (n: number) => {
      conn.writeBuffer.push(n);
      conn.flush();
    };
    send(1);
    send(2);
    await Promise.resolve();
    send(3); // an ack after an await, in the same iteration
    expect(flushed).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(flushed).toEqual([[1, 2, 3]]);
    send(4);
    await new Promise((r) => setImmediate(r));
    expect(flushed).toEqual([[1, 2, 3], [4]]);
  });

  it('leaves a transport without a TCP socket of its own (long-polling) alone', () => {
    const conn = fakeConnection(undefined);
    expect(() => conn.emit('flush')).not.toThrow();
    const conn2 = Object.assign(new EventEmitter(), { transport: undefined });
    coalesceWrites(conn2);
    expect(() => conn2.emit('flush')).not.toThrow();
  });
});
