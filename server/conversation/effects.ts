import { turn } from '../engine/engine.ts';
import type { Session } from '../engine/session.ts';
import type { EngineEvent, EngineOptions, TurnResult } from '../engine/types.ts';
import type { CompiledFlow } from '../flow/compiled-flow.ts';
import { runCall, type ActionRegistry, type CallEnv } from './actions.ts';
import { effectsToMessages, type BotMessage } from './messages.ts';

/** A turn with its effects carried out: where the session ended up, what people see, what happened. */
export interface Settled {
  session: Session;
  messages: BotMessage[];
  events: EngineEvent[];
}

/**
 * Carries out a turn's `call` effects — each action result goes back into the
 * engine as the next input — until the engine waits for a person; collects the
 * messages and events of every step. Shared by every runner (the service, the
 * in-memory conversation of the CLI and tests).
 */
export async function settleTurn(
  flow: CompiledFlow, first: TurnResult, actions: ActionRegistry, env: CallEnv, opts?: EngineOptions,
): Promise<Settled> {
  let result = first;
  const messages = effectsToMessages(result.effects);
  const events = [...result.events];
  for (;;) {
    const call = result.effects.find((e) => e.type === 'call');
    if (!call || call.type !== 'call') break;
    result = turn(flow, result.session, await runCall(call, actions, env), opts);
    messages.push(...effectsToMessages(result.effects));
    events.push(...result.events);
  }
  return { session: result.session, messages, events };
}
