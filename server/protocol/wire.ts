import { z } from 'zod';
import type { SessionState } from './session.ts';
import type { TranscriptEntry } from './session.ts';
import type { WireError } from './errors.ts';

// The wire protocol, in one module: the zod schemas every incoming payload
// (socket event or REST body) is checked against, the shapes that go out, and
// socket.io's typed event maps. Clients import it with `import type`.

export type { SessionState } from './session.ts';
export type { WireError } from './errors.ts';

/** Size limits of the protocol. */
export const LIMITS = {
  /** One engine.io packet / one REST body, in bytes: bigger ones are refused (REST 413) or close the socket. */
  maxPayloadBytes: 32 * 1024,
  /** A visitor's or operator's message, in characters (longer: `too_large`). */
  textChars: 2_000,
  /** Keys and serialized size of a session's client context. */
  contextKeys: 32,
  contextBytes: 4_096,
} as const;

/** Session ids as the stores accept them. */
export const SessionId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'a session id (8-64 characters of A-Z a-z 0-9 _ -)');
/** A client's id for one message, so a resend is processed once. */
export const ClientId = z.string().regex(/^[A-Za-z0-9_.:-]{1,100}$/, 'a client message id (1-100 characters of A-Z a-z 0-9 _ . : -)');
const FlowId = z.string().min(1).max(200);
const Text = z.string().max(LIMITS.textChars).refine((s) => s.trim().length > 0, 'text is empty');

/** What a page may tell the flow about itself (`context.*` in guards): flat, small, primitive values. */
export const ClientContext = z
  .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'a context key (letters, digits, _)'), z.union([z.string().max(500), z.number(), z.boolean(), z.null()]))
  .refine((c) => Object.keys(c).length <= LIMITS.contextKeys, `at most ${LIMITS.contextKeys} context keys`)
  .refine((c) => JSON.stringify(c).length <= LIMITS.contextBytes, `context is larger than ${LIMITS.contextBytes} bytes`);

// --- /chat ------------------------------------------------------------------

/** Handshake `auth` of /chat: the tenant's public key, and a session token to resume. */
export const ChatAuth = z.object({ key: z.string().min(1).max(200), token: z.string().min(1).max(200).optional() });
export type ChatAuth = z.infer<typeof ChatAuth>;

/** `session:start`: a new session on `flow`, or (with `sessionId` and the handshake token) a resumed one. */
export const SessionStartPayload = z
  .object({
    flow: FlowId.optional(),
    sessionId: SessionId.optional(),
    /** Resume: replay only what came after this sequence number. */
    lastSeq: z.number().int().min(0).optional(),
    locale: z.string().max(35).optional(),
    context: ClientContext.optional(),
  })
  .refine((p) => p.flow !== undefined || p.sessionId !== undefined, 'give a flow to start, or a sessionId to resume');
export type SessionStartPayload = z.infer<typeof SessionStartPayload>;

/** `message`: one user message; `clientId` makes a resend idempotent. */
export const MessagePayload = z.object({ text: Text, clientId: ClientId });
export type MessagePayload = z.infer<typeof MessagePayload>;

/** `session:back` and `session:restart` take an empty object. */
export const EmptyPayload = z.object({}).optional();

// --- /operator --------------------------------------------------------------

/** Handshake `auth` of /operator. */
export const OperatorAuth = z.object({ adminKey: z.string().min(1).max(500) });
export const OperatorJoin = z.object({ sessionId: SessionId });
export const OperatorMessage = z.object({ sessionId: SessionId, text: Text });
export const Decision = z.object({ decision: z.enum(['approve', 'reject']), answers: z.record(z.string().max(200), z.unknown()).optional() });
export const OperatorDecision = Decision.extend({ sessionId: SessionId });
export const HandBack = z.object({ nodeId: z.string().min(1).max(200) });
export const OperatorHandBack = HandBack.extend({ sessionId: SessionId });

// --- REST bodies ------------------------------------------------------------

/** `POST /tenants/:tenant/sessions`. */
export const StartBody = z.object({ flow: FlowId, context: ClientContext.optional(), locale: z.string().max(35).optional() });
/** `POST /sessions/:id/messages`: the server makes a clientId up when there is none. */
export const MessageBody = z.object({ text: Text, clientId: ClientId.optional() });
/** `POST /admin/sessions/:id/messages`. */
export const OperatorMessageBody = z.object({ text: Text });

// --- outgoing ---------------------------------------------------------------

/**
 * One transcript line on the wire: in acks (`messages`), REST responses and
 * the `bot:message` / `user:message` / `operator:message` events. `id` is the
 * per-session sequence number: ids are contiguous, so a client resumes with
 * `lastSeq` = the highest id it has and drops any id it already shows.
 */
export type WireMessage = Omit<TranscriptEntry, 'seq'> & { id: number };

/** A stored transcript entry as it goes on the wire. */
export function toWire(e: TranscriptEntry): WireMessage {
  return {
    id: e.seq, role: e.role, text: e.text, at: e.at,
    ...(e.nodeId !== undefined ? { nodeId: e.nodeId } : {}),
    ...(e.kind ? { kind: e.kind } : {}),
    ...(e.quickReplies ? { quickReplies: e.quickReplies } : {}),
    ...(e.multiple ? { multiple: true } : {}),
    ...(e.progress ? { progress: e.progress } : {}),
    ...(e.clientId ? { clientId: e.clientId } : {}),
  };
}

/** A failed request's ack. */
export type ErrorAck = { ok: false; error: WireError };
export type StartAck = { ok: true; sessionId: string; token: string; messages: WireMessage[]; state: SessionState } | ErrorAck;
export type MessageAck = { ok: true; duplicate?: boolean } | ErrorAck;
export type BackAck = { ok: true; state: SessionState } | ErrorAck;
export type RestartAck = { ok: true; sessionId: string; token: string } | ErrorAck;
export type JoinAck = { ok: true; tenant: string; flowId: string; messages: WireMessage[]; state: SessionState } | ErrorAck;
export type OperatorAck = { ok: true; state?: SessionState } | ErrorAck;

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
  'bot:typing': (p: { on: boolean }) => void;
  'session:state': (s: SessionState & { sessionId: string }) => void;
  'session:end': (p: { status: SessionState['status']; sessionId: string }) => void;
}

/** Events an /operator client sends. */
export interface OperatorClientEvents {
  'operator:join': (payload: z.infer<typeof OperatorJoin>, ack: (r: JoinAck) => void) => void;
  'operator:leave': (payload: z.infer<typeof OperatorJoin>, ack: (r: { ok: true } | ErrorAck) => void) => void;
  'operator:message': (payload: z.infer<typeof OperatorMessage>, ack: (r: OperatorAck) => void) => void;
  'operator:decision': (payload: z.infer<typeof OperatorDecision>, ack: (r: OperatorAck) => void) => void;
  'operator:hand-back': (payload: z.infer<typeof OperatorHandBack>, ack: (r: OperatorAck) => void) => void;
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
}

/**
 * Parses a payload; a string or list over its limit is `too_large`, anything
 * else malformed `invalid_payload`, with the first problem in words.
 */
export function parsePayload<T extends z.ZodType>(schema: T, data: unknown): { ok: true; value: z.infer<T> } | { ok: false; error: WireError } {
  const parsed = schema.safeParse(data);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0]!;
  const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
  const tooBig = issue.code === 'too_big' && (issue.origin === 'string' || issue.origin === 'array');
  return { ok: false, error: { code: tooBig ? 'too_large' : 'invalid_payload', message: `${where}${issue.message}` } };
}
