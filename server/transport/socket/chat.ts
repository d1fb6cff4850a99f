import type { Namespace, Server, Socket } from 'socket.io';
import type { ConversationService } from '../../conversation/service.ts';
import type { TenantDirectory } from '../../catalog/tenants.ts';
import { socketError, storageError, type WireError } from '../errors.ts';
import type { InFlight } from '../inflight.ts';
import { isSameOrigin } from '../origins.ts';
import type { Logger } from '../../observability/logger.ts';
import type { Metrics } from '../../observability/metrics.ts';
import {
  ChatAuth, EmptyPayload, MessagePayload, messageEvent, parsePayload, SessionStartPayload, toWire,
  type BackAck, type ChatClientEvents, type ErrorAck, type SessionState, type ChatSocketData, type MessageAck, type RestartAck, type SessionRoomEvents, type StartAck,
} from '../../protocol/index.ts';
import type { RateLimits } from '../rate-limits.ts';
import { connectError, handle, roomOf, socketClientIp } from './socket-server.ts';
import type { TrustFn } from '../client-address.ts';
import { wantedLocales } from '../accept-language.ts';
import { EMPTY_MESSAGE, hasVisibleText } from '../visible-text.ts';

/** What the /chat namespace needs. */
export interface ChatDeps {
  service: ConversationService;
  tenants: TenantDirectory;
  metrics: Metrics;
  logger: Logger;
  limits: RateLimits;
  inflight: InFlight;
  /** Which proxies may name the client (TRUST_PROXY); default none. */
  trust?: TrustFn;
}

/**
 * `bot:typing` goes out only for a turn still running after this long (a
 * model call, a slow action): a fast turn's reply arrives before a typing
 * indicator would be noticed, and the two packets would cost more than the
 * rest of the turn's traffic.
 */
export const TYPING_AFTER_MS = 150;

type ChatSocket = Socket<ChatClientEvents, SessionRoomEvents, Record<string, never>, ChatSocketData>;

/** Unknown events a socket may send past its message limit before it is disconnected. */
const JUNK_DISCONNECT_AFTER = 20;

const rateLimited = (retryAfterMs: number, _scope: string): { ok: false; error: WireError } =>
  socketError({ code: 'rate_limited', message: `Too many messages at once. Please wait ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s and try again.` });

/**
 * The visitors' namespace (interfaces.md "Websocket"). The handshake's key
 * names the tenant and the Origin must be one it allows (or the server's own,
 * for its demo page); a socket then acts
 * only on the one session it started or resumed (kept in socket.data), never
 * on an id a payload names.
 */
export function attachChat(io: Server, deps: ChatDeps): Namespace {
  const { service, tenants, metrics, logger, limits, inflight } = deps;
  const chat = io.of('/chat') as unknown as Namespace<ChatClientEvents, SessionRoomEvents, Record<string, never>, ChatSocketData>;

  chat.use((socket, next) => {
    const refuse = (error: WireError) => {
      metrics.rejected.inc({ transport: 'socket', code: error.code });
      next(connectError(error));
    };
    const ip = socketClientIp(socket, deps.trust);
    void limits.connect(ip).then((limited) => {
      if (!limited.ok) return refuse(rateLimited(limited.retryAfterMs, 'connections').error);
      const auth = parsePayload(ChatAuth, socket.handshake.auth);
      if (!auth.ok) return refuse({ code: 'unknown_key', message: 'handshake auth needs { key }: the public widget key of a tenant' });
      const tenant = tenants.byKey(auth.value.key);
      if (!tenant) return refuse({ code: 'unknown_key', message: 'this widget key belongs to no tenant' });
      const origin = socket.handshake.headers.origin;
      const own = origin !== undefined && isSameOrigin(origin, socket.handshake.headers.host);
      if (!own && !tenants.allowsOrigin(tenant, origin)) return refuse({ code: 'origin_not_allowed', message: `origin ${origin} may not use this tenant's key` });
      socket.data = { tenant: tenant.id, ip, ...(origin ? { origin } : {}), ...(auth.value.token ? { token: auth.value.token } : {}) };
      next();
    }, (err: unknown) => {
      logger.error({ err }, 'chat handshake failed');
      next(connectError(storageError(err) ?? { code: 'internal', message: 'the server could not check this connection' }));
    });
  });

  chat.on('connection', (socket: ChatSocket) => {
    metrics.sockets.inc({ namespace: '/chat' });
    socket.on('disconnect', () => metrics.sockets.dec({ namespace: '/chat' }));
    const log = logger.child({ tenant: socket.data.tenant, socket: socket.id });
    const refused = (e: WireError) => metrics.rejected.inc({ transport: 'socket', code: e.code });

    /** Makes `sessionId` this socket's session: leaves the previous room, joins the new one. */
    const adopt = async (sessionId: string, token: string, flowId: string) => {
      if (socket.data.sessionId && socket.data.sessionId !== sessionId) await socket.leave(roomOf(socket.data.sessionId));
      await socket.join(roomOf(sessionId));
      socket.data.sessionId = sessionId;
      socket.data.token = token;
      socket.data.flowId = flowId;
    };

    // what a message or command is charged to: this socket (in memory), its address and its tenant
    const client = `socket:${socket.id}`;
    const charge = () => limits.message({ client, ip: socket.data.ip, tenant: socket.data.tenant });

    // an event this namespace does not know still gets an answer when the client waits for one; it is
    // charged to the socket's own message limit like a message, and a socket that goes on sending them
    // past that limit is disconnected (a junk flood costs the server no more than a message flood)
    let junkRefused = 0;
    socket.onAny((event: unknown, ...args: unknown[]) => {
      if (typeof event === 'string' && CHAT_EVENTS.has(event)) return;
      const ack = args.at(-1);
      void limits.messageClient(client).then((own) => {
        if (!own.ok) {
          junkRefused += 1;
          if (junkRefused > JUNK_DISCONNECT_AFTER) {
            log.warn({ ip: socket.data.ip, refused: junkRefused }, 'socket disconnected: unknown events past its limit');
            socket.disconnect(true);
            return;
          }
        }
        if (typeof ack !== 'function') return;
        const error: WireError = own.ok
          ? { code: 'invalid_payload', message: `unknown event ${JSON.stringify(String(event).slice(0, 40))}; see interfaces.md` }
          : rateLimited(own.retryAfterMs, own.scope).error;
        refused(error);
        (ack as (r: unknown) => void)(socketError(error));
      });
    });

    handle(socket, 'session:start', SessionStartPayload, inflight, log, async (p): Promise<StartAck> => {
      if (p.sessionId) {
        // resume: a replay of the transcript, so limited per address and per session
        const read = await limits.read({ ip: socket.data.ip, session: p.sessionId });
        if (!read.ok) return rateLimited(read.retryAfterMs, 'resumes');
        // the handshake token must open this session, of this tenant
        const auth = await service.authenticate(p.sessionId, socket.data.token);
        if (!auth.ok) return socketError(auth.error);
        if (auth.value.tenant !== socket.data.tenant) return socketError({ code: 'forbidden', message: "this session belongs to another tenant's key" });
        // join before reading, so nothing committed in between is missed (clients drop ids they already have)
        await adopt(p.sessionId, socket.data.token!, auth.value.record.flowId);
        // a visitor back within the tenant's resume_s of going idle picks up where they left off (welcomed, asked again)
        if (auth.value.record.status === 'abandoned') {
          const back = await service.resume(p.sessionId);
          if (back.ok && back.value.messages.length > 0) log.info({ sessionId: p.sessionId }, 'idle session picked up again');
        }
        const view = await service.view(p.sessionId, p.lastSeq ?? 0);
        if (!view.ok) return socketError(view.error);
        log.info({ sessionId: p.sessionId, lastSeq: p.lastSeq ?? 0, replayed: view.value.transcript.length }, 'session resumed');
        return { ok: true, sessionId: p.sessionId, token: socket.data.token!, messages: view.value.transcript.map(toWire), state: view.value.state };
      }
      const limited = await limits.start(socket.data.ip);
      if (!limited.ok) return rateLimited(limited.retryAfterMs, 'new sessions');
      const tenant = socket.data.tenant;
      const started = await service.startSession({ tenant, flow: p.flow!, ...ctx(p.context), locale: wantedLocales(p.locale, socket.handshake.headers), ...(p.visitor ? { visitor: p.visitor } : {}) });
      if (!started.ok) return socketError(started.error);
      const { sessionId, token, messages, state } = started.value;
      const flowId = tenants.flow(tenant, p.flow!)?.id ?? p.flow!;
      await adopt(sessionId, token, flowId);
      metrics.sessionsStarted.inc({ tenant, flow: flowId, transport: 'socket' });
      metrics.positions.update(sessionId, tenant, flowId, state);
      log.info({ sessionId, flow: flowId }, 'session started');
      return { ok: true, sessionId, token, messages: messages.map(toWire), state };
    }, refused);

    handle(socket, 'message', MessagePayload, inflight, log, async (p): Promise<MessageAck> => {
      const sessionId = socket.data.sessionId;
      if (!sessionId) return socketError({ code: 'unknown_session', message: 'start or resume a session first (session:start)' });
      if (!hasVisibleText(p.text)) return socketError(EMPTY_MESSAGE);
      // over the socket's own limit (in memory): refused before anything reaches the session
      const own = await limits.messageClient(client);
      if (!own.ok) return rateLimited(own.retryAfterMs, own.scope);
      // the turn sets out alongside the IP and tenant charges (with Redis: the charges, the turn lock and the
      // record in one round trip) and runs only if they admit it; a refused turn does nothing and is not counted
      const charged = limits.messageShared({ ip: socket.data.ip, tenant: socket.data.tenant });
      const turn = service.message(sessionId, p.text, p.clientId, charged.then(isAdmitted, notAdmitted));
      turn.catch(ignore); // handled from the start: awaited below once admitted, else nobody waits for it
      const limited = await charged;
      if (!limited.ok) return rateLimited(limited.retryAfterMs, limited.scope);
      let typing = false;
      const typingTimer = setTimeout(() => {
        typing = true;
        chat.to(roomOf(sessionId)).emit('bot:typing', { on: true });
      }, TYPING_AFTER_MS);
      try {
        const r = await metrics.turn(sessionId, labels(socket, 'message'), () => turn);
        if (!r.ok) return socketError(r.error);
        if (r.value.duplicate) {
          // the first reply was broadcast when it was made; a resend means this client may have missed it
          for (const m of r.value.messages) socket.emit(messageEvent(m.role), toWire(m));
          return { ok: true, duplicate: true };
        }
        return { ok: true };
      } finally {
        clearTimeout(typingTimer);
        if (typing) chat.to(roomOf(sessionId)).emit('bot:typing', { on: false });
      }
    }, refused);

    /** `back` and `restart`: a command turn on the socket's session, charged like a message. */
    const command = async <A>(name: 'back' | 'restart', ack: (sessionId: string, state: SessionState) => A): Promise<A | ErrorAck> => {
      const sessionId = socket.data.sessionId;
      if (!sessionId) return socketError({ code: 'unknown_session', message: 'start or resume a session first (session:start)' });
      const limited = await charge();
      if (!limited.ok) return rateLimited(limited.retryAfterMs, limited.scope);
      const r = await metrics.turn(sessionId, labels(socket, name), () => service.command(sessionId, name));
      return r.ok ? ack(sessionId, r.value.state) : socketError(r.error);
    };

    handle(socket, 'session:back', EmptyPayload, inflight, log,
      (): Promise<BackAck> => command('back', (_id, state) => ({ ok: true, state })), refused);

    handle(socket, 'session:restart', EmptyPayload, inflight, log,
      (): Promise<RestartAck> => command('restart', (sessionId) => ({ ok: true, sessionId, token: socket.data.token! })), refused);
  });

  return chat as unknown as Namespace;
}

// a message's handlers that need nothing of it, made once
const isAdmitted = (l: { ok: boolean }) => l.ok;
const notAdmitted = () => false;
const ignore = () => undefined;

/** The events the /chat namespace handles. */
const CHAT_EVENTS = new Set(['session:start', 'message', 'session:back', 'session:restart']);

const ctx = (context: Record<string, unknown> | undefined) => (context ? { context } : {});

const labels = (socket: ChatSocket, kind: 'message' | 'back' | 'restart') =>
  ({ tenant: socket.data.tenant, flow: socket.data.flowId ?? 'unknown', kind });
