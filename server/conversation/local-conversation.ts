import type { Extractor } from '../extract/extractor.ts';
import { OfflineExtractor } from '../extract/offline/index.ts';
import type { CompiledFlow } from '../flow/compiled-flow.ts';
import { start, turn } from '../engine/engine.ts';
import { extractionRequest, matchCommand } from '../engine/extraction.ts';
import type { Session } from '../engine/session.ts';
import type { EngineEvent, EngineOptions, Input, StartInit, TurnResult } from '../engine/types.ts';
import { systemCallEnv, type ActionRegistry, type CallEnv } from './actions.ts';
import { settleTurn } from './effects.ts';
import type { BotMessage } from './messages.ts';

/** One exchange: what the bot said and what happened. */
export interface Reply {
  messages: BotMessage[];
  events: EngineEvent[];
  session: Session;
}

export interface LocalOptions {
  extractor?: Extractor;
  actions?: ActionRegistry;
  env?: CallEnv;
  engine?: EngineOptions;
}

/**
 * One conversation in memory, with the effects carried out: the runner the
 * CLI (`run`, `chat`) and tests use. The server's conversation service adds
 * locking, storage and transport around the same steps.
 */
export class LocalConversation {
  private current!: Session;
  readonly trace: EngineEvent[] = [];
  private readonly extractor: Extractor;
  private readonly env: CallEnv;

  constructor(readonly flow: CompiledFlow, private readonly opts: LocalOptions = {}) {
    this.extractor = opts.extractor ?? new OfflineExtractor();
    this.env = opts.env ?? systemCallEnv;
  }

  /** The session as it stands. */
  get session(): Session {
    return this.current;
  }

  /** Starts the conversation: the bot speaks first. */
  async start(init: Partial<StartInit> = {}): Promise<Reply> {
    return this.settle(start(this.flow, { now: this.env.now(), ...init }, this.opts.engine));
  }

  /** Sends one user message: a command word, or text for the extractor. */
  async send(text: string, now = this.env.now()): Promise<Reply> {
    const command = matchCommand(this.flow, text);
    let input: Input;
    if (command) input = { kind: 'command', command, now, text };
    else {
      const request = extractionRequest(this.flow, this.current, text, now);
      input = { kind: 'message', text, now, proposal: await this.extractor.extract(request) };
    }
    return this.settle(turn(this.flow, this.current, input, this.opts.engine));
  }

  /** An operator's decision on a waiting interrupt. */
  async operator(decision: 'approve' | 'reject', answers?: Record<string, unknown>): Promise<Reply> {
    return this.settle(turn(this.flow, this.current, { kind: 'operator', decision, ...(answers ? { answers } : {}), now: this.env.now() }, this.opts.engine));
  }

  /** Carries out calls until the engine waits for a person, collecting messages and events. */
  private async settle(first: TurnResult): Promise<Reply> {
    const { session, messages, events } = await settleTurn(this.flow, first, this.opts.actions ?? {}, this.env, this.opts.engine);
    this.current = session;
    this.trace.push(...events);
    return { messages, events, session };
  }
}
