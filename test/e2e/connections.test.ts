import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADERS_TIMEOUT_MS, IDLE_TIMEOUT_MS } from '../../server/transport/connection-guard.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// One address cannot hold the server's file descriptors: past
// CONNECTIONS_PER_ADDRESS its new connections are closed at once, and slow
// headers time out well before Node's 60 s.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ store: 'memory', env: { CONNECTIONS_PER_ADDRESS: '5' } });
});
afterAll(async () => {
  await server?.dispose();
});

/** A connection that sends half a request line and then nothing (a slow client). */
function slow(): Promise<{ socket: Socket; closed: Promise<'closed'> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => {
      socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
      resolve({ socket, closed: new Promise((r) => socket.once('close', () => r('closed'))) });
    });
    socket.once('error', reject);
  });
}

describe('connections', () => {
  it('closes an address\'s connections past the cap at once, and takes new ones when it holds fewer', async () => {
    const held = await Promise.all(Array.from({ length: 5 }, () => slow()));
    const extra = await slow();
    // the sixth is closed by the server without an answer, while the five stay open
    expect(await extra.closed).toBe('closed');
    // …and the five it holds are served when they finish their requests (a timeout would have closed them too)
    const answers = await Promise.all(held.map((h) => new Promise<string>((resolve) => {
      let text = '';
      h.socket.on('data', (d: Buffer) => {
        text += d.toString('latin1');
        if (text.includes('\r\n\r\n')) resolve(text.split('\r\n')[0]!);
      });
      h.socket.once('close', () => resolve(text.split('\r\n')[0] ?? ''));
      h.socket.write('\r\n');
    })));
    expect(answers).toEqual(Array(5).fill('HTTP/1.1 200 OK'));
    for (const h of held) h.socket.destroy();
    await Promise.all(held.map((h) => h.closed));
    // the server counts a connection gone when its side closes: ask again until it has
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(1000) }).then((r) => r.status, () => 0);
    }
    expect(status).toBe(200);
  });

  it('waits for headers and idle connections for less than Node\'s 60 s', () => {
    expect(server.http.headersTimeout).toBe(HEADERS_TIMEOUT_MS);
    expect(HEADERS_TIMEOUT_MS).toBeLessThan(60_000);
    expect(server.http.timeout).toBe(IDLE_TIMEOUT_MS);
    expect(IDLE_TIMEOUT_MS).toBeLessThan(60_000);
    expect(server.http.requestTimeout).toBeLessThan(60_000);
  });
});
