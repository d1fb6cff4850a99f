import type { PathChoice, Proposal } from '../extractor.ts';
import { findHits, fold, longestOwners, type PhraseCandidate } from '../parse/index.ts';

/** Matches this long (folded characters) or longer earn the top partial-match confidence. */
const LONG_MATCH = 24;

/**
 * Votes for the path whose label or example phrase matches the message
 * longest (case-insensitive, on word boundaries). No vote when nothing
 * matches or two paths tie: the engine would rather ask than guess.
 */
export function votePath(text: string, paths: readonly PathChoice[]): Proposal['pathVote'] {
  if (paths.length === 0) return undefined;
  const candidates: PhraseCandidate<number>[] = paths.flatMap((p, i) =>
    [...(p.label ? [p.label] : []), ...p.examples].map((phrase) => ({ phrase, owner: i })),
  );
  const folded = fold(text);
  const { owners, length } = longestOwners(findHits(folded, candidates));
  if (owners.length !== 1) return undefined;
  // The whole message being an example is as sure as a keyword match gets; a
  // short word inside a sentence ("buy") is a hint, a long phrase nearly proof.
  const whole = length === folded.text.replace(/[^\p{L}\p{N}' ]+/gu, '').trim().length;
  const confidence = whole ? 0.9 : 0.6 + 0.25 * Math.min(1, length / LONG_MATCH);
  return { path: paths[owners[0]!]!.name, confidence: Math.round(confidence * 100) / 100 };
}
