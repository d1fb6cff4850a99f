import type { CompiledFlow } from '../flow/compiled-flow.ts';
import { checkOperatorAnswers } from '../engine/hand-back.ts';
import type { Session } from '../engine/session.ts';
import type { Command, EngineEvent, StartInit } from '../engine/types.ts';
import { systemCallEnv } from './actions.ts';
import type { Implementations } from './implementations.ts';
import type { BotMessage } from './messages.ts';
import { runTurn, type TurnInput } from './turn-runner.ts';

/** One exchange: what the bot said and what happened. */
export interface Reply {
  messages: BotMessage[];
  events: EngineEvent[];
  session: Session;
}

/**
 * One conversation in memory, with the effects carried out: the runner the
 * CLI (`run`, `chat`), goldens and tests use. The server's conversation
 * service adds locking, storage and transport around the same turn runner.
 */
export class LocalConversation {
  private current: Session | undefined;
  readonly trace: EngineEvent[] = [];
  /** Someone from the team is online (default: nobody), as a server's operator console would say: an escalation's honest words follow it. */
  staffed = false;

  constructor(readonly flow: CompiledFlow, private readonly impl: Implementations = {}) {}

  /** The session as it stands. */
  get session(): Session {
    if (!this.current) throw new Error('the conversation has not started');
    return this.current;
  }

  /** Starts the conversation: the bot speaks first. */
  async start(init: Partial<StartInit> = {}): Promise<Reply> {
    return this.run({ kind: 'start', init: { now: this.now(), ...init } });
  }

  /** Sends one user message: a command word, or text for the extractor. */
  async send(text: string, now = this.now()): Promise<Reply> {
    return this.run({ kind: 'text', text, now, ...(this.staffed ? { staffed: true } : {}) });
  }

  /** A command sent as a control (a widget button) rather than typed. */
  async command(command: Command, now = this.now()): Promise<Reply> {
    return this.run({ kind: 'command', command, now, ...(this.staffed ? { staffed: true } : {}) });
  }

  /** An operator's decision on a waiting interrupt. */
  async operator(decision: 'approve' | 'reject', answers?: Record<string, unknown>): Promise<Reply> {
    return this.run({ kind: 'operator', decision, ...(answers ? { answers } : {}), now: this.now() });
  }

  /**
   * A person hands the conversation back to the bot at the question `nodeId`,
   * optionally with answers they settled; refused (throws) when an answer
   * does not pass its question's checks or the node is not a question here.
   */
  async handBack(nodeId: string, answers: Record<string, unknown> = {}): Promise<Reply> {
    const c = this.flow.nodes.get(nodeId);
    if (!c || c.node.type !== 'question') throw new Error(`'${nodeId}' is not a question of ${this.flow.id}`);
    const checked = checkOperatorAnswers(this.flow, this.session, answers, this.impl);
    if (!checked.ok) throw new Error(`answers.${checked.key}: ${checked.reason}`);
    const frame = c.scope === null ? -1 : this.session.stack.findIndex((f) => f.ref === c.scope);
    if (c.scope !== null && frame < 0) throw new Error(`'${nodeId}' is inside subgraph '${c.scope}', which the conversation is not in`);
    return this.run({ kind: 'resume', nodeId, stack: this.session.stack.slice(0, frame + 1), now: this.now(), answers: checked.values });
  }

  private now(): string {
    return (this.impl.env ?? systemCallEnv).now();
  }

  /** Runs one turn on the session as it stands, keeping the new session and the trace. */
  private async run(input: TurnInput): Promise<Reply> {
    const { session, messages, events } = await runTurn(this.flow, this.current, input, this.impl);
    this.current = session;
    this.trace.push(...events);
    return { messages, events, session };
  }
}
