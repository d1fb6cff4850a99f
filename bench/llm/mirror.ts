import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExtractionRequest, Extractor, Proposal } from '../../server/extract/extractor.ts';
import { OfflineExtractor } from '../../server/extract/offline/index.ts';

/**
 * The "mirror" model: a fake Anthropic Messages API on 127.0.0.1 whose answer
 * to each request is the offline rules' proposal for that same message,
 * turned into tool_use blocks. It is NOT a language model: it understands
 * exactly what the offline extractor understands. The benchmark therefore
 * measures how many calls the hybrid rule makes (and that conversations still
 * progress as they do offline), not extraction quality.
 *
 * How the fake learns the message: the bench wraps the extractor in a
 * `MirrorTap`, which remembers the ExtractionRequest of the turn in progress
 * before handing it to the AnthropicExtractor. Calls are sequential (one
 * conversation at a time), so the request the server receives belongs to the
 * remembered turn; the server checks that the prompt carries that message
 * and counts mismatches.
 */

/** One Anthropic `tool_use` block's name and input. */
export interface ToolUse {
  name: string;
  input: Record<string, unknown>;
}

/**
 * The offline proposal as tool calls, in the shape the real tools take
 * (server/extract/anthropic/schema.ts): `escalate_to_human { reason }`,
 * `update_answers { updates, confidence, vote_path? }`, `unknown_answer { key }`,
 * `vote_path { path, confidence }`. Usually one block; more only when the
 * offline proposal has updates with different confidences or several
 * unknown keys (the real API, with parallel tool use disabled, would give one
 * block — the mirror keeps the proposal intact instead, and counts those).
 * An empty proposal becomes `update_answers { updates: {} }` (the model
 * understood nothing it may record; the offline `problem` note is lost) when
 * that tool is offered; at the path prompt it is not (no question is open),
 * and the only tools are `vote_path` / `escalate_to_human`, neither of which
 * says "nothing": then the list is empty and the server answers with a text
 * block, which the extractor treats as malformed and falls back to the
 * offline proposal — the same turn the offline rules give, and one model call.
 */
export function toolUsesFor(p: Proposal, offered: readonly string[] = ['update_answers']): ToolUse[] {
  const out: ToolUse[] = [];
  if (p.escalate) out.push({ name: 'escalate_to_human', input: { reason: p.escalate.reason } });
  const vote = p.pathVote ? { path: p.pathVote.path, confidence: p.pathVote.confidence ?? 1 } : undefined;
  const byConfidence = new Map<number | undefined, Record<string, unknown>>();
  for (const u of p.updates) {
    const group = byConfidence.get(u.confidence) ?? {};
    group[u.key] = u.value;
    byConfidence.set(u.confidence, group);
  }
  let voted = false;
  for (const [confidence, updates] of byConfidence) {
    const input: Record<string, unknown> = { updates };
    if (confidence !== undefined) input.confidence = confidence;
    if (vote && !voted) {
      input.vote_path = vote;
      voted = true;
    }
    out.push({ name: 'update_answers', input });
  }
  for (const key of p.unknown) out.push({ name: 'unknown_answer', input: { key } });
  if (vote && !voted) out.push({ name: 'vote_path', input: vote });
  if (out.length === 0 && offered.includes('update_answers')) out.push({ name: 'update_answers', input: { updates: {} } });
  return out;
}

/** Wraps the extractor under test and remembers the request of the turn in progress, for the mirror. */
export class MirrorTap implements Extractor {
  readonly name: string;
  pending: ExtractionRequest | null = null;
  constructor(private readonly inner: Extractor) {
    this.name = inner.name;
  }
  async extract(req: ExtractionRequest): Promise<Proposal> {
    this.pending = req;
    try {
      return await this.inner.extract(req);
    } finally {
      this.pending = null;
    }
  }
}

export interface MirrorServer {
  /** Base URL for the SDK's `baseURL` option. */
  url: string;
  /** The tap whose pending request the next model call answers; set per conversation. */
  tap: MirrorTap | null;
  /** Requests received, responses with more than one tool_use block, text-only answers (no offered tool fits), prompts that did not carry the tapped message. */
  counts: { requests: number; multiBlock: number; declined: number; mismatched: number; noTurn: number };
  close(): Promise<void>;
}

/** Starts the mirror model on 127.0.0.1 (ephemeral port). */
export async function startMirror(): Promise<MirrorServer> {
  const offline = new OfflineExtractor();
  const counts = { requests: 0, multiBlock: 0, declined: 0, mismatched: 0, noTurn: 0 };
  let n = 0;
  const state: MirrorServer = { url: '', tap: null, counts, close: async () => {} };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const send = (status: number, body: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_mirror_${++n}`, 'x-should-retry': 'false' });
          res.end(JSON.stringify(body));
        };
        if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v1/messages') {
          return send(404, { type: 'error', error: { type: 'not_found_error', message: 'not found' } });
        }
        let body: any;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          return send(400, { type: 'error', error: { type: 'invalid_request_error', message: 'bad json' } });
        }
        counts.requests += 1;
        const turn = state.tap?.pending;
        if (!turn) {
          counts.noTurn += 1;
          return send(500, { type: 'error', error: { type: 'api_error', message: 'mirror: no turn in progress' } });
        }
        const prompt = JSON.stringify(body?.messages ?? []);
        if (!prompt.includes(JSON.stringify(turn.text.slice(0, 200)).slice(1, -1))) counts.mismatched += 1;
        const proposal = await offline.extract(turn);
        const offered = Array.isArray(body?.tools) ? (body.tools as Array<{ name?: unknown }>).map((t) => String(t?.name)) : [];
        const uses = toolUsesFor(proposal, offered);
        if (uses.length > 1) counts.multiBlock += 1;
        if (uses.length === 0) counts.declined += 1;
        send(200, {
          id: `msg_mirror_${n}`,
          type: 'message',
          role: 'assistant',
          model: body?.model ?? 'mirror',
          content: uses.length === 0
            ? [{ type: 'text', text: 'Nothing in this message answers a question or names a path.' }]
            : uses.map((u, i) => ({ type: 'tool_use', id: `toolu_mirror_${n}_${i}`, name: u.name, input: u.input })),
          stop_reason: uses.length === 0 ? 'end_turn' : 'tool_use',
          stop_sequence: null,
          usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
        });
      })().catch((err: unknown) => {
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'application/json', 'x-should-retry': 'false' });
          res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: String(err) } }));
        }
      });
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.url = `http://127.0.0.1:${port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
