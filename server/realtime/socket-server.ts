import type { Server as HttpServer } from 'node:http';
import { Server, type Namespace, type Socket } from 'socket.io';
import { Adapter as InMemoryAdapter } from 'socket.io-adapter';
import type { Broadcast, SessionState } from '../conversation/service.ts';
import type { TranscriptEntry } from '../store/session-store.ts';
import { socketError, type WireError } from '../http/errors.ts';
import type { OriginGate } from '../http/origins.ts';
import type { InFlight } from '../http/inflight.ts';
import type { Logger } from '../observability/logger.ts';
import { LIMITS, parsePayload, toWire, type SessionRoomEvents } from './protocol.ts';
import type { z } from 'zod';

// The socket.io server: one per http.Server, with /chat (visitors) and
// /operator (staff). Both namespaces put a socket watching a session in the
// room `session:<id>`; the service's broadcast reaches every socket there.

const TERMINAL = new Set<SessionState['status']>(['completed', 'escalated', 'abandoned', 'error']);

/** The room of a session. */
export const roomOf = (sessionId: string) => `session:${sessionId}`;

/** Creates the socket.io server on `http`: origins checked at the door, packets capped at 32 KB. */
export function createSocketServer(http: HttpServer, gate: OriginGate): Server {
  const io = new Server(http, {
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
 * One system call per tick instead of one per packet. Left alone, engine.io
 * writes the first packet of a turn at once and the rest (the other
 * messages, the state, the ack) when that write has completed, and ws writes
 * each frame with its own cork/uncork: several write() calls per turn to
 * the TCP socket, each a trip through the loopback or network stack — on
 * the development machine the largest single cost of a turn. So a
 * connection's flushes wait for the end of the current tick (packets keep
 * their order; nothing waits on I/O), and for the flush the connection's
 * TCP socket is corked, so a turn's packets leave in one writev(). The TCP
 * socket is ws's (`_socket`, not public API): a transport without one
 * (long-polling) is only batched per tick.
 */
export function coalesceWrites(conn: { flush(): void; on(event: 'flush', fn: () => void): void; transport?: unknown }): void {
  const flushNow = conn.flush.bind(conn);
  let queued = false;
  conn.flush = () => {
    if (queued) return;
    queued = true;
    process.nextTick(() => {
      queued = false;
      flushNow();
    });
  };
  conn.on('flush', () => {
    const raw = (conn.transport as { socket?: { _socket?: unknown } } | undefined)?.socket?._socket as
      | { cork?: () => void; uncork?: () => void }
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
      for (const e of entries) {
        const event = e.role === 'bot' ? 'bot:message' : e.role === 'user' ? 'user:message' : 'operator:message';
        to.emit(event, toWire(e));
      }
      to.emit('session:state', { ...state, sessionId });
      if (TERMINAL.has(state.status)) to.emit('session:end', { status: state.status, sessionId });
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
        onRefused?.(parsed.error);
        ack(socketError(parsed.error));
        return;
      }
      try {
        const result = await run(parsed.value);
        if (typeof result === 'object' && result !== null && 'ok' in result && result.ok === false) onRefused?.((result as { error: WireError }).error);
        ack(result);
      } catch (err) {
        log.error({ err, event }, 'socket handler failed');
        ack(socketError({ code: 'internal', message: 'something went wrong on the server; try again' }));
      }
    });
  });
}

/** An Error for a namespace middleware's `next`: the client's connect_error gets `message` and `data: { code, message }`. */
export function connectError(error: WireError): Error & { data: WireError } {
  return Object.assign(new Error(error.message), { data: { code: error.code, message: error.message } });
}
