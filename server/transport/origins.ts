import type { IncomingMessage } from 'node:http';
import type { TenantDirectory } from '../catalog/tenants.ts';

/**
 * Origins at the door, before any tenant is known (socket.io's allowRequest,
 * CORS preflights): an origin some tenant allows, or the server's own (its
 * demo and admin pages). Which tenant an origin may act for is checked later,
 * once the key says who the tenant is.
 */
export class OriginGate {
  private readonly cache = new Map<string, boolean>();

  constructor(private readonly tenants: TenantDirectory) {}

  /** Whether any tenant allows this origin. */
  anyTenantAllows(origin: string): boolean {
    const hit = this.cache.get(origin);
    if (hit !== undefined) return hit;
    const ok = this.tenants.ids().some((id) => {
      const t = this.tenants.tenant(id);
      return t !== undefined && this.tenants.allowsOrigin(t, origin);
    });
    if (this.cache.size < 1_000) this.cache.set(origin, ok);
    return ok;
  }

  /** Whether a request may come in at all: no Origin (not a browser), the server's own origin, or one a tenant allows. */
  admits(req: Pick<IncomingMessage, 'headers'>): boolean {
    const origin = req.headers.origin;
    if (origin === undefined) return true;
    return isSameOrigin(origin, req.headers.host) || this.anyTenantAllows(origin);
  }
}

/** Whether `origin` is the origin the request was sent to (http or https on the Host it named). */
export function isSameOrigin(origin: string, host: string | undefined): boolean {
  if (!host) return false;
  const o = origin.toLowerCase();
  const h = host.toLowerCase();
  return o === `http://${h}` || o === `https://${h}`;
}
