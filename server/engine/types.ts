import type { Proposal } from './input.ts';
import type { Session } from './session.ts';
import type { StatusName as Status } from '../protocol/statuses.ts';

/** The built-in commands; their words can be changed per flow under `commands`. */
export type Command = 'back' | 'restart' | 'human' | 'cancel' | 'skip';

/** One input to `turn`: a message with the extractor's proposal, a command, an action result, or an operator's decision. */
export type Input =
  | { kind: 'message'; text: string; proposal: Proposal; now: string; staffed?: boolean }
  | { kind: 'command'; command: Command; now: string; text?: string; staffed?: boolean }
  | { kind: 'action_result'; callId: string; ok: true; output: Record<string, unknown>; durationMs?: number; now: string; staffed?: boolean }
  | { kind: 'action_result'; callId: string; ok: false; error: string; durationMs?: number; now: string; staffed?: boolean }
  | { kind: 'operator'; decision: 'approve' | 'reject'; answers?: Record<string, unknown>; by?: string; note?: string; now: string }
  /** The visitor asks to go on in another of the flow's locales ("Deutsch", "en français"). */
  | { kind: 'locale'; locale: string; now: string; text?: string };

/** Progress over the questions that still apply: answered so far, and the estimated total. */
export interface Progress { answered: number; total: number }

/** What the runner outside the engine must do. The engine never does it itself. */
export type Effect =
  | { type: 'say'; nodeId: string; text: string; kind: 'info' | 'done' | 'handoff'; /** `alert`: safety advice, the say of an urgent trigger's node. */ tone?: 'alert' }
  | {
      type: 'ask';
      nodeId: string;
      /** The answer key asked for; absent for the path prompt. */
      key?: string;
      text: string;
      kind: 'question' | 'invalid';
      quickReplies?: string[];
      multiple?: boolean;
      progress: Progress;
    }
  | { type: 'call'; nodeId: string; callId: string; name: string; input: Record<string, unknown>; retry: { max: number; backoffMs: number }; timeoutMs: number }
  | { type: 'escalate'; nodeId: string | null; reason: string }
  | { type: 'complete'; status: Status; outcome?: string; answers: Record<string, unknown> }
  | { type: 'wait_for_operator'; nodeId: string; when: 'before' | 'after'; role?: string; prompt?: string; timeoutS?: number };

/** Every event type the engine emits (flow-ir.md), plus proposal rejections by the rules extractor. */
export type EventType =
  | 'node_enter' | 'node_exit' | 'guard' | 'answer_set' | 'answer_skipped' | 'validation_failed'
  | 'path_vote' | 'path_switch' | 'path_lock' | 'action_call' | 'action_result' | 'action_failed'
  | 'subgraph_enter' | 'subgraph_exit' | 'interrupt' | 'escalated' | 'completed' | 'abandoned' | 'error'
  | 'llm_proposal_rejected' | 'proposal_rejected' | 'command' | 'operator' | 'back' | 'input_ignored' | 'resumed'
  | 'assessment' | 'llm_call' | 'llm_fallback' | 'trigger_matched' | 'review' | 'dependency' | 'locale_changed' | 'handover' | 'confirmation';

/** One entry of the trace: what happened, at which turn and node, and why. */
export interface EngineEvent {
  type: EventType;
  turn: number;
  node: string | null;
  [detail: string]: unknown;
}

/** The result of `start` and `turn`: the next session, what to do, and what happened. */
export interface TurnResult {
  session: Session;
  effects: Effect[];
  events: EngineEvent[];
}

/** A named validator: a pure function returning an error message, or null when the value passes. */
export type NamedValidator = (value: unknown, args: unknown, answers: Readonly<Record<string, unknown>>) => string | null;

/** Options a host passes to the engine: pure functions only. */
export interface EngineOptions {
  validators?: Readonly<Record<string, NamedValidator>>;
  /** Steps (node entries) allowed in one turn before the session errors; default 100. */
  maxSteps?: number;
}

/** What `start` needs besides the flow. */
export interface StartInit {
  id?: string;
  context?: Record<string, unknown>;
  now: string;
  /** The visitor's languages, most preferred first (or one tag): matched against the flow's `locales`. */
  locale?: string | readonly string[];
  /** Start mid-flow: answers already known (goldens' `given`), and a locked path. */
  given?: { answers?: Record<string, unknown>; path?: string };
}
