/**
 * The transport floor: a bare socket.io server on `/chat` that answers the
 * load generator (bench/server/load.ts) with exactly the packets Questline
 * sent for the same script, and does nothing else — no store, no engine, no
 * validation, no rate limits, no metrics, no logs. The packets come from a
 * capture (load.ts `capture` mode: one visitor plays the script against the
 * real server and writes down every event it received during each turn, in
 * order, and each ack), replayed verbatim: the same events, payloads, sizes
 * and order per turn, so the only difference from Questline is the work
 * Questline does besides sending them. Same IPC as server-child.ts:
 *
 *   → { type: 'ready', url, pid }
 *   ← { type: 'window', at: 'start' | 'end' } → { type: 'window-stats', cpu, eventLoopP99Ms, eventLoopMaxMs }
 *   ← { type: 'close' } → { type: 'closed' }
 *
 * CAPTURE (env) names the capture's JSON file (see `Capture` in common.ts).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { Server } from 'socket.io';
import type { Capture, CapturedTurn, ServerChildMessage } from './common.ts';

const send = (m: ServerChildMessage) => process.send?.(m);
if (!process.env.CAPTURE || !process.send) {
  process.stderr.write('floor-child: run by bench/server.ts with CAPTURE set and an IPC channel\n');
  process.exit(2);
}
const capture = JSON.parse(readFileSync(process.env.CAPTURE, 'utf8')) as Capture;

const http = createServer();
const io = new Server(http, { serveClient: false });
type Ack = (r: unknown) => void;
io.of('/chat').on('connection', (socket) => {
  let step = 0;
  const replay = (turn: CapturedTurn, ack: unknown) => {
    for (const [event, payload] of turn.events) socket.emit(event, payload);
    if (typeof ack === 'function') (ack as Ack)(turn.ack);
  };
  socket.on('session:start', (_p: unknown, ack: unknown) => {
    step = 0;
    replay(capture.start, ack);
  });
  socket.on('message', (_p: unknown, ack: unknown) => {
    replay(capture.steps[step % capture.steps.length]!, ack);
    step++;
  });
  socket.on('session:restart', (_p: unknown, ack: unknown) => {
    step = 0;
    replay(capture.restart, ack);
  });
});
await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
const { port } = http.address() as AddressInfo;

let window: { cpu: NodeJS.CpuUsage; wall: number; delay: IntervalHistogram } | undefined;
let closing = false;
process.on('message', (m: { type: string; at?: string }) => {
  if (m.type === 'window' && m.at === 'start') {
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    window = { cpu: process.cpuUsage(), wall: performance.now(), delay };
  } else if (m.type === 'window' && m.at === 'end' && window) {
    const w = window;
    window = undefined;
    const used = process.cpuUsage(w.cpu);
    w.delay.disable();
    send({
      type: 'window-stats', cpu: Math.round(((used.user + used.system) / 1000 / (performance.now() - w.wall)) * 1000) / 1000,
      eventLoopP99Ms: Math.round(w.delay.percentile(99) / 1e4) / 100, eventLoopMaxMs: Math.round(w.delay.max / 1e4) / 100,
    });
  } else if (m.type === 'close' && !closing) {
    closing = true;
    io.close();
    send({ type: 'closed' });
    process.disconnect();
    process.exit(0);
  }
});
process.on('disconnect', () => {
  if (!closing) process.exit(1);
});

send({ type: 'ready', url: `http://127.0.0.1:${port}`, pid: process.pid });
