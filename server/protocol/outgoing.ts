import { z } from 'zod';
import { ErrorAck } from './errors.ts';
import { SessionState, Status, TranscriptEntry } from './session.ts';

// What the server sends: transcript lines, acks and event payloads, as zod
// schemas so a client may validate what it receives (the browser clients
// import them as types only, to keep zod out of their bundles).

/**
 * One transcript line on the wire: in acks (`messages`), REST responses and
 * the message events (roles.ts: `bot:message`, `user:message`,
 * `operator:message`). `id` is the per-session sequence number: ids are
 * contiguous, so a client resumes with `lastSeq` = the highest id it has and
 * drops any id it already shows.
 */
export const WireMessage = TranscriptEntry.omit({ seq: true }).extend({ id: z.number().int().positive() });
export type WireMessage = z.infer<typeof WireMessage>;

/** A stored transcript entry as it goes on the wire. */
export function toWire(e: TranscriptEntry): WireMessage {
  return {
    id: e.seq, role: e.role, text: e.text, at: e.at,
    ...(e.nodeId !== undefined ? { nodeId: e.nodeId } : {}),
    ...(e.kind ? { kind: e.kind } : {}),
    ...(e.tone ? { tone: e.tone } : {}),
    ...(e.quickReplies ? { quickReplies: e.quickReplies } : {}),
    ...(e.multiple ? { multiple: true } : {}),
    ...(e.progress ? { progress: e.progress } : {}),
    ...(e.clientId ? { clientId: e.clientId } : {}),
  };
}

export { ErrorAck } from './errors.ts';

/** Ack of `session:start`: the session, its token, the transcript to show and the state. */
export const StartAck = z.union([
  z.object({ ok: z.literal(true), sessionId: z.string(), token: z.string(), messages: z.array(WireMessage), state: SessionState }),
  ErrorAck,
]);
export type StartAck = z.infer<typeof StartAck>;

/** Ack of `message`: `duplicate` when the clientId was seen before (the message was not processed again). */
export const MessageAck = z.union([z.object({ ok: z.literal(true), duplicate: z.boolean().optional() }), ErrorAck]);
export type MessageAck = z.infer<typeof MessageAck>;

/** Ack of `session:back`. */
export const BackAck = z.union([z.object({ ok: z.literal(true), state: SessionState }), ErrorAck]);
export type BackAck = z.infer<typeof BackAck>;

/** Ack of `session:restart`: the new session and its token. */
export const RestartAck = z.union([z.object({ ok: z.literal(true), sessionId: z.string(), token: z.string() }), ErrorAck]);
export type RestartAck = z.infer<typeof RestartAck>;

/** Ack of `operator:join`: the session's transcript and state. */
export const JoinAck = z.union([
  z.object({ ok: z.literal(true), tenant: z.string(), flowId: z.string(), messages: z.array(WireMessage), state: SessionState }),
  ErrorAck,
]);
export type JoinAck = z.infer<typeof JoinAck>;

/** Ack of the other operator events. */
export const OperatorAck = z.union([z.object({ ok: z.literal(true), state: SessionState.optional() }), ErrorAck]);
export type OperatorAck = z.infer<typeof OperatorAck>;

/** Ack of `operator:leave`. */
export const LeaveAck = z.union([z.object({ ok: z.literal(true) }), ErrorAck]);
export type LeaveAck = z.infer<typeof LeaveAck>;

/** `bot:typing`. */
export const TypingEvent = z.object({ on: z.boolean() });
export type TypingEvent = z.infer<typeof TypingEvent>;

/** `session:state`: the state after an exchange, with the session it belongs to. */
export const SessionStateEvent = SessionState.extend({ sessionId: z.string() });
export type SessionStateEvent = z.infer<typeof SessionStateEvent>;

/** `session:end`: the session reached an ended status. */
export const SessionEndEvent = z.object({ status: Status, sessionId: z.string() });
export type SessionEndEvent = z.infer<typeof SessionEndEvent>;
