import { createHmac, timingSafeEqual } from 'node:crypto';

// How a receiver knows a webhook came from this server (the scheme Stripe and
// GitHub use): the server signs "<timestamp>.<raw body>" with the tenant's
// webhook secret using HMAC-SHA256 and sends
//
//   X-Questline-Timestamp: 1768471200                 (unix seconds, per attempt)
//   X-Questline-Signature: sha256=<64 lower-case hex>
//
// A receiver reads the raw request body (before any JSON parsing), recomputes
// HMAC-SHA256(secret, timestamp + "." + body), compares it with the header in
// constant time, and rejects timestamps too far from its own clock (5 minutes
// is usual) so a captured request cannot be replayed later. The
// X-Questline-Delivery header stays the same across retries of one ending:
// receivers de-duplicate on it.

/** The signature header value for a body sent at `timestamp` (unix seconds). */
export function signPayload(secret: string, timestamp: number | string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** How far a signature's timestamp may be from the receiver's clock by default: 5 minutes (as Stripe's verifier). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * Checks an `X-Questline-Signature` header in constant time (for receivers and
 * tests), and rejects a timestamp further than `toleranceSeconds` (default
 * 300; `Infinity` turns the check off) from `now` (epoch ms, default the
 * system clock), so a captured request cannot be replayed later.
 */
export function verifySignature(
  secret: string, timestamp: string | number, body: string, header: string | null | undefined,
  opts: { toleranceSeconds?: number; now?: number } = {},
): boolean {
  if (typeof header !== 'string' || !/^\d{1,12}$/.test(String(timestamp))) return false;
  const tolerance = opts.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = (opts.now ?? Date.now()) / 1000;
  if (!(Math.abs(now - Number(timestamp)) <= tolerance)) return false;
  const m = /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
  if (!m) return false;
  const expected = Buffer.from(signPayload(secret, timestamp, body).slice('sha256='.length), 'hex');
  const given = Buffer.from(m[1]!.toLowerCase(), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
