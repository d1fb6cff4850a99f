import type { Server as HttpServer } from 'node:http';
import type { Socket } from 'node:net';
import { compileTrust, limitKey, type TrustProxy } from './client-address.ts';

// What one address can hold open. Every open connection is a file descriptor;
// a slow client that opens many and never finishes its headers would spend
// them (`ulimit -n`) and take the server from everyone. The listener counts
// open connections per address (IPv6 by /64) and closes one past the cap at
// once; a proxy TRUST_PROXY trusts is exempt (every visitor arrives through
// it). Headers must arrive within HEADERS_TIMEOUT_MS and a connection with
// nothing on it closes after IDLE_TIMEOUT_MS, both well under Node's 60 s.

/** Time for a request's headers to arrive (Node's default: 60 s). */
export const HEADERS_TIMEOUT_MS = 10_000;
/** Time for a whole request (headers and body) to arrive (Node's default: 300 s). */
export const REQUEST_TIMEOUT_MS = 30_000;
/** A connection with no traffic is closed after this (socket.io pings every 25 s). */
export const IDLE_TIMEOUT_MS = 40_000;
/** Open connections one address may hold, by default. */
export const DEFAULT_CONNECTIONS_PER_ADDRESS = 64;

/** Sets the timeouts and the per-address connection cap on the server; returns the open counts (for tests and metrics). */
export function guardConnections(http: HttpServer, opts: { perAddress: number; trustProxy?: TrustProxy; onRefused?: (address: string) => void }): Map<string, number> {
  http.headersTimeout = HEADERS_TIMEOUT_MS;
  http.requestTimeout = REQUEST_TIMEOUT_MS;
  http.timeout = IDLE_TIMEOUT_MS;
  const open = new Map<string, number>();
  if (opts.perAddress <= 0) return open;
  const trusted = compileTrust(opts.trustProxy ?? false);
  http.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (!address || (opts.trustProxy !== undefined && opts.trustProxy !== false && trusted(address, 0))) return;
    const key = limitKey(address);
    const n = (open.get(key) ?? 0) + 1;
    if (n > opts.perAddress) {
      socket.destroy();
      opts.onRefused?.(key);
      return;
    }
    open.set(key, n);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left <= 0) open.delete(key);
      else open.set(key, left);
    });
  });
  return open;
}
