import type { AnswerSpec } from '../flow/answer-types.ts';

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
}

/** One declared path, as the extractor may vote for it. */
export interface PathChoice {
  name: string;
  label?: string;
  examples: readonly string[];
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
  /** The session clock, ISO 8601 with offset (relative dates resolve against it). */
  now: string;
  /** ISO 3166 country for phone numbers without a country code. */
  defaultCountry: string;
  /** The last few turns, for extractors that read context (the LLM). */
  history?: ReadonlyArray<{ role: 'bot' | 'user'; text: string }>;
}

/** A proposed value for one key, already normalised (email lowercased, phone E.164, ISO date…). */
export interface ProposedUpdate {
  key: string;
  value: unknown;
  /** 0..1 when the extractor knows. */
  confidence?: number;
  /** The part of the message the value came from. */
  evidence?: string;
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
  /** Why the current question could not be answered from this message, for the re-ask. */
  problem?: { key: string; reason: string };
}

/** Turns a user message into a proposal. Implementations: offline rules, Anthropic, replay. */
export interface Extractor {
  readonly name: string;
  extract(request: ExtractionRequest): Proposal | Promise<Proposal>;
}
