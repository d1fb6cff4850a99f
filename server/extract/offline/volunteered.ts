import { normalOptions } from '../../flow/answer-types.ts';
import type { OpenQuestion, ProposedUpdate } from '../extractor.ts';
import {
  coerceValue, findEmails, findHits, findPhones, findUrls, fold, foldPhrase, longestHits, mask, originalSlice,
  type ParseContext, type PhraseCandidate,
} from '../parse/index.ts';
import { findName, NAME_KEYS } from './name.ts';

/** Shorter enum phrases ("yes", "led") are too common to read as an answer to a question nobody asked yet. */
const MIN_VOLUNTEERED_PHRASE = 4;
const SELF_EVIDENT = 0.9;
const BY_OPTION = 0.8;
const BY_NAME = 0.85;

interface OptionRef {
  key: string;
  option: number;
}

/**
 * Values for OTHER open questions that the message gives unambiguously:
 * email, phone and URL (self-identifying), enum options named by a distinctive
 * phrase that belongs to one question only, and "my name is …" for a name key.
 * Never a free-text or number answer for a question that was not asked.
 */
export function volunteeredUpdates(
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

  for (const u of optionUpdates(text, current, others)) {
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

/**
 * Enum options of other questions named in the message. All enum phrases of
 * every open question (the current one too) compete longest-first, so "court"
 * never counts inside another question's "basketball court"; a phrase shared
 * by two questions counts for neither.
 */
function optionUpdates(text: string, current: OpenQuestion | null, others: readonly OpenQuestion[]): Array<{ key: string; value: unknown; evidence: string }> {
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
  const hits = longestHits(findHits(folded, all)).filter(
    (h) => eligible.has(h.owner) && owners.get(folded.text.slice(h.start, h.end))?.size === 1,
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
