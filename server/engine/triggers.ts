import type { CompiledFlow } from '../flow/compiled-flow.ts';
import type { Trigger } from '../flow/schema.ts';
import { emit, type Draft } from './draft.ts';
import type { Proposal, TriggerChoice } from './input.ts';
import { run } from './traverse.ts';
import type { Command } from './types.ts';

// Flow-level triggers (flow-ir.md `triggers`): the extractor proposes a match,
// the engine decides. A trigger wins over answer extraction: a red-flag message
// sent as the answer to "your full name" is a red flag, not a name.

const choiceCache = new WeakMap<CompiledFlow, Map<string, readonly TriggerChoice[]>>();

/** The triggers active at `node` as an extractor sees them (frozen and cached per flow and node); undefined when there are none. */
export function activeTriggers(flow: CompiledFlow, node: string | null): readonly TriggerChoice[] | undefined {
  const all = flow.source.triggers;
  if (!all?.length) return undefined;
  let byNode = choiceCache.get(flow);
  if (!byNode) choiceCache.set(flow, (byNode = new Map()));
  const key = node ?? '';
  let list = byNode.get(key);
  if (!list) {
    list = Object.freeze(all.filter((t) => node === null || !t.off_at?.includes(node)).map((t) => Object.freeze({
      id: t.id, phrases: t.phrases ?? [], examples: t.examples ?? [], ...(t.description ? { description: t.description } : {}),
      ...(t.words && (t.together?.length || t.together_in_message?.length) ? { words: t.words, together: t.together ?? [] } : {}),
      ...(t.words && t.together_in_message?.length ? { togetherInMessage: t.together_in_message } : {}),
      ...(t.unless?.length ? { unless: t.unless } : {}), ...(t.figurative?.length ? { figurative: t.figurative } : {}),
    })));
    byNode.set(key, list);
  }
  return list.length > 0 ? list : undefined;
}

/** The declared trigger a proposal matched, if it is active where the session is; a proposal naming another is ignored (and recorded). */
export function matchedTrigger(d: Draft, proposal: Proposal): Trigger | undefined {
  const id = proposal.trigger?.id;
  if (id === undefined) return undefined;
  const t = d.flow.source.triggers?.find((x) => x.id === id);
  if (!t) {
    emit(d, proposal.extractor === 'rules' ? 'proposal_rejected' : 'llm_proposal_rejected', { trigger: id, reason: `'${id}' is not a declared trigger`, extractor: proposal.extractor });
    return undefined;
  }
  if (d.s.node !== null && t.off_at?.includes(d.s.node)) {
    emit(d, 'input_ignored', { trigger: id, reason: `trigger '${id}' is off at '${d.s.node}'` });
    return undefined;
  }
  return t;
}

/** Records the match and marks the session urgent when the trigger says so. */
export function noteTrigger(d: Draft, t: Trigger, proposal: Proposal): void {
  const m = proposal.trigger!;
  emit(d, 'trigger_matched', {
    trigger: t.id, ...(m.confidence !== undefined ? { confidence: m.confidence } : {}), extractor: proposal.extractor,
    ...(t.goto ? { goto: t.goto } : { command: t.command }), ...(t.urgent ? { urgent: true } : {}),
  });
  if (t.urgent && !d.s.urgent) d.s.urgent = { reason: t.reason ?? t.id, trigger: t.id, turn: d.s.turn };
}

/**
 * Goes to a `goto` trigger's node from wherever the session is: out of any
 * subgraph, the pending prompt and refinement dropped. Returns the command of
 * a `command` trigger for the caller to run instead.
 */
export function fireTrigger(d: Draft, t: Trigger): Command | undefined {
  if (t.command) return t.command;
  emit(d, 'node_exit', { to: t.goto, trigger: t.id });
  Object.assign(d.s, { stack: [], pending: undefined, route: undefined, detour: undefined, assessing: undefined, attempts: 0 });
  run(d, t.goto!);
  return undefined;
}
