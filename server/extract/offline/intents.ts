import { findHits, fold, longestHits, onlyFillerOutside, phraseSet, type PhraseCandidate, type PhraseSet } from '../parse/index.ts';
import { packOf, type LanguagePack } from '../../language/registry.ts';

// The skip and "talk to a human" phrases of each language live in each language pack's lexicon (server/language/<code>/lexicon.ts). Skip filler: words
// that may surround a skip phrase without turning the message into an answer ("honestly no idea, sorry"
// skips, "I don't know why it broke" does not). Human: sentences only — bare words like "agent" also appear
// in answers ("I'm a sales agent"); the one-word command is the engine's.

const candidates = (phrases: readonly string[]) => phraseSet(phrases.map((phrase): PhraseCandidate<true> => ({ phrase, owner: true })));
interface IntentPhrases {
  skip: PhraseSet<true>;
  human: PhraseSet<true>;
  filler: ReadonlySet<string>;
}
// built per language on its first message, not at import (it was ~20-40 ms of `import('questline')`)
const PHRASES = new Map<LanguagePack, IntentPhrases>();
const phrasesOf = (p: LanguagePack): IntentPhrases => {
  let mine = PHRASES.get(p);
  if (!mine) PHRASES.set(p, (mine = { skip: candidates(p.lexicon.skip), human: candidates(p.lexicon.human), filler: new Set(p.lexicon.skipFiller.map((w) => fold(w).text)) }));
  return mine;
};

// Both are short-message intents; a long message holding "pass" or "an agent"
// is about something else, and scanning it would only cost time.
const MAX_INTENT_CHARS = 300;

/**
 * Whether the message says "skip" / "I don't know" / "rather not say" and
 * nothing more. `topic` is the question's own key and label: echoing them
 * ("my budget? no idea") is still a skip.
 */
export function wantsSkip(text: string, topic: readonly string[] = [], locale?: string): boolean {
  if (text.length > MAX_INTENT_CHARS) return false;
  const folded = fold(text);
  const mine = phrasesOf(packOf(locale));
  const hits = longestHits(findHits(folded, mine.skip));
  if (hits.length === 0) return false;
  const filler = new Set(mine.filler);
  for (const t of topic) for (const w of fold(t).text.match(/[\p{L}\p{N}']+/gu) ?? []) filler.add(w);
  return onlyFillerOutside(folded, hits, filler);
}

/** Whether the message asks for a person ("can I talk to a human?", "agent please", "mit einem Menschen sprechen"). */
export function wantsHuman(text: string, locale?: string): boolean {
  if (text.length > MAX_INTENT_CHARS) return false;
  return findHits(fold(text), phrasesOf(packOf(locale)).human).length > 0;
}
