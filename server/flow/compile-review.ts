import { isCanonical, type CompileContext } from './compile-context.ts';

/**
 * Checks review nodes: every key a review lists is a question's answer key
 * (a misspelt key would silently drop a line the visitor must check) and
 * not an `internal: true` question (the visitor may not see it); a review
 * inside a subgraph is reported, because a change jumps to the
 * question from the top level and comes back along the flow's edges.
 */
export function checkReviews(ctx: CompileContext): void {
  for (const p of ctx.placed.nodes) {
    const n = p.node;
    if (n.type !== 'review' || !isCanonical(ctx, p)) continue;
    (n.keys ?? []).forEach((k, i) => {
      if (!ctx.keys.has(k)) ctx.error('unknown_answer_key', `review '${n.id}' shows '${k}', which no question defines`, { path: [...p.path, 'keys', i], node: n.id });
      else if (internalQuestion(ctx, k)) ctx.error('internal_in_review', `review '${n.id}' shows '${k}', an internal answer the visitor may not see; remove it from keys or drop "internal"`, { path: [...p.path, 'keys', i], node: n.id });
    });
    if (p.scope !== null) ctx.warn('review_in_subgraph', `review '${n.id}' is inside subgraph '${p.scope}'; a change leaves it and may not come back unless the subgraph is entered again`, { path: [...p.path, 'type'], node: n.id });
  }
}

/** Whether some question asking `key` is marked `internal: true`. */
function internalQuestion(ctx: CompileContext, key: string): boolean {
  return ctx.placed.nodes.some((p) => p.node.type === 'question' && p.node.key === key && p.node.internal === true);
}
