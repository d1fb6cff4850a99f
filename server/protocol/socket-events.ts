import type { z } from 'zod';
import type { BackAck, JoinAck, LeaveAck, MessageAck, OperatorAck, RestartAck, SessionEndEvent, SessionStateEvent, StartAck, TypingEvent, WireMessage } from './outgoing.ts';
import type { MessagePayload, OperatorClose, OperatorDecision, OperatorHandBack, OperatorJoin, OperatorMessage, SessionStartPayload } from './wire.ts';

// socket.io's typed event maps of /chat and /operator, shared by the server
// and the browser clients. The message events' names come from roles.ts.

/** Events a /chat client sends (socket.io's ClientToServerEvents). */
export interface ChatClientEvents {
  'session:start': (payload: SessionStartPayload, ack: (r: StartAck) => void) => void;
  message: (payload: MessagePayload, ack: (r: MessageAck) => void) => void;
  'session:back': (payload: Record<string, never>, ack: (r: BackAck) => void) => void;
  'session:restart': (payload: Record<string, never>, ack: (r: RestartAck) => void) => void;
}

/** Events a session's room receives, on /chat and on /operator (socket.io's ServerToClientEvents). */
export interface SessionRoomEvents {
  'bot:message': (m: WireMessage) => void;
  /** A visitor's message (so a second tab, or an operator, sees it). */
  'user:message': (m: WireMessage) => void;
  'operator:message': (m: WireMessage) => void;
  'bot:typing': (p: TypingEvent) => void;
  'session:state': (s: SessionStateEvent) => void;
  'session:end': (p: SessionEndEvent) => void;
}

/** Events an /operator client sends. */
export interface OperatorClientEvents {
  'operator:join': (payload: z.infer<typeof OperatorJoin>, ack: (r: JoinAck) => void) => void;
  'operator:leave': (payload: z.infer<typeof OperatorJoin>, ack: (r: LeaveAck) => void) => void;
  'operator:message': (payload: z.infer<typeof OperatorMessage>, ack: (r: OperatorAck) => void) => void;
  'operator:decision': (payload: z.infer<typeof OperatorDecision>, ack: (r: OperatorAck) => void) => void;
  'operator:hand-back': (payload: z.infer<typeof OperatorHandBack>, ack: (r: OperatorAck) => void) => void;
  /** Ends the conversation (an escalated one stays `escalated`, marked closed); acks `{ ok, state }`. */
  'operator:close': (payload: z.infer<typeof OperatorClose>, ack: (r: OperatorAck) => void) => void;
}

/** What the server keeps on a /chat socket (socket.data). */
export interface ChatSocketData {
  tenant: string;
  ip: string;
  origin?: string;
  /** The handshake token, or the token of the session this socket started. */
  token?: string;
  /** The one session this socket may act on: the one it started or resumed last. */
  sessionId?: string;
  flowId?: string;
}

/** What the server keeps on an /operator socket. */
export interface OperatorSocketData {
  ip: string;
  /** Who the handshake's key belongs to: "admin" or an operator's name (the audit log's actor). */
  actor: string;
}
