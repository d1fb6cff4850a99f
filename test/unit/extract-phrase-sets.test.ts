import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OpenQuestion, PathChoice, Proposal } from '../../server/extract/extractor.ts';
import { votePath } from '../../server/extract/offline/path-vote.ts';
import { volunteeredUpdates } from '../../server/extract/offline/volunteered.ts';
import { coerceValue, findEmails, findPhones, findUrls, mask, parseAnswer, type ParseContext } from '../../server/extract/parse/index.ts';
import { findName, NAME_KEYS } from '../../server/extract/offline/name.ts';
import type { ProposedUpdate } from '../../server/extract/extractor.ts';
import { findPhrase, fold, foldPhrase, originalSlice, type Folded } from '../../server/extract/parse/fold.ts';
import { findHits, longestHits, longestOwners, phraseSet, type PhraseCandidate, type PhraseHit } from '../../server/extract/parse/phrase-match.ts';
import { parseEnum } from '../../server/extract/parse/enum.ts';
import { en } from '../../server/language/en/index.ts';
import { negated } from '../../server/extract/parse/enum.ts';
import { normalOptions } from '../../server/flow/answer-types.ts';

// The phrase matchers fold and deduplicate a candidate list once (phraseSet),
// per answer spec and per frozen path list, instead of on every message; the
// volunteered-option scan works from each spec's cached spellings. Each is
// checked here against the code as it was before, copied below, on random
// vocabularies (accents, case, punctuation, emoji, shared and repeated phrases).

/** findHits before phraseSet. */
function refFindHits<T>(folded: Folded, candidates: ReadonlyArray<PhraseCandidate<T>>): PhraseHit<T>[] {
  const hits: PhraseHit<T>[] = [];
  const seen = new Map<T, Set<string>>();
  for (const c of candidates) {
    const phrase = foldPhrase(c.phrase);
    const mine = seen.get(c.owner) ?? new Set<string>();
    seen.set(c.owner, mine);
    if (phrase === '' || mine.has(phrase)) continue;
    mine.add(phrase);
    for (const start of findPhrase(folded.text, phrase)) hits.push({ owner: c.owner, start, end: start + phrase.length });
  }
  return hits;
}

const MIN_VOLUNTEERED_PHRASE = 4;
const SELF_EVIDENT = 0.9;
const BY_OPTION = 0.8;
const BY_NAME = 0.85;
const FILLER = new Set(['a', 'an', 'the', 'for', 'of', 'to', 'and', 'or', 'my', 'our', 'we', 'i', 'in', 'on', 'at', 'with', 'is', 'it', 'need', 'want', 'some']);
interface OptionRef {
  key: string;
  option: number;
}

function refOptionUpdates(text: string, current: OpenQuestion | null, others: readonly OpenQuestion[]): Array<{ key: string; value: unknown; evidence: string }> {
  const enums = [...(current ? [current] : []), ...others].filter((q) => q.answer.type === 'enum');
  if (!others.some((q) => q.answer.type === 'enum')) return [];
  const owners = new Map<string, Set<string>>();
  const all: PhraseCandidate<OptionRef>[] = [];
  const eligible = new Set<OptionRef>();
  for (const q of enums) {
    if (q.answer.type !== 'enum') continue;
    normalOptions(q.answer).forEach((o, option) => {
      // One candidate per spelling, so a label equal to its value is a single (named) phrase.
      const spellings = new Map<string, { phrase: string; named: boolean }>();
      for (const [phrase, named] of [[o.value, false] as const, [o.label, true] as const, ...o.synonyms.map((s) => [s, true] as const)]) {
        const f = foldPhrase(phrase);
        if (f === '') continue;
        const seen = spellings.get(f);
        spellings.set(f, { phrase, named: named || (seen?.named ?? false) });
      }
      for (const [f, { phrase, named }] of spellings) {
        const set = owners.get(f) ?? new Set<string>();
        set.add(q.key);
        owners.set(f, set);
        const ref: OptionRef = { key: q.key, option };
        all.push({ phrase, owner: ref });
        if (named && q.key !== current?.key && f.length >= MIN_VOLUNTEERED_PHRASE) eligible.add(ref);
      }
    });
  }
  const folded = fold(text);
  // since issue 16's note, a negated option ("no chest pain") is not volunteered either
  const hits = longestHits(refFindHits(folded, all)).filter(
    (h) => eligible.has(h.owner) && owners.get(folded.text.slice(h.start, h.end))?.size === 1 && !negated(folded.text, h.start),
  );
  const out: Array<{ key: string; value: unknown; evidence: string }> = [];
  for (const q of others) {
    if (q.answer.type !== 'enum') continue;
    const mine = hits.filter((h) => h.owner.key === q.key);
    const chosen = [...new Set(mine.map((h) => h.owner.option))].sort((a, b) => a - b);
    if (chosen.length === 0 || (!q.answer.multiple && chosen.length > 1)) continue;
    const options = normalOptions(q.answer);
    const values = chosen.map((i) => options[i]!.value);
    const evidence = mine.map((h) => originalSlice(text, folded, h.start, h.end)).join(', ');
    out.push({ key: q.key, value: q.answer.multiple ? values : values[0], evidence });
  }
  return out;
}

const words = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}']+/u).filter((w) => w.length > 0 && !FILLER.has(w));

/**
 * The fallback when no example phrase occurs as written: an example whose
 * content words (at least two) all occur in the message, in any order —
 * "lights for a court" in "LED lights for a basketball court". A weaker hint
 * than a phrase match, so a lower confidence; ties give no vote.
 */
function refVoteByWords(text: string, paths: readonly PathChoice[]): Proposal['pathVote'] {
  const have = new Set(words(text));
  const best = paths.map((p) => Math.max(0, ...[...(p.label ? [p.label] : []), ...p.examples].map((ex) => {
    const need = words(ex);
    return need.length >= 2 && need.every((w) => have.has(w)) ? need.length : 0;
  })));
  const top = Math.max(...best);
  if (top === 0 || best.filter((b) => b === top).length !== 1) return undefined;
  return { path: paths[best.indexOf(top)]!.name, confidence: 0.6 };
}

/**
 * Votes for the path whose label or example phrase matches the message
 * longest (case-insensitive, on word boundaries). No vote when nothing
 * matches or two paths tie: the engine would rather ask than guess.
 */
function refVotePath(text: string, paths: readonly PathChoice[]): Proposal['pathVote'] {
  if (paths.length === 0) return undefined;
  const candidates: PhraseCandidate<number>[] = paths.flatMap((p, i) =>
    [...(p.label ? [p.label] : []), ...p.examples].map((phrase) => ({ phrase, owner: i })),
  );
  const folded = fold(text);
  const { owners } = longestOwners(refFindHits(folded, candidates).filter((h) => !negated(folded.text, h.start)));
  if (owners.length === 0) return refVoteByWords(folded.text, paths);
  if (owners.length !== 1) return undefined;
  // One path's label or example phrase, as written, is a clear vote (docs/engine.md, paths):
  // `lock_threshold: 2` locks after two such mentions. Only the word fallback is a weaker hint.
  return { path: paths[owners[0]!]!.name, confidence: 1 };
}

/** volunteeredUpdates before the per-spec caches. */
function refVolunteeredUpdates(
  text: string,
  current: OpenQuestion | null,
  open: readonly OpenQuestion[],
  ctx: ParseContext,
): ProposedUpdate[] {
  const others = open.filter((q) => q.key !== current?.key);
  const updates: ProposedUpdate[] = [];
  const add = (q: OpenQuestion, value: unknown, confidence: number, evidence: string) => {
    if (updates.some((u) => u.key === q.key)) return;
    // The value must survive the question's own constraints (a pattern, a date range…).
    const checked = coerceValue(q.answer, value, ctx);
    if (checked.ok) updates.push({ key: q.key, value: checked.value, confidence, evidence });
  };

  const emails = findEmails(text);
  const urls = findUrls(text).filter((u) => u.distinctive);
  const phones = findPhones(text, ctx);
  const families = [
    { type: 'email', found: emails },
    { type: 'url', found: urls },
    { type: 'phone', found: phones },
  ] as const;
  for (const { type, found } of families) {
    // The current question of the same type already took the value; another one would be a guess.
    if (current?.answer.type === type) continue;
    const targets = others.filter((q) => q.answer.type === type);
    const values = [...new Set(found.map((f) => f.value))];
    if (targets.length !== 1 || values.length !== 1) continue;
    add(targets[0]!, values[0], SELF_EVIDENT, text.slice(found[0]!.start, found[0]!.end));
  }

  for (const u of refOptionUpdates(text, current, others)) {
    const q = others.find((o) => o.key === u.key)!;
    add(q, u.value, BY_OPTION, u.evidence);
  }

  if (!(current && NAME_KEYS.has(current.key))) {
    const plain = mask(text, [...emails, ...urls, ...phones].map((f) => [f.start, f.end] as const));
    for (const q of others) {
      if (!NAME_KEYS.has(q.key) || q.answer.type !== 'text') continue;
      const name = findName(plain, q.key === 'first_name' ? 1 : 3);
      if (name) add(q, name.value, BY_NAME, name.evidence);
    }
  }
  return updates.sort((a, b) => others.findIndex((q) => q.key === a.key) - others.findIndex((q) => q.key === b.key));
}

const WORDS = ['court', 'basketball court', 'Basketball', 'LED', 'led lights', 'lights', 'Café', 'cafe', 'ÉCOLE', 'ecole', 'tennis',
  'padel', 'gym', 'No', 'none', 'other', 'c++', '👍', 'e-mail', 'e mail', 'x_y', 'buy', 'rent', 'school', 'high school', 'pickleball courts', 'both'];
const word = fc.constantFrom(...WORDS);
const sep = fc.constantFrom(' ', ', ', ' and ', '-', '. ', '!', '', '  ', "'", '’', '/');
const text = fc.array(fc.tuple(word, sep), { maxLength: 8 }).map((ps) => ps.map(([w, s]) => w + s).join(''));
const option = fc.oneof(word, fc.record({ value: word, label: fc.option(word, { nil: undefined }), synonyms: fc.option(fc.array(word, { maxLength: 3 }), { nil: undefined }) }));
const enumSpec = fc.record({ type: fc.constant('enum' as const), options: fc.array(option, { minLength: 1, maxLength: 5 }), multiple: fc.boolean() })
  .map((s) => ({ ...s, options: s.options.map((o) => (typeof o === 'string' ? o : JSON.parse(JSON.stringify(o)) as { value: string; label?: string; synonyms?: string[] })) }));
const question = (key: string) => fc.oneof(
  { weight: 4, arbitrary: enumSpec },
  { weight: 1, arbitrary: fc.constantFrom({ type: 'text' as const }, { type: 'email' as const }, { type: 'boolean' as const }) },
).map((answer): OpenQuestion => Object.freeze({ nodeId: `n.${key}`, key, answer, required: true }));
const questions = fc.tuple(question('a'), question('b'), question('c'), question('d'), fc.boolean(), fc.nat(3))
  .map(([a, b, c, d, hasCurrent, at]) => ({ current: hasCurrent ? [a, b, c, d][at]! : null, open: [a, b, c, d] }));
const ctx = { now: '2026-01-15T10:00:00Z', defaultCountry: 'US' };

describe('phrase matching with compiled phrase sets', () => {
  it('findHits over a phrase set finds what it found over the candidate list', () => {
    const cands = fc.array(fc.record({ phrase: word, owner: fc.nat(3) }), { maxLength: 12 });
    fc.assert(fc.property(text, cands, (t, cs) => {
      const folded = fold(t);
      const want = refFindHits(folded, cs);
      expect(findHits(folded, cs)).toEqual(want);
      expect(findHits(folded, phraseSet(cs))).toEqual(want);
    }), { numRuns: 2000 });
  });

  it('enum answers parse as before', () => {
    fc.assert(fc.property(enumSpec, text, (spec, t) => {
      const options = normalOptions(spec);
      expect(parseAnswer(spec, t, ctx)).toEqual(parseAnswer(spec, t, ctx)); // cached spec
      // the options as written (labels, values, synonyms): the reading in other words (option-meaning.ts) is tested apart
      const got = parseEnum(spec as Parameters<typeof parseEnum>[0], t, en, ctx.now, true);
      // the reference: the same parse over the uncompiled candidate list
      const folded = fold(t);
      const hits = longestHits(refFindHits(folded, options.flatMap((o, i) => [o.label, o.value, ...o.synonyms].map((phrase) => ({ phrase, owner: i })))));
      if (got.ok && !spec.multiple) expect(options.map((o) => o.value)).toContain(got.value);
      if (hits.length > 0 && !spec.multiple) {
        // one option named (negations and self-corrections aside) is chosen; two are asked about, never guessed
        const named = [...new Set(hits.map((h) => options[h.owner]!.value))];
        if (got.ok) expect(named).toContain(got.value);
        if (!/\b(not|no|don't|dont|never|without|nor|except|isn't|isnt|aren't|arent|instead|rather|other|sorry|wait|actually|mean|meant|correction|make|scratch|oops)\b/.test(folded.text)) {
          // one option joined to another word ("court and gym", "court/gym") or "both" is asked about too: "Please pick just one"
          const joined = !got.ok && named.length === 1 && /^Please pick just one/.test(got.reason);
          if (joined) expect(folded.text).toMatch(/\bboth\b| and |\/|&/);
          expect(got.ok || joined).toBe(named.length === 1);
          if (named.length === 1 && got.ok) expect(got.value).toBe(named[0]);
        }
      }
    }), { numRuns: 1500 });
  });

  it('volunteered updates are what the uncached scan found', () => {
    fc.assert(fc.property(questions, text, ({ current, open }, t) => {
      expect(volunteeredUpdates(t, current, open, ctx)).toEqual(refVolunteeredUpdates(t, current, open, ctx));
    }), { numRuns: 2000 });
  });

  it('path votes are what they were, for frozen (cached) and other path lists', () => {
    const path = fc.record({ name: fc.constantFrom('buy', 'rent', 'build'), label: fc.option(word, { nil: undefined }), examples: fc.array(text, { maxLength: 3 }) })
      .map((p) => (p.label === undefined ? { name: p.name, examples: p.examples } : p));
    fc.assert(fc.property(fc.array(path, { maxLength: 3 }), text, (paths, t) => {
      const want: Proposal['pathVote'] = refVotePath(t, paths);
      expect(votePath(t, paths)).toEqual(want);
      const frozen = Object.freeze(paths.map((p) => Object.freeze({ ...p })));
      expect(votePath(t, frozen)).toEqual(want);
      expect(votePath(t, frozen)).toEqual(want);
    }), { numRuns: 2000 });
  });
});
