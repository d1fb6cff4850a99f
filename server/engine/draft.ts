import type { CompiledFlow, CompiledNode } from '../flow/compiled-flow.ts';
import type { CompiledGuard, EvalScope } from '../flow/guard/index.ts';
import { flowIndex, type FlowIndex } from './flow-index.ts';
import { AT_RECORD, type NodeRecord } from './node-record.ts';
import { ANSWERED_RANK } from './route-memo.ts';
import type { AnswerRecord, Session } from './session.ts';
import type { Effect, EngineEvent, EngineOptions, EventType } from './types.ts';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The working state of one `start` or `turn`. The session inside is a fresh
 * shallow copy: its fields are replaced, never mutated, so the caller's session
 * (and everything it shares with the new one) stays untouched.
 */
export interface Draft {
  flow: CompiledFlow;
  idx: FlowIndex;
  /** The session as it was before this turn (never modified). */
  base: Session;
  opts: Required<Pick<EngineOptions, 'maxSteps'>> & EngineOptions;
  s: Mutable<Session>;
  effects: Effect[];
  events: EngineEvent[];
  steps: number;
  /**
   * The first key committed (or removed) this turn, undefined for none yet, and
   * its record before, for the `back` checkpoint; the keys after it, in order,
   * in `changes`, made for a second key (most turns change one key: no map).
   */
  changedKey: string | undefined;
  changedBefore: AnswerRecord | undefined;
  changes: Map<string, AnswerRecord | undefined> | undefined;
  /** The record of the node a message arrived at (set by `onMessage`): its key's facts without another lookup. */
  at?: NodeRecord;
  /** The record of the node `next` just chose, so entering it needs no lookup (`visit` checks the id). */
  target?: NodeRecord;
  /** A node whose `before` interrupt was just approved, so it is not raised again. */
  approved?: string;
  /** What the user sent this turn, for the session's recent lines (`pii`: the text is withheld). */
  heard?: { text: string; pii: boolean };
  /** A command a matched trigger asks for; `turn` runs it after the message (flow-ir.md `triggers`). */
  command?: import('./types.ts').Command;
  /** Someone from the team is online (the host says so): a node's `say` rather than its `say_offline`, "connecting you" rather than when they will reply. */
  staffed?: boolean;
}

const NO_OPTIONS: EngineOptions = Object.freeze({});
const DEFAULT_OPTIONS: Draft['opts'] = Object.freeze({ maxSteps: 100 });

function isEmpty(o: object): boolean {
  for (const _ in o) return false;
  return true;
}

/** Starts a draft over a session. */
export function draftOf(flow: CompiledFlow, session: Session, opts: EngineOptions = NO_OPTIONS): Draft {
  const idx = flowIndex(flow);
  return {
    flow,
    idx,
    base: session,
    opts: opts === NO_OPTIONS || isEmpty(opts) ? DEFAULT_OPTIONS : { maxSteps: 100, ...opts },
    s: copySession(session, idx),
    effects: [],
    events: [],
    steps: 0,
    changedKey: undefined,
    changedBefore: undefined,
    changes: undefined,
    at: undefined,
    target: undefined,
  };
}

/** Whether this turn already changed `key` (its record before is kept). */
export function changed(d: Draft, key: string): boolean {
  return d.changedKey === key || (d.changes !== undefined && d.changes.has(key));
}

/** Keeps `key`'s record before this turn changes it (call once per key: `changed` says whether it was). */
export function noteChange(d: Draft, key: string, before: AnswerRecord | undefined): void {
  if (d.changedKey === undefined) {
    d.changedKey = key;
    d.changedBefore = before;
  } else (d.changes ??= new Map()).set(key, before);
}

/** Forgets this turn's changes (answers given at start are not undone by `back`). */
export function clearChanges(d: Draft): void {
  d.changedKey = undefined;
  d.changedBefore = undefined;
  d.changes = undefined;
}

/** The record of a compiled node: the one at hand (the node entered, or the one the message arrived at), else looked up. */
export function recordOf(d: Draft, c: CompiledNode): NodeRecord | undefined {
  if (d.target !== undefined && d.target.c === c) return d.target;
  if (d.at !== undefined && d.at.c === c) return d.at;
  const r = d.idx.records.get(c.node.id);
  return r !== undefined && r.c === c ? r : undefined;
}

/** The record of the node at `id`, as `recordOf`. */
export function recordAt(d: Draft, id: string): NodeRecord | undefined {
  if (d.target !== undefined && d.target.id === id) return d.target;
  if (d.at !== undefined && d.at.id === id) return d.at;
  return d.idx.records.get(id);
}

/** The record of the session's node: the one the session carries when it is for this node and flow, else looked up. */
export function sessionRecord(d: Draft): NodeRecord | undefined {
  const id = d.s.node;
  if (id === null) return undefined;
  const at = (d.base as { [AT_RECORD]?: number })[AT_RECORD];
  const r = at === undefined ? undefined : d.idx.recordList[at];
  return r !== undefined && r.id === id ? r : d.idx.records.get(id);
}

/** Records an event at the current turn and node. */
export function emit(d: Draft, type: EventType, detail: Record<string, unknown> = {}, node: string | null = d.s.node): void {
  d.events.push({ type, turn: d.s.turn, node, ...detail });
}

/** Whether the flow marks an answer key as personal data (an assessment's feedback is as private as its answer). */
export function isPii(d: Draft, key: string): boolean {
  if (d.idx.piiKeys.length === 0) return false;
  const q = d.idx.questionByKey.get(d.idx.feedbackKeys.get(key) ?? key)?.node;
  return q?.type === 'question' && q.pii === true;
}

/** The path guards see: the locked path, else null. */
export function visiblePath(s: Session): string | null {
  return s.path.locked ? s.path.tentative : null;
}

/**
 * The scope a guard evaluates in. Only the keys the guard reads are copied
 * out of the persistent answer map, so evaluation does not grow with the flow;
 * `slots`, when given, are the slots of `guard.reads` in the flow's answer
 * slots (node-record.ts `edgeSlots`), read without looking the keys up.
 */
export function scopeFor(
  d: Draft,
  guard: CompiledGuard,
  extra: { value?: unknown; answers?: Session['answers']; path?: string | null } = {},
  slots?: readonly number[],
): EvalScope {
  const source = extra.answers ?? d.s.answers;
  const answers: Record<string, unknown> = {};
  const reads = guard.reads;
  for (let i = 0; i < reads.length; i++) {
    const k = reads[i]!;
    const r = slots !== undefined ? source.lookup(k, slots[i], d.idx.answerSlots) : source.get(k);
    if (r) answers[k] = r.value;
  }
  const path = 'path' in extra ? extra.path ?? null : visiblePath(d.s);
  // two literals rather than a conditional spread (a spread in a literal takes V8's slow path)
  return 'value' in extra
    ? { answers, context: d.s.context, path, attempts: d.s.attempts, today: d.s.now.slice(0, 10), value: extra.value }
    : { answers, context: d.s.context, path, attempts: d.s.attempts, today: d.s.now.slice(0, 10) };
}

const NO_EXTRA = Object.freeze({});

/** Evaluates a guard to a boolean in the draft's current state. */
export function holds(d: Draft, guard: CompiledGuard, extra: Parameters<typeof scopeFor>[2] = NO_EXTRA, slots?: readonly number[]): boolean {
  return guard.test(scopeFor(d, guard, extra, slots));
}

/**
 * A fresh shallow copy of a session, written out field by field: spreading a
 * session that was itself made by a spread is several times slower in V8, and
 * this runs on every turn. Every field is listed (tsc fails when the session
 * gains one that is not), in a fixed order; absent fields are undefined,
 * which sessionToJson and JSON leave out. Answers over another flow's slots
 * (a session read from JSON) are moved to this flow's, once.
 */
function copySession(s: Session, idx: FlowIndex): Mutable<Session> {
  const copy = {
    v: s.v, id: s.id, flow: s.flow, status: s.status, outcome: s.outcome, node: s.node, stack: s.stack, attempts: s.attempts,
    path: s.path, turn: s.turn, context: s.context, answers: s.answers.withSlots(idx.answerSlots), cache: s.cache, checkpoints: s.checkpoints, now: s.now,
    pending: s.pending, reask: s.reask, route: s.route, assessing: s.assessing, recent: s.recent, urgent: s.urgent,
    confirming: s.confirming, checking: s.checking, progress: s.progress, pathAttempts: s.pathAttempts, llm: s.llm, locale: s.locale, region: s.region, detour: s.detour, handover: s.handover, returning: s.returning, opening: s.opening,
    [ANSWERED_RANK]: (s as { [ANSWERED_RANK]?: unknown })[ANSWERED_RANK],
    [AT_RECORD]: (s as { [AT_RECORD]?: unknown })[AT_RECORD],
  } satisfies { [K in keyof Required<Session>]: Session[K] } & { [ANSWERED_RANK]: unknown; [AT_RECORD]: unknown };
  return copy as Mutable<Session>;
}
