/**
 * The load generator, in its own process (so the server's event loop and the
 * clients' never share a thread): N socket.io-client connections to /chat of
 * the server under test, each a visitor of the demo tenant.
 *
 * Job (JSON in argv[2], see LoadJob in common.ts):
 * - `steady`: every client starts a session on flow.sales and plays
 *   SALES_SCRIPT; when the conversation completes it sends `session:restart`
 *   and plays it again — every NEW_SESSION_EVERY-th time it starts a new
 *   session instead (`session:start`), as a new visitor would, so that no
 *   session grows to its transcript limit (`session_full`) however long the
 *   run and however few the clients. With `returning`, a share of the clients instead
 *   resume stored sessions (new connection with the session's token,
 *   `session:start { sessionId, lastSeq: 0 }`) and play the rest of the script. Each client sends its next message as soon as the
 *   previous turn completed (plus `thinkMs`, jittered, when set) — or, with
 *   `rate`, open loop: on a Poisson schedule per client whose sum is `rate`
 *   messages/s, latency counted from the scheduled moment. After
 *   `warmupMs`, turns are measured for `measureMs`; then the clients stop
 *   sending, the ones in flight finish, and the figures go to the parent.
 * - `idle`: N clients connect and start a session each, then sit idle until the
 *   parent sends `{ type: 'release' }`.
 *
 * Turn latency, precisely: from just before `socket.emit('message', …)` to the
 * callback of its ack, on the client's clock (performance.now()). The server
 * emits the turn's events to the session's room — `bot:typing` on, the user
 * echo, the bot messages, `session:state` (and `session:end`), `bot:typing`
 * off — before it acks, all on the same websocket, which delivers in order:
 * so when the ack arrives every bot message of the turn has arrived. A turn
 * whose ack arrives without at least one new `bot:message` counts as an
 * error, as does a failed ack or no ack within 60 s.
 *
 * Which turns count: the latency sample is every turn *sent* inside the
 * measurement window (the ones still in flight when it closes are waited
 * for, so slow turns are never cut off); turns/s counts the turns *completed*
 * inside the window, divided by its length.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import {
  DEMO_FLOW, DEMO_KEY, DEMO_ORIGIN, round, SALES_SCRIPT, seededToken, sleep, summarize,
  type Capture, type CapturedTurn, type LoadChildMessage, type LoadJob,
} from './common.ts';

const job = JSON.parse(process.argv[2] ?? '{}') as LoadJob;
/** Sends a message to the orchestrator; resolves once it is handed to the IPC channel (a big one takes a while, and exiting first loses it). */
const send = (m: LoadChildMessage) => new Promise<void>((resolve) => {
  if (!process.send) return resolve();
  process.send(m, undefined, {}, () => resolve());
});
process.on('disconnect', () => process.exit(1));

/** An ack later than this is an error (and ends the measurement of that client): far above any latency a working server shows. */
const TURN_TIMEOUT_MS = 60_000;
const CONNECT_BATCH = 50;

let errors = 0;
let firstError: string | undefined;
/** Conversations that reached session:end with status completed, over all visitors. */
let completedConversations = 0;
const fail = (why: string) => {
  errors++;
  firstError ??= why;
};

interface Ack {
  ok: boolean;
  error?: { code: string; message: string };
  sessionId?: string;
}

/** A client starts a new session instead of restarting its own after this many conversations (a restarted session keeps its transcript). */
const NEW_SESSION_EVERY = 10;

/** One simulated visitor. */
class Visitor {
  readonly socket: Socket;
  bots = 0;
  step = 0;
  n = 0;
  /** Conversations this client completed or gave up (each followed by a restart or a new session). */
  conversations = 0;
  sessionId: string | undefined;

  constructor(readonly index: number, url: string, token?: string) {
    this.socket = io(`${url}/chat`, {
      auth: { key: DEMO_KEY, ...(token ? { token } : {}) },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      timeout: 20_000,
      extraHeaders: { Origin: DEMO_ORIGIN },
    });
    this.socket.on('bot:message', () => {
      this.bots++;
    });
    this.socket.on('session:end', (p: { status: string }) => {
      if (p.status === 'completed') completedConversations++;
    });
  }

  connected(): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.socket.connected) return resolve();
      this.socket.once('connect', () => resolve());
      this.socket.once('connect_error', (err) => reject(err));
    });
  }

  /** Emits and resolves with the ack (or an error ack after TURN_TIMEOUT_MS). */
  request(event: string, payload: unknown): Promise<Ack> {
    return new Promise((resolve) => {
      let done = false;
      const timer = setTimeout(() => {
        done = true;
        resolve({ ok: false, error: { code: 'timeout', message: `no ack for ${event} within ${TURN_TIMEOUT_MS} ms` } });
      }, TURN_TIMEOUT_MS);
      this.socket.emit(event, payload, (ack: Ack) => {
        if (done) return;
        clearTimeout(timer);
        resolve(ack);
      });
    });
  }

  async start(): Promise<void> {
    const ack = await this.request('session:start', { flow: DEMO_FLOW });
    if (!ack.ok) throw new Error(`session:start: ${ack.error?.code} ${ack.error?.message}`);
    this.sessionId = ack.sessionId;
  }
}

/** Connects `n` visitors (in batches) and starts a session on each. */
async function connectAll(url: string, n: number): Promise<{ visitors: Visitor[]; started: number }> {
  const visitors: Visitor[] = [];
  let started = 0;
  for (let i = 0; i < n; i += CONNECT_BATCH) {
    const batch = Array.from({ length: Math.min(CONNECT_BATCH, n - i) }, (_, j) => new Visitor(i + j, url));
    visitors.push(...batch);
    await Promise.all(batch.map(async (v) => {
      try {
        await v.connected();
        await v.start();
        started++;
      } catch (e) {
        fail(`visitor ${v.index}: ${(e as Error).message}`);
      }
    }));
  }
  return { visitors, started };
}

async function steady(j: Extract<LoadJob, { mode: 'steady' }>): Promise<void> {
  const returning = j.returning ? Math.round(j.clients * j.returning.share) : 0;
  const resumables = j.returning ? shuffle(JSON.parse(readFileSync(j.returning.file, 'utf8')) as Array<{ id: string; played: number }>) : [];
  const t = performance.now();
  const { visitors } = await connectAll(j.url, j.clients - returning);
  const connectMs = performance.now() - t;
  const live = visitors.filter((v) => v.sessionId !== undefined);

  const begin = performance.now();
  const windowStart = begin + j.warmupMs;
  const windowEnd = windowStart + j.measureMs;
  const latencies: number[] = [];
  const restartLatencies: number[] = [];
  const resumeLatencies: number[] = [];
  const bySteps: number[][] = SALES_SCRIPT.map(() => []);
  let cpuAtStart: NodeJS.CpuUsage | undefined;
  let cpuInWindow: NodeJS.CpuUsage | undefined;
  // the server measures between these two messages: each goes out exactly once, start before end
  const delay = monitorEventLoopDelay({ resolution: 10 });
  const windowOpens = () => {
    if (cpuAtStart) return;
    cpuAtStart = process.cpuUsage();
    delay.enable();
    send({ type: 'window', at: 'start' });
  };
  const windowCloses = () => {
    if (cpuInWindow) return;
    windowOpens();
    cpuInWindow = process.cpuUsage(cpuAtStart);
    delay.disable();
    send({ type: 'window', at: 'end' });
  };
  const cpuTimer = setTimeout(windowOpens, j.warmupMs);
  const cpuEnd = setTimeout(windowCloses, j.warmupMs + j.measureMs);

  let completedInWindow = 0;
  const record = (into: number[], sentAt: number, doneAt: number) => {
    if (sentAt >= windowStart && sentAt < windowEnd) into.push(doneAt - sentAt);
  };
  const think = () => (j.thinkMs > 0 ? sleep(j.thinkMs * (0.5 + Math.random())) : Promise.resolve());

  /** Sends SALES_SCRIPT[v.step] and measures the turn (from `scheduledAt` when given: open loop); false when it failed. */
  const turn = async (v: Visitor, scheduledAt?: number): Promise<boolean> => {
    const text = SALES_SCRIPT[v.step]!;
    const before = v.bots;
    const sentAt = scheduledAt ?? performance.now();
    const ack = await v.request('message', { text, clientId: `v${v.index}-${v.n++}` });
    const doneAt = performance.now();
    if (!ack.ok) {
      fail(`message '${text}': ${ack.error?.code} ${ack.error?.message}`);
      return false;
    }
    if (doneAt >= windowStart && doneAt < windowEnd) completedInWindow++;
    if (v.bots === before) fail(`message '${text}': acked before any bot message arrived`);
    else {
      record(latencies, sentAt, doneAt);
      record(bySteps[v.step]!, sentAt, doneAt);
    }
    v.step++;
    return true;
  };

  /**
   * An open-loop visitor: message slots on a Poisson schedule (mean gap
   * clients / rate), independent of how fast the server answers; a slot that
   * comes while the previous turn runs is served when it completes, its
   * latency still counted from the slot. Starts at a random step of the script
   * so that the clients are spread over it; a completed script restarts the
   * session (not a counted message) and the schedule goes on.
   */
  /**
   * session:restart after a completed script (its latency recorded apart from
   * turns), or every NEW_SESSION_EVERY-th time a new session; the visitor
   * starts over.
   */
  const restart = async (v: Visitor) => {
    const sentAt = performance.now();
    const fresh = ++v.conversations % NEW_SESSION_EVERY === 0;
    const ack = await v.request(fresh ? 'session:start' : 'session:restart', fresh ? { flow: DEMO_FLOW } : {});
    if (!ack.ok) fail(`${fresh ? 'new session' : 'restart'}: ${ack.error?.code} ${ack.error?.message}`);
    else {
      if (fresh) v.sessionId = ack.sessionId;
      record(restartLatencies, sentAt, performance.now());
    }
    v.step = 0;
  };

  const runOpen = async (v: Visitor, rate: number) => {
    const meanGapMs = (j.clients / rate) * 1000;
    const gap = () => -Math.log(1 - Math.random()) * meanGapMs;
    // spread over the script: play a random number of steps at once, during the warm-up
    for (let n = Math.floor(Math.random() * SALES_SCRIPT.length); n > 0; n--) if (!(await turn(v))) break;
    let slot = performance.now() + gap();
    while (slot < windowEnd) {
      // right after the completing turn, not in a message slot
      if (v.step >= SALES_SCRIPT.length) await restart(v);
      const wait = slot - performance.now();
      if (wait > 0) await sleep(wait);
      if (!(await turn(v, slot))) v.step = SALES_SCRIPT.length; // start over
      slot += gap();
    }
  };

  /** A visitor on one connection: the script, then session:restart, again and again. */
  const run = async (v: Visitor) => {
    if (j.rate) return runOpen(v, j.rate);
    // spread the first messages over a few ms so hundreds of clients do not start in lockstep
    await sleep((v.index % 50) / 5);
    // paced clients fast-forward a random number of script steps first (during the warm-up), so that in
    // the window they are spread over the whole script, completions included, rather than all at step 1
    let fastForward = j.thinkMs > 0 ? Math.floor(Math.random() * SALES_SCRIPT.length) : 0;
    if (j.thinkMs > 0) await sleep(Math.random() * j.thinkMs);
    while (performance.now() < windowEnd) {
      if (v.step >= SALES_SCRIPT.length) {
        await restart(v);
        continue;
      }
      if (!(await turn(v))) v.step = SALES_SCRIPT.length; // start over
      if (fastForward > 0) fastForward--;
      else await think();
    }
  };

  /** A returning visitor: resumes a stored session on a new connection, finishes the script, and comes back as the next one. */
  const rerun = async (index: number) => {
    await sleep((index % 50) / 5);
    while (performance.now() < windowEnd) {
      const r = resumables.pop();
      if (!r) return fail('returning visitors ran out of stored sessions to resume');
      const v = new Visitor(index, j.url, seededToken(r.id));
      try {
        await v.connected();
        const sentAt = performance.now();
        const ack = await v.request('session:start', { sessionId: r.id, lastSeq: 0 });
        if (!ack.ok) throw new Error(`resume: ${ack.error?.code} ${ack.error?.message}`);
        record(resumeLatencies, sentAt, performance.now());
        await think();
        for (v.step = r.played; v.step < SALES_SCRIPT.length && performance.now() < windowEnd;) {
          if (!(await turn(v))) break;
          await think();
        }
      } catch (e) {
        fail(`returning visitor ${index}: ${(e as Error).message}`);
      } finally {
        v.socket.disconnect();
      }
    }
  };

  await Promise.all([...live.map(run), ...Array.from({ length: returning }, (_, i) => rerun(j.clients - returning + i))]);
  // open-loop clients stop once their next slot falls after the window: let the window's end come (and be reported)
  const left = windowEnd - performance.now();
  if (left > 0) await sleep(left + 5);
  clearTimeout(cpuTimer);
  clearTimeout(cpuEnd);
  // a timer late on a loaded machine must not leave the server waiting for the end (the last turns can beat it)
  windowCloses();
  if (!cpuInWindow) throw new Error('the measurement window never closed');

  const turns = completedInWindow;
  const completed = completedConversations;
  for (const v of visitors) v.socket.disconnect();
  await send({
    type: 'steady-done', turns, windowMs: j.measureMs, latency: summarize(latencies), samples: latencies.map((x) => Math.round(x * 100) / 100), restarts: restartLatencies.length,
    restartLatency: summarize(restartLatencies), resumeLatency: summarize(resumeLatencies), byStep: bySteps.map((x) => summarize(x)), completed, errors,
    ...(firstError ? { firstError } : {}), connectMs: round(connectMs),
    clientCpu: round((cpuInWindow.user + cpuInWindow.system) / 1000 / j.measureMs),
    clientEventLoopP99Ms: Math.round(delay.percentile(99) / 1e4) / 100, clientEventLoopMaxMs: Math.round(delay.max / 1e4) / 100,
  });
}

function shuffle<T>(xs: T[]): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const k = Math.floor(Math.random() * (i + 1));
    [xs[i], xs[k]] = [xs[k]!, xs[i]!];
  }
  return xs;
}

async function idle(j: Extract<LoadJob, { mode: 'idle' }>): Promise<void> {
  const t = performance.now();
  const { visitors, started } = await connectAll(j.url, j.clients);
  const connectMs = performance.now() - t;
  const connected = visitors.filter((v) => v.socket.connected).length;
  await new Promise<void>((resolve) => {
    process.on('message', (m: { type: string }) => {
      if (m.type === 'release') resolve();
    });
    send({ type: 'idle-ready', connected, started, errors, ...(firstError ? { firstError } : {}), connectMs: round(connectMs) });
  });
  for (const v of visitors) v.socket.disconnect();
  await send({ type: 'idle-closed' });
}

/**
 * One visitor, one pass of the script and a restart: every event received
 * between a request and its ack belongs to that turn (the server sends a
 * turn's events before its ack, on the same websocket).
 */
async function capture(j: Extract<LoadJob, { mode: 'capture' }>): Promise<void> {
  const v = new Visitor(0, j.url);
  await v.connected();
  let events: Array<[string, unknown]> = [];
  v.socket.onAny((event: string, payload: unknown) => events.push([event, payload]));
  const turn = async (event: string, payload: unknown): Promise<CapturedTurn> => {
    events = [];
    const ack = await v.request(event, payload);
    if (!ack.ok) throw new Error(`capture: ${event}: ${ack.error?.code} ${ack.error?.message}`);
    return { events, ack };
  };
  const start = await turn('session:start', { flow: DEMO_FLOW });
  const steps: CapturedTurn[] = [];
  for (const [i, text] of SALES_SCRIPT.entries()) steps.push(await turn('message', { text, clientId: `capture-${i}` }));
  const restart = await turn('session:restart', {});
  v.socket.disconnect();
  const c: Capture = { start, steps, restart };
  writeFileSync(j.file, JSON.stringify(c));
  const packets = steps.reduce((n, s) => n + s.events.length + 1, 0) / steps.length;
  const bytes = steps.reduce((n, s) => n + JSON.stringify(s.events).length + JSON.stringify(s.ack).length, 0) / steps.length;
  await send({ type: 'captured', packetsPerTurn: round(packets), bytesPerTurn: Math.round(bytes) });
}

try {
  if (job.mode === 'steady') await steady(job);
  else if (job.mode === 'capture') await capture(job);
  else if (job.mode === 'idle') await idle(job);
  else throw new Error(`unknown job ${JSON.stringify(job)}`);
  process.disconnect?.();
  process.exit(0);
} catch (e) {
  process.stderr.write(`load: ${(e as Error).stack}\n`);
  process.exit(1);
}
