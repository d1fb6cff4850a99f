// The /chat wire protocol as the widget sees it. This mirrors the types in
// server/realtime/protocol.ts (the source of truth, which the client cannot
// import: it is compiled with the DOM library, the server with Node's);
// test/types/client-mirrors.ts fails the type check when the two drift.

export type Status = 'active' | 'waiting' | 'completed' | 'escalated' | 'abandoned' | 'error';

export interface Progress {
  answered: number;
  total: number;
}

export interface SessionState {
  status: Status;
  nodeId: string | null;
  path: { active: string | null; locked: boolean };
  progress: Progress;
}

/** One transcript line: `id` is the session's sequence number (contiguous, never reused). */
export interface WireMessage {
  id: number;
  role: 'bot' | 'user' | 'operator';
  text: string;
  at: string;
  nodeId?: string | null;
  kind?: 'question' | 'info' | 'invalid' | 'done' | 'handoff' | 'user' | 'operator';
  quickReplies?: string[];
  multiple?: boolean;
  progress?: Progress;
  clientId?: string;
}

export interface WireError {
  code: string;
  message: string;
}

export type ErrorAck = { ok: false; error: WireError };
export type StartAck = { ok: true; sessionId: string; token: string; messages: WireMessage[]; state: SessionState } | ErrorAck;
export type MessageAck = { ok: true; duplicate?: boolean } | ErrorAck;
export type BackAck = { ok: true; state: SessionState } | ErrorAck;
export type RestartAck = { ok: true; sessionId: string; token: string } | ErrorAck;

export type ClientContext = Record<string, string | number | boolean | null>;

export interface StartPayload {
  flow?: string;
  sessionId?: string;
  lastSeq?: number;
  locale?: string;
  context?: ClientContext;
}

/** Events the server sends on /chat. */
export interface ServerEvents {
  'bot:message': (m: WireMessage) => void;
  'user:message': (m: WireMessage) => void;
  'operator:message': (m: WireMessage) => void;
  'bot:typing': (p: { on: boolean }) => void;
  'session:state': (s: SessionState & { sessionId: string }) => void;
  'session:end': (p: { status: Status; sessionId: string }) => void;
}

/** Events the widget sends on /chat. */
export interface ClientEvents {
  'session:start': (payload: StartPayload, ack: (r: StartAck) => void) => void;
  message: (payload: { text: string; clientId: string }, ack: (r: MessageAck) => void) => void;
  'session:back': (payload: Record<string, never>, ack: (r: BackAck) => void) => void;
  'session:restart': (payload: Record<string, never>, ack: (r: RestartAck) => void) => void;
}

/** The most a visitor may type in one message (LIMITS.textChars on the server). */
export const MAX_TEXT = 2000;

export const ENDED: ReadonlySet<Status> = new Set<Status>(['completed', 'abandoned', 'error']);
