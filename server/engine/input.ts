/**
 * The engine's input from an extractor: what it is asked (ExtractionRequest)
 * and what it proposes (Proposal). The engine owns these types; extractors
 * implement `Extractor` (server/extract/extractor.ts) against them.
 */
import type { AnswerSpec } from '../flow/answer-types.ts';
import type { Conversion } from './session.ts';

/** A question the user may answer now: the current one or another open, applicable one. */
export interface OpenQuestion {
  nodeId: string;
  key: string;
  /** The answer type and constraints (`{ type: 'text' }` when the flow gave none). */
  answer: AnswerSpec;
  required: boolean;
  label?: string;
  /** Prompt text as asked (may be absent for questions not asked yet). */
  prompt?: string;
  /** The current question's `assess`: the answer is judged against `criteria` (score 0..1). */
  assess?: AssessRequest;
}

/** What an extractor needs to judge an assessed answer (flow-ir.md `assess`). */
export interface AssessRequest {
  criteria: string;
  threshold: number;
  /** Refinements asked so far for this answer, and the most allowed. */
  refinement: number;
  maxRefinements: number;
  /** The answer so far when the user is refining it (the new message adds to it); absent for pii questions. */
  draft?: string;
}

/** One line of recent conversation; `pii` withholds the text (the extractor never sends it). */
export interface HistoryEntry {
  role: 'bot' | 'user';
  text: string;
  pii?: boolean;
  /** A pii user line's words, for the rules that run in this process only (see LOCAL_VALUE); `text` stays empty. */
  [LOCAL_VALUE]?: string;
}

/** A session's model usage so far (the engine keeps it in the session: per-session budgets and stats). */
export interface LlmUsage {
  calls: number;
  skipped: number;
  fallbacks: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheCreationTokens: number;
  durationMs: number;
}

/** One declared path, as the extractor may vote for it. */
export interface PathChoice {
  name: string;
  label?: string;
  examples: readonly string[];
}

/** A flow-level trigger active at the current node, as an extractor sees it (flow-ir.md `triggers`). */
export interface TriggerChoice {
  id: string;
  /** Offline rule: phrases that fire it (not when negated). */
  phrases: readonly string[];
  /** Sample messages that should fire it. */
  examples: readonly string[];
  /** Offline rule: named word lists, all of one `together` entry in one clause, not negated. */
  words?: Readonly<Record<string, readonly string[]>>;
  together?: readonly (readonly string[])[];
  /** Offline rule: named word lists, all of one entry anywhere in the message (each not negated in its clause). */
  togetherInMessage?: readonly (readonly string[])[];
  /** Offline rule: phrases that keep it from firing in their clause (a past event, a relative's history), unless negated themselves. */
  unless?: readonly string[];
  /** Offline rule: objects that make a hit they follow a figure of speech ("overdosed on netflix"). */
  figurative?: readonly string[];
  /** When it applies, for the model. */
  description?: string;
}

/** Everything an extractor needs for one user message; nothing else is in scope. */
export interface ExtractionRequest {
  text: string;
  /** The question being asked now, or null (e.g. the path prompt). */
  current: OpenQuestion | null;
  /** Other open, applicable, unanswered questions (not including `current`). */
  open: readonly OpenQuestion[];
  /** Declared paths; empty when the flow has none or the path is locked. */
  paths: readonly PathChoice[];
  /** The flow's triggers active at this node (absent when the flow has none). */
  triggers?: readonly TriggerChoice[];
  /** The session clock, ISO 8601 with offset (relative dates resolve against it). */
  now: string;
  /** ISO 3166 country for phone numbers without a country code. */
  defaultCountry: string;
  /** The visitor's language, a base tag ('de', 'fr', 'es'); absent = 'en'. */
  locale?: string;
  /** The last few turns, for extractors that read context (the LLM); pii lines are marked, never filled in. */
  history?: readonly HistoryEntry[];
  /** The question answered (or skipped, value null) on the turn before, when it is not the current one: a reply may correct it; a pii one without its value (`pii: true`, the value only under LOCAL_VALUE). */
  previous?: EarlierAnswer;
  /** Earlier answered (or skipped) questions, latest first, besides `current` and `previous`; a pii one without its value (`pii: true`, the value only under LOCAL_VALUE). */
  answered?: readonly EarlierAnswer[];
  /** The session, for extractors that keep per-session state. */
  sessionId?: string;
  /** The session's model usage so far (per-session budget). */
  usage?: LlmUsage;
}

/**
 * The key a pii answer's value rides under on `previous` / `answered`, for the rules that run in this process (the offline
 * late-correction rules): a symbol, so JSON, structuredClone and a model's prompt never carry it; `value` stays absent.
 */
export const LOCAL_VALUE: unique symbol = Symbol('questline.localValue');

/** An earlier answer a reply may correct: its question and value; a pii one with `pii: true` and its value only under LOCAL_VALUE. */
export type EarlierAnswer = OpenQuestion & { value?: unknown; pii?: true; [LOCAL_VALUE]?: unknown };

/** A proposed value for one key, already normalised (email lowercased, phone E.164, ISO date…). */
export interface ProposedUpdate {
  key: string;
  value: unknown;
  /** 0..1 when the extractor knows. */
  confidence?: number;
  /** The part of the message the value came from. */
  evidence?: string;
  /** How a value typed in another unit was understood ("5000 sq ft" → 465 m²); the engine keeps it and echoes it. */
  conversion?: Conversion;
  /** The reply holds words the extractor could not account for: the engine checks the value with the visitor before committing it ("Just to check: …?"). */
  confirm?: true;
  /** A correction of the request's `previous` answer typed at the next question ("sorry, 25k not 20k"): the engine replaces it and says so. */
  corrects?: true;
}

/**
 * What an extractor proposes for one message. The engine, never the
 * extractor, decides what is committed: every update is validated first.
 */
export interface Proposal {
  /** Which extractor made it: 'rules', 'anthropic', 'replay'. */
  extractor: string;
  updates: ProposedUpdate[];
  /** Keys the user does not know or will not give ("skip", "no idea"). */
  unknown: string[];
  escalate?: { reason: string };
  pathVote?: { path: string; confidence?: number };
  /** A flow trigger the message matches; the engine, never the extractor, acts on it. */
  trigger?: { id: string; confidence?: number; evidence?: string };
  /** Why the current question could not be answered from this message, for the re-ask; `specific` when it is a clarification about what was typed, said even where the question has an `invalid_prompt`. */
  problem?: { key: string; reason: string; specific?: true };
  /** The reply only asks for a moment before answering this question ("hold on", "one sec", "Moment bitte"): it is asked again after the catalogue's `pause`, without a miss. */
  pause?: { key: string };
  /** The reply corrects this earlier answer but its new value could not be read ("wrong number, it ends 0134"): the engine asks that question again. */
  reopen?: { key: string };
  /** A judgement of the answer to an assessed question (flow-ir.md `assess`); the engine decides what follows. */
  assessment?: { key: string; score: number; feedback?: string };
  /** The model call behind this proposal (usage and duration), when one was made. */
  llm?: { model: string; durationMs: number; inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheCreationTokens: number; failed?: boolean;
    /** Requests sent for this message when more than one (the SDK retried); each is paid for. */
    calls?: number };
  /** The model was meant to answer but this proposal is the offline rules' instead, and why. */
  fallback?: { reason: string; detail: string };
  /** The model was not called: the hybrid rule that settled the message offline. */
  skipped?: string;
}
