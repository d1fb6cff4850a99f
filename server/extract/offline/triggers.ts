import type { Proposal, TriggerChoice } from '../extractor.ts';
import { findHits, fold, phraseSet, type PhraseSet } from '../parse/index.ts';
import { clauseAround, figurativeAfter, figurativeBefore, matchTogether, negationScope, negatorAt, resolvedNext, unitAfterNumber, vetoed } from './trigger-words.ts';
import { repairTypos } from './trigger-typos.ts';
import { distanced } from './trigger-distance.ts';
import { en } from '../../language/en/index.ts';
import type { LanguagePack } from '../../language/pack.ts';

// The offline rule for flow triggers: a trigger's phrase (or example) found
// in the message on word boundaries, unless the clause negates it before the
// phrase — "no chest pain", "I don't have chest pain", "without any
// bleeding" do not fire; "no fever but crushing chest pain" does. A trigger's
// `together` entries (word lists that must co-occur in one clause, see
// trigger-words.ts) fire it too, and its `unless` phrases void a clause.

/** Words that negate a phrase that follows them in the same clause. */
const NEGATORS = new Set(['no', 'not', 'never', 'without', 'none', 'neither', 'nor', "don't", 'dont', "doesn't", 'doesnt', "didn't", 'didnt',
  "isn't", 'isnt', "aren't", 'arent', "wasn't", 'wasnt', "haven't", 'havent', "hasn't", 'hasnt', 'denies', 'deny', "i'm not", 'free']);
/** How many words before a phrase a negator may stand. */
const NEGATION_WINDOW = 4;
/** Where a clause ends: a negation before it does not reach past. */
const CLAUSE_END = /[.,;:!?()]|\b(but|although|though|however|except|and now|yet)\b/g;

const compiled = new WeakMap<readonly TriggerChoice[], PhraseSet<number>>();

function phrasesOf(triggers: readonly TriggerChoice[]): PhraseSet<number> {
  let set = compiled.get(triggers);
  if (!set) {
    set = phraseSet(triggers.flatMap((t, i) => [...t.phrases, ...t.examples].map((phrase) => ({ phrase: apostrophes(phrase), owner: i }))));
    if (Object.isFrozen(triggers)) compiled.set(triggers, set);
  }
  return set;
}

const apostrophes = (s: string) => s.replace(/[\u2018\u2019\u02bc]/g, "'");

interface PackNegation {
  /** The built-in negators and the pack's own single-word ones ("keine", "nicht", "ohne", "nix"). */
  negators: ReadonlySet<string>;
  /** The pack's one-word "none" words ("nothing", "nichts", "nix"): they negate only right before a phrase or a list of them. */
  none: ReadonlySet<string>;
  /** The pack's list joiners ("or", "oder"): "nothing hanging or sparking" denies both. */
  joiners: ReadonlySet<string>;
}

const packNegation = new WeakMap<LanguagePack, PackNegation>();

/** The pack's negation words in the form the trigger text is matched in (folded, apostrophes dropped). */
function negationOf(pack: LanguagePack): PackNegation {
  let n = packNegation.get(pack);
  if (!n) {
    const single = (ws: readonly string[]) => ws.map((w) => fold(apostrophes(w)).text.replace(/'/g, '')).filter((w) => /^[\p{L}]+$/u.test(w));
    n = {
      negators: new Set([...NEGATORS, ...single(pack.lexicon.negators)]),
      none: new Set(single(pack.yesNo?.none ?? [])),
      joiners: new Set(single(pack.yesNo?.listJoiners ?? [])),
    };
    packNegation.set(pack, n);
  }
  return n;
}

/**
 * Whether the words just before `start` in its clause negate what follows (not past a conjunction that starts a predicate of
 * its own; not a hedge: "not sure"): a negator of the built-in list or the pack's ("keine Funken", "ohne Rauch"), or a "none"
 * word right before the phrase or before a list ending in it ("nothing is sparking", "nothing hanging or sparking", "nix funkt")
 * — not further ("nothing helps the chest pain" names the pain).
 */
function negated(text: string, start: number, neg: PackNegation): boolean {
  let from = 0;
  for (const m of text.slice(0, start).matchAll(CLAUSE_END)) from = m.index + m[0].length;
  const next = text.slice(start).search(CLAUSE_END);
  from = negationScope(text, { start: from, end: next < 0 ? text.length : start + next }, start);
  const words = text.slice(from, start).split(/\s+/).map((w) => w.replace(/[^\p{L}']/gu, '')).filter((w) => w.length > 0);
  const plain = [...words, ...(text.slice(start).match(/^[\p{L}']+/u) ?? [])];
  if (words.some((_, i) => i >= words.length - NEGATION_WINDOW && negatorAt(plain, i, neg.negators))) return true;
  return words.some((w, i) => {
    if (!neg.none.has(w.replace(/'/g, '')) || !negatorAt(plain, i, neg.none)) return false;
    const between = words.slice(i + 1);
    return between.length <= 1 || (between.length <= 3 && between.some((b) => neg.joiners.has(b)));
  });
}

/**
 * The first trigger (in declaration order) one of whose phrases occurs in
 * the message, or one of whose `together` entries holds in a clause, not
 * negated and not in a clause with an `unless` phrase; undefined when none does. Where the pack has a dictionary
 * (English), a misspelt trigger word counts as the word.
 */
export function matchTrigger(typed: string, triggers: readonly TriggerChoice[] | undefined, pack: LanguagePack = en): Proposal['trigger'] {
  if (!triggers?.length) return undefined;
  // a misspelt trigger word ("chest pian", "unconcious") is read as the word (trigger-typos.ts), where the pack has a
  // dictionary (`isWord`, English's) to guard it: "Feier" is no English word but is one letter from German "Feuer"
  const text = pack.isWord ? repairTypos(typed, triggers, pack.isWord) : typed;
  const folded = fold(apostrophes(text));
  const neg = negationOf(pack);
  const hits = findHits(folded, phrasesOf(triggers)).filter((h) => !negated(folded.text, h.start, neg) && !vetoedHit(folded.text, h.start, triggers[h.owner]!)
    && !unitAfterNumber(folded.text, h) && !figurativeHit(folded.text, h, triggers[h.owner]!) && !distancedHit(folded.text, h));
  for (const [i, t] of triggers.entries()) {
    const hit = hits.find((h) => h.owner === i);
    if (hit) return { id: t.id, confidence: 1, evidence: folded.text.slice(hit.start, hit.end) };
    // the co-occurrence rule (`together`): all its word lists in one clause, not negated
    const clause = matchTogether(text, t);
    if (clause !== undefined) return { id: t.id, confidence: 1, evidence: clause };
  }
  return undefined;
}

/** Whether an `unless` phrase of the trigger stands in the clause of a phrase hit ("died of a heart attack"), or the next clause says it is over ("…, not now"). */
function vetoedHit(text: string, start: number, t: TriggerChoice): boolean {
  const c = clauseAround(text, start);
  if (resolvedNext(text, c)) return true;
  if (!t.unless?.length) return false;
  return vetoed(text.slice(c.start, c.end), t);
}

/** Whether a `figurative` object of the trigger follows a phrase hit in its clause ("overdosed on netflix"), or stands right before it as a modifier ("a chocolate overdose"). */
function figurativeHit(text: string, h: { start: number; end: number }, t: TriggerChoice): boolean {
  if (!t.figurative?.length) return false;
  const c = clauseAround(text, h.start);
  return figurativeAfter(text.slice(h.end, c.end), t) || figurativeBefore(text.slice(c.start, h.start), t);
}

/** Whether a phrase hit is named at a distance in its clause: asked about, on paperwork, in a history, a refill (trigger-distance.ts). */
function distancedHit(text: string, h: { start: number; end: number }): boolean {
  const c = clauseAround(text, h.start);
  return distanced(text, negationScope(text, c, h.start), h, c.end);
}
