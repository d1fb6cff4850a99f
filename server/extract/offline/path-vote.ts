import type { PathChoice, Proposal } from '../extractor.ts';
import { packOf } from '../../language/registry.ts';
import { findHits, findPhrase, fold, foldPhrase, longestOwners, negated, phraseSet, type PhraseSet } from '../parse/index.ts';
import { parseEnum } from '../parse/enum.ts';
import { say } from '../../language/parser-messages.ts';
import type { LanguagePack } from '../../language/pack.ts';
import type { AnswerSpec } from '../../flow/answer-types.ts';

/** Words too common to count as evidence for a path. */
const FILLER = new Set(['a', 'an', 'the', 'for', 'of', 'to', 'and', 'or', 'my', 'our', 'we', 'i', 'in', 'on', 'at', 'with', 'is', 'it', 'need', 'want', 'some']);

// In ASCII text the letters and digits are [a-z0-9] once lowercased, and the Unicode split is slower.
const words = (s: string) => s.toLowerCase().split(ASCII.test(s) ? ASCII_SEPARATORS : SEPARATORS).filter((w) => w.length > 0 && !FILLER.has(w));
const ASCII = /^[\x00-\x7f]*$/;
const ASCII_SEPARATORS = /[^a-z0-9']+/;
const SEPARATORS = /[^\p{L}\p{N}']+/u;

/**
 * The fallback when no example phrase occurs as written: an example whose
 * content words (at least two) all occur in the message, in any order —
 * "lights for a court" in "LED lights for a basketball court". A weaker hint
 * than a phrase match, so a lower confidence; ties give no vote.
 */
function voteByWords(text: string, paths: readonly PathChoice[]): Proposal['pathVote'] {
  const { exampleWords, multiWord } = compiledPaths(paths);
  if (!multiWord) return undefined; // no example of two words or more: nothing can match
  const have = new Set(words(text));
  // the path with the longest fully present example, when no other path's is as long (loops: this runs on most messages)
  let top = 0;
  let topPath = -1;
  let tied = false;
  for (let i = 0; i < exampleWords.length; i++) {
    let best = 0;
    for (const need of exampleWords[i]!) if (need.length >= 2 && need.length > best && need.every((w) => have.has(w))) best = need.length;
    if (best > top) [top, topPath, tied] = [best, i, false];
    else if (best === top) tied = true;
  }
  if (top === 0 || tied) return undefined;
  return { path: paths[topPath]!.name, confidence: 0.6 };
}

interface CompiledPaths {
  /** Every path's label and examples, owned by the path's index. */
  phrases: PhraseSet<number>;
  /** Per path, the content words of its label and of each example. */
  exampleWords: ReadonlyArray<ReadonlyArray<readonly string[]>>;
  /** Whether any label or example has two content words or more (the word fallback needs one). */
  multiWord: boolean;
}

const compiled = new WeakMap<readonly PathChoice[], CompiledPaths>();

/**
 * The phrases and words of a path list. A frozen list (the engine's, built
 * once per flow) is compiled once; any other list on every call.
 */
function compiledPaths(paths: readonly PathChoice[]): CompiledPaths {
  let c = compiled.get(paths);
  if (!c) {
    const exampleWords = paths.map((p) => [...(p.label ? [p.label] : []), ...p.examples].map(words));
    c = {
      phrases: phraseSet(paths.flatMap((p, i) => [...(p.label ? [p.label] : []), ...p.examples].map((phrase) => ({ phrase, owner: i })))),
      exampleWords,
      multiWord: exampleWords.some((examples) => examples.some((need) => need.length >= 2)),
    };
    if (Object.isFrozen(paths) && paths.every((p) => Object.isFrozen(p))) compiled.set(paths, c);
  }
  return c;
}

/**
 * Votes for the path whose label or example phrase matches the message
 * longest (case-insensitive, on word boundaries). No vote when nothing
 * matches or two paths tie: the engine would rather ask than guess.
 */
export function votePath(text: string, paths: readonly PathChoice[], locale?: string, atPrompt?: { now: string }): Proposal['pathVote'] {
  if (paths.length === 0) return undefined;
  const vote = voteByPhrase(text, paths, locale);
  return atPrompt ? promptVote(text, paths, locale, atPrompt.now, vote) : vote;
}

const specs = new WeakMap<readonly PathChoice[], Extract<AnswerSpec, { type: 'enum' }>>();

/**
 * A reply to the path prompt itself is read as an answer to a choice of the paths (labels, examples as synonyms), with
 * the options' understanding in other words (parse/option-meaning.ts): "the ones we got from you last year keep
 * cutting out" is support. A reading committed by its rule is the vote, unless an example phrase said as written
 * points elsewhere (then nothing: the prompt is asked again); a reading that would be checked gives no vote of its
 * own, and the phrase vote stands only when it agrees.
 */
function promptVote(text: string, paths: readonly PathChoice[], locale: string | undefined, now: string, vote: Proposal['pathVote']): Proposal['pathVote'] {
  let spec = specs.get(paths);
  if (!spec) {
    spec = { type: 'enum', options: paths.map((p) => ({ value: p.name, label: p.label ?? p.name, synonyms: [...p.examples] })) };
    if (Object.isFrozen(paths)) specs.set(paths, spec);
  }
  const read = parseEnum(spec, text, packOf(locale), now);
  if (!read.ok) {
    // "a quote, the old ones are broken": examples of two paths said — asked again, not the longest one taken
    const folded = fold(text);
    // "both, I need my physical and my knee hurts": the visitor says two paths — asked which, never one of them taken
    if (packOf(locale).lexicon.both.some((w) => findPhrase(folded.text, foldPhrase(w)).length > 0)) return undefined;
    const named = new Set(findHits(folded, compiledPaths(paths).phrases).filter((h) => !negated(folded.text, h.start, packOf(locale))).map((h) => h.owner));
    // "annual check up but I've also had a cough for a week": the reading points at two paths (an example of one, the
    // other in its own words) — asked which, never the path of the example taken
    // (a self-correction says which: "i want to buy... actually no, first i need help" keeps the phrase vote)
    return named.size > 1 || (pointsAtSeveral(read.reason, packOf(locale)) && !corrects(text, packOf(locale))) ? undefined : vote;
  }
  const clear = read.exact && !read.check;
  if (clear) return vote && vote.confidence === 1 && vote.path !== read.value ? undefined : { path: String(read.value), confidence: 1 };
  return vote && vote.path === read.value ? vote : undefined;
}

/** The vote of a message's example phrases (or, failing them, the words of one example). */
function voteByPhrase(text: string, paths: readonly PathChoice[], locale?: string): Proposal['pathVote'] {
  const folded = fold(text);
  // "I don't need a repair, I want a quote": a negated example is no vote for its path
  const { owners } = longestOwners(findHits(folded, compiledPaths(paths).phrases).filter((h) => !negated(folded.text, h.start, packOf(locale))));
  if (owners.length === 0) return voteByWords(folded.text, paths);
  if (owners.length !== 1) return undefined;
  // One path's label or example phrase, as written, is a clear vote (docs/engine.md, paths):
  // `lock_threshold: 2` locks after two such mentions. Only the word fallback is a weaker hint.
  return { path: paths[owners[0]!]!.name, confidence: 1 };
}

/** Whether a choice's failure asks to pick one of several options it pointed at ("Please pick just one: …"). */
function pointsAtSeveral(reason: string, pack: LanguagePack): boolean {
  const head = say(pack, 'pickOne', { list: '\u0000' }).split('\u0000')[0]!.replace(/[\s:]+$/u, '');
  return head.length > 0 && reason.startsWith(head);
}

/** Whether a reply holds a self-correction marker of the pack ("actually", "sorry", "no wait", "ich meine"). */
function corrects(text: string, pack: LanguagePack): boolean {
  pack.corrections.lastIndex = 0;
  const found = pack.corrections.test(text);
  pack.corrections.lastIndex = 0;
  return found;
}
