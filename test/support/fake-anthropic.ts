import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LocalConversation } from '../../server/conversation/local-conversation.ts';
import { sampleActions } from '../../examples/sample-actions.ts';
import { AnthropicExtractor, type AnthropicEvent, type AnthropicExtractorOptions } from '../../server/extract/anthropic/index.ts';
import { compileFile } from '../../server/flow/document.ts';

// A local stand-in for the Anthropic Messages API: POST /v1/messages answers
// from a queue of scripted replies and records every request, so tests run
// the real SDK with no network.

/** One scripted reply. */
export type FakeReply =
  | { kind: 'tool'; name: string; input: unknown; usage?: Partial<FakeUsage> }
  | { kind: 'error'; status: number; body?: unknown }
  | { kind: 'delay'; ms: number; then?: FakeReply }
  | { kind: 'malformed'; body: string }
  | { kind: 'text'; text: string };

export interface FakeUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

/** One recorded request. */
export interface RecordedRequest {
  headers: IncomingMessage['headers'];
  body: any;
}

export interface FakeAnthropic {
  /** Base URL for the SDK's `baseURL` option (no trailing /v1: the SDK adds it). */
  url: string;
  requests: RecordedRequest[];
  /** Queues replies; an empty queue answers 500 with a note, so an unexpected call is visible. */
  script(...replies: FakeReply[]): void;
  /** Replies left in the queue. */
  pending(): number;
  close(): Promise<void>;
}

export const DEFAULT_USAGE: FakeUsage = { input_tokens: 900, output_tokens: 40, cache_read_input_tokens: 700, cache_creation_input_tokens: 0 };

export const tool = (name: string, input: unknown, usage?: Partial<FakeUsage>): FakeReply => ({ kind: 'tool', name, input, ...(usage ? { usage } : {}) });

export async function startFakeAnthropic(): Promise<FakeAnthropic> {
  const queue: FakeReply[] = [];
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let n = 0;

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const authorised = typeof req.headers['x-api-key'] === 'string' || /^Bearer \S+/.test(String(req.headers.authorization ?? ''));
      if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v1/messages') return send(404, { type: 'error', error: { type: 'not_found_error', message: 'not found' } });
      if (!authorised) return send(401, { type: 'error', error: { type: 'authentication_error', message: 'no key' } });
      let body: any;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return send(400, { type: 'error', error: { type: 'invalid_request_error', message: 'bad json' } });
      }
      requests.push({ headers: req.headers, body });
      answer(queue.shift(), body);
    });

    function send(status: number, body: unknown, extra: Record<string, string> = {}): void {
      if (res.writableEnded || res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_fake_${++n}`, ...extra });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    }

    function answer(reply: FakeReply | undefined, body: any): void {
      if (!reply) return send(500, { type: 'error', error: { type: 'api_error', message: 'fake: no scripted reply' } }, { 'x-should-retry': 'false' });
      switch (reply.kind) {
        case 'tool':
          return send(200, message(body, [{ type: 'tool_use', id: `toolu_fake_${++n}`, name: reply.name, input: reply.input }], 'tool_use', reply.usage));
        case 'text':
          return send(200, message(body, [{ type: 'text', text: reply.text }], 'end_turn'));
        case 'error': {
          const type = reply.status === 429 ? 'rate_limit_error' : reply.status === 529 ? 'overloaded_error' : 'api_error';
          return send(reply.status, reply.body ?? { type: 'error', error: { type, message: `fake ${reply.status}` } }, { 'retry-after-ms': '5' });
        }
        case 'malformed':
          return send(200, reply.body);
        case 'delay': {
          const t = setTimeout(() => {
            timers.delete(t);
            answer(reply.then ?? tool('unknown_answer', { key: 'x' }), body);
          }, reply.ms);
          timers.add(t);
          return;
        }
      }
    }
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script: (...replies) => void queue.push(...replies),
    pending: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function message(body: any, content: unknown[], stop: string, usage?: Partial<FakeUsage>) {
  return {
    id: `msg_fake_${Math.random().toString(36).slice(2, 10)}`,
    type: 'message',
    role: 'assistant',
    model: body?.model ?? 'fake',
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: { ...DEFAULT_USAGE, ...usage },
  };
}

/** The sales flow with an AnthropicExtractor talking to the fake server. */
export function salesWithClaude(fake: FakeAnthropic, opts: Partial<AnthropicExtractorOptions> = {}) {
  const r = compileFile('flows/global/sales.flow.json');
  if (r.kind !== 'flow' || !r.flow) throw new Error('sales flow does not compile');
  const events: AnthropicEvent[] = [];
  const extractor = new AnthropicExtractor({
    apiKey: 'sk-test-fake',
    baseURL: fake.url,
    timeoutMs: 2_000,
    maxRetries: 0,
    onEvent: (e) => events.push(e),
    ...opts,
  });
  let t = Date.parse('2026-01-15T10:00:00Z');
  const conv = new LocalConversation(r.flow, {
    extractor,
    actions: sampleActions,
    env: { now: () => new Date((t += 60_000)).toISOString(), sleep: async () => {}, clock: () => 0 },
  });
  return { conv, extractor, events };
}

/** Quick-reply clicks and exact typed values that take the sales flow from q.intent to q.name. */
export const EXACT_TO_NAME = ['Buy new LED lighting', '1300', 'tennis', '2', '30', '1000w', '40000', 'In 3 to 12 months'];
