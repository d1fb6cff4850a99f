import type { ActionRegistry, CallEnv } from '../conversation/actions.ts';
import { LocalConversation, type Reply } from '../conversation/local-conversation.ts';
import type { BotMessage } from '../conversation/messages.ts';
import { answerValues, type Session } from '../engine/session.ts';
import type { Command, EngineEvent, NamedValidator } from '../engine/types.ts';
import type { Extractor } from '../extract/extractor.ts';
import type { CompiledFlow } from '../flow/compiled-flow.ts';

/** What a conversation runs with: your implementations, the visitor's context, and a clock. */
export interface ConverseOptions {
  validators?: Readonly<Record<string, NamedValidator>>;
  actions?: ActionRegistry;
  /** Reads a message into proposed answers; default: the offline rules extractor. */
  extractor?: Extractor;
  /** The session context flows read as `context.*` (locale, channel, …). */
  context?: Record<string, unknown>;
  /** The visitor's languages, most preferred first (or one tag), matched against the flow's `locales`; default: its default locale. */
  locale?: string | readonly string[];
  /** The clock: an ISO date-time, or a function returning one; default: the real time. */
  now?: string | (() => string);
}

/** One exchange as plain data: what the bot said, the answers so far, where the session stands, what happened. */
export interface Exchange {
  messages: BotMessage[];
  answers: Record<string, unknown>;
  status: Session['status'];
  events: EngineEvent[];
}

/** A conversation held in memory; each call runs one turn and resolves with its exchange. */
export interface Conversation {
  /** Starts the conversation: the bot speaks first. */
  start(): Promise<Exchange>;
  /** One visitor message: a command word (back, restart, …) or words for the extractor. */
  send(text: string): Promise<Exchange>;
  /** A command sent as a control rather than typed (back, restart, cancel, human, …). */
  command(name: Command): Promise<Exchange>;
  /** An operator's decision on a session waiting for review, optionally with corrected answers. */
  decide(decision: 'approve' | 'reject', answers?: Record<string, unknown>): Promise<Exchange>;
}

/**
 * Holds a conversation on `flow` with your validators, actions and extractor:
 * the same turn runner the server uses (calls carried out, retries and
 * timeouts as the flow says), with no storage or transport around it.
 */
export function converse(flow: CompiledFlow, opts: ConverseOptions = {}): Conversation {
  const { now } = opts;
  const clock = typeof now === 'function' ? now : now !== undefined ? () => now : () => new Date().toISOString();
  const env: CallEnv = { now: clock, sleep: (ms) => new Promise((r) => setTimeout(r, ms)), clock: () => performance.now() };
  const local = new LocalConversation(flow, {
    env,
    ...(opts.validators ? { validators: opts.validators } : {}),
    ...(opts.actions ? { actions: opts.actions } : {}),
    ...(opts.extractor ? { extractor: opts.extractor } : {}),
  });
  const exchange = (r: Reply): Exchange =>
    ({ messages: r.messages, answers: answerValues(r.session), status: r.session.status, events: r.events });
  return {
    start: async () => exchange(await local.start({ ...(opts.context ? { context: opts.context } : {}), ...(opts.locale ? { locale: opts.locale } : {}) })),
    send: async (text) => exchange(await local.send(text)),
    command: async (name) => exchange(await local.command(name)),
    decide: async (decision, answers) => exchange(await local.operator(decision, answers)),
  };
}
