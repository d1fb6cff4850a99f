import { negated, negatedAfter } from './enum.ts';
import { en } from '../../language/en/index.ts';
import type { LanguagePack } from '../../language/pack.ts';
import { say } from '../../language/parser-messages.ts';
import type { AnswerSpec } from '../../flow/answer-types.ts';
import { fold, foldPhrase, originalSlice } from './fold.ts';
import { fail, ok, type ParseResult } from './parse-result.ts';
import { findHits, longestHits, longestOwners, onlyFillerOutside, phraseSet, spellings, type PhraseCandidate, type PhraseSet } from './phrase-match.ts';

type BooleanSpec = Extract<AnswerSpec, { type: 'boolean' }>;
type Side = 'true' | 'false' | 'neither' | 'plain';

// Built-in yes/no words per language (each language pack's lexicon, server/language/<code>/lexicon.ts); "not sure" holds "sure", "no idea" holds "no":
// the `neither` phrases are longer, so they win and the parse fails.
const compiled = new Map<LanguagePack, WeakMap<BooleanSpec, PhraseSet<Side>>>();

/** A spec's yes/no phrases in a language, folded once per spec (a flow's specs do not change after compile). */
function phrasesOf(spec: BooleanSpec, pack: LanguagePack): PhraseSet<Side> {
  let byLang = compiled.get(pack);
  if (!byLang) compiled.set(pack, (byLang = new WeakMap()));
  let set = byLang.get(spec);
  if (!set) {
    set = phraseSet(candidates(spec, pack));
    byLang.set(spec, set);
  }
  return set;
}

function candidates(spec: BooleanSpec, pack: LanguagePack): PhraseCandidate<Side>[] {
  const { yes: YES, no: NO, neither: NEITHER } = pack.lexicon;
  const custom: PhraseCandidate<Side>[] = [
    ...(spec.synonyms?.true ?? []).map((phrase) => ({ phrase, owner: 'true' as const })),
    ...(spec.synonyms?.false ?? []).map((phrase) => ({ phrase, owner: 'false' as const })),
  ];
  // A flow's own synonym overrides a built-in word of the same spelling.
  const taken = new Set(custom.map((c) => foldPhrase(c.phrase)));
  const builtIn: PhraseCandidate<Side>[] = [
    ...YES.map((phrase) => ({ phrase, owner: 'true' as const })),
    ...NO.map((phrase) => ({ phrase, owner: 'false' as const })),
    ...NEITHER.map((phrase) => ({ phrase, owner: 'neither' as const })),
    // "right now", "alles ok": a yes or no word inside them answers nothing (they are longer, so they win)
    ...(pack.leftovers?.plain ?? []).map((phrase) => ({ phrase, owner: 'plain' as const })),
  ].filter((c) => !taken.has(foldPhrase(c.phrase)));
  return [...custom, ...builtIn];
}

/** Parses yes/no from free text: the language's built-in words plus the spec's synonyms, longest phrase wins. */
export function parseBoolean(spec: BooleanSpec, text: string, pack: LanguagePack = en): ParseResult {
  const folded = fold(text);
  const custom = new Set([...(spec.synonyms?.true ?? []), ...(spec.synonyms?.false ?? [])].flatMap(spellings).map(foldPhrase));
  // "not indoor" to indoor-or-outdoor: a negated synonym says the other side
  let hits = longestHits(findHits(folded, phrasesOf(spec, pack))).filter((h) => h.owner !== 'plain').map((h) => {
    if (h.owner !== 'true' && h.owner !== 'false') return h;
    if (custom.has(folded.text.slice(h.start, h.end))) {
      return negated(folded.text, h.start, pack) || negatedAfter(folded.text, h.end, pack) || noneBefore(folded.text, h.start, pack) ? { ...h, owner: h.owner === 'true' ? ('false' as const) : ('true' as const) } : h;
    }
    // "nicht korrekt", "pas d'accord", "no vale": a negated built-in yes is no clear answer in these languages (English lists its own "not right")
    return pack.negatedYesIsNeither && h.owner === 'true' && negated(folded.text, h.start, pack) ? { ...h, owner: 'neither' as const } : h;
  });
  // "nope 👍", "nein 👍": an emoji beside a word answer is a sign-off, no second answer
  const worded = hits.filter((h) => /[\p{L}]/u.test(folded.text.slice(h.start, h.end)));
  if (worded.length > 0 && worded.length < hits.length) hits = hits.filter((h) => h.owner === 'neither' || h.owner === 'plain' || worded.includes(h));
  const { owners } = longestOwners(hits);
  // "yes, but only partly", "sort of yes": a hedge or a half answer beside a yes/no word is no answer either
  if (owners.length !== 1 || owners[0] === 'neither' || hits.some((h) => h.owner === 'neither')) return fail(say(pack, 'yesOrNo'));
  const side = owners[0]!;
  const mine = hits.filter((h) => h.owner === side);
  // "yes … no" in one message is no answer at all.
  if (hits.some((h) => h.owner !== side && h.owner !== 'neither')) return fail(say(pack, 'yesOrNo'));
  // "I don't think so?", "nein?": a yes or no asked back with a question mark right after it is unsure, no answer
  if (mine.some((h) => ASKED.test(folded.text.slice(h.end)))) return fail(say(pack, 'yesOrNo'));
  const first = mine[0]!;
  return ok(side === 'true', originalSlice(text, folded, first.start, first.end), onlyFillerOutside(folded, hits));
}

/** A question mark right after a phrase (spaces and emoji between): "I don't think so?", "no?? 🤔". */
const ASKED = /^[\s\p{Extended_Pictographic}\u{FE0F}\u{200D}]*\?/u;

/**
 * "nothing dangerous", "nichts Gefährliches": a one-word "none" (the pack's yes/no `none` words) right before a synonym denies
 * it, and so it does before a list ending in it ("nothing hanging or sparking": the pack's `listJoiners`).
 */
function noneBefore(folded: string, start: number, pack: LanguagePack): boolean {
  const clause = folded.slice(0, start).split(/[,;:.!?()—–]/u).at(-1) ?? '';
  const words = clause.match(/[\p{L}']+/gu) ?? [];
  const none = new Set((pack.yesNo?.none ?? []).map(foldPhrase));
  const joiners = new Set((pack.yesNo?.listJoiners ?? []).map(foldPhrase));
  return words.some((w, i) => {
    if (!none.has(w)) return false;
    const between = words.slice(i + 1);
    return between.length === 0 || (between.length <= 3 && between.some((b) => joiners.has(b)));
  });
}

/** Normalises a structured boolean proposal: booleans pass, 1/0 and yes/no words are read. */
export function coerceBoolean(spec: BooleanSpec, value: unknown, pack: LanguagePack = en): ParseResult {
  if (typeof value === 'boolean') return ok(value, String(value), true);
  if (value === 1 || value === 0) return ok(value === 1, String(value), true);
  if (typeof value === 'string') {
    const r = parseBoolean(spec, value, pack);
    return r.ok ? { ...r, exact: true } : r;
  }
  return fail(say(pack, 'yesOrNo'));
}
