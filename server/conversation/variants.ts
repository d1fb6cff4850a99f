import { createHash } from 'node:crypto';
import type { Tenant } from '../catalog/tenant.ts';
import type { CompiledFlow } from '../flow/compiled-flow.ts';

// Variants (docs/insights.md#variants): a tenant serves a second revision of
// a flow beside the current one to a share of new sessions (`variants` in
// tenant.json). A visitor with an id (the widget sends one per browser)
// always lands on the same side for as long as the split stays the same; a
// visitor without one is placed at random. The funnel groups by revision, so
// the two sides are compared there.

/** Where a visitor falls in [0, 1) for a flow's split: the same for the same visitor, flow and revision. */
export function visitorPoint(flowId: string, revision: string, visitor: string): number {
  const h = createHash('sha256').update(`${flowId}\u0000${revision}\u0000${visitor}`).digest();
  return h.readUInt32BE(0) / 2 ** 32;
}

/**
 * The revision a new session of `current`'s flow starts on: the tenant's
 * variant revision for the visitors whose point falls under its `share`, else
 * the current one (also when the variant's revision is not known here).
 */
export function chooseRevision(
  tenant: Pick<Tenant, 'variants'> | undefined, current: CompiledFlow,
  pinned: (flowId: string, revision: string) => CompiledFlow | undefined, visitor: string | undefined, random: () => number,
): CompiledFlow {
  const v = tenant?.variants?.[current.id];
  if (!v || v.share <= 0 || v.revision === current.revision) return current;
  const other = pinned(current.id, v.revision);
  if (!other) return current;
  const point = visitor !== undefined ? visitorPoint(current.id, v.revision, visitor) : random();
  return point < v.share ? other : current;
}
