import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientAddress, compileTrust, limitKey, parseTrustProxy } from '../../server/transport/client-address.ts';
import { loadConfig } from '../../server/config.ts';

const req = (remote: string, xff?: string) => ({ headers: xff ? { 'x-forwarded-for': xff } : {}, socket: { remoteAddress: remote } }) as unknown as IncomingMessage;

describe('client address', () => {
  it('ignores X-Forwarded-For unless TRUST_PROXY trusts the hop', () => {
    expect(clientAddress(req('127.0.0.1', '203.0.113.9'), compileTrust(parseTrustProxy(undefined)))).toBe('127.0.0.1');
    expect(clientAddress(req('127.0.0.1', '203.0.113.9'), compileTrust(parseTrustProxy('1')))).toBe('203.0.113.9');
    expect(clientAddress(req('127.0.0.1', '203.0.113.9'), compileTrust(parseTrustProxy('loopback')))).toBe('203.0.113.9');
    // a spoofed first hop behind one trusted proxy: the proxy's view wins
    expect(clientAddress(req('10.0.0.2', '6.6.6.6, 203.0.113.9'), compileTrust(parseTrustProxy('10.0.0.0/8')))).toBe('203.0.113.9');
    expect(clientAddress(req('198.51.100.1', '203.0.113.9'), compileTrust(parseTrustProxy('10.0.0.0/8')))).toBe('198.51.100.1');
  });

  it('refuses a TRUST_PROXY that is not an address, CIDR, count or boolean, naming the variable', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'not-an-ip' })).toThrow(/TRUST_PROXY/);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).TRUST_PROXY).toEqual(['loopback', '10.0.0.0/8']);
  });

  it('limits IPv6 by its /64 and IPv4 (also IPv4-mapped) by the address', () => {
    expect(limitKey('2001:db8:1:2:aaaa::1')).toBe(limitKey('2001:db8:1:2:ffff:ffff:ffff:ffff'));
    expect(limitKey('2001:db8:1:2::1')).not.toBe(limitKey('2001:db8:1:3::1'));
    expect(limitKey('::ffff:203.0.113.4')).toBe('203.0.113.4');
    expect(limitKey('203.0.113.4')).not.toBe(limitKey('203.0.113.5'));
  });
});
