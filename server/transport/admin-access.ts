import { createHash, timingSafeEqual } from 'node:crypto';

// Who may use the admin API and the /operator namespace, and under which
// name the audit log records them: the single ADMIN_KEY (recorded as
// "admin") and any named operator keys (OPERATOR_KEYS), kept as SHA-256
// hashes only. Every configured key is compared, in constant time, whatever
// matched first, so timing tells nothing about which key or how much of it.

/** A named operator's key, as its SHA-256 hash (32 bytes). */
export interface OperatorKey {
  name: string;
  sha256: Buffer;
}

/** The name the admin key's holder goes by in the audit log. */
export const ADMIN_ACTOR = 'admin';

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** The admin key and the named operator keys. */
export class AdminAccess {
  private readonly keys: ReadonlyArray<{ name: string; sha256: Buffer }>;

  constructor(adminKey?: string, operators: readonly OperatorKey[] = []) {
    this.keys = [...(adminKey ? [{ name: ADMIN_ACTOR, sha256: digest(adminKey) }] : []), ...operators];
  }

  /** Whether any key is configured (without one, admin access is off). */
  get enabled(): boolean {
    return this.keys.length > 0;
  }

  /** The name of the holder of `given` ("admin" for ADMIN_KEY, else the operator's name), or undefined for no key or a wrong one. */
  holder(given: unknown): string | undefined {
    if (typeof given !== 'string' || given.length === 0) return undefined;
    const d = digest(given);
    let found: string | undefined;
    for (const k of this.keys) if (timingSafeEqual(k.sha256, d) && found === undefined) found = k.name;
    return found;
  }
}

/** A configured OPERATOR_KEYS entry's key part: `sha256:<64 hex>` (kept as is) or the key itself (hashed here, never kept). */
export function operatorKeyHash(value: string): Buffer {
  const m = /^sha256:([0-9a-f]{64})$/i.exec(value);
  return m ? Buffer.from(m[1]!.toLowerCase(), 'hex') : digest(value);
}
