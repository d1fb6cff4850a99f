import type { Namespace, Server, Socket } from 'socket.io';
import type { ConversationService } from '../../conversation/service.ts';
import type { SessionStore } from '../../store/session-store.ts';
import { socketError, type WireError } from '../errors.ts';
import type { InFlight } from '../inflight.ts';
import type { Logger } from '../../observability/logger.ts';
import type { Metrics, TurnLabels } from '../../observability/metrics.ts';
import {
  OperatorAuth, OperatorClose, OperatorDecision, OperatorHandBack, OperatorJoin, OperatorMessage, parsePayload, toWire,
  type JoinAck, type OperatorAck, type OperatorClientEvents, type OperatorSocketData, type SessionRoomEvents,
} from '../../protocol/index.ts';
import type { RateLimits } from '../rate-limits.ts';
import { connectError, handle, roomOf, socketClientIp } from './socket-server.ts';
import type { TrustFn } from '../client-address.ts';
import { audit } from '../audit-log.ts';
import type { AdminAccess } from '../admin-access.ts';

/** What the /operator namespace needs. */
export interface OperatorDeps {
  service: ConversationService;
  store: SessionStore;
  metrics: Metrics;
  logger: Logger;
  limits: RateLimits;
  inflight: InFlight;
  /** The admin key and named operator keys. */
  admins: AdminAccess;
  /** Which proxies may name the client (TRUST_PROXY); default none. */
  trust?: TrustFn;
}

type OperatorSocket = Socket<OperatorClientEvents, SessionRoomEvents, Record<string, never>, OperatorSocketData>;

/**
 * Staff's namespace: `auth: { adminKey }`, the admin key or a named
 * operator's key (constant-time; refused when the server has neither); the
 * audit log records the key's holder. An operator joins a session's room to watch it,
 * writes into it (taking it over from the bot), decides interrupts and hands
 * it back to the bot.
 */
export function attachOperator(io: Server, deps: OperatorDeps): Namespace {
  const { service, store, metrics, logger, limits, inflight, admins } = deps;
  const nsp = io.of('/operator') as unknown as Namespace<OperatorClientEvents, SessionRoomEvents, Record<string, never>, OperatorSocketData>;

  nsp.use((socket, next) => {
    const ip = socketClientIp(socket, deps.trust);
    const refuse = (error: WireError) => {
      metrics.rejected.inc({ transport: 'socket', code: error.code });
      next(connectError(error));
    };
    if (!admins.enabled) return refuse({ code: 'admin_only', message: 'The operator pages are turned off on this server (it was started without ADMIN_KEY or OPERATOR_KEYS).' });
    const auth = parsePayload(OperatorAuth, socket.handshake.auth);
    const actor = auth.ok ? admins.holder(auth.value.adminKey) : undefined;
    // a right key always passes; only wrong ones are counted against the address
    void limits.admin(ip, actor !== undefined).then((admitted) => {
      if (!admitted.ok && admitted.limited) return refuse({ code: 'rate_limited', message: 'Too many wrong admin keys from this address. Wait a minute, then try again.' });
      if (!admitted.ok || actor === undefined) return refuse({ code: 'admin_only', message: 'The admin key is missing or wrong.' });
      socket.data = { ip, actor };
      next();
    }, (err: unknown) => {
      logger.error({ err }, 'operator handshake failed');
      next(connectError({ code: 'internal', message: 'the server could not check this connection' }));
    });
  });

  nsp.on('connection', (socket: OperatorSocket) => {
    metrics.sockets.inc({ namespace: '/operator' });
    socket.on('disconnect', () => metrics.sockets.dec({ namespace: '/operator' }));
    const log = logger.child({ operator: socket.id });

    /** The labels of a turn on a session (tenant and flow from its record). */
    const labelsOf = async (sessionId: string, kind: TurnLabels['kind']): Promise<TurnLabels> => {
      const record = await store.load(sessionId).catch(() => null);
      return { tenant: record?.tenant ?? 'unknown', flow: record?.flowId ?? 'unknown', kind };
    };

    handle(socket, 'operator:join', OperatorJoin, inflight, log, async (p): Promise<JoinAck> => {
      await socket.join(roomOf(p.sessionId));
      const view = await service.view(p.sessionId, 0);
      if (!view.ok) {
        await socket.leave(roomOf(p.sessionId));
        return socketError(view.error);
      }
      audit(logger, { actor: socket.data.actor, ip: socket.data.ip, action: 'join', sessionId: p.sessionId, tenant: view.value.record.tenant });
      return { ok: true, tenant: view.value.record.tenant, flowId: view.value.record.flowId, messages: view.value.transcript.map(toWire), state: view.value.state };
    });

    handle(socket, 'operator:leave', OperatorJoin, inflight, log, async (p) => {
      await socket.leave(roomOf(p.sessionId));
      return { ok: true as const };
    });

    handle(socket, 'operator:message', OperatorMessage, inflight, log, async (p): Promise<OperatorAck> => {
      audit(logger, { actor: socket.data.actor, ip: socket.data.ip, action: 'message', sessionId: p.sessionId });
      const r = await metrics.turn(p.sessionId, await labelsOf(p.sessionId, 'operator'), () => service.operatorMessage(p.sessionId, p.text, 'operator'));
      return r.ok ? { ok: true } : socketError(r.error);
    });

    handle(socket, 'operator:decision', OperatorDecision, inflight, log, async (p): Promise<OperatorAck> => {
      audit(logger, { actor: socket.data.actor, ip: socket.data.ip, action: `decision:${p.decision}`, sessionId: p.sessionId, correctedKeys: Object.keys(p.answers ?? {}) });
      const r = await metrics.turn(p.sessionId, await labelsOf(p.sessionId, 'decision'), () => service.decide(p.sessionId, p.decision, p.answers, 'operator', p.role));
      return r.ok ? { ok: true, state: r.value.state } : socketError(r.error);
    });

    handle(socket, 'operator:hand-back', OperatorHandBack, inflight, log, async (p): Promise<OperatorAck> => {
      audit(logger, { actor: socket.data.actor, ip: socket.data.ip, action: 'hand-back', sessionId: p.sessionId, nodeId: p.nodeId });
      const r = await metrics.turn(p.sessionId, await labelsOf(p.sessionId, 'hand_back'), () => service.handBack(p.sessionId, p.nodeId, p.answers));
      return r.ok ? { ok: true, state: r.value.state } : socketError(r.error);
    });

    handle(socket, 'operator:close', OperatorClose, inflight, log, async (p): Promise<OperatorAck> => {
      audit(logger, { actor: socket.data.actor, ip: socket.data.ip, action: 'close', sessionId: p.sessionId });
      const r = await metrics.turn(p.sessionId, await labelsOf(p.sessionId, 'close'), () => service.close(p.sessionId));
      return r.ok ? { ok: true, state: r.value.state } : socketError(r.error);
    });
  });

  return nsp as unknown as Namespace;
}
