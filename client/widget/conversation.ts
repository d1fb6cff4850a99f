import { socketTarget } from './mount-base.ts';
import type { Socket } from 'socket.io-client';
import { loadSocketIo, type Io } from './load-socket.ts';
import type { SessionMemory } from './storage.ts';
import type {
  BackAck, ChatClientEvents, ClientContext, MessageAck, RestartAck, SessionRoomEvents, SessionStartPayload, SessionState, StartAck, WireError, WireMessage,
} from '../../server/protocol/index.ts';
// run-time values from the zod-free file, not index.ts: zod stays out of the bundle
import { MESSAGE_EVENTS } from '../../server/protocol/roles.ts';

/** A problem to show: the server's wire error, or one the widget noticed itself (no server, no connection, no answer). */
export type Problem = Omit<WireError, 'code'> & { code: WireError['code'] | 'unreachable' | 'offline' | 'timeout' };

// One conversation over socket.io's /chat namespace, without any DOM: the
// element renders what this reports. It starts or resumes the session,
// replays what was missed after a reconnect (lastSeq), drops ids it already
// delivered, and keeps the visitor's unsent messages in an outbox that is
// sent, in order, once the session is back (the server processes each
// clientId once, so a resend is safe).

export type ConnectionState = 'connecting' | 'online' | 'reconnecting' | 'offline' | 'failed';

export interface ConversationEvents {
  /** A transcript line, once per id; `live` is false for the history replayed when a page loads. */
  message(m: WireMessage, live: boolean): void;
  /** The visitor's message, shown before the server confirms it. */
  pending(clientId: string, text: string): void;
  /** The server refused a message. */
  refused(clientId: string, error: Problem): void;
  /**
   * Something the visitor sent waits to be acknowledged (true), or nothing
   * does any more (false). The server acknowledges a message after the
   * turn's lines, so `false` means the whole reply is in.
   */
  busy(on: boolean): void;
  typing(on: boolean): void;
  state(s: SessionState): void;
  connection(state: ConnectionState, error?: Problem): void;
  /** A problem to show (null clears it). */
  problem(error: Problem | null): void;
  /** A session was started or resumed (null: forgotten). */
  session(s: { sessionId: string; token: string } | null): void;
  /** Messages up to `floor` are no longer part of the conversation (a restart). */
  cleared(floor: number): void;
}

export interface ConversationOptions {
  server: string;
  key: string;
  flow: string;
  memory: SessionMemory;
  context?: ClientContext;
  locale?: string;
  /** How long to wait for an acknowledgement before trying again (ms). */
  ackTimeoutMs?: number;
}

type ChatSocket = Socket<SessionRoomEvents, ChatClientEvents>;

interface Outgoing {
  clientId: string;
  text: string;
  /** Refusals so far that were worth a retry. */
  retries: number;
}

/** Errors after which a stored session cannot be resumed: start a new one. */
const STALE = new Set(['unknown_session', 'bad_token', 'forbidden', 'not_found', 'gone']);
/** Refusals of a message that a later resend (same clientId) may get past. */
const RETRY = new Set(['rate_limited', 'busy', 'conflict', 'internal', 'storage_unavailable']);
/** How long the server asks to wait after a refusal it could not save (storage_unavailable's `retryAfterMs`), else undefined. */
const askedWait = (ack: unknown): number | undefined => {
  const ms = (ack as { retryAfterMs?: unknown }).retryAfterMs;
  return typeof ms === 'number' && ms > 0 ? Math.min(60_000, ms) : undefined;
};
/** Handshake refusals that retrying will not fix. */
const FATAL = new Set(['unknown_key', 'origin_not_allowed', 'invalid_payload']);

let counter = 0;
const newClientId = () => {
  counter += 1;
  const random = Math.random().toString(36).slice(2, 10);
  return `w-${Date.now().toString(36)}-${random}-${counter}`;
};

/** Seconds from a rate_limited message ("… try again in 2 s"), 1 when it says nothing. */
export const retryAfter = (e: Problem): number => {
  const m = /in (\d+) s/.exec(e.message);
  return m ? Math.min(60, Math.max(1, Number(m[1]))) : 1;
};

export class Conversation {
  private socket: ChatSocket | null = null;
  private sessionId: string | null = null;
  private token: string | null = null;
  private floor = 0;
  private lastSeq = 0;
  private readonly delivered = new Set<number>();
  private readonly outbox: Outgoing[] = [];
  /** What `busy` last said: whether the outbox had anything in it. */
  private busyShown = false;
  private sending = false;
  /** The session is adopted by the current socket: messages may go. */
  private ready = false;
  /** The first session:start of this page: what it returns is history, not news. */
  private firstResume = true;
  private openFlag = false;
  private timers = new Set<ReturnType<typeof setTimeout>>();
  private destroyed = false;
  private loading = false;
  private everConnected = false;
  private failures = 0;
  private status: SessionState['status'] | null = null;
  /** The locale the session's first state named (kept with the session). */
  private startLocale: string | undefined;
  private readonly ackTimeoutMs: number;

  constructor(private readonly opts: ConversationOptions, private readonly on: ConversationEvents) {
    this.ackTimeoutMs = opts.ackTimeoutMs ?? 15_000;
    const saved = opts.memory.load();
    if (saved) {
      this.sessionId = saved.sessionId;
      this.token = saved.token;
      this.floor = saved.floor;
      this.lastSeq = saved.floor;
      this.openFlag = Boolean(saved.open);
      this.startLocale = saved.locale;
    }
  }

  /** Whether the stored state says the chat was open before this page load. */
  get wasOpen(): boolean {
    return this.openFlag;
  }

  /** Remembers whether the chat is open (restored after a reload). */
  rememberOpen(open: boolean): void {
    this.openFlag = open;
    this.persist();
  }

  get connected(): boolean {
    return this.ready;
  }

  get hasSession(): boolean {
    return this.sessionId !== null;
  }

  /** The locale the session started in, as its first state named it (undefined until the server names one). */
  get startedLocale(): string | undefined {
    return this.startLocale;
  }

  /** Opens the socket (once), loading the socket client first when needed. */
  connect(): void {
    if (this.socket || this.loading || this.destroyed) return;
    this.loading = true;
    this.on.connection('connecting');
    loadSocketIo(this.opts.server).then(
      (io) => {
        this.loading = false;
        if (!this.destroyed) this.open(io);
      },
      (err: unknown) => {
        this.loading = false;
        if (this.destroyed) return;
        this.on.connection('failed', { code: 'unreachable', message: err instanceof Error ? err.message : String(err) });
        this.later(() => this.connect(), 5_000);
      },
    );
  }

  private open(io: Io): void {
    const { url, path } = socketTarget(this.opts.server, '/chat');
    const socket: ChatSocket = io(url, {
      path,
      // a function, so every reconnect presents the current session's token
      auth: (cb) => cb({ key: this.opts.key, ...(this.token ? { token: this.token } : {}) }),
      transports: ['websocket', 'polling'],
      tryAllTransports: true,
      reconnectionDelay: 500,
      reconnectionDelayMax: 5_000,
      timeout: 10_000,
      withCredentials: false,
    });
    this.socket = socket;
    socket.on('connect', () => {
      this.everConnected = true;
      this.failures = 0;
      void this.resume();
    });
    socket.on('disconnect', (reason) => {
      this.ready = false;
      this.on.typing(false);
      if (this.destroyed) return;
      this.on.connection(navigator.onLine === false ? 'offline' : 'reconnecting');
      // the server closed this socket on purpose (e.g. a redeploy): socket.io leaves that to us
      if (reason === 'io server disconnect') this.later(() => socket.connect(), 1_000);
    });
    socket.on('connect_error', (err: Error & { data?: Partial<WireError> }) => {
      this.ready = false;
      const code = typeof err.data?.code === 'string' ? err.data.code : null;
      const error: Problem = { code: code ?? 'unreachable', message: typeof err.data?.message === 'string' ? err.data.message : err.message };
      if (code && FATAL.has(code)) {
        this.on.connection('failed', error);
        return;
      }
      if (code) {
        // refused by the server's middleware: socket.io does not retry those by itself
        this.later(() => socket.connect(), (code === 'rate_limited' ? retryAfter(error) : 3) * 1000);
      }
      this.failures += 1;
      if (!this.everConnected && this.failures >= 3 && navigator.onLine !== false) {
        // never got through: most likely the server is down or refuses this page's origin (it keeps trying)
        // the developer detail goes to the console; the visitor reads plain words
        console.warn(`questline: cannot reach ${this.opts.server}; is this page's origin allowed for the key? (${error.code ?? error.message})`);
        this.on.connection('failed', { code: error.code, message: 'The chat is not available right now. Please try again later.' });
        return;
      }
      this.on.connection(navigator.onLine === false ? 'offline' : 'reconnecting', error);
    });
    for (const event of Object.values(MESSAGE_EVENTS)) socket.on(event, (m: WireMessage) => this.deliver(m, true));
    socket.on('bot:typing', (p) => this.on.typing(Boolean(p && p.on)));
    socket.on('session:state', (s) => {
      if (s.sessionId !== this.sessionId) return;
      this.setState(s);
    });
    window.addEventListener('online', this.online);
    window.addEventListener('offline', this.offline);
  }

  private readonly online = () => {
    if (this.ready) return this.on.connection('online');
    this.on.connection('reconnecting');
    if (this.socket && !this.socket.connected && !this.socket.active) this.socket.connect();
  };

  private readonly offline = () => {
    this.on.connection('offline');
  };

  /** Sends what the visitor typed (or picked); shown at once, delivered when the session is up. */
  send(text: string): void {
    const t = text.trim();
    if (!t || this.destroyed) return;
    const item: Outgoing = { clientId: newClientId(), text: t, retries: 0 };
    this.outbox.push(item);
    this.on.pending(item.clientId, item.text);
    this.syncBusy();
    this.pump();
  }

  /** Undo the last answer. */
  back(): void {
    const socket = this.socket;
    if (!socket || !this.ready) return this.on.problem({ code: 'offline', message: 'Not connected yet — try again in a moment.' });
    this.on.problem(null);
    socket.timeout(this.ackTimeoutMs).emit('session:back', {}, (err: Error | null, ack: BackAck) => {
      if (err) return this.on.problem({ code: 'timeout', message: 'The server did not answer; try again.' });
      if (!ack.ok) return this.on.problem(ack.error);
      this.setState(ack.state);
    });
  }

  /** Starts the conversation over: the transcript shown so far is cleared. */
  restart(): void {
    const socket = this.socket;
    if (!socket || !this.ready || !this.sessionId) return this.on.problem({ code: 'offline', message: 'Not connected yet — try again in a moment.' });
    this.on.problem(null);
    this.outbox.length = 0;
    this.syncBusy();
    this.floor = this.lastSeq;
    this.persist();
    this.on.cleared(this.floor);
    socket.timeout(this.ackTimeoutMs).emit('session:restart', {}, (err: Error | null, ack: RestartAck) => {
      if (err) return this.on.problem({ code: 'timeout', message: 'The server did not answer; try again.' });
      if (!ack.ok) {
        if (STALE.has(ack.error.code)) return void this.startOver();
        return this.on.problem(ack.error);
      }
    });
  }

  /** Forgets the current session and starts a brand-new one. */
  startOver(): void {
    this.outbox.length = 0;
    this.syncBusy();
    this.forget();
    this.on.cleared(Number.MAX_SAFE_INTEGER);
    if (this.socket?.connected) void this.resume();
  }

  /** Closes the socket for good. */
  destroy(): void {
    this.destroyed = true;
    this.ready = false;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    window.removeEventListener('online', this.online);
    window.removeEventListener('offline', this.offline);
    this.socket?.removeAllListeners();
    this.socket?.disconnect();
    this.socket = null;
  }

  // --- internals -------------------------------------------------------------

  private later(fn: () => void, ms: number): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (!this.destroyed) fn();
    }, ms);
    this.timers.add(t);
  }

  /** The visitor id to start with (keeps a flow's variant the same for this browser), when the storage has one. */
  private visitor(): { visitor?: string } {
    const id = this.opts.memory.visitor?.();
    return id ? { visitor: id } : {};
  }

  private persist(): void {
    if (this.sessionId && this.token) {
      this.opts.memory.save({
        sessionId: this.sessionId, token: this.token, floor: this.floor,
        ...(this.openFlag ? { open: true } : {}), ...(this.startLocale ? { locale: this.startLocale } : {}),
      });
    }
  }

  private forget(): void {
    this.sessionId = null;
    this.token = null;
    this.floor = 0;
    this.lastSeq = 0;
    this.delivered.clear();
    this.status = null;
    this.startLocale = undefined;
    this.opts.memory.forget();
    this.on.session(null);
  }

  private setState(s: SessionState): void {
    this.status = s.status;
    if (s.locale && this.startLocale === undefined) {
      this.startLocale = s.locale;
      this.persist();
    }
    this.on.state(s);
  }

  /** (Re)starts or resumes the session on the current socket, then flushes the outbox. */
  private async resume(): Promise<void> {
    const socket = this.socket;
    if (!socket || this.destroyed) return;
    this.ready = false;
    const resuming = this.sessionId !== null;
    const payload: SessionStartPayload = resuming
      ? { sessionId: this.sessionId!, lastSeq: this.lastSeq }
      : { flow: this.opts.flow, ...(this.opts.locale ? { locale: this.opts.locale } : {}), ...(this.opts.context ? { context: this.opts.context } : {}), ...this.visitor() };
    let ack: StartAck;
    try {
      ack = await socket.timeout(this.ackTimeoutMs).emitWithAck('session:start', payload);
    } catch {
      if (socket.connected) this.later(() => void this.resume(), 1_000);
      return;
    }
    if (socket !== this.socket || !socket.connected) return;
    if (!ack.ok) {
      if (resuming && STALE.has(ack.error.code)) {
        // the server no longer knows this session (or the token is wrong): begin anew
        this.forget();
        this.on.cleared(Number.MAX_SAFE_INTEGER);
        return void this.resume();
      }
      if (ack.error.code === 'rate_limited' || ack.error.code === 'storage_unavailable') {
        // the server cannot take it now (limits; its storage is full or unreachable): try again later
        this.on.problem(ack.error);
        this.later(() => void this.resume(), askedWait(ack) ?? retryAfter(ack.error) * 1000);
        return;
      }
      this.on.connection('failed', ack.error);
      return;
    }
    const fresh = !resuming || ack.sessionId !== this.sessionId;
    if (fresh) {
      this.delivered.clear();
      this.floor = 0;
      this.lastSeq = 0;
      this.startLocale = undefined;
    }
    this.sessionId = ack.sessionId;
    this.token = ack.token;
    this.persist();
    this.on.session({ sessionId: ack.sessionId, token: ack.token });
    // history when the page resumes a stored session; news when it is new or a reconnect fills a gap
    const live = !(resuming && this.firstResume);
    this.firstResume = false;
    for (const m of [...ack.messages].sort((a, b) => a.id - b.id)) this.deliver(m, live);
    this.setState(ack.state);
    this.ready = true;
    this.on.connection('online');
    this.on.problem(null);
    this.pump();
  }

  private deliver(m: WireMessage, live: boolean): void {
    if (!m || typeof m.id !== 'number' || this.delivered.has(m.id) || m.id <= this.floor) return;
    this.delivered.add(m.id);
    if (m.id > this.lastSeq) this.lastSeq = m.id;
    if (m.role === 'user' && m.clientId) {
      // the server has it: never send it again
      const i = this.outbox.findIndex((o) => o.clientId === m.clientId);
      if (i >= 0 && !(i === 0 && this.sending)) this.outbox.splice(i, 1);
    }
    this.on.message(m, live);
    this.syncBusy();
  }

  /** Tells `busy` when the outbox goes from empty to not, or back. */
  private syncBusy(): void {
    const on = this.outbox.length > 0;
    if (on === this.busyShown) return;
    this.busyShown = on;
    this.on.busy(on);
  }

  /** Sends the oldest unsent message, one at a time, while the session is up. */
  private pump(): void {
    const socket = this.socket;
    const item = this.outbox[0];
    if (!socket || !this.ready || this.sending || !item) {
      if (!socket) this.connect();
      return;
    }
    this.sending = true;
    socket.timeout(this.ackTimeoutMs).emit('message', { text: item.text, clientId: item.clientId }, (err: Error | null, ack: MessageAck) => {
      this.sending = false;
      if (socket !== this.socket) return;
      if (err) {
        // no answer in time: the same clientId is sent again (processed once at most)
        if (socket.connected) this.later(() => this.pump(), 500);
        return;
      }
      // the server could not save it now (storage_unavailable: a full disk, an unreachable store): nothing was saved, so the
      // same clientId is sent again for as long as that lasts, at the pace the server asks
      const waitMs = !ack.ok ? askedWait(ack) : undefined;
      if (!ack.ok && RETRY.has(ack.error.code) && (ack.error.code === 'storage_unavailable' || item.retries++ < 8)) {
        // the server could not take it now (limits, a busy or contended session): same clientId, a little later
        this.later(() => this.pump(), waitMs ?? (ack.error.code === 'rate_limited' ? retryAfter(ack.error) * 1000 : 700));
        return;
      }
      if (!ack.ok && ack.error.code === 'unknown_session' && this.ready) {
        this.later(() => void this.resume(), 0);
        return;
      }
      const i = this.outbox.findIndex((o) => o.clientId === item.clientId);
      if (i >= 0) this.outbox.splice(i, 1);
      if (!ack.ok) this.on.refused(item.clientId, ack.error);
      this.syncBusy();
      this.pump();
    });
  }

  /** For tests and the element: the status of the session, if known. */
  get sessionStatus(): SessionState['status'] | null {
    return this.status;
  }
}
