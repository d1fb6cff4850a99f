import { readFileSync, writeFileSync } from 'node:fs';
import { isMap, isSeq, parseDocument } from 'yaml';
import type { Extractor, ExtractionRequest, Proposal } from '../extract/extractor.ts';
import type { AnthropicEvent, AnthropicExtractor, AnthropicExtractorOptions } from '../extract/anthropic/index.ts';
import { ANTHROPIC_PACKAGE, importOptional } from '../shared/optional-peer.ts';
import type { ToolCall } from '../extract/tool-calls.ts';

// `questline test --record`: a golden's conversation runs against the live
// model, and what the extractor proposed on each turn is written into that
// turn's `llm:` block, so the golden then replays offline (`extractor: replay`).

/** What a recorded turn holds: the model's tool calls, or (a turn the hybrid rule or a fallback settled offline) the offline proposal as calls. */
export interface RecordedTurn {
  calls: ToolCall[];
  /** 'model', 'offline' (the hybrid rule: no call needed) or 'fallback: <reason>'. */
  source: string;
}

/**
 * The calls that make `proposalFromToolCalls` give back this proposal: how a
 * turn the model did not answer is recorded, so the replay matches the live run.
 */
export function toolCallsOf(p: Proposal): ToolCall[] {
  const calls: ToolCall[] = [];
  if (p.escalate) calls.push({ tool: 'escalate_to_human', input: { reason: p.escalate.reason } });
  if (p.updates.length > 0) calls.push({ tool: 'update_answers', input: { updates: Object.fromEntries(p.updates.map((u) => [u.key, u.value])) } });
  for (const key of p.unknown) calls.push({ tool: 'unknown_answer', input: { key } });
  if (p.pathVote) calls.push({ tool: 'vote_path', input: { path: p.pathVote.path, ...(p.pathVote.confidence !== undefined ? { confidence: p.pathVote.confidence } : {}) } });
  if (p.assessment) calls.push({ tool: 'assess_answer', input: { ...p.assessment } });
  return calls;
}

/** The Claude extractor's module, imported on first use: the Anthropic SDK is an optional peer, so a missing SDK is a one-line error naming it. */
export function loadAnthropic(feature: string): Promise<typeof import('../extract/anthropic/index.ts')> {
  return importOptional(() => import('../extract/anthropic/index.ts'), ANTHROPIC_PACKAGE, feature);
}

/**
 * An extractor that records, per golden turn, what the live Claude extractor
 * did: the model's tool calls when it was called, else the offline proposal.
 * `seek(i)` says which turn the next message belongs to (commands skip the
 * extractor, so messages and turns can differ).
 */
export class RecordingExtractor implements Extractor {
  readonly name = 'anthropic';
  readonly turns: Array<RecordedTurn | undefined> = [];
  private index = 0;
  private lastCalls: ToolCall[] | undefined;
  private readonly inner: AnthropicExtractor;

  /** A recorder around the live Claude extractor (the Anthropic SDK is loaded here, on first use). */
  static async create(opts: AnthropicExtractorOptions, feature = 'Recording against Claude (--record)'): Promise<RecordingExtractor> {
    const { AnthropicExtractor } = await loadAnthropic(feature);
    return new RecordingExtractor((onEvent) => new AnthropicExtractor({ ...opts, onEvent }), opts.onEvent);
  }

  private constructor(make: (onEvent: (e: AnthropicEvent) => void) => AnthropicExtractor, onEvent?: (e: AnthropicEvent) => void) {
    this.inner = make((e) => {
      if (e.type === 'llm_call') this.lastCalls = e.calls;
      onEvent?.(e);
    });
  }

  seek(index: number): void {
    this.index = index;
  }

  async extract(req: ExtractionRequest): Promise<Proposal> {
    this.lastCalls = undefined;
    const p = await this.inner.extract(req);
    const model = this.lastCalls !== undefined && !p.fallback;
    this.turns[this.index] = {
      calls: model ? this.lastCalls! : toolCallsOf(p),
      source: model ? 'model' : p.fallback ? `fallback: ${p.fallback.reason}` : 'offline',
    };
    return p;
  }
}

/**
 * Writes recorded turns into a golden file: each turn's `llm:` block is set
 * (a turn with no record, a command, loses a stale one) and `extractor:`
 * becomes `replay`. Everything else — comments, order, quoting — is kept
 * (yaml's Document API edits the parsed document in place).
 */
export function writeRecording(file: string, turns: ReadonlyArray<RecordedTurn | undefined>): void {
  const doc = parseDocument(readFileSync(file, 'utf8'));
  doc.set('extractor', 'replay');
  const list = doc.get('turns');
  if (!isSeq(list)) throw new Error(`${file}: no turns list`);
  list.items.forEach((item, i) => {
    if (!isMap(item)) return;
    const rec = turns[i];
    if (!rec) {
      item.delete('llm');
      return;
    }
    const seq = doc.createNode(rec.calls.map((c) => ({ tool: c.tool, input: c.input })));
    for (const call of seq.items) if (isMap(call)) call.flow = true;
    item.set('llm', seq);
  });
  writeFileSync(file, doc.toString({ lineWidth: 0 }));
}
