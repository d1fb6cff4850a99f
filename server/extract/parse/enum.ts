import { normalOptions, type AnswerSpec, type NormalOption } from '../../flow/answer-types.ts';
import { fold, foldPhrase, originalSlice, type Folded } from './fold.ts';
import { fail, ok, type ParseResult } from './parse-result.ts';
import { editDistance, typoBudget } from './typo.ts';
import { lexicon, type Lang } from '../../shared/lexicon/index.ts';
import { say } from './messages.ts';
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
export function parseEnum(spec: EnumSpec, text: string, lang: Lang = 'en'): ParseResult {
  const { options, phrases } = compiledOptions(spec);
  if (options.length === 0) return fail('There are no options to choose from.');
  const folded = fold(text);
  if (spec.multiple) {
    const every = allOptions(spec, options, phrases, folded, text, lang);
    if (every) return every;
  }
  let all = longestHits(findHits(folded, phrases));
  let typos = false;
  if (all.length === 0) {
    const byNumber = byPosition(spec, options, folded.text, lang);
    if (byNumber) return byNumber;
    all = typoHits(folded, phrases, spec.multiple === true);
    if (all.length === 0) return fail(chooseFrom(options, lang));
    typos = true;
  }
  // "I don't need support, I want a quote": a negated option is never chosen
  const hits = all.filter((h) => !negated(folded.text, h.start, lang) && !negatedAfter(folded.text, h.end, lang));
  if (hits.length === 0) return fail(say(lang, 'whichThen', { choose: chooseFrom(options.filter((_, i) => !all.some((h) => h.owner === i)), lang) }));
  const exact = !typos && onlyFillerOutside(folded, all) && hits.length === all.length;
  if (spec.multiple) {
    const chosen = [...new Set(hits.map((h) => h.owner))].sort((a, b) => a - b);
    const evidence = hits.map((h) => originalSlice(text, folded, h.start, h.end)).join(', ');
    return ok(chosen.map((i) => options[i]!.value), evidence, exact);
  }
  // "red or green" (or any two options named) for a single choice: asking beats guessing
  const named = [...new Set(hits.map((h) => h.owner))].filter((i, k, all) => all.findIndex((j) => options[j]!.value === options[i]!.value) === k);
  if (named.length !== 1) return fail(say(lang, 'pickOne', { list: named.sort((a, b) => a - b).map((i) => options[i]!.label).join(say(lang, 'or')) }));
  const winner = named[0]!;
  const hit = hits.find((h) => h.owner === winner)!;
  // "tennis and squash", "football or rugby, both really": a second thing named beside the one option is asked about, not dropped
  const other = joinedToAnother(folded.text, hits, lang);
  if (other !== null) {
    // the other thing as the visitor wrote it ("Squash", not the folded "squash")
    return fail(other === 'both' ? say(lang, 'pickJustOne', { label: options[winner]!.label })
      : say(lang, 'pickOne', { list: `${options[winner]!.label}${say(lang, 'or')}${originalSlice(text, folded, other.start, other.end)}` }));
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

const joinRulesByLang = new Map<Lang, JoinRules>();

/** Folded, longest first (so "and also" is tried before "and"), escaped for a regex alternation. */
const alternation = (words: readonly string[]) =>
  [...new Set(words.map((w) => fold(w).text))].sort((a, b) => b.length - a.length || a.localeCompare(b)).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');

function joinRules(lang: Lang): JoinRules {
  let rules = joinRulesByLang.get(lang);
  if (!rules) {
    const lex = lexicon(lang);
    const joiners = alternation(lex.joiners);
    rules = {
      after: new RegExp(`^(?:\\s*,?\\s+(?:${joiners})\\s+|\\s*,?\\s*[&+/]\\s*)([\\p{L}][\\p{L}'-]*)`, 'u'),
      before: new RegExp(`([\\p{L}][\\p{L}'-]*)(?:\\s+(?:${joiners})\\s+|\\s*[&+/]\\s*)$`, 'u'),
      also: new RegExp(`^\\s*,\\s*([\\p{L}][\\p{L}'-]*)\\s+(?:${alternation(lex.alsoAfter)})(?![\\p{L}])`, 'u'),
      both: new RegExp(`(?<![\\p{L}])(?:${alternation(lex.both)})(?![\\p{L}])`, 'gu'),
      filler: new Set(lex.joinFiller.map((w) => fold(w).text)),
    };
    joinRulesByLang.set(lang, rules);
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
function joinedToAnother(folded: string, hits: readonly PhraseHit<number>[], lang: Lang): Span | 'both' | null {
  const r = joinRules(lang);
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
function typoHits(folded: Folded, phrases: PhraseSet<number>, multiple: boolean): PhraseHit<number>[] {
  const hits: PhraseHit<number>[] = [];
  for (const m of folded.text.matchAll(/\p{L}+/gu)) {
    const word = m[0];
    if (typoBudget(word.length) === 0) continue;
    const owners = new Set<number>();
    for (const e of phrases.entries) {
      for (const w of e.phrase.split(' ')) {
        const budget = typoBudget(Math.min(w.length, word.length));
        if (budget > 0 && editDistance(word, w, budget) <= budget) owners.add(e.owner);
      }
    }
    if (owners.size === 1) hits.push({ owner: [...owners][0]!, start: m.index, end: m.index + word.length });
    else if (multiple && !TYPO_FILLER.has(word)) return [];
  }
  return hits;
}

// Words a multiple-choice reply may hold besides the options it names.
const TYPO_FILLER = new Set(['please', 'thanks', 'also', 'both', 'just', 'only', 'those', 'these', 'them']);

const ALL = /^(?:(?:i'd like |i want |we want |we'd like |we need )?(?:all(?: of)?(?: them| those| these| the above| the options| options)?|every(?:thing| one|one| option| single one)|the lot))(?: please| pls| thanks)?(?:(?: ?,)? (?:except|but|apart from|other than|besides|bar|minus|excluding|except for) (.+))?$/;

// The same in German, French and Spanish, on folded text ("außer" → "ausser", "möchte" → "mochte"): "alle außer Fußball",
// "tous sauf le foot", "todos menos fútbol"; articles may sit beside the excepted options.
const ALL_IN: Readonly<Record<Exclude<Lang, 'en'>, { gate: RegExp; reply: RegExp; filler: ReadonlySet<string> }>> = {
  de: {
    gate: /\b(?:alle|samtl)/,
    reply: /^(?:(?:ich mochte |wir mochten |ich will |wir wollen |wir brauchen )?(?:alle(?: davon| drei| optionen)?|alles|samtliche))(?: bitte| danke)?(?:(?: ?,)? (?:ausser|bis auf|ohne|nur nicht|aber nicht|aber kein|aber keine|aber keinen) (.+))?$/,
    filler: new Set(['der', 'die', 'das', 'den', 'dem', 'und', 'oder', 'bitte']),
  },
  fr: {
    gate: /\b(?:tou|l'ensemble)/,
    reply: /^(?:(?:je veux |je voudrais |nous voulons |on veut )?(?:tous(?: les trois)?|toutes(?: les trois)?|tout|l'ensemble))(?: svp| s'il vous plait| merci)?(?:(?: ?,)? (?:sauf|excepte|a part|hormis|mais pas(?: de| le| la| les)?) (.+))?$/,
    filler: new Set(['le', 'la', 'les', "l'", 'du', 'de', 'des', 'et', 'ou', 'svp']),
  },
  es: {
    gate: /\btod/,
    reply: /^(?:(?:quiero |queremos |necesitamos )?(?:todos(?: ellos)?|todas(?: ellas)?|todo))(?: por favor| gracias)?(?:(?: ?,)? (?:excepto|menos|salvo|aparte de|pero no|pero sin) (.+))?$/,
    filler: new Set(['el', 'la', 'los', 'las', 'del', 'de', 'y', 'o', 'por', 'favor']),
  },
};

/**
 * "all of them", "everything", "all except basketball" for a multiple choice:
 * every option, less the ones named after the exception word (each must be an
 * option, or the reply is not read this way).
 */
function allOptions(spec: EnumSpec, options: readonly NormalOption[], phrases: PhraseSet<number>, folded: Folded, text: string, lang: Lang): ParseResult | null {
  const all = lang === 'en' ? null : ALL_IN[lang];
  if (!(all?.gate ?? /\b(?:all|every|lot)/).test(folded.text)) return null; // cheap gate: most replies never get here
  const m = (all?.reply ?? ALL).exec(folded.text.replace(/[.!]+$/, ''));
  if (!m) return null;
  let excluded = new Set<number>();
  if (m[1] !== undefined) {
    const rest = fold(m[1]);
    const hits = longestHits(findHits(rest, phrases));
    if (hits.length === 0 || !onlyFillerOutside(rest, hits, all?.filler)) return null;
    excluded = new Set(hits.map((h) => h.owner));
  }
  const kept = options.filter((_, i) => !excluded.has(i)).map((o) => o.value);
  if (kept.length === 0) return null;
  return ok([...new Set(kept)], text.trim(), false);
}

// A negation up to two words before an option, within its clause: "not red", "I don't need support", "no tennis".
const NEGATION = /(?:^|\s)(?:not|no|don't|dont|do not|never|without|isn't|isnt|aren't|arent|nor|except|instead of|rather than|other than|anything but|everything but|all but|but not)(?:\s+[\p{L}'-]+){0,2}\s*$/u;

const NEGATIONS = new Map<Lang, RegExp>();

/** The language's negation before an option, built from its lexicon like the English one: a negator, then up to two words. */
function negation(lang: Lang): RegExp {
  if (lang === 'en') return NEGATION;
  let re = NEGATIONS.get(lang);
  if (!re) {
    const words = lexicon(lang).negators.map((w) => foldPhrase(w).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).sort((a, b) => b.length - a.length);
    re = new RegExp(`(?:^|\\s)(?:${words.join('|')})(?:\\s+[\\p{L}'-]+){0,2}\\s*$`, 'u');
    NEGATIONS.set(lang, re);
  }
  return re;
}

// A negation right after an option, within its clause: "Fußball nicht", "Fußball eher nicht", "football non", "fútbol no".
const NEGATED_AFTER: Readonly<Record<Exclude<Lang, 'en'>, RegExp>> = {
  de: /^ (?:nicht|eher nicht|lieber nicht|bloss nicht|auf keinen fall|nein|keinesfalls)(?![\p{L}])/u,
  fr: /^ (?:non|pas|surtout pas|jamais|certainement pas)(?![\p{L}])/u,
  es: /^ (?:no|nunca|jamas|para nada|de ninguna manera)(?![\p{L}])/u,
};

/** Whether the option mentioned up to `end` of folded text is denied right after it ("Fußball nicht"); English has no such order. */
export function negatedAfter(folded: string, end: number, lang: Lang = 'en'): boolean {
  return lang !== 'en' && NEGATED_AFTER[lang].test(folded.slice(end, end + 24));
}

/** Whether the option (or path example) mentioned at `start` of folded text is negated ("not red", "kein Fußball", "pas de foot"). */
export function negated(folded: string, start: number, lang: Lang = 'en'): boolean {
  const before = folded.slice(Math.max(0, start - 48), start);
  const clause = before.slice(Math.max(...[',', '.', ';', ':', '!', '?', '—', '–'].map((p) => before.lastIndexOf(p))) + 1);
  return negation(lang).test(clause);
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
export function coerceEnum(spec: EnumSpec, value: unknown, lang: Lang = 'en'): ParseResult {
  const options = normalOptions(spec);
  if (spec.multiple) {
    const items = Array.isArray(value) ? value : [value];
    const chosen = new Set<number>();
    for (const item of items) {
      const i = typeof item === 'string' ? optionIndex(options, item) : -1;
      if (i === -1) {
        // "court and lights" as one string is still a list.
        if (typeof item === 'string' && !Array.isArray(value)) return asExact(parseEnum(spec, item, lang));
        return fail(`"${String(item)}" isn't one of the options. ${chooseFrom(options, lang)}`);
      }
      chosen.add(i);
    }
    const values = [...chosen].sort((a, b) => a - b).map((i) => options[i]!.value);
    return ok(values, items.map(String).join(', '), true);
  }
  const single = Array.isArray(value) && value.length === 1 ? value[0] : value;
  if (typeof single !== 'string') return fail(chooseFrom(options, lang));
  const i = optionIndex(options, single);
  if (i !== -1) return ok(options[i]!.value, single, true);
  return asExact(parseEnum(spec, single, lang));
}

/** The option a structured value names exactly: its value verbatim first, then any phrase folded. */
function optionIndex(options: readonly NormalOption[], value: string): number {
  const verbatim = options.findIndex((o) => o.value === value);
  if (verbatim !== -1) return verbatim;
  const f = foldPhrase(value);
  return f === '' ? -1 : options.findIndex((o) => [o.value, o.label, ...o.synonyms].some((p) => foldPhrase(p) === f));
}

function byPosition(spec: EnumSpec, options: readonly NormalOption[], folded: string, lang: Lang): ParseResult | null {
  // Folded text has single spaces, so each separator form below is distinct and the match stays linear.
  const whole = spec.multiple ? /^#?\d{1,3}(?:(?: ?[,&/] ?| and | )#?\d{1,3})*\.?$/ : /^#?\d{1,3}[.)]?$/;
  if (!whole.test(folded)) return null;
  const positions = (folded.match(/\d+/g) ?? []).map(Number);
  if (positions.some((p) => p < 1 || p > options.length)) return fail(say(lang, 'pickNumber', { n: options.length }));
  const chosen = [...new Set(positions)].sort((a, b) => a - b).map((p) => options[p - 1]!.value);
  return ok(spec.multiple ? chosen : chosen[0], folded, true);
}

function chooseFrom(options: readonly NormalOption[], lang: Lang): string {
  const shown = options.slice(0, 8).map((o) => o.label);
  return say(lang, 'chooseFrom', { list: `${shown.join(', ')}${options.length > 8 ? ', …' : ''}` });
}

function asExact(r: ParseResult): ParseResult {
  return r.ok ? { ...r, exact: true } : r;
}
