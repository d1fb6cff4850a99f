import type { CompiledFlow } from './compiled-flow.ts';

// Which answers a visitor may be shown after the fact (the visitor API's
// `answers`, a review's lines). A question marked `internal: true` is kept
// back; an action's outputs are internal unless the action says
// `internal: false`. A key some node marks internal stays internal even when
// another node would show it. Exports and webhooks carry every answer.

/** The answer keys of a flow split by who may see them. */
export interface AnswerVisibility {
  /** Keys never shown to the visitor. */
  internal: ReadonlySet<string>;
  /** Keys an action with `internal: false` fills: shown although an action produced them. */
  shownOutputs: ReadonlySet<string>;
}

const cache = new WeakMap<CompiledFlow, AnswerVisibility>();

/** The flow's internal keys and shown action outputs (memoised per compiled flow). */
export function answerVisibility(flow: CompiledFlow): AnswerVisibility {
  let v = cache.get(flow);
  if (v) return v;
  const internal = new Set<string>();
  const shown = new Set<string>();
  for (const { node: n } of flow.nodes.values()) {
    if (n.type === 'question' && n.internal === true) internal.add(n.key);
    if (n.type === 'action') {
      const outputs = [...Object.values(n.output_map ?? {}), ...(n.provides ?? [])];
      for (const k of outputs) (n.internal === false ? shown : internal).add(k);
    }
  }
  for (const k of internal) shown.delete(k);
  v = { internal, shownOutputs: shown };
  cache.set(flow, v);
  return v;
}

/** Whether the visitor may see the answer `key` (`fromAction`: an action committed it). */
export function visibleToVisitor(flow: CompiledFlow, key: string, fromAction: boolean): boolean {
  const v = answerVisibility(flow);
  if (v.internal.has(key)) return false;
  return !fromAction || v.shownOutputs.has(key);
}
