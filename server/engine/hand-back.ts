import type { CompiledFlow } from '../flow/compiled-flow.ts';
import { checkValue, commit } from './answers.ts';
import { draftOf, emit } from './draft.ts';
import type { Session } from './session.ts';
import { ask, run } from './traverse.ts';
import type { EngineOptions, TurnResult } from './types.ts';

/** Operator answers checked like any answer: the normalised values, or the first key that fails and why. */
export type CheckedAnswers = { ok: true; values: Record<string, unknown> } | { ok: false; key: string; reason: string };

/** Validates answers an operator sets (type, constraints, validate rules), in key order. */
export function checkOperatorAnswers(flow: CompiledFlow, session: Session, answers: Record<string, unknown>, opts: EngineOptions = {}): CheckedAnswers {
  const d = draftOf(flow, session, opts);
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(answers).sort(([a], [b]) => a.localeCompare(b))) {
    const c = d.idx.questionByKey.get(key);
    if (!c) return { ok: false, key, reason: `'${key}' is not a question of this flow` };
    const checked = checkValue(d, c, value);
    if (!checked.ok) return { ok: false, key, reason: checked.reason };
    values[key] = checked.value;
  }
  return { ok: true, values };
}

/**
 * Gives a session back to the bot after a person handled it: the visitor is
 * told the person left, the operator's answers (already checked) are
 * committed, and the conversation resumes at `nodeId` (inside the subgraph
 * frames `stack`). A question the operator answered is not asked again: the
 * bot moves on along its edges, skipping answered questions; otherwise the
 * question is asked, even if it was answered before.
 */
export function handBackAt(
  flow: CompiledFlow, session: Session, nodeId: string, stack: Session['stack'], now: string,
  answers: Record<string, unknown> = {}, opts: EngineOptions = {},
): TurnResult {
  const c = flow.nodes.get(nodeId);
  if (!c || c.node.type !== 'question') throw new Error(`'${nodeId}' is not a question of ${flow.id}`);
  const d = draftOf(flow, session, opts);
  d.s.turn = session.turn + 1;
  d.s.now = now;
  Object.assign(d.s, { status: 'active', pending: undefined, outcome: undefined, stack, node: nodeId, attempts: 0, detour: undefined });
  // a closed escalation handed back is open again
  if (d.s.handover?.closed) {
    const { closed: _c, ...open } = d.s.handover;
    d.s.handover = open;
  }
  const keys = Object.keys(answers).sort();
  for (const key of keys) commit(d, key, { value: answers[key], turn: d.s.turn, source: 'operator', validation: 'passed' });
  emit(d, 'resumed', { by: 'operator', ...(keys.length ? { answered: keys } : {}) });
  d.effects.push({ type: 'say', nodeId, kind: 'handoff', text: flow.messages.hand_back });
  if (keys.includes(c.node.key)) {
    run(d, nodeId); // answered by the operator: skipped, and the bot carries on from there
  } else {
    if (d.s.answers.has(c.node.key) && !d.s.reask?.includes(c.node.key)) d.s.reask = [...(d.s.reask ?? []), c.node.key];
    ask(d, c);
  }
  return { session: d.s, effects: d.effects, events: d.events };
}
