import type { RE2JS } from 're2js';
import { lazyRequire } from '../../shared/lazy-require.ts';
import type { AnswerSpec } from '../../flow/answer-types.ts';
import type { LanguagePack } from '../../language/pack.ts';
import { correctedTail } from './correction.ts';
import { clarify, fail, ok, type ParseResult } from './parse-result.ts';

/** re2js, loaded on the first pattern compiled, not by `import('questline')` (server/shared/lazy-require.ts). */
const re2 = lazyRequire<typeof import('re2js')>('re2js');

type TextSpec = Extract<AnswerSpec, { type: 'text' }>;

// Flows reuse a handful of patterns across many turns; compiling once each is
// cheap to keep. Bounded so a stream of distinct patterns cannot grow it forever.
const compiled = new Map<string, RE2JS | null>();
const MAX_COMPILED = 256;

function compile(pattern: string): RE2JS | null {
  if (compiled.has(pattern)) return compiled.get(pattern)!;
  let re: RE2JS | null;
  try {
    re = re2().RE2JS.compile(pattern);
  } catch {
    re = null;
  }
  if (compiled.size >= MAX_COMPILED) compiled.clear();
  compiled.set(pattern, re);
  return re;
}

/**
 * Filler around a short answer, trimmed by these rules only (the raw reply
 * stays in the answer's provenance): a short answer is a `kind: name` answer
 * or one whose `max` is at most SHORT_MAX characters; free text (no max, or a
 * longer one) is kept exactly as typed. Leading, repeatedly: hesitations and
 * acknowledgements ("um", "well,", "ok so", "sure,", "yes,", "hi!"), a soft
 * hedge ("I think", "I believe"), "it's" / "that's" / "it's called", and
 * what a visitor says before a name or a place ("we have", "we use", "we're
 * with", "we're the", "we're in", "based in", "near"). Trailing: "like I
 * said", "as I mentioned", "I think", "thanks", "please", a nickname aside
 * ("but call me Bob"), emoji, with the punctuation before them. The middle
 * of an answer is never touched.
 */
export const SHORT_MAX = 200;
const LEADING = [
  /^(?:um+|uh+|erm?|hmm+|well|so|ok|okay|oh|sure|yes|yeah|yep|yup|hi|hello|hey|of course|certainly)\b[,.!]*\s+/iu,
  /^(?:i think|i believe|i guess|probably|pretty sure)\b[,]?\s+/iu,
  /^(?:(?:it|that|she|he|they)(?:'s|’s|\s+is|\s+are)\s+)?(?:called|named)\s+/iu,
  // "its aetna", "thats Cigna": typed without the apostrophe
  /^(?:it|that)(?:'s|’s|s|\s+is)\s+/iu,
  /^(?:we|i)\s+(?:have|use|(?:'ve|’ve|\s+have)\s+got|(?:are|am|'re|’re|'m|’m)\s+(?:with|insured with|covered by|the|called|named|based in|located in|in|near|at)|live in|live near)\s+/iu,
  /^(?:we|i)(?:'re|’re|'m|’m)\s+(?:with|insured with|covered by|the|called|named|based in|located in|in|near|at)\s+/iu,
  /^(?:based in|located in|near|close to|just outside|outside of|in)\s+(?=\p{Lu}|\p{Ll}{2,})/u,
];
const TRAILING = /(?:[\s,;.!—–-]*(?:\b(?:like i said|like i told you|as i said|as i mentioned|as mentioned|i think|i believe|i guess|thanks|thank you|thx|please)|(?:\s+but)?\s+(?:please\s+)?(?:call me|i go by)\s+[\p{L}'’-]+|[\p{Extended_Pictographic}\uFE0F\u200D]+))+[\s.!]*$/iu;

/** A short answer without the filler around it ("Blue Cross, like I said" → "Blue Cross"); other answers as typed. */
export function withoutFiller(spec: TextSpec, text: string): string {
  const value = text.trim();
  if (!isShort(spec)) return value;
  let trimmed = value.replace(TRAILING, '');
  for (let pass = 0; pass < 4; pass++) {
    const before = trimmed;
    for (const re of LEADING) trimmed = trimmed.replace(re, '');
    if (trimmed === before) break;
  }
  trimmed = trimmed.trim();
  // filler alone ("thanks") is not emptied away: the length check then speaks for itself
  return /[\p{L}\p{N}]/u.test(trimmed) ? trimmed : value;
}

/** Whether a text answer is short (a name, or a max of at most SHORT_MAX characters), so filler rules apply. */
export function isShort(spec: TextSpec): boolean {
  return spec.kind === 'name' || (spec.max !== undefined && spec.max <= SHORT_MAX);
}

// A short answer that is not one: a question back ("why do you need that?"), or a hedge beside
// two candidates ("Aetna or Cigna, can't remember") — asked again, never committed.
const ASKS_BACK = /^(?:why|what for|how come|who|what|do|does|is|are|can|could|will|would|should)\b[^?]*\?\s*$/iu;
const UNSURE = /(?<![\p{L}])(?:can['’]?t remember|cannot remember|don['’]?t remember|not sure|no idea|don['’]?t know|dont know|i forget|forgot)(?![\p{L}])/iu;
const EITHER = /^[^,;]{2,40}?\s+or\s+[^,;]{2,40}?(?:[,;.!?\s]|$)/iu;

/** Why a short answer cannot be taken as it stands, or null. */
function notAnAnswer(value: string): string | null {
  if (ASKS_BACK.test(value)) return "It's needed to continue — could you tell me?";
  if (UNSURE.test(value)) return 'Could you check and tell me the exact one?';
  if (EITHER.test(value)) return 'Which one is it?';
  return null;
}

/** A text answer is the whole trimmed message (short answers without filler), checked against min/max length and the RE2 pattern. */
export function parseText(spec: TextSpec, text: string, pack?: LanguagePack): ParseResult {
  let value = withoutFiller(spec, text);
  if (value === '') return fail('Please type an answer.');
  if (isShort(spec)) {
    // "Jon Smith, sorry, John Smith": the correction is the answer
    // (the English markers first, as always; then the visitor's language's own: "FC Bayern, Spaß beiseite: TSV Oberndorf")
    const tail = correctedTail(value) ?? (pack ? correctedTail(value, pack) : null);
    if (tail !== null) value = withoutFiller(spec, tail);
    const problem = notAnAnswer(value);
    if (problem !== null) return clarify(problem);
  }
  if (spec.min !== undefined && value.length < spec.min) {
    return fail(`Please write at least ${spec.min} character${spec.min === 1 ? '' : 's'}.`);
  }
  if (spec.max !== undefined && value.length > spec.max) {
    return fail(`Please keep it to ${spec.max} character${spec.max === 1 ? '' : 's'} or fewer.`);
  }
  if (spec.pattern !== undefined) {
    const re = compile(spec.pattern);
    // The compiler rejects bad patterns, so this only happens with an
    // uncompiled flow; refusing is safer than committing unchecked text.
    if (re === null) return fail("I can't check answers to this question right now.");
    if (!re.matches(value)) return fail("That doesn't match the expected format.");
  }
  return ok(value, value, true);
}

/** Normalises a structured text proposal: strings are trimmed, numbers and booleans become their text. */
export function coerceText(spec: TextSpec, value: unknown): ParseResult {
  if (typeof value === 'string') return parseText(spec, value);
  if (typeof value === 'number' && Number.isFinite(value)) return parseText(spec, String(value));
  if (typeof value === 'boolean') return parseText(spec, value ? 'yes' : 'no');
  return fail('Please type an answer.');
}
