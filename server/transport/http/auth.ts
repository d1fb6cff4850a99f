import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { ConversationService } from '../../conversation/service.ts';
import type { TenantDirectory } from '../../catalog/tenants.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import { parsePayload, SessionId } from '../../protocol/index.ts';
import type { StoredSession } from '../../store/session-store.ts';
import type { RateLimits } from '../rate-limits.ts';
import type { AdminAccess } from '../admin-access.ts';
import { limitKey } from '../client-address.ts';
import { HttpError } from '../errors.ts';
import { isSameOrigin } from '../origins.ts';

// Who a REST request speaks for. The path never decides it alone: a tenant
// comes from its public key (and the Origin must be one it allows), a session
// from its bearer token, an operator from the admin key.

/** The key the caller's address is limited by: `req.ip` (past the proxies TRUST_PROXY trusts), IPv6 by /64. */
export const clientIp = (req: Request): string => limitKey(req.ip ?? req.socket.remoteAddress ?? 'unknown');

/** Parses a body or query with a protocol schema; throws `invalid_payload` / `too_large`. */
export function parseWith<S extends z.ZodType>(schema: S, data: unknown): z.infer<S> {
  const parsed = parsePayload(schema, data);
  if (!parsed.ok) throw Object.assign(new HttpError(parsed.error.code, parsed.error.message), { detail: parsed.detail });
  return parsed.value;
}

/**
 * Refuses a browser request from an origin the tenant does not allow.
 * Requests without Origin are not from a page; the server's own origin (its
 * demo page, on whatever PORT) is trusted for every tenant.
 */
export function checkOrigin(tenants: TenantDirectory, tenant: Tenant, req: Request): void {
  const origin = req.get('origin');
  if (!tenants.allowsOrigin(tenant, origin) && !(origin && isSameOrigin(origin, req.get('host')))) throw new HttpError('origin_not_allowed', `origin ${origin} may not act for tenant '${tenant.id}'`);
}

/** The tenant of `X-Questline-Key`, which must be the tenant the path names, called from an origin it allows. */
export function tenantByKey(tenants: TenantDirectory, req: Request, tenantId: string): Tenant {
  const key = req.get('x-questline-key');
  if (!key) throw new HttpError('unknown_key', 'send the tenant\'s public widget key in X-Questline-Key');
  const tenant = tenants.byKey(key);
  if (!tenant) throw new HttpError('unknown_key', 'this widget key belongs to no tenant');
  if (tenant.id !== tenantId) throw new HttpError('forbidden', `this key belongs to another tenant than '${tenantId}'`);
  checkOrigin(tenants, tenant, req);
  return tenant;
}

/** Who the request's admin or operator key belongs to ("admin", or an operator's name), or undefined (constant-time compare). */
export function adminOf(admins: AdminAccess, req: Request): string | undefined {
  return admins.holder(req.get('x-questline-admin'));
}

/** The session a bearer token opens; the session id in the path must be the one the token belongs to. */
export async function sessionByToken(
  service: ConversationService, tenants: TenantDirectory, req: Request, id: string,
): Promise<{ tenant: string; record: StoredSession }> {
  if (!SessionId.safeParse(id).success) throw new HttpError('unknown_session', 'no such session');
  const header = req.get('authorization') ?? '';
  const m = /^Bearer\s+(\S{1,200})$/i.exec(header);
  if (!m) throw new HttpError('bad_token', 'send the session token as "Authorization: Bearer <token>"');
  const auth = await service.authenticate(id, m[1]);
  if (!auth.ok) throw new HttpError(auth.error.code, auth.error.message);
  const tenant = tenants.tenant(auth.value.tenant);
  if (tenant) checkOrigin(tenants, tenant, req);
  return auth.value;
}

/**
 * Lets an admin request through, returning who sent it ("admin" or an
 * operator's name, for the audit log), or throws: a right key always passes
 * (a flood of wrong keys from the same address cannot lock its holder out);
 * wrong keys are counted per address, and past the limit get 429.
 */
export async function admitAdmin(limits: RateLimits, admins: AdminAccess, req: Request): Promise<string> {
  if (!admins.enabled) throw new HttpError('admin_only', 'The admin pages are turned off on this server (it was started without ADMIN_KEY or OPERATOR_KEYS).');
  const actor = adminOf(admins, req);
  const admitted = await limits.admin(clientIp(req), actor !== undefined);
  if (admitted.ok) {
    if (actor !== undefined) return actor;
  } else if (admitted.limited) throw new HttpError('rate_limited', 'Too many wrong admin keys from this address. Wait a minute, then try again.', Math.ceil(admitted.retryAfterMs / 1000));
  throw new HttpError('admin_only', 'This needs the admin key, and the key given is missing or wrong.');
}

/** A route parameter as one string (express 5 types wildcard params as lists). */
export function param(req: Request, name: string): string {
  const v = (req.params as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(v) ? v.join('/') : (v ?? '');
}

/** Who an admitted admin request acts as (set by the admin routes' gate). */
export function actorOf(res: Response): string {
  return typeof res.locals.actor === 'string' ? res.locals.actor : 'admin';
}
