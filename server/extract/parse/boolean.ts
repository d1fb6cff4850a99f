import { negated } from './enum.ts';
import type { AnswerSpec } from '../../flow/answer-types.ts';
import { fold, foldPhrase, originalSlice } from './fold.ts';
import { fail, ok, type ParseResult } from './parse-result.ts';
import { findHits, longestHits, longestOwners, onlyFillerOutside, phraseSet, type PhraseCandidate, type PhraseSet } from './phrase-match.ts';

type BooleanSpec = Extract<AnswerSpec, { type: 'boolean' }>;
type Side = 'true' | 'false' | 'neither';

const YES = [
  'yes', 'yeah', 'yea', 'ya', 'yep', 'yup', 'y', 'sure', 'sure thing', 'correct', 'of course', 'true',
  'absolutely', 'definitely', 'certainly', 'indeed', 'affirmative', "that's right", 'that is right',
  'right', 'ok', 'okay', 'i do', 'we do', 'i am', 'we are', 'please do', 'go ahead', 'sounds good',
  'yes please', 'no problem', 'no worries', '👍', '✅',
];
const NO = [
  'no', 'nope', 'nah', 'n', 'false', 'not really', 'never', 'negative', 'no thanks', 'no thank you',
  'not at all', "i don't", 'i do not', "we don't", 'we do not', "i'm not", 'i am not', "we're not",
  'incorrect', 'wrong', 'not right', 'of course not',
  'absolutely not', 'definitely not', 'certainly not', 'no way', 'not yet', '👎', '❌',
];
// Phrases that contain a yes/no word but answer neither ("not sure" holds
// "sure", "no idea" holds "no"); being longer, they win and the parse fails.
const NEITHER = [
  'not sure', "i'm not sure", 'unsure', 'maybe', 'perhaps', 'no idea', "don't know", 'do not know',
  'dont know', 'not certain', 'it depends', 'depends', 'yes or no', 'yes and no', 'n/a',
];

const compiled = new WeakMap<BooleanSpec, PhraseSet<Side>>();

/** A spec's yes/no phrases, folded once per spec (a flow's specs do not change after compile). */
function phrasesOf(spec: BooleanSpec): PhraseSet<Side> {
  let set = compiled.get(spec);
  if (!set) {
    set = phraseSet(candidates(spec));
    compiled.set(spec, set);
  }
  return set;
}

function candidates(spec: BooleanSpec): PhraseCandidate<Side>[] {
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
  ].filter((c) => !taken.has(foldPhrase(c.phrase)));
  return [...custom, ...builtIn];
}

/** Parses yes/no from free text: built-in English words plus the spec's synonyms, longest phrase wins. */
export function parseBoolean(spec: BooleanSpec, text: string): ParseResult {
  const folded = fold(text);
  const custom = new Set([...(spec.synonyms?.true ?? []), ...(spec.synonyms?.false ?? [])].map(foldPhrase));
  // "not indoor" to indoor-or-outdoor: a negated synonym says the other side
  const hits = longestHits(findHits(folded, phrasesOf(spec))).map((h) =>
    (h.owner === 'true' || h.owner === 'false') && custom.has(folded.text.slice(h.start, h.end)) && negated(folded.text, h.start)
      ? { ...h, owner: h.owner === 'true' ? ('false' as const) : ('true' as const) }
      : h,
  );
  const { owners } = longestOwners(hits);
  if (owners.length !== 1 || owners[0] === 'neither') return fail('Please answer yes or no.');
  const side = owners[0]!;
  const mine = hits.filter((h) => h.owner === side);
  // "yes … no" in one message is no answer at all.
  if (hits.some((h) => h.owner !== side && h.owner !== 'neither')) return fail('Please answer yes or no.');
  const first = mine[0]!;
  return ok(side === 'true', originalSlice(text, folded, first.start, first.end), onlyFillerOutside(folded, hits));
}

/** Normalises a structured boolean proposal: booleans pass, 1/0 and yes/no words are read. */
export function coerceBoolean(spec: BooleanSpec, value: unknown): ParseResult {
  if (typeof value === 'boolean') return ok(value, String(value), true);
  if (value === 1 || value === 0) return ok(value === 1, String(value), true);
  if (typeof value === 'string') {
    const r = parseBoolean(spec, value);
    return r.ok ? { ...r, exact: true } : r;
  }
  return fail('Please answer yes or no.');
}
