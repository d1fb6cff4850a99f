import { normalOptions, type AnswerSpec, type NormalOption } from '../../flow/answer-types.ts';
import { fold, foldPhrase, originalSlice, type Folded } from './fold.ts';
import { fail, ok, type ParseResult } from './parse-result.ts';
import { editDistance, typoBudget } from './typo.ts';
import { en } from '../../language/en/index.ts';
import type { LanguagePack } from '../../language/pack.ts';
import { say } from '../../language/parser-messages.ts';
import { findHits, longestHits, onlyFillerOutside, phraseSet, type PhraseCandidate, type PhraseHit, type PhraseSet } from './phrase-match.ts';
import { groupOwners, hedged, offMeaningWord, optionEvidence, type OptionEvidence } from './option-meaning.ts';
import { firstWindow, NEAR_DAYS, windowEvidence, windowOptions } from './time-window.ts';

type EnumSpec = Extract<AnswerSpec, { type: 'enum' }>;

/** The phrases that name each option (value, label, synonyms), owned by the option's index. */
export function optionPhrases(options: readonly NormalOption[], pack: LanguagePack = en): PhraseCandidate<number>[] {
  return options.flatMap((o, i) => [o.label, o.value, ...o.synonyms, ...alternatives(o.label, pack)].map((phrase) => ({ phrase, owner: i })));
}

// "Nausea or vomiting", "Schwindel oder Ohnmacht": a label naming two things is named by either ("vomiting")
const orByPack = new WeakMap<LanguagePack, RegExp>();

/** The parts of a label that joins alternatives with the pack's "or" (none for a label without one). */
function alternatives(label: string, pack: LanguagePack): string[] {
  let or = orByPack.get(pack);
  if (!or) {
    or = new RegExp(`\\s+(?:${alternation(pack.lexicon.conjunctions.or)})\\s+`, 'iu');
    orByPack.set(pack, or);
  }
  const parts = label.split(or).map((p) => p.trim()).filter((p) => p.length >= 3);
  return parts.length > 1 ? parts : [];
}

/** Longest-first, non-overlapping option mentions in a message. */
export function findOptionHits(folded: Folded, candidates: ReadonlyArray<PhraseCandidate<number>>): PhraseHit<number>[] {
  return longestHits(findHits(folded, candidates));
}

/**
 * Parses an enum answer: the longest matching label, value or synonym wins
 * (case-insensitive, on word boundaries); `multiple` collects every option
 * mentioned, in option order. A message that is only a position ("option 2",
 * "the second one", "Nr. 2", "#2") picks the option there; a bare number ("2")
 * picks it checked, since the widget's chips are not numbered. Besides, an option said in other words counts
 * (option-meaning.ts: a label word in another form, a meaning group of the
 * pack) and, for options that are windows of time, a date or period said
 * (time-window.ts, from `now`). A single choice is committed when everything
 * the reply points at is one option, nothing is negated, hedged or joined to
 * another thing; two options are asked about; a window reached only in part is
 * checked first.
 */
export function parseEnum(spec: EnumSpec, text: string, pack: LanguagePack = en, now?: string, literal = false): ParseResult {
  const { options, phrases } = compiledOptions(spec, pack);
  if (options.length === 0) return fail('There are no options to choose from.');
  const folded = fold(text);
  if (spec.multiple) {
    const every = allOptions(spec, options, phrases, folded, text, pack);
    if (every) return every;
  }
  let all = longestHits(findHits(folded, phrases));
  // a meaning phrase around a phrase hit, pointing elsewhere, reads the words as a whole: "sick note" is paperwork,
  // although "sick" alone names feeling unwell
  if (!literal && all.length > 0) {
    // ("trans man" is a gender, not the sex assigned at birth: a `voids` phrase around "man" leaves nothing read)
    const around = optionEvidence(options, folded.text, [], pack).filter((e) => e.via === 'meaning' && (e.owners.length === 1 || e.voids));
    all = all.filter((h) => !around.some((e) => e.start <= h.start && h.end <= e.end && (e.voids || (e.end - e.start > h.end - h.start && !e.owners.includes(h.owner)))));
  }
  let typos = false;
  if (all.length === 0) {
    // a bare number ("2", "1, 3") names an option only by its place in a list, and the widget shows the options as
    // unnumbered chips: the option there is checked ("Just to check: Injury?"), since "3" may as well be 3 months or a
    // count. ("#2", "option 2", "the second one" say they mean a place; a structured value is a model's, read as written.)
    const bare = byPosition(spec, options, folded.text, pack);
    if (bare) return bare.ok && !literal && !folded.text.includes('#') ? { ...bare, check: true } : bare;
    const byNumber = literal ? null : byOrdinal(spec, options, folded.text, pack) ?? byInitial(spec, options, folded.text);
    if (byNumber) return byNumber;
  }
  // the option said in other words, outside the phrases already read: label words in other forms, meaning groups
  // (a window option's label words — "within", "months", "bis" — say nothing apart from the date read against its window)
  const windowed = windowOptions(options, pack);
  // (a structured value — a model's proposal — names an option as written: `literal` reads no other words)
  const evidence = literal ? [] : optionEvidence(options, folded.text, all, pack);
  // "male, he transitioned last year": beside a gender said, one word for a sex is no answer to the sex at birth — asked
  // ("assigned female at birth, I'm a trans man" names it in more words and is read)
  const gender = evidence.some((e) => e.voids);
  // a supporting sign ("basketball") counts only beside a word of its option's label read for another ("physical")
  const supported = (e: OptionEvidence) => e.owners.length === 1 && evidence.some((o) => o !== e && !o.weak && !o.voids && o.owners.length > 0 && !o.owners.includes(e.owners[0]!)
    && (folded.text.slice(o.start, o.end).match(/[\p{L}]+/gu) ?? []).some((w) => labelStems(options[e.owners[0]!]!, pack).has(stemWord(w, pack))));
  const hitWords = all.filter((h) => (folded.text.slice(h.start, h.end).match(/[\p{L}]+/gu) ?? []).length > 0);
  let words = evidence
    .filter((e) => !e.voids && (!e.weak || supported(e) || hitWords.some((h) => (folded.text.slice(h.start, h.end).match(/[\p{L}]+/gu) ?? []).some((w) => e.owners.length === 1 && h.owner !== e.owners[0] && labelStems(options[e.owners[0]!]!, pack).has(stemWord(w, pack))))) &&  !(e.via === 'word' && e.owners.every((o) => windowed[o])) && !negated(folded.text, e.start, pack) && !negatedAfter(folded.text, e.end, pack));
  // "my head hurts", "throat hurts": a group fitting several options ("pain") right beside a word naming one of them is that one
  // ("head" alone only begins "Headache": beside a word of pain it names it, alone it is checked — "head" may be a head injury)
  let weakPrefix = false;
  // parts of the body said as where another option is ("rash on my chest"): no option, but accounted for in its clause
  let placeSpans: readonly Span[] = [];
  if (!literal) {
    const single = [...all.map((h) => ({ owners: [h.owner] as readonly number[], start: h.start, end: h.end })), ...words.filter((e) => e.owners.length === 1 && !e.generic)];
    const backed = new Set<{ start: number }>();
    words = words.map((e) => {
      if (e.owners.length < 2 && !e.generic) return e;
      const near = single.find((n) => adjacent(folded.text, n, e, pack) || adjacent(folded.text, e, n, pack));
      if (near) backed.add(near);
      return near ? { ...e, owners: near.owners } : e;
    });
    weakPrefix = words.some((e) => e.prefix && !backed.has(e));
    // at a multiple choice, a word of pain in the clause of the one option it fits is of that option ("ankle hurts from when I fell");
    // a part of the body beside another option in its clause says where that is ("itchy rash on her back")
    if (spec.multiple) {
      const places = placesSaid(folded.text, words, pack);
      const where = words.filter((e) => places.has(e) && single.some((n) => !places.has(n as OptionEvidence) && sameClause(folded.text, n, e, pack)));
      placeSpans = where;
      words = words.filter((e) => !where.includes(e));
    }
    // "my knee has been hurting since I fell": a word of pain in one clause with the injury named is of the injury
    {
      words = words.map((e) => {
        if (!e.generic || e.owners.length < 2) return e;
        const near = single.find((n) => n.owners.length === 1 && e.owners.includes(n.owners[0]!) && sameClause(folded.text, n, e, pack));
        return near ? { ...e, owners: near.owners } : e;
      });
    }
  }
  // a date or period at options that are windows of time, read outside the options' own phrases ("this month" is a synonym)
  let window = literal ? null : windowEvidence(options, blankSpans(folded.text, all), pack, now);
  // "next week", "nächste Woche wär super": a span ending within NEAR_DAYS of today is the menu's as-soon-as-possible option
  // (the urgent group's, itself no window), not the first window that also holds it
  if (window?.contained && window.hi <= NEAR_DAYS && window.owners[0] === firstWindow(options, pack)) {
    const urgent = groupOwners(options, pack, 'urgent').filter((i) => !windowed[i]);
    if (urgent.length === 1) window = { ...window, owners: urgent };
  }
  // for a single choice, a label word in another form only supports what stronger evidence says: "LED" in "the LED
  // lights are flickering" names no purchase beside the fault
  const stronger = new Set([...all.map((h) => h.owner), ...words.filter((e) => e.via === 'meaning').flatMap((e) => e.owners), ...(window?.owners ?? [])].map((i) => options[i]!.value));
  if (!spec.multiple && stronger.size > 0) words = words.filter((e) => e.via === 'meaning' || e.owners.some((o) => stronger.has(options[o]!.value)));
  if (all.length === 0 && words.length === 0 && !window) {
    all = typoHits(folded, phrases, spec.multiple === true, pack);
    if (all.length === 0) return fail(chooseFrom(options, pack));
    typos = true;
  }
  // "I don't need support, I want a quote": a negated option is never chosen
  const hits = all.filter((h) => !negated(folded.text, h.start, pack) && !negatedAfter(folded.text, h.end, pack));
  if (hits.length === 0 && words.length === 0 && !window) return fail(say(pack, 'whichThen', { choose: chooseFrom(options.filter((_, i) => !all.some((h) => h.owner === i)), pack) }));
  // a date read against windows of time is an estimate already: "probably in the autumn" is no doubt about the window
  const windowOnly = hits.length === 0 && words.length === 0 && window?.contained === true;
  // (a hedge word inside a meaning phrase read is that phrase's: "je eher, desto besser" is no "eher")
  const doubt = hedged(folded.text, pack, [...all, ...words.filter((e) => e.via === 'meaning' && wordCount(folded.text.slice(e.start, e.end)) > 1)], windowOnly);
  // a label word in another form alone ("LED" in "we make LED drivers") is a weak sign in a longer reply: checked first
  const strong = hits.length > 0 || words.some((e) => e.via === 'meaning') || window !== null || wordCount(folded.text) <= WEAK_WORDS;
  // "LED", "Leuchten": a label word that is none of the meaning its option stands for (the buy group's words for "Buy new LED
  // lighting") says what the reply is about, not which option — alone, even in a short reply, it is checked
  const offMeaning = !spec.multiple && !literal && hits.length === 0 && window === null && words.length > 0
    && words.every((e) => e.via === 'word' && e.owners.length === 1 && offMeaningWord(options, pack, e.owners[0]!, stemWord(folded.text.slice(e.start, e.end), pack)));
  const clean = strong && !typos && hits.length === all.length && !doubt && !corrected(text, pack) && wordCount(folded.text) <= CLEAN_WORDS
    && !joinedToUnread(folded.text, [...all, ...words, ...(window ? [window] : [])], pack);
  const evidenceOf = (list: ReadonlyArray<{ start: number; end: number }>) => [...list].sort((a, b) => a.start - b.start).map((h) => originalSlice(text, folded, h.start, h.end)).join(', ');
  // what was read for one option, as the commit rule sets it aside; evidence fitting several options is not (its words stay unexplained)
  const sureSpans = [...hits, ...words.filter((e) => e.owners.length === 1), ...(window?.contained ? [window] : [])];
  if (spec.multiple) {
    // each option named; a group that fits several options, or a window reached in part, leaves the reading to be checked
    const sure = [...hits.map((h) => [h.owner]), ...words.map((e) => e.owners), ...(window ? [window.owners] : [])];
    const chosen = [...new Set(sure.filter((o) => o.length === 1).flat())].sort((a, b) => a - b);
    if (chosen.length === 0) return fail(chooseFrom(options, pack));
    const unsure = sure.some((o) => o.length !== 1) || (window !== null && !window.contained);
    // "kind of dizzy", "a bit of a temp": a degree of the symptom said before it is no hedge about the choice
    const doubtful = hedged(literal ? folded.text : withoutDegrees(folded.text, sureSpans, pack), pack, all);
    const exact = !typos && !unsure && !weakPrefix && onlyFillerOutside(folded, sureSpans.map((h) => ({ ...h, owner: 0 }))) && hits.length === all.length && !doubtful;
    // "rash on my arms", "threw up twice", "short of breath going up stairs": a clause naming an option read, whose other words
    // describe it (where, when, how much), is read as a whole; the commit rule then finds nothing left over in it
    const described = exact || typos || unsure || literal ? [] : describedClauses(folded.text, withoutDegrees(folded.text, sureSpans, pack), sureSpans, chosen, options, pack, placeSpans);
    const many = ok(chosen.map((i) => options[i]!.value), evidenceOf(sureSpans), exact);
    const told = many.ok && described.length > 0 ? { ...many, described: described.map((c) => originalSlice(text, folded, c.start, c.end)) } : many;
    return (doubtful || weakPrefix) && told.ok ? { ...told, check: true } : told;
  }
  const exactPhrase = !typos && onlyFillerOutside(folded, all) && hits.length === all.length && words.length === 0 && !window;
  // what each piece of evidence points at: one option, or a few equally (a group fitting several labels, a window in part)
  const sameValue = (i: number) => options.findIndex((o) => o.value === options[i]!.value);
  const pointers = [...hits.map((h) => [sameValue(h.owner)]), ...words.map((e) => [...new Set(e.owners.map(sameValue))]), ...(window ? [[...new Set(window.owners.map(sameValue))]] : [])];
  let named = [...new Set(pointers.filter((p) => p.length === 1).flat())];
  // "urgent, we have a tournament feb 20": the urgent option beside a date inside the first window of time — the date says why
  if (named.length === 2 && window?.contained && window.owners.length === 1) {
    const first = sameValue(window.owners[0]!);
    const urgent = groupOwners(options, pack, 'urgent').map(sameValue);
    if (first === sameValue(firstWindow(options, pack)) && named.includes(first) && named.some((i) => i !== first && urgent.includes(i))) named = named.filter((i) => i !== first);
  }
  // "physical for basketball tryouts": of two options named, one whose label holds every word read for the other as well
  // ("Sports physical" holds "physical" of "Check-up or physical") and has words of its own read is the one meant
  if (named.length === 2 && !literal) {
    const specific = named.find((b) => {
      const a = named.find((x) => x !== b)!;
      const forA = [...hits.filter((h) => sameValue(h.owner) === a), ...words.filter((e) => e.owners.length === 1 && sameValue(e.owners[0]!) === a)];
      const forB = [...hits.filter((h) => sameValue(h.owner) === b), ...words.filter((e) => e.owners.length === 1 && sameValue(e.owners[0]!) === b)];
      const label = labelStems(options[b]!, pack);
      return forA.length > 0 && forB.length > 0 && label.size > 1 && forA.every((h) => (folded.text.slice(h.start, h.end).match(/[\p{L}]+/gu) ?? []).every((w) => label.has(stemWord(w, pack))));
    });
    if (specific !== undefined) named = [specific];
  }
  // "red or green" (or any two options named) for a single choice: asking beats guessing
  if (named.length > 1) return fail(say(pack, 'pickOne', { list: named.sort((a, b) => a - b).map((i) => options[i]!.label).join(say(pack, 'or')) }));
  if (gender && !multiwordEvidence(folded.text, [...hits, ...words, ...optionEvidence(options, folded.text, [], pack).filter((e) => !e.voids && e.owners.length === 1)])) return fail(chooseFrom(options, pack));
  let winner: number;
  if (named.length === 1) {
    winner = named[0]!;
    // a group fitting several options must fit this one too ("pain" is an illness or an injury: "twisted, painful" is the injury),
    // and then the reading is checked, not committed ("headache, dizzy" may name a second option)
    const against = pointers.find((p) => p.length > 1 && !p.includes(winner));
    if (against) return fail(say(pack, 'pickOne', { list: [...new Set([winner, ...against])].sort((a, b) => a - b).map((i) => options[i]!.label).join(say(pack, 'or')) }));
    if (pointers.some((p) => p.length > 1)) return ok(options[winner]!.value, evidenceOf(sureSpans), false);
  } else {
    // only evidence fitting several options: the one they all share, else asked which
    const shared = pointers.reduce((acc, p) => acc.filter((i) => p.includes(i)));
    if (shared.length !== 1) {
      const list = [...new Set(pointers.flat())].sort((a, b) => a - b);
      return fail(list.length > 0 && list.length <= 4 ? say(pack, 'pickOne', { list: list.map((i) => options[i]!.label).join(say(pack, 'or')) }) : chooseFrom(options, pack));
    }
    winner = shared[0]!;
  }
  // "tennis and squash", "football or rugby, both really": a second thing named beside the one option is asked about, not dropped
  // (beside an option said in other words, a joined word of the language's filler — "poorly and has a temperature" — is no second thing)
  const other = joinedToAnother(folded.text, hits, pack)
    ?? joinedToAnother(folded.text, [...hits, ...words, ...(window ? [window] : [])].map((h) => ({ owner: winner, start: h.start, end: h.end })), pack, looseFiller(pack));
  if (other !== null) {
    // the other thing as the visitor wrote it ("Squash", not the folded "squash")
    return fail(other === 'both' ? say(pack, 'pickJustOne', { label: options[winner]!.label })
      : say(pack, 'pickOne', { list: `${options[winner]!.label}${say(pack, 'or')}${originalSlice(text, folded, other.start, other.end)}` }));
  }
  // a window the reply's date reaches only in part ("sometime in 2027", beyond every window) is asked about, not taken
  if (window !== null && !window.contained) return fail(chooseFrom(options, pack));
  const one = ok(options[winner]!.value, evidenceOf(sureSpans), (exactPhrase || clean) && !weakPrefix);
  // "maybe his vaccines?", "probably support": a tentative choice is checked with the visitor first
  return (doubt || weakPrefix || offMeaning) && one.ok ? { ...one, check: true } : one;
}

const loose = new Map<LanguagePack, ReadonlySet<string>>();

/** The words a joiner may stand beside without naming a second thing, beside an option said in other words: the join filler and the commit rule's filler. */
function looseFiller(pack: LanguagePack): ReadonlySet<string> {
  let set = loose.get(pack);
  if (!set) loose.set(pack, (set = new Set([...pack.lexicon.joinFiller, ...pack.lexicon.filler, ...(pack.options.meaning?.plain ?? [])].map((w) => fold(w).text))));
  return set;
}

/**
 * Whether a joiner after what was read leads to something that was not read: "padel and the lights are old" adds a
 * clause the reading does not cover (checked first), "poorly and has a temperature" does not (the temperature is read).
 */
function joinedToUnread(folded: string, read: ReadonlyArray<{ start: number; end: number }>, pack: LanguagePack): boolean {
  const r = joinRules(pack);
  const filler = looseFiller(pack);
  const after = new RegExp(`^\\s*,?\\s*(?:${alternation(pack.lexicon.joiners)})(?![\\p{L}])`, 'u');
  for (const span of read) {
    const m = after.exec(folded.slice(span.end));
    if (!m) continue;
    const from = span.end + m[0].length;
    for (const w of folded.slice(from).matchAll(/[\p{L}\p{N}][\p{L}\p{N}']*/gu)) {
      if (filler.has(w[0]) || r.filler.has(w[0])) continue;
      const at = from + w.index;
      if (!read.some((s) => s.start <= at && at < s.end)) return true;
      break;
    }
  }
  return false;
}

/** Whether `b` follows `a` with at most one word between them and no comma or joiner ("head hurts", "head is pounding"). */
function adjacent(folded: string, a: { end: number }, b: { start: number }, pack: LanguagePack): boolean {
  if (b.start < a.end) return false;
  const gap = folded.slice(a.end, b.start);
  return !/[,.;:!?]/u.test(gap) && !andOrOf(pack).test(gap) && (gap.match(/[\p{L}\p{N}]+/gu) ?? []).length <= 1;
}

const andOrByPack = new WeakMap<LanguagePack, RegExp>();

/** The pack's "and" and "or" words as whole words of folded text. */
function andOrOf(pack: LanguagePack): RegExp {
  let re = andOrByPack.get(pack);
  if (!re) {
    const { and, or } = pack.lexicon.conjunctions;
    re = new RegExp(`(?:^|\\s)(?:${alternation([...and, ...or])})(?:\\s|$)`, 'u');
    andOrByPack.set(pack, re);
  }
  return re;
}

/** A word's stem in the pack's option stemmer (the word itself without one). */
const stemWord = (w: string, pack: LanguagePack): string => pack.options.meaning?.stem(w) ?? w;

/** The stems of an option label's words ("Sports physical" → sport, physic). */
function labelStems(o: NormalOption, pack: LanguagePack): Set<string> {
  return new Set((foldPhrase(o.label).match(/[\p{L}]+/gu) ?? []).filter((w) => w.length >= 3).map((w) => stemWord(w, pack)));
}

/** Whether some evidence read is a phrase of more than one word ("assigned female", not "male" or "F"). */
function multiwordEvidence(folded: string, read: ReadonlyArray<Span>): boolean {
  return read.some((r) => (folded.slice(r.start, r.end).match(/[\p{L}\p{N}]+/gu) ?? []).length > 1);
}

/** The folded text with a pack's degree words ("kind of", "a bit of a") blanked where they stand right before a span read. */
function withoutDegrees(folded: string, spans: ReadonlyArray<{ start: number }>, pack: LanguagePack): string {
  let re = degreeRes.get(pack);
  if (re === undefined) {
    const degrees = (pack.options.meaning?.degrees ?? []).map(foldPhrase).filter(Boolean);
    degreeRes.set(pack, (re = degrees.length === 0 ? null : new RegExp(`(?:^|\\s)(${alternation(degrees)})\\s+$`, 'u')));
  }
  if (re === null) return folded;
  let out = folded;
  for (const s of spans) {
    const m = re.exec(out.slice(0, s.start));
    if (m) { const at = m.index + m[0].indexOf(m[1]!); out = out.slice(0, at) + ' '.repeat(m[1]!.length) + out.slice(at + m[1]!.length); }
  }
  return out;
}

const degreeRes = new Map<LanguagePack, RegExp | null>();

/** At most this many words in a clause read as one option and its description. */
const DESCRIBED_WORDS = 12;

/**
 * The clauses of a multiple-choice reply (cut at punctuation and the pack's joiners) that hold an option read and whose other
 * words describe it — where, when, how much, how it happened ("rash on my arms", "passed out yesterday at work", "hurt my back
 * lifting boxes"): no word of an option not chosen (nor the start of one: "head"), no negator, no hedge or contrast ("but",
 * "maybe"), at most twelve words. A clause naming nothing read is not described: its words stay for the commit rule.
 */
function describedClauses(folded: string, plainer: string, read: ReadonlyArray<Span>, chosen: readonly number[], options: readonly NormalOption[], pack: LanguagePack, places: ReadonlyArray<Span> = []): Span[] {
  const m = pack.options.meaning;
  if (!m) return [];
  const norm = (w: string) => m.stem(w);
  const others = new Set(options.filter((_, i) => !chosen.includes(i) && !chosen.some((c) => options[c]!.value === options[i]!.value))
    .flatMap((o) => [o.label, o.value.replace(/[_.-]+/g, ' '), ...o.synonyms]).flatMap((t) => foldPhrase(t).match(/[\p{L}]{2,}/gu) ?? []));
  const plain = new Set([...m.plain, ...pack.lexicon.filler, ...pack.lexicon.joinFiller].flatMap((w) => foldPhrase(w).split(' ')));
  const otherStems = new Set([...others].filter((w) => !plain.has(w)).map(norm));
  const stops = new Set([...pack.lexicon.negators, ...m.hedges, ...(pack.leftovers?.compete ?? [])].map(foldPhrase));
  // an option chosen for an item off the menu ("Something else" for "earache")
  const offMenu = chosen.some((c) => m.groups.some((g) => g.offMenu && groupOwners(options, pack, g.name).includes(c)));
  const none = new Set((m.noneListed ?? []).map(foldPhrase));
  const cut = clauseCut(pack);
  const out: Span[] = [];
  let from = 0;
  const clauses: Span[] = [];
  for (const c of folded.matchAll(cut)) { clauses.push({ start: from, end: c.index }); from = c.index + c[0].length; }
  clauses.push({ start: from, end: folded.length });
  for (const c of clauses) {
    const inside = read.filter((r) => c.start <= r.start && r.end <= c.end);
    // the clause read without its degree words ("kind of dizzy"), kept whole for the span
    const text = plainer.slice(c.start, c.end);
    const whole = folded.slice(c.start, c.end);
    const span = { start: c.start + whole.length - whole.trimStart().length, end: c.start + whole.trimEnd().length };
    // "none of those, my ear hurts": no listed option fits, beside the item off the menu chosen
    if (inside.length === 0 && offMenu && none.has(text.replace(/[^\p{L}\p{N}' ]+/gu, ' ').trim().replace(/\s+/g, ' ').replace(/\s+(?:really|honestly|though)$/u, ''))) out.push(span);
    if (inside.length === 0) continue;
    const words = [...text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'’]*/gu)];
    if (words.length > DESCRIBED_WORDS) continue;
    if ([...stops].some((p) => p !== '' && findPhraseIn(text, p))) continue;
    const rest = words.filter((w) => ![...inside, ...places].some((r) => r.start <= c.start + w.index && c.start + w.index < r.end)).map((w) => w[0]);
    // a word of an option not chosen, or one beginning such a word ("head" for "Headache"), names something the reading left out
    if (rest.some((w) => /\p{L}/u.test(w) && !plain.has(w) && (otherStems.has(norm(w)) || (w.length >= 4 && [...others].some((o) => o.length > w.length && o.startsWith(w)))))) continue;
    out.push(span);
  }
  return out;
}

/** The evidence of one or two words said as a place ("on my chest", "across his tummy", "behind her ear"): after one of the pack's `placeBefore` words and at most a determiner. */
function placesSaid(folded: string, words: readonly OptionEvidence[], pack: LanguagePack): Set<OptionEvidence> {
  const before = pack.options.meaning?.placeBefore ?? [];
  const out = new Set<OptionEvidence>();
  if (before.length === 0) return out;
  const lead = new RegExp(`(?:^|\\s)(?:${alternation(before)})(?:\\s+(?:my|his|her|their|your|the|a|both|mein\\w*|sein\\w*|ihr\\w*|den|dem|der|die))?\\s+$`, 'u');
  for (const e of words) {
    if ((folded.slice(e.start, e.end).match(/[\p{L}]+/gu) ?? []).length <= 2 && lead.test(folded.slice(Math.max(0, e.start - 40), e.start))) out.add(e);
  }
  return out;
}

/** Whether two spans of a folded reply stand in one clause: no punctuation or joiner of the pack between them. */
function sameClause(folded: string, a: Span, b: Span, pack: LanguagePack): boolean {
  const gap = folded.slice(Math.min(a.end, b.end), Math.max(a.start, b.start));
  return !/[,.;:!?()—–]/u.test(gap) && !cutsOf(pack).joiner.test(gap);
}

const cuts = new Map<LanguagePack, { cut: RegExp; joiner: RegExp }>();

/** A pack's clause cut and joiner patterns, built once. */
function cutsOf(pack: LanguagePack): { cut: RegExp; joiner: RegExp } {
  let c = cuts.get(pack);
  if (!c) {
    const joiners = alternation(pack.lexicon.joiners);
    // (a decimal point or comma is no clause break: "temp of 39.2 last night"; "+", "&" and a slash between words join a list:
    // "migraine + barfing", "cough & fever", "fever/chills")
    c = { cut: new RegExp(`[;:!?()\\[\\]—–+&]+|[,.]+(?!\\p{N})|\\s-\\s|(?<=\\p{L})\\s*/\\s*(?=\\p{L})|(?<![\\p{L}])(?:${joiners})(?![\\p{L}])`, 'gu'),
      joiner: new RegExp(`(?<![\\p{L}])(?:${joiners})(?![\\p{L}])`, 'u') };
    cuts.set(pack, c);
  }
  return c;
}

/** Where a multiple-choice reply is cut into clauses: punctuation (not a decimal point) and the pack's joiners. */
function clauseCut(pack: LanguagePack): RegExp {
  const re = cutsOf(pack).cut;
  re.lastIndex = 0;
  return re;
}

/** Whether a folded phrase occurs in a folded text as whole words. */
function findPhraseIn(text: string, phrase: string): boolean {
  for (let at = text.indexOf(phrase); at !== -1; at = text.indexOf(phrase, at + 1)) {
    const before = text[at - 1], after = text[at + phrase.length];
    if ((before === undefined || !/[\p{L}\p{N}]/u.test(before)) && (after === undefined || !/[\p{L}\p{N}]/u.test(after))) return true;
  }
  return false;
}

/** Past this many words a reply is more than a choice: a reading of it is checked unless it is the option alone. */
const CLEAN_WORDS = 25;
/** Up to this many words, a label word in another form is the choice itself ("vaccines", "existing ones"). */
const WEAK_WORDS = 3;

const wordCount = (folded: string) => (folded.match(/[\p{L}\p{N}]+/gu) ?? []).length;

/** Whether the reply corrects itself ("support — sorry, no, buying"): the reading is checked. */
function corrected(text: string, pack: LanguagePack): boolean {
  pack.corrections.lastIndex = 0;
  const found = pack.corrections.test(text);
  pack.corrections.lastIndex = 0;
  return found;
}

/** The folded text with the spans already read blanked out. */
function blankSpans(folded: string, spans: ReadonlyArray<{ start: number; end: number }>): string {
  let out = folded;
  for (const s of spans) out = out.slice(0, s.start) + ' '.repeat(s.end - s.start) + out.slice(s.end);
  return out;
}

/** "option 2", "the second one", "Nr. 2", "die zweite", "the last one": the option at that position. */
function byOrdinal(spec: EnumSpec, options: readonly NormalOption[], folded: string, pack: LanguagePack): ParseResult | null {
  const p = pack.options.meaning?.positions;
  const m = p?.reply.exec(folded.trim());
  if (!p || !m) return null;
  const said = m.slice(1).find((g) => g !== undefined);
  if (said === undefined) return null;
  const n = /^\d+$/.test(said) ? Number(said) : p.last.includes(said) ? options.length : p.ordinals[said];
  if (n === undefined) return null;
  if (n < 1 || n > options.length) return fail(say(pack, 'pickNumber', { n: options.length }));
  const value = options[n - 1]!.value;
  return ok(spec.multiple ? [value] : value, folded.trim(), true);
}

/** "M", "f.": a reply of one letter that begins exactly one option's label picks it (quick replies typed as initials), unless it could be a position ("b"). */
function byInitial(spec: EnumSpec, options: readonly NormalOption[], folded: string): ParseResult | null {
  const m = /^\s*([\p{L}])\s*[.!]?\s*$/u.exec(folded);
  // a letter that could be a position in a lettered list ("b" of three options) is not read as an initial
  if (!m || (m[1]! >= 'a' && m[1]!.charCodeAt(0) - 97 < options.length)) return null;
  const fits = [...new Set(options.filter((o) => foldPhrase(o.label).startsWith(m[1]!)).map((o) => o.value))];
  if (fits.length !== 1) return null;
  return ok(spec.multiple ? [fits[0]!] : fits[0]!, folded.trim(), true);
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
function joinedToAnother(folded: string, hits: readonly PhraseHit<number>[], pack: LanguagePack, filler?: ReadonlySet<string>): Span | 'both' | null {
  const r = filler ? { ...joinRules(pack), filler } : joinRules(pack);
  // "both" that is (part of) an option's own name ("Both", "both courts") is that option
  for (const m of folded.matchAll(r.both)) if (!hits.some((h) => h.start <= m.index && m.index < h.end)) return 'both';
  for (const h of hits) {
    const after = r.after.exec(folded.slice(h.end));
    if (after && !r.filler.has(after[1]!)) {
      const start = h.end + after[0].length - after[1]!.length;
      if (!hits.some((o) => o.start === start)) return { start, end: start + after[1]!.length };
    }
    const before = r.before.exec(folded.slice(0, h.start));
    if (before && !r.filler.has(before[1]!) && !hits.some((o) => o.start <= before.index && before.index < o.end)) return { start: before.index, end: before.index + before[1]!.length };
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

/** The most options "all of them" stands for; beyond it the visitor is asked to name them. */
const ALL_AT_MOST = 6;

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
  // "all of them" to a long menu (twelve symptoms, "Something else" among them) is no reading of each option: asked again
  if (kept.length === 0 || kept.length > ALL_AT_MOST) return null;
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

const compiled = new WeakMap<EnumSpec, Map<LanguagePack, { options: readonly NormalOption[]; phrases: PhraseSet<number> }>>();

/** A spec's options and their folded phrases, built once per spec and pack (a flow's specs do not change after compile). */
function compiledOptions(spec: EnumSpec, pack: LanguagePack): { options: readonly NormalOption[]; phrases: PhraseSet<number> } {
  let byPack = compiled.get(spec);
  if (!byPack) {
    byPack = new Map();
    compiled.set(spec, byPack);
  }
  let c = byPack.get(pack);
  if (!c) {
    const options = normalOptions(spec);
    c = { options, phrases: phraseSet(optionPhrases(options, pack)) };
    byPack.set(pack, c);
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
        if (typeof item === 'string' && !Array.isArray(value)) return asExact(parseEnum(spec, item, pack, undefined, true));
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
  return asExact(parseEnum(spec, single, pack, undefined, true));
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
  // "1 und 3", "1, 3 et 4": the language's own joiners between the numbers
  const joined = spec.multiple ? folded.replace(new RegExp(` (?:${alternation(pack.lexicon.joiners)}) `, 'g'), ' and ') : folded;
  if (!whole.test(joined)) return null;
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
