import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killServers, spawnServer } from '../support/server-process.ts';
import { REPO_FLOWS } from '../support/server.ts';
import { envNumber, recordTally } from './tally.ts';

// A slow-connection flood (issue 33): one address opens many connections and
// sends half a request on each, as slowloris does. The server keeps at most
// CONNECTIONS_PER_ADDRESS of them and drops headers that take too long, so
// another address is still served. Addresses are loopback aliases (127.0.0.3
// floods, 127.0.0.2 is the visitor), so the per-address cap sees two clients.

const FLOOD = envNumber('SLOW_FLOOD_CONNECTIONS', 300);
const dirs: string[] = [];
afterAll(async () => {
  await killServers();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** GET `path` from the visitor's address; the status, or 0 when the connection failed. */
function visit(port: number, path: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, localAddress: '127.0.0.2', headers: { 'X-Questline-Key': 'pk_acme_demo' }, timeout: 10_000 }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', () => resolve(0));
    req.once('timeout', () => req.destroy());
    req.end();
  });
}

describe('a slow-connection flood', () => {
  it('does not take the server from another address', async () => {
    const data = mkdtempSync(join(tmpdir(), 'questline-slow-'));
    dirs.push(data);
    const server = await spawnServer({ FLOWS_DIR: REPO_FLOWS, DATA_DIR: data, STORE: 'memory', ADMIN_KEY: 'slow-connections-admin-key' }, { label: 'slow', timeoutMs: 60_000, maxLogLines: 100 });
    const port = Number(new URL(server.url).port);
    const sockets: Socket[] = [];
    let closedByServer = 0;
    await Promise.all(Array.from({ length: FLOOD }, () => new Promise<void>((resolve) => {
      const s = connect({ host: '127.0.0.1', port, localAddress: '127.0.0.3' }, () => {
        s.write('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ');
        resolve();
      });
      s.once('close', () => closedByServer++);
      s.once('error', () => resolve());
      sockets.push(s);
    })));
    let served = 0;
    let failed = 0;
    for (let i = 0; i < 20; i++) {
      const status = await visit(port, i % 2 ? '/healthz' : '/api/v1/tenants/acme/flows');
      if (status === 200) served++;
      else failed++;
    }
    const held = sockets.filter((s) => !s.destroyed && !s.closed).length;
    for (const s of sockets) s.destroy();
    console.log(`slow flood: ${FLOOD} slow connections from one address, ${held} held open by the server, ${closedByServer} closed; the other address: ${served} served, ${failed} failed`);
    recordTally('slow-connections', { slow_flood_connections: FLOOD, slow_flood_held: held, slow_flood_visitor_failures: failed });
    expect(failed).toBe(0);
    expect(held).toBeLessThanOrEqual(64);
  }, 180_000);
});
