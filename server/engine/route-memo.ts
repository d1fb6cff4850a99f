import type { CompiledFlow } from '../flow/compiled-flow.ts';
import type { CompiledGuard } from '../flow/guard/index.ts';
import type { FlowIndex } from './flow-index.ts';
import { NO_FRAMES, type NodeRecord } from './node-record.ts';
import type { Session } from './session.ts';

// The progress walk ahead (progress.ts) remembered per flow and node, so a turn
// does not walk up to HORIZON nodes again. A walk from `at` reads four things:
// whether the questions on the route are answered, the answers its guards and
// `when`s read, the path, and the subgraph frames it starts with (where an
// exit returns). Nodes are ranked so that every node a walk from `at` reaches
// ranks at most rank(at) (flow-index.ts; on a flow with subgraphs this holds
// from the nodes whose record says `walkRanked`: the ranks order the flat
// graph, where an exit leads to every caller's next node, and the index
// checks the steps the flat graph leaves out). When every answered
// question's key is asked only by nodes ranked above `at` ("nothing answered
// ahead", the usual case of a visitor answering in order), no question on the
// route is answered and guards read those keys as missing. The walk then
// depends only on the path, the starting frames and the values of the other
// keys its guards read, which the memo keeps and compares (frames by content:
// node and ref of each). The frames must be a chain of calls that leads to
// `at` (each frame a subgraph node calling the scope of the node above it, the
// top one calling `at`'s scope), so an exit returns to a caller as the index
// assumed; any other stack is walked. Guards that read `attempts`, `today()`
// or the context are not memoised.


// Per node, its rank and the walk remembered from it are on the node's record
// (node-record.ts `rank`, `walkPath`, `walkReads`, `walkRemaining`, `walkStack`): the
// path and frames then, the keys its guards read that may be answered with their slots
// and values then (UNANSWERED when not), in one list (one key: on the record,
// `walkKey`, `walkSlot`, `walkValue`), and the count of questions ahead.

/** Answers maps this small are scanned for their lowest rank when the session does not carry it. */
const SCAN = 64;

/**
 * A session carries the lowest rank among its answered question keys
 * (Infinity when none) under this symbol, with the answers map it describes:
 * a derived value, never stored (JSON and sessionToJson skip symbol keys),
 * carried from turn to turn by the draft's copy of the session and kept up
 * by `commit`. A session built any other way does not carry it, or carries
 * it for another answers map, and is scanned or walked instead.
 */
export const ANSWERED_RANK = Symbol('answered rank');

type RankCarrier = { [ANSWERED_RANK]?: { answers: Session['answers']; rank: number } };

/** Marks a new session's (empty or given) answers with their lowest rank. */
export function markRank(idx: FlowIndex, s: Session): void {
  const low = scanRank(idx, s.answers);
  if (low !== undefined) (s as RankCarrier)[ANSWERED_RANK] = { answers: s.answers, rank: low };
}

/** Carries the lowest rank over to `s.answers` when it was made from `before` by setting a key of rank `keyRank` (answers.ts `commit`). */
export function carryRank(s: Session, before: Session['answers'], keyRank: number | undefined): void {
  const r = (s as RankCarrier)[ANSWERED_RANK];
  if (r !== undefined && r.answers === before) {
    (s as RankCarrier)[ANSWERED_RANK] = { answers: s.answers, rank: Math.min(r.rank, keyRank ?? Infinity) };
  }
}

/**
 * Whether a key of rank `keyRank` is certainly not among `answers`: the
 * session carries the lowest rank of its answered keys for exactly this map
 * and the key ranks below it (the next question of a visitor answering in
 * order). False means "look it up", never "answered".
 */
export function certainlyUnanswered(s: Session, answers: Session['answers'], keyRank: number | undefined): boolean {
  const r = (s as RankCarrier)[ANSWERED_RANK];
  return keyRank !== undefined && r !== undefined && r.answers === answers && keyRank < r.rank;
}

function lowestRank(idx: FlowIndex, s: Session, answers: Session['answers']): number | undefined {
  const r = (s as RankCarrier)[ANSWERED_RANK];
  return r !== undefined && r.answers === answers ? r.rank : scanRank(idx, answers);
}

function scanRank(idx: FlowIndex, answers: Session['answers']): number | undefined {
  if (answers.size > SCAN) return undefined;
  let low = Infinity;
  for (const k of answers.keys()) low = Math.min(low, idx.keyRank.get(k) ?? Infinity);
  return low;
}

/** What a walk reads, recorded as it goes; `pure` turns false when a guard reads something the memo does not compare. */
export interface RouteReads {
  at: number;
  keys: string[];
  values: unknown[];
  pure: boolean;
}

/** A guard the walk is about to evaluate: records the keys it reads that may be answered. */
export function noteGuard(idx: FlowIndex, reads: RouteReads, g: CompiledGuard, answers: Session['answers']): void {
  if (g.usesContext || impure(g)) reads.pure = false;
  for (const k of g.reads) {
    if ((idx.keyRank.get(k) ?? Infinity) <= reads.at || reads.keys.includes(k)) continue; // asked ahead: unanswered
    reads.keys.push(k);
    reads.values.push(valueOf(answers, k));
  }
}

const impureCache = new WeakMap<CompiledGuard, boolean>();

/** Whether a guard may read `attempts` or `today()` (judged on its source, erring towards yes). */
function impure(g: CompiledGuard): boolean {
  let v = impureCache.get(g);
  if (v === undefined) impureCache.set(g, (v = /attempts|today|years_since/.test(g.source)));
  return v;
}

/**
 * The remembered count of questions ahead of `at`, or a `record` callback's
 * fresh walk (remembered when it may be): `record` gets a RouteReads to fill
 * when the memo applies here, undefined when it does not.
 */
export function rememberedRemaining(
  flow: CompiledFlow, idx: FlowIndex, session: Session, answers: Session['answers'], at: string,
  walk: (reads: RouteReads | undefined) => number, rec?: NodeRecord,
): number {
  const slot = rec !== undefined && rec.id === at ? rec : idx.records.get(at);
  if (slot === undefined || !slot.walkRanked) return walk(undefined);
  const stack = session.stack;
  if (stack.length > 0 && !callChain(flow, stack, slot.c.scope)) return walk(undefined);
  const rank = slot.rank;
  const low = lowestRank(idx, session, answers);
  if (rank === undefined || low === undefined || low <= rank) return walk(undefined);
  const path = session.path.tentative;
  // the remembered walk is held on the record itself (no entry object to fetch on a long flow)
  if (slot.walkRemaining >= 0 && slot.walkPath === path && sameFrames(slot.walkStack, stack) && sameValues(idx, slot, answers)) return slot.walkRemaining;
  const reads: RouteReads = { at: rank, keys: [], values: [], pure: true };
  const remaining = walk(reads);
  if (reads.pure) {
    // a walk that read no answered key (the usual one) shares one empty list
    slot.walkPath = path;
    slot.walkStack = stack.length === 0 ? NO_FRAMES : Object.freeze(stack.map((f) => Object.freeze({ node: f.node, ref: f.ref })));
    // one key (the usual case when a guard ahead reads an earlier answer) on the record itself; more as one list of
    // key, slot, value triples: a long flow's memo check then reads no list, or one, not three
    const one = reads.keys.length === 1;
    slot.walkReads = reads.keys.length === 0 ? NO_READS : one ? ONE_READ
      : reads.keys.flatMap((k, i) => [k, idx.answerSlots.slotOf.get(k) ?? -1, reads.values[i]]);
    slot.walkKey = one ? reads.keys[0] : undefined;
    slot.walkSlot = one ? idx.answerSlots.slotOf.get(reads.keys[0]!) ?? -1 : -1;
    slot.walkValue = one ? reads.values[0] : undefined;
    slot.walkRemaining = remaining;
  }
  return remaining;
}

/** Whether `stack` is a chain of calls leading to a node of `scope`: each frame a subgraph node calling the scope above it. */
function callChain(flow: CompiledFlow, stack: Session['stack'], scope: string | null): boolean {
  for (let i = stack.length - 1; i >= 0; i--) {
    const f = stack[i]!;
    const c = flow.nodes.get(f.node);
    if (c === undefined || c.node.type !== 'subgraph' || c.node.ref !== f.ref || f.ref !== scope) return false;
    scope = c.scope;
  }
  return true;
}

/** Whether two frame lists name the same nodes and refs in order. */
function sameFrames(a: readonly { node: string; ref: string }[], b: Session['stack']): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.node !== b[i]!.node || a[i]!.ref !== b[i]!.ref) return false;
  return true;
}

const NO_READS: readonly unknown[] = Object.freeze([]);
/** Stands for a walk that read one key, held on the record (`walkKey`, `walkSlot`, `walkValue`). */
const ONE_READ: readonly unknown[] = Object.freeze([]);

/** Whether the remembered keys still have their remembered values (read by slot when the answers use the flow's slots). */
function sameValues(idx: FlowIndex, rec: NodeRecord, answers: Session['answers']): boolean {
  const reads = rec.walkReads;
  if (reads === ONE_READ) {
    const r = answers.lookup(rec.walkKey!, rec.walkSlot, idx.answerSlots);
    return Object.is(r === undefined ? UNANSWERED : r.value, rec.walkValue);
  }
  for (let i = 0; i < reads.length; i += 3) {
    const r = answers.lookup(reads[i] as string, reads[i + 1] as number, idx.answerSlots);
    if (!Object.is(r === undefined ? UNANSWERED : r.value, reads[i + 2])) return false;
  }
  return true;
}

/** Stands for an unanswered key among remembered values. */
const UNANSWERED = Symbol('unanswered');

function valueOf(answers: Session['answers'], key: string): unknown {
  const r = answers.get(key);
  return r === undefined ? UNANSWERED : r.value;
}
