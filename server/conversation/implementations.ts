import type { EngineOptions } from '../engine/types.ts';
import type { Extractor } from '../extract/extractor.ts';
import type { ActionRegistry, CallEnv } from './actions.ts';

/**
 * What a flow runs with besides itself: the extractor that reads messages,
 * the action handlers `call` nodes name, the named validators (and step
 * limit) the engine checks answers with, and the clock. One registry for
 * every runner — the server, the CLI, goldens, tests — the way xstate's
 * `setup({ actions, guards })` provides a machine's implementations.
 */
export interface Implementations extends EngineOptions {
  /** Reads a user message into a proposal; default: the offline rules extractor. */
  extractor?: Extractor;
  /** Handlers by the `call` name flows use; a call without one fails as the flow says. */
  actions?: ActionRegistry;
  /** Time and waiting; default: the real clock and timers. */
  env?: CallEnv;
}
