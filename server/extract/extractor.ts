import type { ExtractionRequest, Proposal } from '../engine/input.ts';

export type { AssessRequest, ExtractionRequest, HistoryEntry, LlmUsage, OpenQuestion, PathChoice, Proposal, ProposedUpdate, TriggerChoice } from '../engine/input.ts';

/** Turns a user message into a proposal. Implementations: offline rules, Anthropic, replay. */
export interface Extractor {
  readonly name: string;
  extract(request: ExtractionRequest): Proposal | Promise<Proposal>;
}
