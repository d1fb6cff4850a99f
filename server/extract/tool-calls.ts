import { z } from 'zod';
import type { ExtractionRequest, Proposal, ProposedUpdate } from './extractor.ts';
import { coerceValue, MAX_TYPED_CHARS, type ParseContext } from './parse/index.ts';
import { lateCorrection } from './offline/late-correction.ts';
import { packOf } from '../language/registry.ts';

/** The tools an LLM extractor may call (seed 001): the names are part of the replay format. */
export const TOOL_NAMES = ['update_answers', 'unknown_answer', 'escalate_to_human', 'vote_path', 'assess_answer', 'match_trigger'] as const;

/** One recorded tool call: what a live model answered, and what `extractor: replay` plays back. */
export const ToolCall = z.object({
  tool: z.enum(TOOL_NAMES),
  input: z.record(z.string(), z.unknown()),
});
export type ToolCall = z.infer<typeof ToolCall>;

/**
 * Turns tool calls into a proposal. Values are normalised with the same
 * parsers the offline extractor uses (so "25k" becomes 25000) when the key is
 * an open question; anything else is passed on as given, for the engine to
 * refuse with a reason — the model never decides what is committed.
 */
export function proposalFromToolCalls(calls: readonly ToolCall[], req: ExtractionRequest, extractor: string): Proposal {
  const questions = new Map([...(req.current ? [req.current] : []), ...req.open].map((q) => [q.key, q]));
  const ctx = req.locale === undefined ? { now: req.now, defaultCountry: req.defaultCountry } : { now: req.now, defaultCountry: req.defaultCountry, locale: req.locale };
  const proposal: Proposal = { extractor, updates: [], unknown: [] };
  for (const call of calls) {
    switch (call.tool) {
      case 'update_answers': {
        const updates = (call.input.updates ?? call.input) as Record<string, unknown>;
        for (const [key, raw] of Object.entries(updates)) {
          if (key === 'confidence') continue;
          const q = questions.get(key);
          const coerced = q ? coerceValue(q.answer, raw, ctx) : undefined;
          const update: ProposedUpdate = { key, value: coerced?.ok ? coerced.value : raw };
          if (typeof call.input.confidence === 'number') update.confidence = call.input.confidence;
          proposal.updates.push(update);
        }
        break;
      }
      case 'unknown_answer': {
        const key = call.input.key;
        if (typeof key === 'string') proposal.unknown.push(key);
        break;
      }
      case 'escalate_to_human':
        proposal.escalate = { reason: typeof call.input.reason === 'string' ? call.input.reason : 'the model asked for a person' };
        break;
      case 'assess_answer': {
        // the model's judgement of an assessed answer (recorded from update_answers' `assessment`)
        const { key, score, feedback } = call.input;
        if (typeof key === 'string' && typeof score === 'number') {
          proposal.assessment = { key, score, ...(typeof feedback === 'string' && feedback.trim() ? { feedback: feedback.trim().slice(0, 500) } : {}) };
        }
        break;
      }
      case 'match_trigger':
        // a flow trigger the model recognised; the engine decides whether it is active here
        if (typeof call.input.id === 'string') {
          proposal.trigger = { id: call.input.id, ...(typeof call.input.confidence === 'number' ? { confidence: call.input.confidence } : {}) };
        }
        break;
      case 'vote_path':
        if (typeof call.input.path === 'string') {
          proposal.pathVote = { path: call.input.path, ...(typeof call.input.confidence === 'number' ? { confidence: call.input.confidence } : {}) };
        }
        break;
    }
  }
  withLateCorrection(proposal, req, ctx);
  return proposal;
}

/**
 * A correction of an earlier answer in the reply ("sorry, the budget is 30k", "wrong number, it ends 0134") read by the
 * offline rules (offline/late-correction.ts): the model is asked about the open questions only, so the correction, or the
 * earlier question to ask again, is added to its proposal in place of anything it proposed for that key.
 */
function withLateCorrection(proposal: Proposal, req: ExtractionRequest, ctx: ParseContext): void {
  if ((!req.previous && !req.answered) || typeof req.text !== 'string' || req.text.length > MAX_TYPED_CHARS) return;
  const late = lateCorrection(req.text, req.previous, req.answered ?? [], req.current, ctx, packOf(req.locale));
  if (late?.update) {
    const key = late.update.key;
    proposal.updates = [...proposal.updates.filter((u) => u.key !== key), late.update];
  } else if (late?.reopen && !proposal.updates.some((u) => u.key === late.reopen)) proposal.reopen = { key: late.reopen };
}
