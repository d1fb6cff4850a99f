import { AsyncLocalStorage } from 'node:async_hooks';
import Anthropic from '@anthropic-ai/sdk';
import { DailySpend, SpendGate, type Admitted, type BudgetScope, type Caps } from '../budget.ts';
import type { ExtractionRequest, Extractor, Proposal } from '../extractor.ts';
import { OfflineExtractor } from '../offline/index.ts';
import { proposalFromToolCalls, TOOL_NAMES, ToolCall } from '../tool-calls.ts';
import { exactRule, type ExactRule } from './hybrid.ts';
import { SYSTEM_PROMPT, turnPrompt } from './prompt.ts';
import { optionalCount, STRICT_MAX_OPTIONAL, strictSchema, supportsStrictTools, toolsFor, type ToolDef } from './schema.ts';

export const DEFAULT_MODEL = 'claude-haiku-4-5';
const MAX_TOKENS = 1024;

/** Why a turn went to the offline extractor instead of the model's answer. */
export type FallbackReason = 'timeout' | 'rate_limited' | 'server_error' | 'connection' | 'api_error' | 'malformed' | 'budget';

/** What the extractor reports as it works (the engine's events stay the engine's). */
export type AnthropicEvent =
  | { type: 'llm_skipped'; session: string; rule: ExactRule }
  | { type: 'llm_call'; session: string; latencyMs: number; inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheCreationTokens: number; calls: ToolCall[] }
  | { type: 'llm_fallback'; session: string; reason: FallbackReason; detail: string }
  /** A cap was spent: the turn goes offline; `first` is true once per tenant or global cap per day (and for every session turn). */
  | { type: 'llm_budget_exhausted'; session: string; scope: BudgetScope; first: boolean };

/** Usage of one session (or of the instance, when requests carry no session id). */
export interface LlmStats {
  calls: number;
  skipped: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheCreationTokens: number;
  latencyMs: number;
  fallbacks: Array<{ reason: FallbackReason; detail: string }>;
}

export interface AnthropicExtractorOptions {
  apiKey: string;
  model?: string;
  baseURL?: string;
  timeoutMs?: number;
  maxRetries?: number;
  /** Per session (or per instance): model calls and input+output tokens; when spent, turns go offline. */
  budget?: Caps;
  /** Per tenant per UTC day (kept in `ledger`). */
  daily?: Caps;
  /** Every tenant together per UTC day (kept in `ledger`, shared by the extractors of one process). */
  global?: Caps;
  /** The tenant `daily` counts against (default: this extractor's own). */
  tenant?: string;
  /** Today's spend; share one between the extractors of a process so `global` spans them (default: this extractor's own). */
  ledger?: DailySpend;
  fallback?: Extractor;
  onEvent?: (event: AnthropicEvent) => void;
  /** Send tools with `strict: true` (structured outputs); default: when the model supports it (see `supportsStrictTools`). */
  strict?: boolean;
}

/** Sessions whose usage `stats(id)` keeps in memory (oldest dropped first). */
export const MAX_TRACKED_SESSIONS = 1000;

/** Usage is kept under this id when the request carries no `sessionId`. */
export const INSTANCE = '*';

function emptyStats(): LlmStats {
  return { calls: 0, skipped: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheCreationTokens: 0, latencyMs: 0, fallbacks: [] };
}

class Malformed extends Error {
  usage?: Usage;
}

type Usage = { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheCreationTokens: number };

/**
 * Claude extraction with forced tool use. Hybrid: a message the offline rules
 * parse exactly for the current question (see `exactRule`) never reaches the
 * model; otherwise at most one `messages.create` per message. The tool calls
 * go through `proposalFromToolCalls`, the same path replayed calls take, and
 * the engine validates the proposal. Any failure — timeout, 429, 5xx,
 * connection, malformed tool input — or a spent budget makes that turn the
 * offline extractor's (its proposal says `extractor: 'rules'`), reported
 * through `onEvent` and `stats()`.
 */
export class AnthropicExtractor implements Extractor {
  readonly name = 'anthropic';
  readonly model: string;
  private readonly client: Anthropic;
  private readonly fallback: Extractor;
  private readonly usage = new Map<string, LlmStats>();
  private readonly gate: SpendGate;
  private readonly maxRetries: number;
  /** HTTP requests of the call in progress (the SDK retries inside one `messages.create`; each request is paid for). */
  private readonly attempts = new AsyncLocalStorage<{ n: number }>();

  constructor(private readonly opts: AnthropicExtractorOptions) {
    this.model = opts.model ?? DEFAULT_MODEL;
    this.fallback = opts.fallback ?? new OfflineExtractor();
    this.maxRetries = opts.maxRetries ?? 1;
    this.gate = new SpendGate({
      tenant: opts.tenant ?? '', ledger: opts.ledger ?? new DailySpend(),
      ...(opts.budget ? { session: opts.budget } : {}), ...(opts.daily ? { daily: opts.daily } : {}), ...(opts.global ? { global: opts.global } : {}),
    });
    this.client = new Anthropic({
      apiKey: opts.apiKey,
      ...(opts.baseURL ? { baseURL: opts.baseURL } : {}),
      timeout: opts.timeoutMs ?? 15_000,
      maxRetries: this.maxRetries,
      // counts every request the SDK sends, retries included
      fetch: (input, init) => {
        const counter = this.attempts.getStore();
        if (counter) counter.n += 1;
        return fetch(input, init);
      },
    });
  }

  /** Usage of one session, or of every request without a session id. */
  stats(session: string = INSTANCE): LlmStats {
    const s = this.usage.get(session) ?? emptyStats();
    return { ...s, fallbacks: [...s.fallbacks] };
  }

  async extract(req: ExtractionRequest): Promise<Proposal> {
    const session = sessionOf(req);
    const stats = this.statsFor(session);
    const offline = await this.fallback.extract(req);
    const rule = exactRule(req, offline);
    if (rule) {
      stats.skipped += 1;
      this.emit({ type: 'llm_skipped', session, rule });
      return { ...offline, skipped: rule };
    }
    // the session's own usage when the request carries it (kept in the stored session), else this instance's memory
    const used = req.usage ?? stats;
    const admitted = this.gate.admit({ calls: used.calls, tokens: used.inputTokens + used.outputTokens }, this.maxRetries + 1);
    if ('refused' in admitted) {
      this.emit({ type: 'llm_budget_exhausted', session, scope: admitted.refused, first: admitted.first });
      return this.fellBack(session, offline, 'budget', `${admitted.refused} budget spent`);
    }
    const started = performance.now();
    const counter = { n: 0 };
    let tokens = 0;
    try {
      const { calls, usage } = await this.attempts.run(counter, () => this.call(req, session, admitted));
      tokens = usage.inputTokens + usage.outputTokens;
      const proposal = proposalFromToolCalls(calls, req, this.name);
      return { ...proposal, llm: { model: this.model, durationMs: Math.round(performance.now() - started), ...usage, ...(counter.n > 1 ? { calls: counter.n } : {}) } };
    } catch (err) {
      const [reason, detail] = classify(err);
      const spent = err instanceof Malformed && err.usage ? err.usage : undefined;
      tokens = spent ? spent.inputTokens + spent.outputTokens : 0;
      const failed = { model: this.model, durationMs: Math.round(performance.now() - started), inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheCreationTokens: 0, failed: true, ...(counter.n > 1 ? { calls: counter.n } : {}) };
      return { ...this.fellBack(session, offline, reason, detail), llm: { ...failed, ...(spent ?? {}) } };
    } finally {
      this.gate.settle(admitted, counter.n, tokens);
      this.statsFor(session).calls += Math.max(0, counter.n - 1); // retries are calls too (the first is counted in `call`)
    }
  }

  /** Whether this extractor sends `strict: true` tools (the option, else whether the model supports it). */
  get strict(): boolean {
    return this.opts.strict ?? supportsStrictTools(this.model);
  }

  /** The tools of one request as sent: strict (bounds stripped) when the model supports it and the schemas fit its limits. */
  toolsFor(req: ExtractionRequest): Array<ToolDef & { strict?: boolean }> {
    const tools = toolsFor(req);
    if (!this.strict) return tools;
    const stricter = tools.map((t) => ({ ...t, input_schema: strictSchema(t.input_schema) }));
    if (optionalCount(stricter.map((t) => t.input_schema)) > STRICT_MAX_OPTIONAL) return tools;
    return stricter.map((t) => ({ ...t, strict: true }));
  }

  /** One `messages.create`; returns the tool calls and usage, or throws (Malformed when the answer is off-schema). */
  private async call(req: ExtractionRequest, session: string, admitted: Admitted): Promise<{ calls: ToolCall[]; usage: Usage }> {
    const tools = this.toolsFor(req);
    const started = performance.now();
    const stats = this.statsFor(session);
    stats.calls += 1; // a failed call counts against the budget too
    const message = await this.client.messages.create({
      model: this.model,
      max_tokens: MAX_TOKENS,
      system: [{ type: 'text', text: SYSTEM_PROMPT, cache_control: { type: 'ephemeral' } }],
      tools: tools.map((t, i) => (i === tools.length - 1 ? { ...t, cache_control: { type: 'ephemeral' as const } } : t)),
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
      messages: [{ role: 'user', content: turnPrompt(req) }],
    }, { maxRetries: admitted.attempts - 1 }); // no retry the budget has no room for
    const latencyMs = Math.round(performance.now() - started);
    const u = message?.usage;
    const usage: Usage = {
      inputTokens: num(u?.input_tokens),
      outputTokens: num(u?.output_tokens),
      cacheReadTokens: num(u?.cache_read_input_tokens),
      cacheCreationTokens: num(u?.cache_creation_input_tokens),
    };
    stats.latencyMs += latencyMs;
    stats.inputTokens += usage.inputTokens;
    stats.outputTokens += usage.outputTokens;
    stats.cacheReadTokens += usage.cacheReadTokens;
    stats.cacheCreationTokens += usage.cacheCreationTokens;
    let calls: ToolCall[];
    try {
      calls = toolCalls(message?.content, tools.map((t) => t.name), req.current?.assess ? req.current.key : undefined);
    } catch (err) {
      if (err instanceof Malformed) err.usage = usage; // the tokens were spent all the same
      throw err;
    }
    this.emit({ type: 'llm_call', session, latencyMs, ...usage, calls });
    return { calls, usage };
  }

  private fellBack(session: string, offline: Proposal, reason: FallbackReason, detail: string): Proposal {
    this.statsFor(session).fallbacks.push({ reason, detail });
    this.emit({ type: 'llm_fallback', session, reason, detail });
    return { ...offline, fallback: { reason, detail } };
  }

  private statsFor(session: string): LlmStats {
    let s = this.usage.get(session);
    if (!s) {
      this.usage.set(session, (s = emptyStats()));
      // a server sees endless sessions: keep the most recent (each session's own usage is in the session)
      if (this.usage.size > MAX_TRACKED_SESSIONS) {
        for (const key of this.usage.keys()) {
          if (key === INSTANCE || key === session) continue;
          this.usage.delete(key);
          break;
        }
      }
    }
    return s;
  }

  private emit(e: AnthropicEvent): void {
    try {
      this.opts.onEvent?.(e);
    } catch {
      // a listener's failure is not the turn's
    }
  }
}

/**
 * The tool calls of a response, checked for shape: at least one `tool_use`
 * block, every one naming a tool offered this turn, with an object input
 * (and `updates` an object for update_answers). The keys and values inside
 * are NOT filtered here: the engine refuses them with a reason.
 * A `vote_path` nested in update_answers becomes its own call, and so does
 * an `assessment` (as `assess_answer` for the current question, `assessKey`).
 */
export function toolCalls(content: unknown, offered: readonly string[], assessKey?: string): ToolCall[] {
  if (!Array.isArray(content)) throw new Malformed('response has no content');
  const calls: ToolCall[] = [];
  for (const block of content as Array<Record<string, unknown>>) {
    if (block?.type !== 'tool_use') continue;
    const name = block.name;
    if (typeof name !== 'string' || !offered.includes(name) || !(TOOL_NAMES as readonly string[]).includes(name)) throw new Malformed(`unknown tool ${String(name)}`);
    const parsed = ToolCall.safeParse({ tool: name, input: block.input });
    if (!parsed.success) throw new Malformed(`input of ${name} is not an object`);
    const call = parsed.data;
    if (call.tool === 'update_answers') {
      const { vote_path: vote, assessment, ...rest } = call.input;
      if (typeof rest.updates !== 'object' || rest.updates === null || Array.isArray(rest.updates)) throw new Malformed('update_answers without an updates object');
      calls.push({ tool: 'update_answers', input: rest });
      if (assessment !== undefined && assessKey !== undefined) {
        if (typeof assessment !== 'object' || assessment === null || Array.isArray(assessment)) throw new Malformed('assessment is not an object');
        calls.push({ tool: 'assess_answer', input: { key: assessKey, ...(assessment as Record<string, unknown>) } });
      }
      if (vote !== undefined) {
        if (typeof vote !== 'object' || vote === null || Array.isArray(vote)) throw new Malformed('vote_path is not an object');
        calls.push({ tool: 'vote_path', input: vote as Record<string, unknown> });
      }
    } else calls.push(call);
  }
  if (calls.length === 0) throw new Malformed('no tool call in the response');
  return calls;
}

function classify(err: unknown): [FallbackReason, string] {
  const detail = err instanceof Error ? `${err.constructor.name}: ${err.message}`.slice(0, 300) : String(err);
  if (err instanceof Malformed) return ['malformed', err.message];
  if (err instanceof Anthropic.APIConnectionTimeoutError) return ['timeout', detail];
  if (err instanceof Anthropic.APIConnectionError) return ['connection', detail];
  if (err instanceof Anthropic.RateLimitError) return ['rate_limited', detail];
  if (err instanceof Anthropic.APIError) return [typeof err.status === 'number' && err.status >= 500 ? 'server_error' : 'api_error', detail];
  // a body that is not JSON, or not a message, fails inside the SDK's parsing
  return ['malformed', detail];
}

function sessionOf(req: ExtractionRequest): string {
  const id = (req as { sessionId?: unknown }).sessionId;
  return typeof id === 'string' && id !== '' ? id : INSTANCE;
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}
