import { findHits, fold, longestHits, onlyFillerOutside, phraseSet, type PhraseCandidate } from '../parse/index.ts';

const SKIP = [
  'skip', 'skip it', 'skip this', 'pass', "i'll pass", 'i will pass', "i don't know", 'i do not know', "don't know",
  'dont know', 'i dont know', 'dunno', 'i dunno', 'idk', 'no idea', 'not sure', "i'm not sure", 'unsure', 'no clue',
  'rather not say', "i'd rather not say", "i'd rather not", 'rather not', 'prefer not to say', 'i prefer not to say',
  "i'd prefer not to say", 'prefer not to answer', "i'd prefer not to", 'no comment', "can't say", 'cannot say',
  'not telling', 'none of your business', 'next question', 'n/a', 'not applicable',
  'rather not give', "i'd rather not give", 'rather not share', "i'd rather not share", 'prefer not to give', 'prefer not to share', "i'd prefer not to give", "i'd prefer not to share",
];
// Words that may surround a skip phrase without turning the message into an
// answer: "honestly no idea, sorry" skips, "I don't know why it broke" does not.
const SKIP_FILLER = new Set([
  'sorry', 'honestly', 'really', 'um', 'umm', 'uh', 'hmm', 'erm', 'well', 'so', 'oh', 'ah', 'ok', 'okay', 'please',
  'thanks', 'thank', 'you', 'i', "i'm", 'im', 'am', 'my', 'our', 'your', 'just', 'for', 'now', 'this', 'that', 'one', 'it', 'question',
  'yet', 'actually', 'to', 'be', 'tbh', 'but', 'the', 'answer', 'on', 'at', 'moment', 'right', 'no', 'say', 'can',
  "let's", 'lets', 'we', 'afraid', 'quite', 'very', 'yeah', 'nope', 'sadly', 'unfortunately', 'either',
  'number', 'details', 'out', 'it',
]);
// Sentences only: bare words like "agent" or "representative" also appear in
// answers ("I'm a sales agent"); the one-word command is the engine's.
const HUMAN = [
  'talk to a human', 'speak to a human', 'talk with a human', 'speak with a human', 'talk to a person',
  'speak to a person', 'talk with a person', 'speak with a person', 'talk to someone', 'speak to someone',
  'talk to a real', 'speak to a real', 'real person', 'real human', 'actual person', 'actual human', 'live person',
  'live agent', 'human agent', 'human please', 'a human being', 'agent please', 'talk to an agent',
  'speak to an agent', 'speak with an agent', 'connect me to an agent', 'get me an agent', 'talk to a representative',
  'speak to a representative', 'representative please', 'operator please', 'transfer me to someone',
  'need a human', 'want a human', 'need a person', 'want a person', 'need an agent', 'want an agent',
];

const candidates = (phrases: readonly string[]) => phraseSet(phrases.map((phrase): PhraseCandidate<true> => ({ phrase, owner: true })));
const SKIP_CANDIDATES = candidates(SKIP);
const HUMAN_CANDIDATES = candidates(HUMAN);

// Both are short-message intents; a long message holding "pass" or "an agent"
// is about something else, and scanning it would only cost time.
const MAX_INTENT_CHARS = 300;

/**
 * Whether the message says "skip" / "I don't know" / "rather not say" and
 * nothing more. `topic` is the question's own key and label: echoing them
 * ("my budget? no idea") is still a skip.
 */
export function wantsSkip(text: string, topic: readonly string[] = []): boolean {
  if (text.length > MAX_INTENT_CHARS) return false;
  const folded = fold(text);
  const hits = longestHits(findHits(folded, SKIP_CANDIDATES));
  if (hits.length === 0) return false;
  const filler = new Set(SKIP_FILLER);
  for (const t of topic) for (const w of fold(t).text.match(/[\p{L}\p{N}']+/gu) ?? []) filler.add(w);
  return onlyFillerOutside(folded, hits, filler);
}

/** Whether the message asks for a person ("can I talk to a human?", "agent please"). */
export function wantsHuman(text: string): boolean {
  if (text.length > MAX_INTENT_CHARS) return false;
  return findHits(fold(text), HUMAN_CANDIDATES).length > 0;
}
