import type { CompiledFlow } from '../../server/flow/compiled-flow.ts';
import { compileText } from '../../server/flow/document.ts';
import { start, turn } from '../../server/engine/engine.ts';
import type { Session } from '../../server/engine/session.ts';
import type { Effect, EngineOptions, Input, TurnResult } from '../../server/engine/types.ts';
import type { Proposal } from '../../server/extract/extractor.ts';

/** The fixed clock of engine tests. */
export const NOW = '2026-01-15T10:00:00Z';

/** Compiles a flow given as an object; throws with the diagnostics when it has errors. */
export function flowOf(doc: Record<string, unknown>): CompiledFlow {
  const r = compileText(JSON.stringify({ version: 'v1', id: 'flow.t', ...doc }), 't.flow.json');
  if (r.kind !== 'flow' || !r.flow) throw new Error(`flow does not compile: ${JSON.stringify(r.diagnostics, null, 1)}`);
  return r.flow;
}

/** A question node. */
export const q = (id: string, key: string, extra: Record<string, unknown> = {}) => ({ id, type: 'question', key, prompt: `${key}?`, ...extra });
/** A terminal node. */
export const end = (id = 'n.end', extra: Record<string, unknown> = {}) => ({ id, type: 'terminal', ...extra });

/** A message turn whose proposal is given directly (no extractor). */
export function answer(
  flow: CompiledFlow,
  session: Session,
  updates: Record<string, unknown>,
  extra: Partial<Proposal> = {},
  opts?: EngineOptions,
): TurnResult {
  const proposal: Proposal = { extractor: 'test', updates: Object.entries(updates).map(([key, value]) => ({ key, value })), unknown: [], ...extra };
  return turn(flow, session, { kind: 'message', text: JSON.stringify(updates), now: NOW, proposal }, opts);
}

/** A command turn. */
export function command(flow: CompiledFlow, session: Session, c: Extract<Input, { kind: 'command' }>['command']): TurnResult {
  return turn(flow, session, { kind: 'command', command: c, now: NOW });
}

/** Starts a session at NOW. */
export const begin = (flow: CompiledFlow, init: Record<string, unknown> = {}, opts?: EngineOptions) => start(flow, { now: NOW, ...init }, opts);

/** The texts of say and ask effects, in order. */
export const texts = (r: { effects: Effect[] }) => r.effects.flatMap((e) => (e.type === 'say' || e.type === 'ask' ? [e.text] : []));
/** The last ask effect. */
export const lastAsk = (r: { effects: Effect[] }) => r.effects.filter((e) => e.type === 'ask').at(-1) as Extract<Effect, { type: 'ask' }> | undefined;
/** Event types of a result. */
export const eventTypes = (r: TurnResult) => r.events.map((e) => e.type);
/** A committed value. */
export const valueOf = (s: Session, key: string) => s.answers.get(key)?.value;

/** Freezes a value and everything reachable from it, so any mutation throws. */
export function deepFreeze<T>(value: T, seen = new Set<unknown>()): T {
  if (value === null || typeof value !== 'object' || seen.has(value)) return value;
  seen.add(value);
  for (const k of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[k], seen);
  return Object.freeze(value);
}
