import type { Tenant } from '../flow/tenant.ts';

/**
 * The context a new session starts with: what the page sent (already checked
 * against the protocol's ClientContext), overridden by the tenant's own
 * `settings` (tenant.json: "passed to sessions as context"), so a page can
 * never change what the business configured.
 */
export function sessionContext(tenant: Tenant, fromClient: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const merged = { ...(fromClient ?? {}), ...(tenant.settings ?? {}) };
  return Object.keys(merged).length ? merged : undefined;
}
