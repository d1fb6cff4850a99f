import type { IncomingMessage } from 'node:http';
import type ipaddr from 'ipaddr.js';
import type proxyaddr from 'proxy-addr';
import { lazyRequire } from '../shared/lazy-require.ts';

/** proxy-addr and ipaddr.js, loaded when an address is first read or a trust setting parsed (not by `import('questline/server')`). */
const proxyAddr = lazyRequire<typeof proxyaddr>('proxy-addr');
const ipAddr = lazyRequire<typeof ipaddr>('ipaddr.js');

// Who is asking, as limits and logs see it. Behind a reverse proxy every
// connection comes from the proxy; TRUST_PROXY says which hops may name the
// real client in X-Forwarded-For, with express's `trust proxy` semantics, and
// the socket.io handshake reads the header the same way as express's req.ip.

/** Whether the hop at `addr`, `i` hops from the server, may name the one before it. */
export type TrustFn = (addr: string, i: number) => boolean;

/** TRUST_PROXY as express reads it: true/false, a hop count, or a list of addresses, CIDRs and loopback/linklocal/uniquelocal. */
export type TrustProxy = boolean | number | string[];

/** Parses TRUST_PROXY (unset: no proxy is trusted); throws on an address or CIDR that is not one. */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const v = (value ?? '').trim();
  if (v === '' || v === 'false') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) return Number(v);
  const list = v.split(',').map((s) => s.trim()).filter(Boolean);
  proxyAddr().compile(list); // throws "invalid IP address: …" early, at start
  return list;
}

/** The trust function of a setting, as express compiles `trust proxy`. */
export function compileTrust(setting: TrustProxy): TrustFn {
  if (setting === true) return () => true;
  if (setting === false) return () => false;
  if (typeof setting === 'number') return (_addr, i) => i < setting;
  return proxyAddr().compile(setting);
}

/** The client's address of a request (an HTTP request or a socket.io handshake's), past trusted proxies. */
export function clientAddress(req: IncomingMessage, trust: TrustFn): string {
  if (!req.socket?.remoteAddress) return 'unknown';
  return proxyAddr()(req, trust);
}

/**
 * The key an address is limited by: an IPv4 address itself (also when
 * IPv4-mapped), an IPv6 address by its /64 (one subscriber usually holds a
 * whole /64, so a script could otherwise rotate through 2^64 addresses).
 */
export function limitKey(address: string): string {
  if (!ipAddr().isValid(address)) return address;
  const parsed = ipAddr().process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(':')}::/64`;
}
