import type { Server as HttpServer } from 'node:http';
import { Server, type Namespace, type Socket } from 'socket.io';
import { Adapter as InMemoryAdapter } from 'socket.io-adapter';
import type { Broadcast } from '../../conversation/service.ts';
import type { SessionState } from '../../protocol/session.ts';
import type { TranscriptEntry } from '../../store/session-store.ts';
import { socketError, storageError, type WireError } from '../errors.ts';
import type { OriginGate } from '../origins.ts';
import { clientAddress, limitKey, type TrustFn } from '../client-address.ts';
import type { InFlight } from '../inflight.ts';
import type { Logger } from '../../observability/logger.ts';
import { isEnded, LIMITS, messageEvent, parsePayload, toWire, type SessionRoomEvents } from '../../protocol/index.ts';
import type { z } from 'zod';

// The socket.io server: one per http.Server, with /chat (visitors) and
// /operator (staff). Both namespaces put a socket watching a session in the
// room `session:<id>`; the service's broadcast reaches every socket there.

/** The room of a session. */
export const roomOf = (sessionId: string) => `session:${sessionId}`;

/** Creates the socket.io server on `http` at `path`: origins checked at the door, packets capped at 32 KB. */
export function createSocketServer(http: HttpServer, gate: OriginGate, path = '/socket.io'): Server {
  const io = new Server(http, {
    path,
    // a bigger packet closes the connection (the protocol's own limits answer
    // with `too_large` well below this)
    maxHttpBufferSize: LIMITS.maxPayloadBytes,
    // CORS does not cover websockets: refuse foreign origins before any
    // namespace sees them; each namespace then checks the origin against the
    // tenant its key names
    allowRequest: (req, callback) => {
      const ok = gate.admits(req);
      callback(ok ? null : 'origin not allowed', ok);
    },
    // for long-polling from a tenant's pages (cross-origin XHR)
    cors: {
      origin: (origin, callback) => callback(null, origin === undefined || gate.anyTenantAllows(origin)),
      methods: ['GET', 'POST'],
    },
    serveClient: true,
    // the store, not connection-state recovery, replays what a client missed
    connectionStateRecovery: undefined,
  });
  io.engine.on('connection', coalesceWrites);
  // nothing lives on the default namespace
  io.of('/').use((_socket, next) => next(connectError({ code: 'not_found', message: 'connect to the /chat or /operator namespace' })));
  return io;
}

/**
 * One system call per turn instead of one per packet. engine.io flushes a
 * connection's buffered packets to the websocket as soon as one is sent, and
 * again when the previous write has completed; ws writes each frame with its
 * own cork/uncork. A turn sends its packets (the user echo, the bot
 * messages, the state, the ack) in one turn of the event loop, so:
 * - each flush is deferred to the end of the event loop's current
 *   iteration (setImmediate): every packet sent meanwhile goes in that flush;
 * - the TCP socket is corked for the flush and uncorked once the current
 *   tick's work is done, so the flush's frames leave in one writev().
 * The socket is ws's (`_socket`, not public API): when a transport does not
 * have one (long-polling), only the deferral applies. Packets and their
 * order are unchanged; only when they are handed to the kernel moves.
 */
export function coalesceWrites(conn: { on(event: 'flush', fn: () => void): void; transport?: unknown; flush?: () => void }): void {
  const flushNow = conn.flush;
  if (typeof flushNow === 'function') {
    let pending = false;
    const run = () => {
      pending = false;
      flushNow.call(conn);
    };
    conn.flush = () => {
      if (pending) return;
      pending = true;
      setImmediate(run);
    };
  }
  conn.on('flush', () => {
    const raw = (conn.transport as { socket?: { _socket?: unknown } } | undefined)?.socket?._socket as
      | { cork?: () => void; uncork?: () => void; writableCorked?: number }
      | undefined;
    if (typeof raw?.cork !== 'function' || typeof raw.uncork !== 'function') return;
    raw.cork();
    process.nextTick(() => raw.uncork!());
  });
}

/** The service's broadcast: transcript entries and state to every socket watching the session, on both namespaces. */
export function roomBroadcast(io: Server): Broadcast {
  return (sessionId: string, entries: readonly TranscriptEntry[], state: SessionState) => {
    const room = roomOf(sessionId);
    for (const nsp of [io.of('/chat'), io.of('/operator')] as Namespace<Record<string, never>, SessionRoomEvents>[]) {
      // with the in-memory adapter every member of a room is a socket of this process: nobody watching
      // (usually /operator) means nothing to encode; a cluster adapter (Redis) has members elsewhere
      if (Object.getPrototypeOf(nsp.adapter) === InMemoryAdapter.prototype && !nsp.adapter.rooms.get(room)?.size) continue;
      const to = nsp.to(room);
      for (const e of entries) to.emit(messageEvent(e.role), toWire(e));
      to.emit('session:state', { ...state, sessionId });
      if (isEnded(state.status)) to.emit('session:end', { status: state.status, sessionId });
    }
  };
}

/**
 * Registers a handler that validates its payload, always acks (when the
 * client asked for one), never throws, and counts as in flight for shutdown.
 * Malformed payloads get `invalid_payload`/`too_large`; a failure inside is
 * logged and answered with `internal`.
 */
export function handle<S extends z.ZodType, A>(
  socket: Socket, event: string, schema: S, inflight: InFlight, log: Logger,
  run: (payload: z.infer<S>) => Promise<A | { ok: false; error: WireError }>,
  onRefused?: (error: WireError) => void,
): void {
  socket.on(event, (...args: unknown[]) => {
    const last = args.at(-1);
    const ack = typeof last === 'function' ? (last as (r: unknown) => void) : () => {};
    if (typeof last === 'function') args.pop();
    void inflight.track(async () => {
      const parsed = parsePayload(schema, args[0] ?? {});
      if (!parsed.ok) {
        log.info({ event, code: parsed.error.code, detail: parsed.detail }, 'payload refused'); // the ack says it in plain words
        onRefused?.(parsed.error);
        ack(socketError(parsed.error));
        return;
      }
      try {
        const result = await run(parsed.value);
        if (typeof result === 'object' && result !== null && 'ok' in result && result.ok === false) onRefused?.((result as { error: WireError }).error);
        ack(result);
      } catch (err) {
        // a full disk or an unreachable store: nothing was saved, the same request may be sent again
        const storage = storageError(err);
        log.error({ err, event }, storage ? 'storage unavailable: request refused, nothing saved' : 'socket handler failed');
        ack(storage ? { ...socketError(storage), retryAfterMs: storage.retryAfterSeconds * 1000 } : socketError({ code: 'internal', message: 'something went wrong on the server; try again' }));
      }
    });
  });
}

/** An Error for a namespace middleware's `next`: the client's connect_error gets `message` and `data: { code, message }`. */
export function connectError(error: WireError): Error & { data: WireError } {
  return Object.assign(new Error(error.message), { data: { code: error.code, message: error.message } });
}

/**
 * The key a socket's client is limited by: the handshake's address past the
 * proxies TRUST_PROXY trusts (X-Forwarded-For read as express reads it), IPv6 by /64.
 */
export function socketClientIp(socket: Socket, trust: TrustFn | undefined): string {
  const { headers, address } = socket.handshake;
  const req = { headers, socket: { remoteAddress: address } } as unknown as Parameters<typeof clientAddress>[0];
  return limitKey(trust ? clientAddress(req, trust) : address);
}
