import { normalOptions, type AnswerSpec, type NormalOption } from '../../flow/answer-types.ts';
import { fold, foldPhrase, originalSlice, type Folded } from './fold.ts';
import { fail, ok, type ParseResult } from './parse-result.ts';
import { editDistance, typoBudget } from './typo.ts';
import { en } from '../../language/en/index.ts';
import type { LanguagePack } from '../../language/pack.ts';
import { say } from '../../language/parser-messages.ts';
import { findHits, longestHits, onlyFillerOutside, phraseSet, type PhraseCandidate, type PhraseHit, type PhraseSet } from './phrase-match.ts';

type EnumSpec = Extract<AnswerSpec, { type: 'enum' }>;

/** The phrases that name each option (value, label, synonyms), owned by the option's index. */
export function optionPhrases(options: readonly NormalOption[]): PhraseCandidate<number>[] {
  return options.flatMap((o, i) => [o.label, o.value, ...o.synonyms].map((phrase) => ({ phrase, owner: i })));
}

/** Longest-first, non-overlapping option mentions in a message. */
export function findOptionHits(folded: Folded, candidates: ReadonlyArray<PhraseCandidate<number>>): PhraseHit<number>[] {
  return longestHits(findHits(folded, candidates));
}

/**
 * Parses an enum answer: the longest matching label, value or synonym wins
 * (case-insensitive, on word boundaries); `multiple` collects every option
 * mentioned, in option order. A message that is only a number picks the
 * option at that position, since quick replies are numbered.
 */
export function parseEnum(spec: EnumSpec, text: string, pack: LanguagePack = en): ParseResult {
  const { options, phrases } = compiledOptions(spec);
  if (options.length === 0) return fail('There are no options to choose from.');
  const folded = fold(text);
  if (spec.multiple) {
    const every = allOptions(spec, options, phrases, folded, text, pack);
    if (every) return every;
  }
  let all = longestHits(findHits(folded, phrases));
  let typos = false;
  if (all.length === 0) {
    const byNumber = byPosition(spec, options, folded.text, pack);
    if (byNumber) return byNumber;
    all = typoHits(folded, phrases, spec.multiple === true, pack);
    if (all.length === 0) return fail(chooseFrom(options, pack));
    typos = true;
  }
  // "I don't need support, I want a quote": a negated option is never chosen
  const hits = all.filter((h) => !negated(folded.text, h.start, pack) && !negatedAfter(folded.text, h.end, pack));
  if (hits.length === 0) return fail(say(pack, 'whichThen', { choose: chooseFrom(options.filter((_, i) => !all.some((h) => h.owner === i)), pack) }));
  const exact = !typos && onlyFillerOutside(folded, all) && hits.length === all.length;
  if (spec.multiple) {
    const chosen = [...new Set(hits.map((h) => h.owner))].sort((a, b) => a - b);
    const evidence = hits.map((h) => originalSlice(text, folded, h.start, h.end)).join(', ');
    return ok(chosen.map((i) => options[i]!.value), evidence, exact);
  }
  // "red or green" (or any two options named) for a single choice: asking beats guessing
  const named = [...new Set(hits.map((h) => h.owner))].filter((i, k, all) => all.findIndex((j) => options[j]!.value === options[i]!.value) === k);
  if (named.length !== 1) return fail(say(pack, 'pickOne', { list: named.sort((a, b) => a - b).map((i) => options[i]!.label).join(say(pack, 'or')) }));
  const winner = named[0]!;
  const hit = hits.find((h) => h.owner === winner)!;
  // "tennis and squash", "football or rugby, both really": a second thing named beside the one option is asked about, not dropped
  const other = joinedToAnother(folded.text, hits, pack);
  if (other !== null) {
    // the other thing as the visitor wrote it ("Squash", not the folded "squash")
    return fail(other === 'both' ? say(pack, 'pickJustOne', { label: options[winner]!.label })
      : say(pack, 'pickOne', { list: `${options[winner]!.label}${say(pack, 'or')}${originalSlice(text, folded, other.start, other.end)}` }));
  }
  return ok(options[winner]!.value, originalSlice(text, folded, hit.start, hit.end), exact);
}

/** A language's rules for a second thing named beside a single choice's one option (its lexicon's joiners, "both" words, "too" words and filler), compiled once. */
interface JoinRules {
  after: RegExp;
  before: RegExp;
  also: RegExp;
  both: RegExp;
  filler: ReadonlySet<string>;
}

const joinRulesByLang = new Map<LanguagePack, JoinRules>();

/** Folded, longest first (so "and also" is tried before "and"), escaped for a regex alternation. */
const alternation = (words: readonly string[]) =>
  [...new Set(words.map((w) => fold(w).text))].sort((a, b) => b.length - a.length || a.localeCompare(b)).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');

function joinRules(pack: LanguagePack): JoinRules {
  let rules = joinRulesByLang.get(pack);
  if (!rules) {
    const lex = pack.lexicon;
    const joiners = alternation(lex.joiners);
    rules = {
      after: new RegExp(`^(?:\\s*,?\\s+(?:${joiners})\\s+|\\s*,?\\s*[&+/]\\s*)([\\p{L}][\\p{L}'-]*)`, 'u'),
      before: new RegExp(`([\\p{L}][\\p{L}'-]*)(?:\\s+(?:${joiners})\\s+|\\s*[&+/]\\s*)$`, 'u'),
      also: new RegExp(`^\\s*,\\s*([\\p{L}][\\p{L}'-]*)\\s+(?:${alternation(lex.alsoAfter)})(?![\\p{L}])`, 'u'),
      both: new RegExp(`(?<![\\p{L}])(?:${alternation(lex.both)})(?![\\p{L}])`, 'gu'),
      filler: new Set(lex.joinFiller.map((w) => fold(w).text)),
    };
    joinRulesByLang.set(pack, rules);
  }
  return rules;
}

/** Where a word sits in the folded text. */
interface Span {
  start: number;
  end: number;
}

/**
 * The word joined to the single option named ("tennis and squash", "squash
 * or tennis", "football, rugby too"; "Tennis und Squash" in German with the
 * German words), as its span in the folded text; 'both' when the reply says
 * so; else null.
 */
function joinedToAnother(folded: string, hits: readonly PhraseHit<number>[], pack: LanguagePack): Span | 'both' | null {
  const r = joinRules(pack);
  // "both" that is (part of) an option's own name ("Both", "both courts") is that option
  for (const m of folded.matchAll(r.both)) if (!hits.some((h) => h.start <= m.index && m.index < h.end)) return 'both';
  for (const h of hits) {
    const after = r.after.exec(folded.slice(h.end));
    if (after && !r.filler.has(after[1]!)) {
      const start = h.end + after[0].length - after[1]!.length;
      if (!hits.some((o) => o.start === start)) return { start, end: start + after[1]!.length };
    }
    const before = r.before.exec(folded.slice(0, h.start));
    if (before && !r.filler.has(before[1]!)) return { start: before.index, end: before.index + before[1]!.length };
    const also = r.also.exec(folded.slice(h.end));
    if (also) {
      const start = h.end + also[0].search(/\p{L}/u);
      return { start, end: start + also[1]!.length };
    }
  }
  return null;
}

/**
 * Option mentions with one slip ("gren", "suport", "pickelball", "mornings"):
 * each word of 4+ letters within the typo budget of exactly one option's
 * words counts for it. For a multiple choice every other word of 4+ letters
 * must be filler, so "soccer and basketbal" is not read as basketball alone.
 */
function typoHits(folded: Folded, phrases: PhraseSet<number>, multiple: boolean, pack: LanguagePack): PhraseHit<number>[] {
  const hits: PhraseHit<number>[] = [];
  for (const m of folded.text.matchAll(/\p{L}+/gu)) {
    const word = m[0];
    if (typoBudget(word.length) === 0) continue;
    const owners = new Set<number>();
    let same = false;
    for (const e of phrases.entries) {
      for (const w of e.phrase.split(' ')) {
        const budget = typoBudget(Math.min(w.length, word.length));
        const d = budget > 0 ? editDistance(word, w, budget) : Infinity;
        if (d <= budget) owners.add(e.owner);
        // the option's word itself, or with an ending ("mornings" for "morning")
        if (d <= budget && (word.startsWith(w) || w.startsWith(word))) same = true;
      }
    }
    // a word of the language is no slip of another: "earache" is not "headache" two letters off, it is not on the menu
    if (owners.size === 1 && (same || !pack.isWord?.(word))) hits.push({ owner: [...owners][0]!, start: m.index, end: m.index + word.length });
    else if (multiple && !TYPO_FILLER.has(word)) return [];
  }
  return hits;
}

// Words a multiple-choice reply may hold besides the options it names.
const TYPO_FILLER = new Set(['please', 'thanks', 'also', 'both', 'just', 'only', 'those', 'these', 'them']);

// "all of them" is said in each language by its pack's `options.all` (on folded text: "außer" → "ausser").

/**
 * "all of them", "everything", "all except basketball" for a multiple choice:
 * every option, less the ones named after the exception word (each must be an
 * option, or the reply is not read this way).
 */
function allOptions(spec: EnumSpec, options: readonly NormalOption[], phrases: PhraseSet<number>, folded: Folded, text: string, pack: LanguagePack): ParseResult | null {
  const all = pack.options.all;
  if (!all.gate.test(folded.text)) return null; // cheap gate: most replies never get here
  const m = all.reply.exec(folded.text.replace(/[.!]+$/, ''));
  if (!m) return null;
  let excluded = new Set<number>();
  if (m[1] !== undefined) {
    const rest = fold(m[1]);
    const hits = longestHits(findHits(rest, phrases));
    if (hits.length === 0 || !onlyFillerOutside(rest, hits, all.filler)) return null;
    excluded = new Set(hits.map((h) => h.owner));
  }
  const kept = options.filter((_, i) => !excluded.has(i)).map((o) => o.value);
  if (kept.length === 0) return null;
  return ok([...new Set(kept)], text.trim(), false);
}

const NEGATIONS = new Map<LanguagePack, RegExp>();

/** The language's negation before an option: the pack's own, or built from its lexicon's negators (a negator, then up to two words). */
function negation(pack: LanguagePack): RegExp {
  if (pack.options.negationBefore) return pack.options.negationBefore;
  let re = NEGATIONS.get(pack);
  if (!re) {
    const words = pack.lexicon.negators.map((w) => foldPhrase(w).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).sort((a, b) => b.length - a.length);
    re = new RegExp(`(?:^|\\s)(?:${words.join('|')})(?:\\s+[\\p{L}'-]+){0,2}\\s*$`, 'u');
    NEGATIONS.set(pack, re);
  }
  return re;
}

/** Whether the option mentioned up to `end` of folded text is denied right after it ("Fußball nicht"); a pack without such an order never is. */
export function negatedAfter(folded: string, end: number, pack: LanguagePack = en): boolean {
  return pack.options.negationAfter !== null && pack.options.negationAfter.test(folded.slice(end, end + 24));
}

/** Whether the option (or path example) mentioned at `start` of folded text is negated ("not red", "kein Fußball", "pas de foot"). */
export function negated(folded: string, start: number, pack: LanguagePack = en): boolean {
  const before = folded.slice(Math.max(0, start - 48), start);
  const clause = before.slice(Math.max(...[',', '.', ';', ':', '!', '?', '—', '–'].map((p) => before.lastIndexOf(p))) + 1);
  return negation(pack).test(clause);
}

const compiled = new WeakMap<EnumSpec, { options: readonly NormalOption[]; phrases: PhraseSet<number> }>();

/** A spec's options and their folded phrases, built once per spec (a flow's specs do not change after compile). */
function compiledOptions(spec: EnumSpec): { options: readonly NormalOption[]; phrases: PhraseSet<number> } {
  let c = compiled.get(spec);
  if (!c) {
    const options = normalOptions(spec);
    c = { options, phrases: phraseSet(optionPhrases(options)) };
    compiled.set(spec, c);
  }
  return c;
}

/** Normalises a structured enum proposal: an option value passes, a label or synonym maps to its value. */
export function coerceEnum(spec: EnumSpec, value: unknown, pack: LanguagePack = en): ParseResult {
  const options = normalOptions(spec);
  if (spec.multiple) {
    const items = Array.isArray(value) ? value : [value];
    const chosen = new Set<number>();
    for (const item of items) {
      const i = typeof item === 'string' ? optionIndex(options, item) : -1;
      if (i === -1) {
        // "court and lights" as one string is still a list.
        if (typeof item === 'string' && !Array.isArray(value)) return asExact(parseEnum(spec, item, pack));
        return fail(`"${String(item)}" isn't one of the options. ${chooseFrom(options, pack)}`);
      }
      chosen.add(i);
    }
    const values = [...chosen].sort((a, b) => a - b).map((i) => options[i]!.value);
    return ok(values, items.map(String).join(', '), true);
  }
  const single = Array.isArray(value) && value.length === 1 ? value[0] : value;
  if (typeof single !== 'string') return fail(chooseFrom(options, pack));
  const i = optionIndex(options, single);
  if (i !== -1) return ok(options[i]!.value, single, true);
  return asExact(parseEnum(spec, single, pack));
}

/** The option a structured value names exactly: its value verbatim first, then any phrase folded. */
function optionIndex(options: readonly NormalOption[], value: string): number {
  const verbatim = options.findIndex((o) => o.value === value);
  if (verbatim !== -1) return verbatim;
  const f = foldPhrase(value);
  return f === '' ? -1 : options.findIndex((o) => [o.value, o.label, ...o.synonyms].some((p) => foldPhrase(p) === f));
}

function byPosition(spec: EnumSpec, options: readonly NormalOption[], folded: string, pack: LanguagePack): ParseResult | null {
  // Folded text has single spaces, so each separator form below is distinct and the match stays linear.
  const whole = spec.multiple ? /^#?\d{1,3}(?:(?: ?[,&/] ?| and | )#?\d{1,3})*\.?$/ : /^#?\d{1,3}[.)]?$/;
  if (!whole.test(folded)) return null;
  const positions = (folded.match(/\d+/g) ?? []).map(Number);
  if (positions.some((p) => p < 1 || p > options.length)) return fail(say(pack, 'pickNumber', { n: options.length }));
  const chosen = [...new Set(positions)].sort((a, b) => a - b).map((p) => options[p - 1]!.value);
  return ok(spec.multiple ? chosen : chosen[0], folded, true);
}

function chooseFrom(options: readonly NormalOption[], pack: LanguagePack): string {
  const shown = options.slice(0, 8).map((o) => o.label);
  return say(pack, 'chooseFrom', { list: `${shown.join(', ')}${options.length > 8 ? ', …' : ''}` });
}

function asExact(r: ParseResult): ParseResult {
  return r.ok ? { ...r, exact: true } : r;
}
