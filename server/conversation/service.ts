import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { checkOperatorAnswers } from '../engine/hand-back.ts';
import { isClosed } from '../engine/close.ts';
import { timedOut } from '../engine/reopen.ts';
import { matchCommand } from '../engine/extraction.ts';
import { progressAt, steadyProgress } from '../engine/progress.ts';
import { checkContext } from '../flow/context-check.ts';
import { answerValues, sessionFromJson, sessionToJson, type Session } from '../engine/session.ts';
import type { EngineEvent } from '../engine/types.ts';
import type { Extractor } from '../extract/extractor.ts';
import type { CompiledFlow } from '../flow/compiled-flow.ts';
import { LruCache } from '../shared/lru.ts';
import type { SessionStore, StoredSession, TranscriptEntry } from '../store/session-store.ts';
import { systemCallEnv, type CallEnv } from './actions.ts';
import { failure, type Result, type ServiceError } from '../protocol/errors.ts';
import { TenantCpu } from './tenant-cpu.ts';
import { isEnded, type InputHint, type SessionState } from '../protocol/session.ts';
import type { Completion } from '../delivery/completion.ts';
import type { DeliverySink } from '../delivery/hook.ts';

import { KeyedMutex, type TurnLock } from '../store/turn-lock.ts';
import { storageFault } from '../store/storage-fault.ts';
import { MemoryFunnelCounts, type FunnelCounts } from '../store/funnel-counts.ts';
import { foldEvents } from '../store/funnel-facts.ts';
import { asChanges, tallyDelta, tallyOf, turnDelta } from '../store/funnel-tally.ts';
import { localeField } from './locale-field.ts';
import { inputHint } from './input-hint.ts';
import type { BotMessage } from './messages.ts';
import type { Implementations } from './implementations.ts';
import { runTurn, type Settled, type TurnInput } from './turn-runner.ts';
import { visitorAnswers } from './visitor-answers.ts';
import { chooseRevision } from './variants.ts';
import type { TenantDirectory } from '../catalog/tenants.ts';

/** What a turn returns to its transport: the new transcript entries, the state, and the engine's events of the turn (for metrics). */
export interface TurnDone {
  messages: TranscriptEntry[];
  state: SessionState;
  /** The trace of the turn as committed; empty for an answer from the store (a duplicate clientId). */
  events: EngineEvent[];
}

/** Where new transcript entries go besides the store: the sockets in the session's room. */
export type Broadcast = (sessionId: string, entries: readonly TranscriptEntry[], state: SessionState) => void;

/**
 * What the service is built from: the implementations every turn runs with
 * (actions, named validators, extractor, clock — the same registry the CLI's
 * runner takes), and the store, tenants, lock and hooks around them.
 */
export interface ServiceDeps extends Implementations {
  store: SessionStore;
  tenants: TenantDirectory;
  /** The extractor for a tenant's messages; overrides `extractor` when given. */
  extractorFor?: (tenant: string) => Extractor;
  /**
   * Where the deliveries a turn owes go (the webhook outbox): written before
   * the commit that ends the session, named by it (see DeliverySink).
   */
  deliveries?: DeliverySink;
  /** Called after a session that just ended is saved (metrics, logs; embedders may enqueue here, after the fact). */
  onComplete?: (c: Completion) => Promise<void> | void;
  /** Called (under the session's lock) after a session was erased: what else holds its answers forgets them (the outbox). */
  onErase?: (sessionId: string) => Promise<void> | void;
  broadcast?: Broadcast;
  /** Whether a person is online to answer a tenant's escalated sessions (an operator console connected); default: nobody. */
  operatorsOnline?: (tenant: string) => boolean;
  /** Random bytes (injectable for tests); tokens are 32 bytes, ids 16. */
  random?: (n: number) => Buffer;
  /** The per-session turn lock (default: one process's `KeyedMutex`; a cross-instance lock for several servers). */
  lock?: TurnLock;
  /** Transcript entries a session may hold before visitor messages are refused with `session_full` (default MAX_TRANSCRIPT_ENTRIES). */
  maxTranscriptEntries?: number;
  /** The funnel's counters, changed after each saved turn (default: in this process's memory). */
  counts?: FunnelCounts;
  /** Called when the counters could not take a saved turn's changes (the turn stands; `questline insights rebuild` repairs them). */
  onCountsError?: (err: unknown, sessionId: string) => void;
  /** Each tenant's share of the event loop (default DEFAULT_TENANT_CPU): past it, its turns are `busy` and other tenants' are not. */
  tenantCpu?: TenantCpu;
}

/** Everything a step under the session lock has to go on. */
interface Loaded {
  record: StoredSession;
  flow: CompiledFlow;
  session: Session;
}

/** What a step decided: the record and settled turn to commit, with the entries before the bot's (a user or operator line). */
interface Change {
  record: StoredSession;
  result: Settled;
  before: TranscriptEntry[];
  now: string;
  /** The client message id the change answers, remembered so a retry is answered from the store. */
  clientId?: string;
  /** The session starts over (a restart, a hand-back): its next ending is a new one. */
  restarted?: boolean;
}

/** What starting a session returns (interfaces.md `session:start` ack). */
export interface Started {
  sessionId: string;
  token: string;
  messages: TranscriptEntry[];
  state: SessionState;
}

const MAX_PROCESSED = 64;
/** Delivery ids a record names at most (StoredSession.deliveries): a session ends a handful of times at most. */
const MAX_DELIVERIES = 32;
/** How many of a tenant's newest sessions start-up reconciliation looks at. */
const RECONCILE_PAGE = 1000;
/** The most sessions of one tenant and status one sweep looks at (the store lists the newest first). */
const SWEEP_PAGE = 1000;

/** A tenant's `settings.inactivity_s`, when it is a positive number of seconds. */
export function inactivitySeconds(settings: Record<string, unknown> | undefined): number | undefined {
  const v = settings?.inactivity_s;
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined;
}

/** A tenant's `settings.resume_s`: how long after going idle a visitor may come back to the same conversation, when a positive number of seconds. */
export function resumeSeconds(settings: Record<string, unknown> | undefined): number | undefined {
  const v = settings?.resume_s;
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined;
}

/** Whether a tenant wants partial leads: the answers of sessions that timed out (`settings.partial_leads: true`). */
export function wantsPartialLeads(settings: Record<string, unknown> | undefined): boolean {
  return settings?.partial_leads === true;
}

/**
 * Transcript entries per session by default: a long intake is well under 200;
 * at the 2,000-character message limit this bounds a session near 2 MB.
 */
export const MAX_TRANSCRIPT_ENTRIES = 1000;
/** Engine sessions kept parsed between turns (see ConversationService.parsed). */
const PARSED_SESSIONS = 10_000;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
/** Compared against when the session does not exist, so both cases take the same path. */
const NO_SESSION_HASH = '0'.repeat(64);

/**
 * The only place that orchestrates a turn: lock the session → load → extract →
 * engine turn → carry out effects → save → emit. One turn per session at a time;
 * a client message id already processed is answered from the store, not run
 * again; every bot message gets the next per-session sequence number.
 */
export class ConversationService {
  private readonly locks: TurnLock;
  /**
   * The engine session each recent turn committed, by session id, with the
   * stored version, seq and updatedAt it was saved under. The next turn of
   * that session uses it when the store still holds exactly that save,
   * instead of upgrading and zod-checking the stored JSON again (sessions are
   * immutable values). Anything else — a save by another server, a restart,
   * an evicted entry — reads the stored JSON through sessionFromJson.
   */
  private readonly parsed = new LruCache<string, { version: number; seq: number; updatedAt: string; session: Session }>(PARSED_SESSIONS);
  private readonly env: CallEnv;
  /** The implementations every turn runs with (the deps' own, without the store and hooks). */
  private readonly impl: Implementations;
  private readonly random: (n: number) => Buffer;
  private readonly maxEntries: number;
  /** Each tenant's share of the event loop. */
  private readonly cpu: TenantCpu;
  /** The funnel's counters (docs/insights.md). */
  readonly counts: FunnelCounts;

  constructor(private readonly deps: ServiceDeps) {
    this.counts = deps.counts ?? new MemoryFunnelCounts();
    this.env = deps.env ?? systemCallEnv;
    this.random = deps.random ?? randomBytes;
    this.locks = deps.lock ?? new KeyedMutex();
    this.maxEntries = deps.maxTranscriptEntries ?? MAX_TRANSCRIPT_ENTRIES;
    this.cpu = deps.tenantCpu ?? new TenantCpu();
    const { extractor, actions, validators, maxSteps } = deps;
    this.impl = {
      env: this.env,
      ...(extractor ? { extractor } : {}), ...(actions ? { actions } : {}),
      ...(validators ? { validators } : {}), ...(maxSteps !== undefined ? { maxSteps } : {}),
    };
  }

  /** The validators and actions every turn runs with (the Studio runs goldens on a draft with them). */
  get implementations(): Pick<Implementations, 'validators' | 'actions'> {
    return { ...(this.impl.validators ? { validators: this.impl.validators } : {}), ...(this.impl.actions ? { actions: this.impl.actions } : {}) };
  }

  /** Starts a conversation on a tenant's flow; the bot speaks first. */
  async startSession(req: { tenant: string; flow: string; context?: Record<string, unknown>; locale?: string | readonly string[]; draft?: CompiledFlow; visitor?: string }): Promise<Result<Started>> {
    // a revision another instance published is served from the next start on
    if (!req.draft) await this.deps.tenants.sync();
    // a Studio preview runs on a draft (already in the registry, so its turns find it) and is marked as such
    const current = req.draft ?? this.deps.tenants.flow(req.tenant, req.flow);
    if (!current) {
      const why = this.deps.tenants.unavailable(req.tenant, req.flow);
      if (why) return failure('flow_unavailable', why.reason);
      return this.deps.tenants.tenant(req.tenant)?.flows.includes(req.flow)
        ? failure('flow_unavailable', `flow '${req.flow}' does not compile on this server; see the server log`)
        : failure('unknown_flow', `tenant '${req.tenant}' offers no flow '${req.flow}'`);
    }
    // a tenant's variant (tenant.json `variants`): a share of visitors, the same ones every time, start on another revision
    const flow = req.draft ? current : chooseRevision(this.deps.tenants.tenant(req.tenant), current,
      (f, r) => this.deps.tenants.pinned(f, r), req.visitor, () => this.random(4).readUInt32BE(0) / 2 ** 32);
    const id = this.random(16).toString('base64url');
    const token = this.random(32).toString('base64url');
    const now = this.env.now();
    const context = sessionContext(this.deps.tenants.tenant(req.tenant)?.settings, req.context);
    // the flow's declared interface is a contract: a start without (or with a wrong) field is refused, naming it
    const issues = checkContext(flow.source, context ?? {});
    if (issues.length > 0) return failure('invalid_payload', `context: ${issues.map((i) => i.message).join('; ')}`);
    const busy = req.draft ? null : this.overBudget(req.tenant);
    if (busy) return busy;
    const result = await this.cpu.measure(req.tenant, () => runTurn(flow, undefined, { kind: 'start', init: { id, now, ...(context ? { context } : {}), ...(req.locale !== undefined ? { locale: req.locale } : {}) } }, this.impl));
    const messages = this.entries(result.messages, 0, now);
    const record: StoredSession = {
      id, tenant: req.tenant, flowId: flow.id, revision: flow.revision, tokenHash: sha256(token), version: 1,
      seq: messages.length, processed: [], status: result.session.status, createdAt: now, updatedAt: now,
      session: sessionToJson(result.session), deliveries: [], insights: foldEvents(undefined, result.events),
      ...(req.draft ? { preview: true } : {}),
    };
    const owed = await this.prepare(record, result.session, undefined);
    const created = await this.deps.store.create(record, { transcript: messages, events: result.events });
    if (!created.ok) {
      await this.deps.deliveries?.abandoned(owed.ids);
      return failure('conflict', 'session id collision; try again');
    }
    await this.count(id, tallyDelta(null, tallyOf(record)));
    this.remember(record, result.session);
    const state = stateOf(flow, result.session);
    this.deps.broadcast?.(id, messages, state);
    await this.ended(owed);
    return { ok: true, value: { sessionId: id, token, messages, state } };
  }

  /**
   * Checks a session token (constant time) and returns the session's tenant.
   * A token that does not open the session gets the same answer as a session
   * that does not exist (`unknown_session`), so a caller without the token
   * cannot learn which session ids exist.
   */
  async authenticate(sessionId: string, token: string | undefined): Promise<Result<{ tenant: string; record: StoredSession }>> {
    if (!token) return failure('bad_token', 'a session token is required');
    const record = await this.deps.store.load(sessionId).catch(unlessStorageFault);
    const expected = Buffer.from(record?.tokenHash ?? NO_SESSION_HASH, 'hex');
    const given = Buffer.from(sha256(token), 'hex');
    const matches = expected.length === given.length && timingSafeEqual(expected, given);
    if (!record || !matches) return failure('unknown_session', 'no such session');
    return { ok: true, value: { tenant: record.tenant, record } };
  }

  /**
   * One user message: exactly once per `clientId`. `admitted` (optional): the
   * message's rate-limit verdict, still on its way; the turn takes its lock
   * meanwhile (with Redis, in the same round trip as the charges) and runs
   * only if it resolves true (else it ends `rate_limited` having done nothing).
   */
  async message(sessionId: string, text: string, clientId: string, admitted?: Promise<boolean>): Promise<Result<TurnDone & { duplicate: boolean }>> {
    return this.withSession(sessionId, clientId, async ({ record, flow, session }) => {
      // an ended session takes only "restart" (unless a person holds it): anything else is refused, not stored, and costs no model call
      // escalated means a person will answer: the conversation stays open (server/engine/handover.ts)
      // a visitor back within the tenant's resume_s picks up where they left off (not for "restart": that starts over)
      const command = matchCommand(flow, text);
      const returning = command !== 'restart' && this.resumable(record, session);
      // a closed escalation has ended for everyone, the person too
      const shut = !returning && (isClosed(session) || (!record.operator && isEnded(session.status) && session.status !== 'escalated'));
      if (shut && command !== 'restart') {
        return failure('session_ended', 'this conversation has ended; send "restart" to begin again');
      }
      if (record.seq >= this.maxEntries) {
        return failure('session_full', `this conversation has reached its limit of ${this.maxEntries} messages`);
      }
      const busy = this.overBudget(record.tenant);
      if (busy) return busy;
      const now = this.env.now();
      const user: TranscriptEntry = { seq: record.seq + 1, at: now, role: 'user', kind: 'user', text, clientId };
      // a person has the conversation: the message goes to them, the bot stays quiet
      if (record.operator) {
        // a person has the conversation: the message waits for them, flagged until they reply
        const u = record.operator.unanswered;
        const flagged = { ...record, operator: { ...record.operator, unanswered: { since: u?.since ?? now, count: (u?.count ?? 0) + 1 } } };
        // contact details typed to the person are kept as answers (with provenance); the bot stays quiet
        const noted = await this.run(flow, session, { kind: 'note', text, now }, record.tenant);
        return { ok: true, value: { record: flagged, result: { session: noted.session, messages: [], events: noted.events }, before: [user], now, clientId } };
      }
      if (session.status === 'escalated' && matchCommand(flow, text) !== 'restart') {
        // waiting for a person: the message is kept for them, counted, and the bot says honestly where things stand
        const u = record.unanswered;
        const flagged = { ...record, unanswered: { since: u?.since ?? now, count: (u?.count ?? 0) + 1 } };
        const staffed = this.deps.operatorsOnline?.(record.tenant) === true;
        const result = await this.run(flow, session, { kind: 'text', text, now, ...(staffed ? { staffed } : {}) }, record.tenant);
        return { ok: true, value: { record: flagged, result, before: [user], now, clientId } };
      }
      // whether someone is online decides the honest words of an escalation this turn may reach
      const staffed = this.deps.operatorsOnline?.(record.tenant) === true;
      // back after going idle: reopened where it stood, then the message is read as usual
      const back = returning ? await this.run(flow, session, { kind: 'reopen', now, greet: false }, record.tenant) : undefined;
      const read = await this.run(flow, back?.session ?? session, { kind: 'text', text, now, ...(staffed ? { staffed } : {}) }, record.tenant);
      const result = back ? { ...read, messages: [...back.messages, ...read.messages], events: [...back.events, ...read.events] } : read;
      const { unanswered: _w, ...fresh } = record; // a restart of an escalated session: nothing waits any more
      return { ok: true, value: { record: record.unanswered ? fresh : record, result, before: [user], now, clientId } };
    }, admitted);
  }

  /** `back`, `restart`: commands sent as controls rather than words. */
  async command(sessionId: string, command: 'back' | 'restart'): Promise<Result<TurnDone>> {
    return turnOnly(await this.withSession(sessionId, undefined, async ({ record, flow, session }) => {
      const now = this.env.now();
      const staffed = this.deps.operatorsOnline?.(record.tenant) === true;
      const result = await this.run(flow, session, { kind: 'command', command, now, ...(staffed ? { staffed } : {}) }, record.tenant);
      return { ok: true, value: { record, result, before: [], now, restarted: command === 'restart' } };
    }));
  }

  /**
   * An operator's decision on a session waiting at an interrupt (approve,
   * optionally with corrected answers, or reject); `role` is the role claimed,
   * refused when the interrupt names another. Corrections are checked like
   * any answer (`invalid_payload` naming the key, nothing applied).
   */
  async decide(sessionId: string, decision: 'approve' | 'reject', answers?: Record<string, unknown>, by?: string, role?: string): Promise<Result<TurnDone>> {
    return turnOnly(await this.withSession(sessionId, undefined, async ({ record, flow, session }) => {
      if (session.status !== 'waiting') return failure('not_waiting', 'the session is not waiting for an operator');
      // operator keys name people, not roles: a decision claiming another role than the interrupt's is refused
      const wanted = session.node ? flow.nodes.get(session.node)?.node.interrupt?.role : undefined;
      if (wanted !== undefined && role !== undefined && role !== wanted) {
        return failure('wrong_role', `This decision is for the '${wanted}' role; you are deciding as '${role}'.`);
      }
      // corrections are checked like hand-back answers: one unknown key or invalid value refuses the whole decision
      const checked = checkOperatorAnswers(flow, session, answers ?? {}, this.impl);
      if (!checked.ok) return failure('invalid_payload', `answers.${checked.key}: ${checked.reason}`);
      const now = this.env.now();
      const result = await this.run(flow, session, { kind: 'operator', decision, now, ...(answers ? { answers: checked.values } : {}), ...(by ? { by } : {}) }, record.tenant);
      return { ok: true, value: { record, result, before: [], now } };
    }));
  }

  /** An operator writes into a conversation (and takes it over from the bot until `handBack`). */
  async operatorMessage(sessionId: string, text: string, by?: string): Promise<Result<{ messages: TranscriptEntry[] }>> {
    const done = await this.withSession(sessionId, undefined, async ({ record, session }) => {
      // the visitor was told the conversation is closed: a line after that would reach nobody
      if (isClosed(session)) return failure('session_ended', 'this conversation was closed; hand it back to the bot to reopen it');
      const now = this.env.now();
      const entry: TranscriptEntry = { seq: record.seq + 1, at: now, role: 'operator', kind: 'operator', text };
      // the reply answers whatever the visitor wrote meanwhile: the unanswered flag goes
      const { unanswered: _u, ...holding } = record.operator ?? { since: now, ...(by ? { by } : {}) };
      const { unanswered: _w, ...rest } = record;
      const held = { ...rest, operator: holding };
      return { ok: true, value: { record: held, result: { session, messages: [], events: [] }, before: [entry], now } };
    });
    return done.ok ? { ok: true, value: { messages: done.value.messages } } : done;
  }

  /**
   * Gives the conversation back to the bot at the question `nodeId`; the
   * visitor is told the person left. `answers` the operator sets are checked
   * like any answer (an invalid one refuses the hand-back, naming the key) and
   * committed, and a question they answer is not asked again.
   */
  async handBack(sessionId: string, nodeId: string, answers?: Record<string, unknown>): Promise<Result<TurnDone>> {
    return turnOnly(await this.withSession(sessionId, undefined, async ({ record, flow, session }) => {
      // a completed intake was delivered: reopening it would run it to a second ending (and a second webhook)
      if (session.status === 'completed') return failure('session_ended', 'this conversation was completed and delivered; it cannot be handed back to the bot');
      const c = flow.nodes.get(nodeId);
      if (!c || c.node.type !== 'question') return failure('invalid_payload', `'${nodeId}' is not a question of this flow`);
      const frame = c.scope === null ? -1 : session.stack.findIndex((f) => f.ref === c.scope);
      if (c.scope !== null && frame < 0) return failure('invalid_payload', `'${nodeId}' is inside subgraph '${c.scope}', which the conversation is not in`);
      const checked = checkOperatorAnswers(flow, session, answers ?? {}, this.impl);
      if (!checked.ok) return failure('invalid_payload', `answers.${checked.key}: ${checked.reason}`);
      const now = this.env.now();
      const result = await this.run(flow, session, { kind: 'resume', nodeId, stack: session.stack.slice(0, frame + 1), now, answers: checked.values }, record.tenant);
      const { operator: _o, unanswered: _w, ...released } = record;
      return { ok: true, value: { record: released, result, before: [], now, restarted: true } };
    }));
  }

  /**
   * A visitor comes back (a widget reconnecting with its session token, REST
   * `POST /sessions/:id/resume`): a session that went idle within the
   * tenant's `resume_s` is active again where it stood, answers kept, and the
   * bot says "Welcome back" and asks its question again. `session_ended`
   * when it went idle longer ago (a new conversation is the way on), or ended
   * otherwise. An open session has nothing to resume: its state, no messages.
   */
  async resume(sessionId: string): Promise<Result<TurnDone>> {
    const seen = await this.view(sessionId, Number.MAX_SAFE_INTEGER);
    if (!seen.ok) return seen;
    // open, or escalated and waiting for a person: nothing to resume
    const st = seen.value.state;
    if (!isEnded(st.status) || (st.status === 'escalated' && !st.closed)) return { ok: true, value: { messages: [], state: st, events: [] } };
    return turnOnly(await this.withSession(sessionId, undefined, async ({ record, flow, session }) => {
      if (!timedOut(session) && !isEnded(session.status)) return failure('conflict', 'this conversation was reopened meanwhile; read it again');
      if (!this.resumable(record, session)) return failure('session_ended', 'this conversation has ended; start a new one');
      const now = this.env.now();
      const result = await this.run(flow, session, { kind: 'reopen', now, greet: true }, record.tenant);
      return { ok: true, value: { record, result, before: [], now } };
    }));
  }

  /** Whether a visitor coming back now may pick the session up: it went idle (the sweep ended it) no longer than the tenant's `resume_s` ago. */
  private resumable(record: StoredSession, session: Session): boolean {
    if (!timedOut(session) || record.preview) return false;
    const window = resumeSeconds(this.deps.tenants.tenant(record.tenant)?.settings);
    return window !== undefined && Date.parse(this.env.now()) - Date.parse(record.updatedAt) <= window * 1000;
  }

  /** The client-facing state, with `resumable` when the visitor may still pick the session up. */
  private stateFor(flow: CompiledFlow, session: Session, record: StoredSession): SessionState {
    const state = stateOf(flow, session);
    return this.resumable(record, session) ? { ...state, resumable: true } : state;
  }

  /**
   * An operator closes a conversation a person was answering: an escalated
   * one stays `escalated` and is marked closed (no more messages, only a new
   * start); one they took over while it was active or waiting ends
   * `abandoned`, outcome `closed` (delivered as `intake.abandoned`). The
   * visitor is told; nothing waits for a person any more. Refused with
   * `session_ended` when it has already ended otherwise or was closed.
   */
  async close(sessionId: string): Promise<Result<TurnDone>> {
    return turnOnly(await this.withSession(sessionId, undefined, async ({ record, flow, session }) => {
      if (isClosed(session) || (isEnded(session.status) && session.status !== 'escalated')) {
        return failure('session_ended', `this conversation has already ended (${session.status}${isClosed(session) ? ', closed' : ''})`);
      }
      const now = this.env.now();
      const result = await this.run(flow, session, { kind: 'close', now, by: 'operator' }, record.tenant);
      const { operator: _o, unanswered: _w, ...released } = record;
      return { ok: true, value: { record: released, result, before: [], now } };
    }));
  }

  /**
   * Ends what has waited too long, and returns the ids it changed: an active
   * session idle for longer than its tenant's `settings.inactivity_s` ends as
   * `abandoned` (outcome `timed_out`; the outbox delivers it when the tenant
   * wants partial leads), and an interrupt waiting past its `timeout_s` is
   * rejected (the node's `rejected` edge, else an escalation). Inactivity
   * counts from the session's last activity, an interrupt's timeout from when
   * its wait began (messages meanwhile do not put it off). An escalated
   * session nobody wrote in for `inactivity_s` (visitor or operator) is
   * closed (it stays `escalated`; its `intake.escalated` went out when it
   * escalated). Each session is re-checked under its turn
   * lock, so a turn that just arrived wins, and with several instances
   * sharing a cross-instance lock only one ends it.
   */
  async sweep(): Promise<string[]> {
    const changed: string[] = [];
    for (const tenant of this.deps.tenants.ids()) {
      const idleLimit = inactivitySeconds(this.deps.tenants.tenant(tenant)?.settings);
      for (const status of ['active', 'waiting', 'escalated'] as const) {
        if (status !== 'waiting' && idleLimit === undefined) continue;
        for (const s of await this.deps.store.list(tenant, { status, limit: SWEEP_PAGE })) {
          // closed escalations wait for nothing; an open one is looked at once it is idle long enough
          if (status === 'escalated' && (s.closed || (Date.parse(this.env.now()) - Date.parse(s.updatedAt)) / 1000 < idleLimit!)) continue;
          const done = await this.withSession(s.id, undefined, async ({ record, flow, session }) => {
            const now = this.env.now();
            const idle = (Date.parse(now) - Date.parse(record.updatedAt)) / 1000;
            if (session.status === 'escalated' && !isClosed(session) && idleLimit !== undefined && idle >= idleLimit) {
              const result = await this.run(flow, session, { kind: 'close', now, by: 'inactivity' }, tenant);
              const { operator: _o, unanswered: _w, ...released } = record;
              return { ok: true, value: { record: released, result, before: [], now } };
            }
            if (record.status === 'active' && session.status === 'active' && !record.operator && idleLimit !== undefined && idle >= idleLimit) {
              const resumable = resumeSeconds(this.deps.tenants.tenant(tenant)?.settings) !== undefined;
              const result = await this.run(flow, session, { kind: 'expire', now, idleSeconds: Math.floor(idle), ...(resumable ? { resumable } : {}) }, tenant);
              return { ok: true, value: { record, result, before: [], now } };
            }
            const timeout = session.status === 'waiting' && session.node ? flow.nodes.get(session.node)?.node.interrupt?.timeout_s : undefined;
            // the wait counts from when it began: visitor messages meanwhile do not put it off
            const since = session.pending?.kind === 'interrupt' ? session.pending.since ?? record.updatedAt : record.updatedAt;
            const waited = (Date.parse(now) - Date.parse(since)) / 1000;
            if (timeout !== undefined && waited >= timeout) {
              const result = await this.run(flow, session, { kind: 'operator', decision: 'reject', by: 'timeout', note: `no decision within ${timeout} s`, now }, tenant);
              return { ok: true, value: { record, result, before: [], now } };
            }
            return failure('conflict', 'not due');
          });
          if (done.ok) changed.push(s.id);
        }
      }
    }
    return changed;
  }

  /** Runs `sweep` every `everyMs` (main.ts starts it); errors go to `onError`; returns a stop function. */
  startSweeps(everyMs: number, onError: (err: unknown) => void = () => {}): () => void {
    let running = false;
    const timer = setInterval(() => {
      if (running) return; // a slow sweep is not stacked on itself
      running = true;
      this.sweep().catch(onError).finally(() => { running = false; });
    }, everyMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  /**
   * The one path of every turn on an existing session: take its lock, load
   * it, answer a `clientId` already processed from the store, else run the
   * step and commit what it decided (save, broadcast, hand an ending on).
   */
  private withSession(
    sessionId: string, clientId: string | undefined, step: (loaded: Loaded) => Promise<Result<Change>>, admitted?: Promise<boolean>,
  ): Promise<Result<TurnDone & { duplicate: boolean }>> {
    return this.locks.run(sessionId, async () => {
      if (admitted && !(await admitted)) return failure('rate_limited', 'refused by a rate limit');
      const loaded = await this.load(sessionId);
      if (!loaded.ok) return loaded;
      const { record, flow, session } = loaded.value;
      const seen = clientId === undefined ? undefined : processedAs(record, clientId);
      if (seen) {
        // the retry of a turn that ended the session: its delivery must exist (it was written before the commit; make sure)
        if (isEnded(session.status)) await this.ensureDelivery(record, session);
        const reply = (await this.deps.store.transcript(sessionId, seen.seq - 1)).filter((e) => e.seq >= seen.seq);
        return { ok: true, value: { messages: reply, state: this.stateFor(flow, session, record), events: [], duplicate: true } };
      }
      const change = await step(loaded.value);
      if (!change.ok) return change;
      const c = change.value;
      return await this.commit(c.record, flow, c.result, c.before, c.now, c.clientId, c.restarted ?? false);
    });
  }

  /** Runs one turn with the service's implementations and the extractor of the session's tenant, charging the tenant its work. */
  private run(flow: CompiledFlow, session: Session, input: TurnInput, tenant: string): Promise<Settled> {
    const impl = this.deps.extractorFor && input.kind === 'text' ? { ...this.impl, extractor: this.deps.extractorFor(tenant) } : this.impl;
    return this.cpu.measure(tenant, () => runTurn(flow, session, input, impl));
  }

  /** The refusal of a turn when its tenant has spent its share of the event loop, or null. */
  private overBudget(tenant: string): { ok: false; error: ServiceError } | null {
    const allowed = this.cpu.allows(tenant);
    return allowed.ok ? null : failure('busy', `this service is busy; try again in ${Math.max(1, Math.ceil(allowed.retryAfterMs / 1000))} s`);
  }

  /** Erases a session (privacy request, retention) under its turn lock, so no turn in flight writes after it; true if it existed. */
  async erase(sessionId: string): Promise<boolean> {
    return this.locks.run(sessionId, async () => {
      this.parsed.delete(sessionId);
      const record = await this.deps.store.load(sessionId).catch(() => null);
      const existed = await this.deps.store.delete(sessionId);
      // its counters stay as numbers, without the session: a rebuild from the sessions left adds them back
      if (existed && record) await this.counts.retain(asChanges(tallyOf(record))).catch((err) => this.deps.onCountsError?.(err, sessionId));
      await this.deps.onErase?.(sessionId);
      return existed;
    });
  }

  /** Adds a saved turn's counter changes; a failure is reported, never the turn's. */
  private async count(sessionId: string, changes: ReturnType<typeof tallyDelta>): Promise<void> {
    if (changes.length === 0) return;
    await this.counts.add(changes).catch((err) => this.deps.onCountsError?.(err, sessionId));
  }

  /** The state and committed transcript (for REST `GET /sessions/:id` and `lastSeq` replay); `visitorAnswers` leaves internal ones out. */
  async view(sessionId: string, afterSeq = 0): Promise<Result<{ state: SessionState; transcript: TranscriptEntry[]; record: StoredSession; visitorAnswers: Record<string, unknown> }>> {
    const loaded = await this.load(sessionId);
    if (!loaded.ok) return loaded;
    const { record, flow, session } = loaded.value;
    return { ok: true, value: { state: this.stateFor(flow, session, record), transcript: await this.deps.store.transcript(sessionId, afterSeq), record, visitorAnswers: visitorAnswers(flow, session) } };
  }

  private async load(sessionId: string): Promise<Result<Loaded>> {
    const record = await this.deps.store.load(sessionId).catch(unlessStorageFault);
    if (!record) return failure('unknown_session', 'no such session');
    const flow = this.deps.tenants.pinned(record.flowId, record.revision);
    if (!flow) return failure('flow_unavailable', `revision ${record.revision} of ${record.flowId} is not available on this server`);
    const hit = this.parsed.get(sessionId);
    const fresh = hit && hit.version === record.version && hit.seq === record.seq && hit.updatedAt === record.updatedAt;
    return { ok: true, value: { record, flow, session: fresh ? hit.session : sessionFromJson(record.session) } };
  }

  private remember(record: StoredSession, session: Session): void {
    this.parsed.set(record.id, { version: record.version, seq: record.seq, updatedAt: record.updatedAt, session });
  }

  private entries(messages: BotMessage[], after: number, at: string): TranscriptEntry[] {
    const out: TranscriptEntry[] = [];
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i]!;
      // optional fields set in place, in the order they always had (no object spread per field)
      const e: TranscriptEntry = { seq: after + i + 1, at, role: 'bot', text: m.text, nodeId: m.nodeId, kind: m.kind };
      if (m.tone) e.tone = m.tone;
      if (m.quickReplies) e.quickReplies = m.quickReplies;
      if (m.multiple) e.multiple = true;
      if (m.progress) e.progress = m.progress;
      out.push(e);
    }
    return out;
  }

  /** Saves the turn (version-checked, one store call), then broadcasts; the reply is only sent once it is on disk. */
  private async commit(
    record: StoredSession, flow: CompiledFlow, result: Settled,
    before: TranscriptEntry[], now: string, clientId: string | undefined, restarted: boolean,
  ): Promise<Result<TurnDone & { duplicate: boolean }>> {
    const first = record.seq + before.length;
    const bot = this.entries(result.messages, first, now);
    const all = [...before, ...bot];
    const seq = record.seq + all.length;
    const next: StoredSession = {
      ...record, seq, status: result.session.status, updatedAt: now, session: sessionToJson(result.session),
      processed: clientId ? withProcessed(record.processed, { clientId, seq: record.seq + 1 }) : record.processed,
      version: record.version + 1, deliveries: record.deliveries ?? [],
    };
    if (result.events.length > 0 || !record.insights) next.insights = foldEvents(record.insights, result.events);
    // the deliveries the turn owes are written first; the commit names them and so makes them real
    const owed = await this.prepare(next, result.session, restarted ? undefined : record.status, result.events);
    const saved = await this.deps.store.commit(next, record.version, { transcript: all, events: result.events });
    if (!saved.ok) {
      await this.deps.deliveries?.abandoned(owed.ids);
      return failure('conflict', 'the session changed on another server; retry the message');
    }
    next.version = saved.version;
    await this.count(record.id, turnDelta(record, next));
    this.remember(next, result.session);
    const state = this.stateFor(flow, result.session, next);
    this.deps.broadcast?.(record.id, all, state);
    await this.ended(owed);
    return { ok: true, value: { messages: all, state, events: result.events, duplicate: false } };
  }

  /**
   * The deliveries a change owes (today: an ending, once per ending; issue
   * 31's events add theirs here), each written to the sink before the commit;
   * `record` is the record about to be committed (its version is the one the
   * commit gives it), and gets the ids it must name.
   */
  private async prepare(record: StoredSession, session: Session, before: Session['status'] | undefined, events: readonly EngineEvent[] = []): Promise<{ completions: Completion[]; ids: string[] }> {
    // a Studio preview ends without a trace outside the session: no webhook, no partial lead, no completion count
    const completions = isEnded(session.status) && before !== session.status && !record.preview ? [completionOf(record, session)] : [];
    // contact details left after the escalation went out: a follow-up, so they reach the business too
    const followUps = before === 'escalated' && session.status === 'escalated' && !record.preview && events.some((e) => e.type === 'answer_set' && e.handover === true)
      ? [{ ...completionOf(record, session), event: 'contact' as const }] : [];
    const ids: string[] = [];
    for (const c of [...completions, ...followUps]) {
      const id = await this.deps.deliveries?.prepare(c);
      if (id) ids.push(id);
    }
    if (ids.length > 0) record.deliveries = withDeliveries(record.deliveries ?? [], ids);
    return { completions, ids };
  }

  /** After the commit: the deliveries go out, and the hooks hear of the ending. */
  private async ended(owed: { completions: Completion[]; ids: string[] }): Promise<void> {
    this.deps.deliveries?.committed(owed.ids);
    for (const c of owed.completions) await this.deps.onComplete?.(c);
  }

  /** An ended session the store holds: its delivery exists in the outbox (written again from the record if not). */
  private async ensureDelivery(record: StoredSession, session: Session): Promise<string | null> {
    // a Studio preview is never delivered, not even when its retry or start-up finds it ended
    if (!this.deps.deliveries || !isEnded(session.status) || record.preview) return null;
    return this.deps.deliveries.ensure(completionOf(record, session), record.deliveries ?? []);
  }

  /**
   * Start-up reconciliation: every ended session among each tenant's newest
   * RECONCILE_PAGE, last saved after `since` (ISO time), gets its outbox entry
   * if it has none (a server that crashed between two writes of an earlier
   * version, an outbox that lost its journal). Resolves the ids written.
   */
  async reconcile(since: string): Promise<string[]> {
    const written: string[] = [];
    if (!this.deps.deliveries) return written;
    for (const tenant of this.deps.tenants.ids()) {
      for (const s of await this.deps.store.list(tenant, { limit: RECONCILE_PAGE })) {
        if (!isEnded(s.status) || s.updatedAt < since) continue;
        const id = await this.locks.run(s.id, async () => {
          const loaded = await this.load(s.id);
          return loaded.ok ? this.ensureDelivery(loaded.value.record, loaded.value.session) : null;
        });
        if (id) written.push(id);
      }
    }
    return written;
  }
}

/** A load that failed reads as "no such session" (a malformed id), unless the storage is unavailable: that is thrown on, to be answered as such. */
function unlessStorageFault(err: unknown): null {
  if (storageFault(err)) throw err;
  return null;
}

/** The ending a record holds, as the outbox delivers it (at the record's version). */
function completionOf(record: StoredSession, session: Session): Completion {
  const provenance = Object.fromEntries([...session.answers].sort(([a], [b]) => a.localeCompare(b)).map(([k, r]) => [k, { turn: r.turn, source: r.source, extractor: r.extractor, confidence: r.confidence, validation: r.validation }]));
  return {
    sessionId: record.id, tenant: record.tenant, flowId: record.flowId, revision: record.revision, status: session.status,
    ...(session.outcome ? { outcome: session.outcome } : {}), version: record.version, answers: answerValues(session), provenance, at: record.updatedAt,
  };
}

/** The delivery ids a record names, with `ids` added (newest last, bounded). */
function withDeliveries(list: readonly string[], ids: readonly string[]): string[] {
  const out = [...list, ...ids.filter((id) => !list.includes(id))];
  while (out.length > MAX_DELIVERIES) out.shift();
  return out;
}

/**
 * The processed entry of a client message id, newest first (a retry is of a
 * recent message); a plain loop, as every new message scans them all, over a
 * spread copy: the stored list is frozen, and on Node 20 reading a frozen
 * array item by item costs several times what the copy and the loop do
 * (0.41 against 0.15 µs for 60 entries; docs/benchmarks.md).
 */
function processedAs(record: StoredSession, clientId: string): StoredSession['processed'][number] | undefined {
  const all = [...record.processed];
  for (let i = all.length - 1; i >= 0; i--) if (all[i]!.clientId === clientId) return all[i];
  return undefined;
}

/**
 * The processed list with `entry` added, the oldest dropped past
 * MAX_PROCESSED: one spread copy (fast on the stored, frozen list) and
 * `shift` instead of a second copy by `slice(-MAX_PROCESSED)`.
 */
function withProcessed(list: StoredSession['processed'], entry: StoredSession['processed'][number]): StoredSession['processed'] {
  const out = [...list, entry];
  while (out.length > MAX_PROCESSED) out.shift();
  return out;
}

/** A turn's answer without the duplicate flag (only a client message can be a retry). */
function turnOnly(done: Result<TurnDone & { duplicate: boolean }>): Result<TurnDone> {
  return done.ok ? { ok: true, value: { messages: done.value.messages, state: done.value.state, events: done.value.events } } : done;
}

/**
 * The context a new session starts with: what the page sent, overridden by
 * the tenant's own `settings` (tenant.json), so a page can never change what
 * the business configured.
 */
function sessionContext(settings: Record<string, unknown> | undefined, fromClient: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const merged = { ...(fromClient ?? {}), ...(settings ?? {}) };
  return Object.keys(merged).length ? merged : undefined;
}

/** The client-facing state of a session. */
export function stateOf(flow: CompiledFlow, s: Session): SessionState {
  // once it has ended nothing is ahead
  const now = progressAt(flow, s.answers, s.status === 'active' ? s.node : null, s);
  const progress = steadyProgress(now, s.progress, now.total > now.answered);
  return { status: s.status, nodeId: s.node, path: { active: s.path.tentative, locked: s.path.locked }, progress,
    ...(s.urgent ? { urgent: { reason: s.urgent.reason } } : {}), ...localeField(s), ...inputField(flow, s), ...(isClosed(s) ? { closed: true as const } : {}) };
}

/** `input` of the state: what the question being asked accepts (absent for text). */
function inputField(flow: CompiledFlow, s: Session): { input?: InputHint } {
  const input = inputHint(flow, s);
  return input ? { input } : {};
}
