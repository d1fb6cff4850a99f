import { findHits, fold, foldPhrase, longestHits, onlyFillerOutside, phraseSet, type PhraseCandidate, type PhraseSet } from '../parse/index.ts';
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

/** The folded words of a text, apostrophes kept ("i'm", "möcht"), each run of other characters a break. */
function plainWords(text: string): string {
  return ` ${fold(text).text.replace(/’/g, "'").replace(/[^\p{L}' ]+/gu, ' ').replace(/\s+/g, ' ').trim()} `;
}

/** The text with each phrase of the list taken out whole (longest first), and whether one was. */
function takeOut(t: string, phrases: readonly string[]): { rest: string; hit: boolean } {
  let rest = t;
  let hit = false;
  for (const p of phrases.map((x) => plainWords(x).trim()).filter((x) => x !== '').sort((a, b) => b.length - a.length)) {
    if (rest.includes(` ${p} `)) {
      rest = rest.split(` ${p} `).join(' ');
      hit = true;
    }
  }
  return { rest, hit };
}

/**
 * Whether a reply only declines more, part by part: each part (cut at commas and full stops) is a decline of the pack's
 * (`declines`: "nah", "i'm good", "all set", "nothing to add", "passt schon") with only the skip filler beside it ("no im good
 * thanks", "I'm good, thank you", "nope, all good"). Read at an optional question whose prompt invites a skip; "I'm good with
 * needles but I faint sometimes" says more and is kept.
 */
export function onlyDeclines(text: string, pack: LanguagePack): boolean {
  if (text.length > MAX_INTENT_CHARS || /\p{N}/u.test(text)) return false;
  const filler = new Set(pack.lexicon.skipFiller.map((w) => plainWords(w).trim()));
  const parts = text.split(/[,.;!]+/u).map(plainWords).filter((p) => p.trim() !== '');
  let any = false;
  for (const part of parts) {
    const { rest, hit } = takeOut(part, pack.lexicon.declines);
    if (hit) any = true;
    if (!rest.trim().split(' ').every((w) => w === '' || filler.has(w))) return false;
  }
  return any;
}

/**
 * Whether a reply at a text question is only a refusal: one of the pack's `refuse` phrases ("rather not", "dont want to",
 * "möchte ich nicht", "geht Sie nichts an", dialect spellings included) with nothing beside it but the skip filler, words of
 * wishing and saying (`refuseWith`: "say", "share", "sagen", "angeben"), a no word and the question's own key or label words
 * (`topic`: "company skip"). "rather not say, but it's for the Elks Lodge" names something and is read as usual.
 */
export function refuses(text: string, topic: readonly string[], pack: LanguagePack): boolean {
  const lex = pack.lexicon;
  if (!lex.refuse || text.length > MAX_INTENT_CHARS || /\p{N}/u.test(text)) return false;
  const own = new Set(topic.flatMap((t) => t.split(/[_\s-]+/u)).map((w) => foldPhrase(w)).filter((w) => w.length >= 3));
  const plain = new Set([...lex.skipFiller, ...(lex.refuseWith ?? []), ...lex.no.filter((w) => !/\s/u.test(w)), ...lex.filler, ...own].map((w) => foldPhrase(w).replace(/’/g, "'")));
  const only = (part: string) => {
    const { rest, hit } = takeOut(plainWords(part), lex.refuse!);
    return hit && rest.trim().split(' ').every((w) => w === '' || plain.has(w));
  };
  if (only(text)) return true;
  // "Alex is fine. company skip": a sentence refusing the question by its own name refuses it, whatever the others say
  const sentences = text.split(/[.;!?]+/u).filter((x) => /\p{L}/u.test(x));
  // (the others statements of three words or more, not a value given: "Riverside Padel. company skip" is read as usual)
  const refusing = sentences.filter((x) => only(x) && plainWords(x).trim().split(' ').some((w) => own.has(w)));
  return refusing.length > 0 && sentences.every((x) => refusing.includes(x) || plainWords(x).trim().split(' ').length >= 3);
}
