import { z } from 'zod';
import { lazy } from '../shared/lazy.ts';
import type { ActionRegistry, CallEnv } from '../conversation/actions.ts';
import { checkedExtractor } from '../conversation/checked-extractor.ts';
import type { Implementations } from '../conversation/implementations.ts';
import type { BotMessage } from '../conversation/messages.ts';
import { runTurn, type TurnInput } from '../conversation/turn-runner.ts';
import { answerValues, sessionFromJson, sessionToJson, type Session, type SessionJson } from '../engine/session.ts';
import type { Command, EngineEvent, NamedValidator } from '../engine/types.ts';
import type { Extractor } from '../extract/extractor.ts';
import type { CompiledFlow } from '../flow/compiled-flow.ts';
import { formatDiagnostic } from '../flow/diagnostic.ts';
import { checkArgs, fn } from '../shared/check-args.ts';
import { QuestlineUsageError } from '../shared/usage-error.ts';
import { checkImplementations } from './check-implementations.ts';
import { compiledFlowArg } from './flow-arg.ts';

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
  /** A saved session (an exchange's `session`) to resume: the conversation goes on from there, without `start()`. */
  session?: SessionJson;
}

/** One exchange as plain data: what the bot said, the answers so far, where the session stands, what happened, and the session to save. */
export interface Exchange {
  messages: BotMessage[];
  answers: Record<string, unknown>;
  status: Session['status'];
  events: EngineEvent[];
  /** The whole session as JSON (the record the server stores): save it anywhere, pass it back as `converse(flow, { session })` to resume. */
  session: SessionJson;
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
  /** The session as it stands (JSON, as each exchange carries it); undefined before start(). */
  readonly session: SessionJson | undefined;
}

const CALL = 'converse(flow, options)';

/** converse's options as checked at the call (the functions are only checked to be functions). */
const ConverseOptionsShape = lazy(() => z.strictObject({
  validators: z.record(z.string(), fn('(value, args, answers) => message | null')).optional(),
  actions: z.record(z.string(), fn('async (input, { signal, attempt }) => object')).optional(),
  extractor: z.looseObject({ name: z.string(), extract: fn('extract(request) => proposal') }, { message: 'expected an extractor { name, extract(request) }' }).optional(),
  context: z.record(z.string(), z.unknown()).optional(),
  locale: z.union([z.string(), z.array(z.string())]).optional(),
  now: z.custom<string | (() => string)>((v) => typeof v === 'function' || (typeof v === 'string' && /^\d{4}-\d\d-\d\dT/.test(v) && !Number.isNaN(Date.parse(v))),
    { message: 'expected an ISO date-time or a function returning one' }).optional(),
  session: z.looseObject({ v: z.number(), flow: z.object({ id: z.string(), revision: z.string() }) }, { message: "expected a saved session (an exchange's session)" }).optional(),
}));

/**
 * Holds a conversation on `flow` with your validators, actions and extractor:
 * the same turn runner the server uses (calls carried out, retries and
 * timeouts as the flow says), with no storage or transport around it.
 * Checks its arguments and that every validator and action the flow names is
 * given before anything is said (QuestlineUsageError otherwise).
 */
export function converse(flow: CompiledFlow, opts: ConverseOptions = {}): Conversation {
  const compiled = compiledFlowArg(CALL, flow);
  checkArgs(CALL, 'options', ConverseOptionsShape(), opts ?? {});
  const missing = checkImplementations(compiled, { validators: opts.validators ?? {}, actions: opts.actions ?? {} });
  if (missing.length) {
    throw new QuestlineUsageError('unregistered_implementation',
      `${CALL}: flow ${compiled.id} names ${missing.length === 1 ? 'an implementation' : 'implementations'} not given in options (validators, actions):`, missing.map(formatDiagnostic));
  }
  const { now } = opts;
  const clock = typeof now === 'function' ? now : now !== undefined ? () => now : () => new Date().toISOString();
  const env: CallEnv = { now: clock, sleep: (ms) => new Promise((r) => setTimeout(r, ms)), clock: () => performance.now() };
  const impl: Implementations = {
    env,
    ...(opts.validators ? { validators: opts.validators } : {}),
    ...(opts.actions ? { actions: opts.actions } : {}),
    ...(opts.extractor ? { extractor: checkedExtractor(opts.extractor) } : {}),
  };
  let current = opts.session ? resumed(compiled, opts.session) : undefined;
  const run = async (input: TurnInput): Promise<Exchange> => {
    const r = await runTurn(compiled, current, input, impl);
    current = r.session;
    return { messages: r.messages, answers: answerValues(r.session), status: r.session.status, events: r.events, session: sessionToJson(r.session) };
  };
  const started = (call: string) => {
    if (!current) throw new QuestlineUsageError('invalid_argument', `conversation.${call}: the conversation has not started; call start() first (or pass a saved session to converse)`);
  };
  return {
    start: () => run({ kind: 'start', init: { now: clock(), ...(opts.context ? { context: opts.context } : {}), ...(opts.locale ? { locale: opts.locale } : {}) } }),
    send: async (text) => {
      started('send(text)');
      if (typeof text !== 'string') throw new QuestlineUsageError('invalid_argument', `conversation.send(text): expected the visitor's message as a string, got ${typeof text}`);
      return run({ kind: 'text', text, now: clock() });
    },
    command: async (name) => {
      started('command(name)');
      return run({ kind: 'command', command: name, now: clock() });
    },
    decide: async (decision, answers) => {
      started('decide(decision)');
      return run({ kind: 'operator', decision, ...(answers ? { answers } : {}), now: clock() });
    },
    get session() {
      return current ? sessionToJson(current) : undefined;
    },
  };
}

/** A saved session, checked against the flow it resumes on. */
function resumed(flow: CompiledFlow, json: SessionJson): Session {
  let session: Session;
  try {
    session = sessionFromJson(json);
  } catch (err) {
    throw new QuestlineUsageError('invalid_argument', `${CALL}: options.session is not a saved session: ${(err as Error).message.split('\n')[0]}`);
  }
  if (session.flow.id !== flow.id) {
    throw new QuestlineUsageError('invalid_argument', `${CALL}: options.session belongs to flow ${session.flow.id}, not ${flow.id}`);
  }
  if (session.node !== null && !flow.nodes.has(session.node)) {
    throw new QuestlineUsageError('invalid_argument', `${CALL}: options.session is at node ${session.node}, which flow ${flow.id} (revision ${flow.revision}) does not have`);
  }
  return session;
}
