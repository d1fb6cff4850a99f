import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * Whether `given` is the configured admin key, in constant time (both sides
 * are hashed first, so neither the length nor a prefix leaks through timing).
 * With no key configured nothing matches: admin access is off.
 */
export function adminKeyMatches(configured: string | undefined, given: unknown): boolean {
  if (!configured || typeof given !== 'string' || given.length === 0) return false;
  return timingSafeEqual(digest(configured), digest(given));
}
