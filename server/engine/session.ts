import { AnswerMap } from './answer-map.ts';
import { z } from 'zod';
import { STATUSES } from '../protocol/statuses.ts';
import { lazy } from '../shared/lazy.ts';

// The session is the engine's whole state between turns. In memory, answers
// live in a persistent map (answer-map.ts) so a turn costs the same with 20
// answers or 2,000 (a plain object would be copied on every commit); on disk
// and on the wire it is plain JSON, checked by `SessionJson`.

/** Schema version of the stored session; bump it with an entry in SESSION_UPGRADES. */
export const SESSION_VERSION = 3;

/**
 * Upgrades of stored sessions, by the version they upgrade from. A stored
 * session is upgraded step by step on read, so old conversations keep going.
 */
export const SESSION_UPGRADES: Readonly<Record<number, (old: Record<string, unknown>) => Record<string, unknown>>> = {
  // v1 re-asked one key after `back` (`revisit`); v2 keeps a list (`reask`), which path switches use too
  1: ({ revisit, ...rest }) => ({ ...rest, v: 2, ...(typeof revisit === 'string' ? { reask: [revisit] } : {}) }),
  // v3 may hold the session's `locale`; a v2 session has none and speaks its flow's default
  2: (old) => ({ ...old, v: 3 }),
};

/** Brings a stored session up to SESSION_VERSION; refuses versions from the future. */
export function upgradeSession(json: unknown): unknown {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return json;
  let doc = json as Record<string, unknown>;
  while (typeof doc.v === 'number' && doc.v < SESSION_VERSION) {
    const step = SESSION_UPGRADES[doc.v];
    if (!step) throw new Error(`no upgrade for session version ${doc.v}`);
    doc = step(doc);
  }
  if (typeof doc.v === 'number' && doc.v > SESSION_VERSION) throw new Error(`session version ${doc.v} is newer than this server (${SESSION_VERSION})`);
  return doc;
}

/** Where a committed answer came from. */
/** How a value typed in another unit was understood ("5000 sq ft" → 465 m²): kept with the answer, echoed to the visitor. */
export const Conversion = lazy(() => z.object({
  /** The words the value came from, as typed. */
  raw: z.string(),
  /** The unit typed, as shown back ("ft²"). */
  from: z.string(),
  /** The question's unit. */
  to: z.string(),
  /** The value in the question's unit, as committed. */
  value: z.number(),
  /** Whether `value` is the conversion itself, not rounded (an integer question rounds). */
  exact: z.boolean(),
}));
export type Conversion = z.infer<ReturnType<typeof Conversion>>;

export const AnswerRecord = lazy(() => z.object({
  value: z.unknown(),
  /** The turn that committed it (0 for `given` answers and the start). */
  turn: z.number().int().nonnegative(),
  /** `derived`: computed from other answers by the question's `derive` (an age from a date of birth). */
  source: z.enum(['user', 'action', 'operator', 'given', 'assessment', 'derived']),
  /** Extractor name for user answers: rules, anthropic, replay. */
  extractor: z.string().optional(),
  confidence: z.number().optional(),
  /** The model that produced a user answer, when an LLM extractor's call did (provenance, with `confidence`). */
  model: z.string().optional(),
  /** The user's message (trimmed, at most 500 characters; absent for pii answers). */
  text: z.string().optional(),
  /** How validation went: 'passed', or 'skipped' for an optional question left blank. */
  validation: z.enum(['passed', 'skipped']),
  /** How a value typed in another unit was understood. */
  conversion: Conversion().optional(),
}));
export type AnswerRecord = z.infer<ReturnType<typeof AnswerRecord>>;

/** Votes, tentative and locked path (hysteresis state; policy lives in the flow). */
export const PathState = lazy(() => z.object({
  scores: z.record(z.string(), z.number()),
  tentative: z.string().nullable(),
  locked: z.boolean(),
}));
export type PathState = z.infer<ReturnType<typeof PathState>>;

/** A subgraph call: the subgraph node in the caller, and the subgraph entered. */
export const Frame = lazy(() => z.object({ node: z.string(), ref: z.string() }));
export type Frame = z.infer<ReturnType<typeof Frame>>;

/** What the session waits for besides a user message. */
export const Pending = lazy(() => z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('action'), callId: z.string(), attempt: z.number().int().nonnegative() }),
  /** `since`: when the wait began (the session clock then), which an interrupt's `timeout_s` counts from; absent in sessions saved before it was kept. */
  z.object({ kind: z.literal('interrupt'), when: z.enum(['before', 'after']), since: z.string().optional() }),
  z.object({ kind: z.literal('path_prompt') }),
]));
export type Pending = z.infer<ReturnType<typeof Pending>>;

/** A dependency being asked out of graph order: the question that needs it, to come back to once it is answered (flow-ir.md `dependencies`). */
export const Detour = lazy(() => z.object({ node: z.string(), stack: z.array(Frame()) }));
export type Detour = z.infer<ReturnType<typeof Detour>>;

/** Enough to undo one turn's commits for `back`: a delta, never a copy of the answers. */
export const Checkpoint = lazy(() => z.object({
  turn: z.number().int(),
  node: z.string().nullable(),
  stack: z.array(Frame()),
  path: PathState(),
  route: z.object({ node: z.string(), stack: z.array(Frame()), turn: z.number().int() }).optional(),
  /** Each key the turn changed, with its record before (absent = was unanswered). */
  changes: z.array(z.object({ key: z.string(), before: AnswerRecord().optional() })),
  detour: Detour().optional(),
}));
export type Checkpoint = z.infer<ReturnType<typeof Checkpoint>>;


const sessionFields = lazy(() => ({
  v: z.literal(SESSION_VERSION),
  id: z.string().optional(),
  flow: z.object({ id: z.string(), revision: z.string() }),
  status: z.enum(STATUSES),
  /** A terminal's outcome: completed, escalated, abandoned or a custom string. */
  outcome: z.string().optional(),
  /** The node the conversation is at: the question asked, or the node waited on. */
  node: z.string().nullable(),
  stack: z.array(Frame()),
  attempts: z.number().int().nonnegative(),
  path: PathState(),
  turn: z.number().int().nonnegative(),
  /** Tenant/session metadata the flow's guards and templates read. */
  context: z.record(z.string(), z.unknown()),
  /** The flow locale the session speaks (flows with `locales` only); absent means the flow's default. */
  locale: z.string().optional(),
  /** The region of the visitor's language tag at start (`en-GB` → GB): phone numbers and regional option synonyms. */
  region: z.string().regex(/^[A-Z]{2}$/).optional(),
  pending: Pending().optional(),
  /** Keys asked again even though answered: after `back`, or a path switch with `carry: reask`. */
  reask: z.array(z.string()).optional(),
  /** Where a decision routed on the tentative (unlocked) path, to re-route if the path switches. */
  route: z.object({ node: z.string(), stack: z.array(Frame()), turn: z.number().int() }).optional(),
  /** The question waiting for the dependency now asked (server/engine/dependencies.ts). */
  detour: Detour().optional(),
  /** Action results by call and input hash, so a handler is not called twice. */
  cache: z.record(z.string(), z.record(z.string(), z.unknown())),
  checkpoints: z.array(Checkpoint()),
  /** The session clock at the last turn (ISO 8601). */
  now: z.string(),
  /** An assessed answer being refined: the answer so far and the refinements asked (flow-ir.md `assess`). */
  assessing: z.object({ key: z.string(), draft: z.unknown(), refinements: z.number().int().nonnegative() }).optional(),
  /**
   * The last few lines of the conversation for context-reading extractors; pii lines hold no text. The last user line,
   * when pii, keeps its words in `held` for the rules that run in this process (a date completed over two turns, "june
   * 1990" then "the 14th"): extraction requests carry them only under LOCAL_VALUE, never as text.
   */
  recent: z.array(z.object({ role: z.enum(['bot', 'user']), text: z.string(), pii: z.boolean().optional(), held: z.string().optional() })).optional(),
  /**
   * The visitor's words that first chose a path ("my son has had a fever since Monday"), held to be offered at the
   * questions of the matter asked later (conversation/opening-offer.ts): the reason for the visit, a count of days.
   */
  opening: z.object({ text: z.string(), turn: z.number().int().nonnegative() }).optional(),
  /** Set when an urgent trigger matched (flow-ir.md `triggers`): operators see the session first, with the reason. */
  urgent: z.object({ reason: z.string(), trigger: z.string().optional(), turn: z.number().int().nonnegative() }).optional(),
  /** Cancel was asked for and is waiting for a yes (flow `commands.cancel_confirm`). */
  confirming: z.literal('cancel').optional(),
  /**
   * A value read from a reply with words the rules could not account for, waiting for the visitor's yes
   * ("Just to check: 15 January 2027?"): a yes commits it, a no or a new value goes on as usual (server/engine/check-value.ts).
   */
  checking: z.object({
    key: z.string(), value: z.unknown(), extractor: z.string(), text: z.string().optional(), conversion: Conversion().optional(),
    /** A reply that said nothing about the value checked ("spring" to "Just to check: 5000 USD?"), kept to be read at the next question after a yes. */
    kept: z.string().optional(),
    /** The value is the message that chose this branch, offered at its description question (server/engine/opening.ts): a yes takes it, more words are added to it. */
    opening: z.literal(true).optional(),
  }).optional(),
  /** The progress last shown, so it does not go backwards (server/engine/progress.ts). */
  progress: z.object({ answered: z.number().int().nonnegative(), total: z.number().int().nonnegative() }).optional(),
  /**
   * After an escalation (status `escalated`, a person will answer): whether the
   * visitor was asked for a contact (once), and which status line they were
   * last given (`online`: someone is connecting; `offline`: when and how the team will reply);
   * `closed` once an operator closed it or the inactivity sweep did: then it takes no more messages (only `restart`).
   */
  handover: z.object({
    contactAsked: z.boolean().optional(), told: z.enum(['online', 'offline']).optional(),
    closed: z.object({ at: z.string(), by: z.enum(['operator', 'inactivity']) }).optional(),
  }).optional(),
  /** The review a change was asked at: on the way back to it the nodes passed say nothing again (they said it the first time). */
  returning: z.string().optional(),
  /** Path prompts asked without an answer at the current decision (flow `paths.max_attempts`). */
  pathAttempts: z.number().int().nonnegative().optional(),
  /** Model usage of this session (absent until an extractor reports any). */
  llm: z.object({
    calls: z.number().int().nonnegative(), skipped: z.number().int().nonnegative(), fallbacks: z.number().int().nonnegative(),
    inputTokens: z.number().nonnegative(), outputTokens: z.number().nonnegative(),
    cacheReadTokens: z.number().nonnegative(), cacheCreationTokens: z.number().nonnegative(), durationMs: z.number().nonnegative(),
  }).optional(),
}));

/** The stored (JSON) form of a session. */
export const SessionJson = lazy(() => z.object({ ...sessionFields(), answers: z.record(z.string(), AnswerRecord()) }));
export type SessionJson = z.infer<ReturnType<typeof SessionJson>>;

/** The in-memory session: JSON fields plus answers in a persistent map. Treat as immutable. */
export type Session = Readonly<Omit<SessionJson, 'answers'> & { answers: AnswerMap<AnswerRecord> }>;

/** How many turns `back` can undo. */
export const MAX_CHECKPOINTS = 50;

/** Plain JSON for the store and the wire; answer keys sorted so output is byte-stable. */
export function sessionToJson(s: Session): SessionJson {
  const entries: Array<[string, AnswerRecord]> = [...s.answers.entries()];
  entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const answers: Record<string, AnswerRecord> = {};
  // indexed and for-in loops: destructuring each pair and Object.keys allocated on every save (bench/server/alloc.ts)
  for (let i = 0; i < entries.length; i++) answers[entries[i]![0]] = entries[i]![1];
  // the session's fields in order, answers as JSON; an optional field the engine
  // cleared (`assessing = undefined`) is absent, as JSON would store it
  const json: Record<string, unknown> = {};
  for (const key in s) {
    if (!Object.hasOwn(s, key)) continue;
    const value = key === 'answers' ? answers : s[key as keyof Session];
    if (value !== undefined) json[key] = value;
  }
  return json as SessionJson;
}

/** Upgrades, parses and checks a stored session; throws when it is not one. */
export function sessionFromJson(json: unknown): Session {
  const parsed = SessionJson().parse(upgradeSession(json));
  return { ...parsed, answers: AnswerMap.of(Object.entries(parsed.answers)) };
}

/** The committed values as a plain object (skipped keys are null), sorted by key. */
export function answerValues(s: Session): Record<string, unknown> {
  const entries = [...s.answers.entries()];
  entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const out: Record<string, unknown> = {};
  for (const [key, record] of entries) out[key] = record.value;
  return out;
}
