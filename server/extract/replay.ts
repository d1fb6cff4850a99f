import type { Extractor, ExtractionRequest, Proposal } from './extractor.ts';
import { proposalFromToolCalls, type ToolCall } from './tool-calls.ts';

/**
 * Plays back the tool calls recorded for each turn (a golden's `llm:`
 * blocks), so LLM-backed conversations replay deterministically. Each turn's
 * calls go through exactly the path live calls take: the same conversion and
 * then the engine's validation.
 */
export class ReplayExtractor implements Extractor {
  readonly name = 'replay';
  private turn = 0;

  constructor(private readonly turns: ReadonlyArray<readonly ToolCall[] | undefined>) {}

  /** Makes the next proposal the one recorded for turn `index` (0-based): commands skip the extractor, so turns and calls can differ. */
  seek(index: number): void {
    this.turn = index;
  }

  /** The proposal for the next recorded turn; a turn without a record proposes nothing. */
  extract(request: ExtractionRequest): Proposal {
    const calls = this.turns[this.turn++] ?? [];
    return proposalFromToolCalls(calls, request, this.name);
  }
}
