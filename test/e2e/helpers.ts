import { io, type Socket } from 'socket.io-client';
import { expect } from 'vitest';
import type { SessionState, WireMessage } from '../../server/protocol/index.ts';
import { ACME_SALES_SCRIPT } from '../support/scripts.ts';
import { DEMO_ORIGIN } from '../support/server.ts';

// Socket and REST helpers for the end-to-end tests.

export const ACME_KEY = 'pk_acme_demo';
export const NORTHSIDE_KEY = 'pk_northside_demo';

export { ACME_SALES_SCRIPT };

export interface ChatOptions {
  key?: string;
  token?: string;
  origin?: string | null;
  transports?: Array<'websocket' | 'polling'>;
}

/** A /chat client that records what the server sends. */
export class ChatClient {
  readonly socket: Socket;
  readonly received: Array<{ event: string; data: unknown }> = [];

  constructor(url: string, opts: ChatOptions = {}) {
    const origin = opts.origin === undefined ? DEMO_ORIGIN : opts.origin;
    this.socket = io(`${url}/chat`, {
      auth: { key: opts.key ?? ACME_KEY, ...(opts.token ? { token: opts.token } : {}) },
      transports: opts.transports ?? ['websocket'],
      reconnection: false,
      forceNew: true,
      ...(origin ? { extraHeaders: { Origin: origin } } : {}),
    });
    this.socket.onAny((event: string, data: unknown) => this.received.push({ event, data }));
  }

  /** Resolves once connected; rejects with the connect_error (its `data` holds `{ code, message }`). */
  connected(): Promise<this> {
    return new Promise((resolve, reject) => {
      if (this.socket.connected) return resolve(this);
      this.socket.once('connect', () => resolve(this));
      this.socket.once('connect_error', (err) => reject(err));
    });
  }

  /**
   * Emits and waits for the ack; a `busy` refusal (the tenant's share of the event loop spent, as on a loaded CI
   * machine) ran nothing, so it is emitted again after a second, as the widget does. Other refusals are returned.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async request(event: string, payload?: unknown, timeoutMs = 5_000): Promise<any> {
    for (let attempt = 0; ; attempt++) {
      const ack = await this.socket.timeout(timeoutMs).emitWithAck(event, payload);
      if (ack?.ok !== false || ack.error?.code !== 'busy' || attempt >= 30) return ack;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  /** Bot, user and operator messages received as events, in arrival order. */
  messages(): WireMessage[] {
    return this.received.filter((r) => r.event.endsWith(':message')).map((r) => r.data as WireMessage);
  }

  /** The last `session:state` received. */
  lastState(): (SessionState & { sessionId: string }) | undefined {
    return this.received.filter((r) => r.event === 'session:state').at(-1)?.data as (SessionState & { sessionId: string }) | undefined;
  }

  /** Waits until `predicate` holds for what was received. */
  async until(predicate: (c: this) => boolean, timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this)) {
      if (Date.now() > deadline) throw new Error(`timed out; received: ${JSON.stringify(this.received.map((r) => r.event))}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  close(): void {
    this.socket.disconnect();
  }
}

/** Connects a /chat client and waits for the connection. */
export async function chat(url: string, opts: ChatOptions = {}): Promise<ChatClient> {
  return new ChatClient(url, opts).connected();
}

/** fetch + JSON, with the demo origin unless told otherwise. */
export async function api(
  url: string, path: string,
  init: {
    method?: string; body?: unknown; rawBody?: string; headers?: Record<string, string>; origin?: string | null;
    /** Also send again after a `rate_limited` refusal (any 429), as a visitor typing many turns would wait; default: returned as it is. */
    patient?: boolean;
  } = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ status: number; body: any; headers: Headers; text: string }> {
  const origin = init.origin === undefined ? DEMO_ORIGIN : init.origin;
  // a `busy` refusal (the tenant's share of the event loop spent, as on a loaded CI machine) ran nothing: send
  // again after the wait the server asks for, as the widget does; `rate_limited` refusals are returned as they are
  // unless `patient`
  for (let attempt = 0; ; attempt++) {
    const r = await apiOnce(url, path, init, origin);
    const again = r.body?.error?.code === 'busy' || (init.patient === true && r.status === 429);
    if (!again || attempt >= 30) return r;
    await new Promise((done) => setTimeout(done, 1000 * Number(r.headers.get('retry-after') ?? 1)));
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function apiOnce(url: string, path: string, init: Parameters<typeof api>[2] & object, origin: string | null): Promise<{ status: number; body: any; headers: Headers; text: string }> {
  const res = await fetch(`${url}/api/v1${path}`, {
    method: init.method ?? (init.body !== undefined || init.rawBody !== undefined ? 'POST' : 'GET'),
    headers: {
      ...(init.body !== undefined || init.rawBody !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(origin ? { origin } : {}),
      ...init.headers,
    },
    ...(init.rawBody !== undefined ? { body: init.rawBody } : init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  const text = await res.text();
  let body: unknown = undefined;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, body, headers: res.headers, text };
}

/** Checks that ids run 1..n (or from `from`) without gaps or repeats. */
export function contiguous(ids: readonly number[], from = 1): boolean {
  return ids.every((id, i) => id === from + i);
}

export interface SendOptions {
  /** How many times a `rate_limited` or `busy` refusal is sent again before giving up; default 40. */
  attempts?: number;
  /** The pause before sending again, in ms (a function: drawn for each pause); default 150. */
  pauseMs?: number | (() => number);
  /** How long to wait for each ack; default 5 s. */
  timeoutMs?: number;
  /** Resolve with null, instead of rejecting, when no ack comes (the connection died with the server). */
  nullWhenDisconnected?: boolean;
}

/**
 * Sends a message and waits for its ack; a `rate_limited` refusal (the default
 * limits: 5 messages/s per socket, 20 per IP) or a `busy` one (the server shedding
 * load on a loaded machine) processed nothing, so it is sent again with the same
 * clientId after a pause, as the widget does.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function sendPastRateLimits(c: ChatClient, text: string, clientId: string, opts: SendOptions = {}): Promise<any> {
  const { attempts = 40, pauseMs = 150, timeoutMs = 5_000, nullWhenDisconnected = false } = opts;
  for (let attempt = 0; attempt < attempts; attempt++) {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    let ack: any;
    try {
      ack = await c.request('message', { text, clientId }, timeoutMs);
    } catch (err) {
      if (nullWhenDisconnected) return null;
      throw err;
    }
    if (ack?.ok === false && (ack.error?.code === 'rate_limited' || ack.error?.code === 'busy')) {
      await new Promise((r) => setTimeout(r, typeof pauseMs === 'number' ? pauseMs : pauseMs()));
      continue;
    }
    return ack;
  }
  throw new Error(`'${text}' was rate limited ${attempts} times`);
}

/** A session as the REST API shows it to its visitor (the answer must be 200). */
export async function sessionView(url: string, sessionId: string, token: string): Promise<{ status: string; answers: Record<string, unknown>; messages: WireMessage[] }> {
  const r = await api(url, `/sessions/${sessionId}`, { headers: { authorization: `Bearer ${token}` } });
  expect(r.status).toBe(200);
  return r.body;
}

/** Every message of ACME_SALES_SCRIPT once, in order, with these clientIds, each answered by the bot right after it: the transcript of one conversation. */
export function expectWholeConversation(messages: WireMessage[], clientIds: string[]): void {
  expect(contiguous(messages.map((m) => m.id))).toBe(true);
  const users = messages.filter((m) => m.role === 'user');
  expect(users.map((m) => m.text)).toEqual([...ACME_SALES_SCRIPT]);
  expect(users.map((m) => m.clientId)).toEqual(clientIds);
  for (const u of users) expect(messages.find((m) => m.id === u.id + 1)?.role, `the reply to "${u.text}"`).toBe('bot');
}
