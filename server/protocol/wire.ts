import { z } from 'zod';
import type { WireError } from './errors.ts';
import { LIMITS } from './limits.ts';

// What comes in: the zod schemas every incoming payload (socket event or REST
// body) is checked against, and the one parser that answers with a wire
// error. What goes out is in outgoing.ts, the socket event maps in
// socket-events.ts.

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
export type ClientContext = z.infer<typeof ClientContext>;

// --- /chat ------------------------------------------------------------------

/** Handshake `auth` of /chat: the tenant's public key, and a session token to resume. */
export const ChatAuth = z.object({ key: z.string().min(1).max(200), token: z.string().min(1).max(200).optional() });
export type ChatAuth = z.infer<typeof ChatAuth>;

/** `session:start`: a new session on `flow`, or (with `sessionId` and the handshake token) a resumed one. */
/** A visitor's own opaque id (the widget keeps one per browser): keeps a visitor on the same variant of a flow. */
export const VisitorId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, '8 to 64 letters, digits, - or _');

export const SessionStartPayload = z
  .object({
    flow: FlowId.optional(),
    sessionId: SessionId.optional(),
    /** Resume: replay only what came after this sequence number. */
    lastSeq: z.number().int().min(0).optional(),
    locale: z.string().max(35).optional(),
    context: ClientContext.optional(),
    visitor: VisitorId.optional(),
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
/** `operator:join` / `operator:leave`: the session to watch (or stop watching). */
export const OperatorJoin = z.object({ sessionId: SessionId });
/** `operator:message`: an operator writes into a session. */
export const OperatorMessage = z.object({ sessionId: SessionId, text: Text });
/** Keys that are never answer keys: parsing would drop them silently (`__proto__` sets a prototype), turning a correction into a plain approve. */
const NOT_ANSWER_KEYS = ['__proto__', 'constructor', 'prototype'];

/** Answers an operator sets (corrections, hand-back answers): answer key → value; a prototype key is refused, not dropped. */
const OperatorAnswers = z.preprocess((v, ctx) => {
  const bad = v !== null && typeof v === 'object' ? Object.keys(v).find((k) => NOT_ANSWER_KEYS.includes(k)) : undefined;
  if (bad !== undefined) ctx.addIssue({ code: 'custom', message: `'${bad}' is not an answer key` });
  return v;
}, z.record(z.string().max(200), z.unknown()));

/** An operator's decision on a session waiting at an interrupt (REST body). */
export const Decision = z.object({
  decision: z.enum(['approve', 'reject']),
  answers: OperatorAnswers.optional(),
  /** The role the operator decides in; refused (`wrong_role`) when the interrupt names another (flow-ir.md `interrupt.role`). */
  role: z.string().min(1).max(100).optional(),
});
/** `operator:decision`. */
export const OperatorDecision = Decision.extend({ sessionId: SessionId });
/** Hand a session back to the bot at a question node (REST body). */
export const HandBack = z.object({
  nodeId: z.string().min(1).max(200),
  /** Answers the operator's conversation settled, checked like any answer; the bot does not ask them again. */
  answers: OperatorAnswers.optional(),
});
/** `operator:hand-back`. */
export const OperatorHandBack = HandBack.extend({ sessionId: SessionId });
/** `operator:close`: an operator ends a conversation a person was answering. */
export const OperatorClose = z.object({ sessionId: SessionId });

// --- REST bodies ------------------------------------------------------------

/** `POST /tenants/:tenant/sessions`. */
export const StartBody = z.object({ flow: FlowId, context: ClientContext.optional(), locale: z.string().max(35).optional(), visitor: VisitorId.optional() });
/** `POST /sessions/:id/messages`: the server makes a clientId up when there is none. */
export const MessageBody = z.object({ text: Text, clientId: ClientId.optional() });
/** `POST /admin/sessions/:id/messages`. */
export const OperatorMessageBody = z.object({ text: Text });

/** A count for people: 2,000. */
const count = (n: number) => n.toLocaleString('en-US');

/** Messages we wrote ourselves (refine and regex texts in this file) are words already; zod's own ("Invalid input: expected string") are not. */
const OWN_MESSAGE = /^(give |at most |context is |an? )/;

/** A refusal in words: ours kept, naming the field; zod's replaced by which field is wrong (zod's text goes to the log). */
function plainWords(field: string, message: string): string {
  if (!OWN_MESSAGE.test(message)) return field ? `'${field}' is missing or not valid.` : 'The request is not valid.';
  if (/^an? /.test(message)) return field ? `'${field}' must be ${message}.` : `This must be ${message}.`;
  return field ? `'${field}': ${message}.` : `${message[0]!.toUpperCase()}${message.slice(1)}.`;
}

/**
 * Parses a payload; a string or list over its limit is `too_large`, anything
 * else malformed `invalid_payload`. The message is in plain words for the
 * visitor or operator who will read it ("Your message is too long (at most
 * 2,000 characters)."); zod's own wording goes in `detail`, for the log.
 */
export function parsePayload<T extends z.ZodType>(schema: T, data: unknown): { ok: true; value: z.infer<T> } | { ok: false; error: WireError; detail: string } {
  const parsed = schema.safeParse(data);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0]!;
  const field = issue.path.join('.');
  const detail = `${field ? `${field}: ` : ''}${issue.message}`;
  const tooBig = issue.code === 'too_big' && (issue.origin === 'string' || issue.origin === 'array');
  if (tooBig) {
    const max = count(Number(issue.maximum));
    const message = issue.path.at(-1) === 'text'
      ? `Your message is too long (at most ${max} characters).`
      : `'${field}' is too long (at most ${max} ${issue.origin === 'string' ? 'characters' : 'items'}).`;
    // a language tag past its length is not a big payload but a wrong one: 400, not 413
    return { ok: false, error: { code: issue.path.at(-1) === 'locale' ? 'invalid_payload' : 'too_large', message }, detail };
  }
  if (issue.path.at(-1) === 'text' && issue.code === 'custom') return { ok: false, error: { code: 'invalid_payload', message: 'Your message is empty.' }, detail };
  return { ok: false, error: { code: 'invalid_payload', message: plainWords(field, issue.message) }, detail };
}
