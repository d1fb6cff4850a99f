import { performance } from 'node:perf_hooks';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { isEnded, type SessionState } from '../protocol/session.ts';
import type { EngineEvent } from '../engine/types.ts';
import type { Proposal } from '../engine/input.ts';
import type { TranscriptEntry } from '../protocol/session.ts';

// Prometheus metrics of one server. Each server has its own registry (tests
// run several in one process). Labels are bounded sets only — tenant, flow,
// node, code — never a session id or anything a visitor typed.

/** Where each open session stands, for the "open sessions by node" gauge (drop-off per question). */
export class SessionPositions {
  private readonly at = new Map<string, { tenant: string; flow: string; node: string; seen: number }>();

  constructor(private readonly idleAfterMs: number, private readonly max: number, private readonly clock: () => number) {}

  /** Records a session's latest state; an ended session is forgotten. */
  update(sessionId: string, tenant: string, flow: string, state: SessionState): void {
    const was = this.at.get(sessionId);
    this.at.delete(sessionId); // re-insert: the map stays in least-recently-seen order
    if (isEnded(state.status) || !state.nodeId) return;
    // a session's entry is updated in place on each of its turns (not a new object kept until the next)
    if (was) {
      was.tenant = tenant;
      was.flow = flow;
      was.node = state.nodeId;
      was.seen = this.clock();
      this.at.set(sessionId, was);
      return;
    }
    this.at.set(sessionId, { tenant, flow, node: state.nodeId, seen: this.clock() });
    if (this.at.size > this.max) this.at.delete(this.at.keys().next().value!);
  }

  /** Counts by tenant, flow, node and whether the session has gone idle (no turn for `idleAfterMs`). */
  counts(): Map<string, { labels: { tenant: string; flow: string; node: string; idle: 'true' | 'false' }; n: number }> {
    const now = this.clock();
    const out = new Map<string, { labels: { tenant: string; flow: string; node: string; idle: 'true' | 'false' }; n: number }>();
    for (const p of this.at.values()) {
      const idle = now - p.seen >= this.idleAfterMs ? 'true' : 'false';
      const key = `${p.tenant}\0${p.flow}\0${p.node}\0${idle}`;
      const row = out.get(key) ?? { labels: { tenant: p.tenant, flow: p.flow, node: p.node, idle }, n: 0 };
      row.n++;
      out.set(key, row);
    }
    return out;
  }
}

/** What a turn was, for the turn metrics. */
export interface TurnLabels {
  tenant: string;
  flow: string;
  kind: 'message' | 'back' | 'restart' | 'operator' | 'decision' | 'hand_back' | 'close';
}

/** The server's metrics and the registry `/metrics` renders. */
export class Metrics {
  readonly registry = new Registry();
  readonly positions: SessionPositions;
  readonly turns: Counter<'tenant' | 'kind' | 'result'>;
  readonly turnSeconds: Histogram<'tenant' | 'kind'>;
  readonly validationFailures: Counter<'tenant' | 'flow' | 'node'>;
  readonly completions: Counter<'tenant' | 'flow' | 'status'>;
  readonly sessionsStarted: Counter<'tenant' | 'flow' | 'transport'>;
  readonly rejected: Counter<'transport' | 'code'>;
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly sockets: Gauge<'namespace'>;
  readonly llmCalls: Counter<'tenant' | 'model' | 'result'>;
  readonly llmTokens: Counter<'tenant' | 'model' | 'type'>;
  readonly llmSeconds: Histogram<'tenant' | 'model'>;
  readonly llmSkipped: Counter<'tenant' | 'rule'>;
  readonly llmFallbacks: Counter<'tenant' | 'reason'>;
  /** Turns degraded to the offline rules by a spent budget (see server/extract/budget.ts). */
  readonly llmBudgetExhausted: Counter<'scope'>;
  /**
   * Where the `questline_open_sessions` gauge reads open sessions by node
   * (the composition sets it to the stored funnel counts); unset, it counts
   * the sessions this process saw a turn of (`positions`).
   */
  openSessions?: () => Promise<Array<{ tenant: string; flow: string; node: string; n: number }>>;

  constructor(opts: { idleAfterMs?: number; maxTracked?: number; clock?: () => number; defaultMetrics?: boolean } = {}) {
    const registers = [this.registry];
    this.positions = new SessionPositions(opts.idleAfterMs ?? 10 * 60_000, opts.maxTracked ?? 100_000, opts.clock ?? Date.now);
    if (opts.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
    this.turns = new Counter({ name: 'questline_turns_total', help: 'Conversation turns handled, by result (ok or error code)', labelNames: ['tenant', 'kind', 'result'], registers });
    this.turnSeconds = new Histogram({
      name: 'questline_turn_duration_seconds', help: 'Time to handle a turn: lock, extract, engine, actions, save',
      labelNames: ['tenant', 'kind'], buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers,
    });
    this.validationFailures = new Counter({ name: 'questline_validation_failures_total', help: "Answers refused by validation: the engine's validation_failed events of committed turns", labelNames: ['tenant', 'flow', 'node'], registers });
    this.completions = new Counter({ name: 'questline_completions_total', help: 'Sessions that ended, by final status', labelNames: ['tenant', 'flow', 'status'], registers });
    this.sessionsStarted = new Counter({ name: 'questline_sessions_started_total', help: 'Sessions started', labelNames: ['tenant', 'flow', 'transport'], registers });
    this.rejected = new Counter({ name: 'questline_rejected_requests_total', help: 'Requests refused before reaching a session (auth, origin, payload, rate limit)', labelNames: ['transport', 'code'], registers });
    this.httpRequests = new Counter({ name: 'questline_http_requests_total', help: 'HTTP requests by route pattern and status', labelNames: ['method', 'route', 'status'], registers });
    this.sockets = new Gauge({ name: 'questline_socket_connections', help: 'Connected sockets by namespace', labelNames: ['namespace'], registers });
    this.llmCalls = new Counter({ name: 'questline_llm_calls_total', help: 'Model calls made by the extractor, by result (ok, or failed: timeout, 429, 5xx, malformed answer)', labelNames: ['tenant', 'model', 'result'], registers });
    this.llmTokens = new Counter({ name: 'questline_llm_tokens_total', help: 'Tokens of model calls by type (input, output, cache_read, cache_creation), failed calls included', labelNames: ['tenant', 'model', 'type'], registers });
    this.llmSeconds = new Histogram({
      name: 'questline_llm_call_duration_seconds', help: 'Time of one model call', labelNames: ['tenant', 'model'],
      buckets: [0.1, 0.25, 0.5, 1, 2, 4, 8, 16], registers,
    });
    this.llmSkipped = new Counter({ name: 'questline_llm_skipped_total', help: 'Messages the offline rules answered exactly, so no model call was made, by rule', labelNames: ['tenant', 'rule'], registers });
    this.llmBudgetExhausted = new Counter({ name: 'questline_llm_budget_exhausted_total', help: 'Messages sent to the offline rules because a model budget was spent, by scope (session, tenant, global)', labelNames: ['scope'], registers });
    this.llmFallbacks = new Counter({ name: 'questline_llm_fallbacks_total', help: "Messages the offline rules handled instead of the model's answer, by reason (budget, timeout, malformed, …)", labelNames: ['tenant', 'reason'], registers });
    const positions = this.positions;
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const metrics = this;
    new Gauge({
      name: 'questline_open_sessions',
      help: 'Open (active or waiting) sessions by the node they are at, from the stored funnel counts: ended sessions leave it, every instance reports the same',
      labelNames: ['tenant', 'flow', 'node'], registers,
      async collect() {
        const rows = metrics.openSessions ? await metrics.openSessions() : [...positions.counts().values()].map((r) => ({ ...r.labels, n: r.n }));
        this.reset();
        for (const r of rows) this.inc({ tenant: r.tenant, flow: r.flow, node: r.node }, r.n);
      },
    });
  }

  /**
   * Records what one extraction cost, from the extractor's own report of it
   * (a Proposal's `llm`, `skipped`, `fallback`): one model call at most, with
   * its tokens — also when its answer was malformed and the turn fell back.
   */
  extraction(tenant: string, p: Proposal): void {
    if (p.llm) {
      const model = p.llm.model;
      this.llmCalls.inc({ tenant, model, result: p.llm.failed ? 'failed' : 'ok' }, p.llm.calls ?? 1);
      this.llmSeconds.observe({ tenant, model }, p.llm.durationMs / 1000);
      const tokens: Array<[string, number]> = [['input', p.llm.inputTokens], ['output', p.llm.outputTokens], ['cache_read', p.llm.cacheReadTokens], ['cache_creation', p.llm.cacheCreationTokens]];
      for (const [type, n] of tokens) if (n > 0) this.llmTokens.inc({ tenant, model, type }, n);
    }
    if (p.skipped !== undefined) this.llmSkipped.inc({ tenant, rule: p.skipped });
    if (p.fallback) this.llmFallbacks.inc({ tenant, reason: p.fallback.reason });
  }

  /**
   * Runs one turn and records its count, latency, validation failures (the
   * engine's `validation_failed` events of the turn) and where the session
   * now stands.
   */
  async turn<T extends { ok: true; value: { messages?: TranscriptEntry[]; state?: SessionState; events?: readonly EngineEvent[] } } | { ok: false; error: { code: string } }>(
    sessionId: string, labels: TurnLabels, run: () => Promise<T>,
  ): Promise<T> {
    // the clock read here and observed below, rather than prom-client's startTimer (a closure and a copy of the labels per turn)
    const started = performance.now();
    let result: T;
    try {
      result = await run();
    } catch (err) {
      this.turns.inc({ tenant: labels.tenant, kind: labels.kind, result: 'internal' });
      throw err;
    } finally {
      this.turnSeconds.observe({ tenant: labels.tenant, kind: labels.kind }, (performance.now() - started) / 1000);
    }
    this.turns.inc({ tenant: labels.tenant, kind: labels.kind, result: result.ok ? 'ok' : result.error.code });
    // a duplicate clientId replays a stored reply (no events): its failures were counted the first time
    if (result.ok && !(result.value as { duplicate?: boolean }).duplicate) {
      for (const e of result.value.events ?? []) {
        if (e.type === 'validation_failed') this.validationFailures.inc({ tenant: labels.tenant, flow: labels.flow, node: e.node ?? 'none' });
      }
      if (result.value.state) this.positions.update(sessionId, labels.tenant, labels.flow, result.value.state);
    }
    return result;
  }

  /** The Prometheus text exposition. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
