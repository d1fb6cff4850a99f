import type { NormalOption } from '../../flow/answer-types.ts';
import type { LanguagePack, MeaningGroup, OptionMeaningWords } from '../../language/pack.ts';
import { foldPhrase } from './fold.ts';

/*
 * AN OPTION SAID IN OTHER WORDS. Besides its label, value and synonyms (enum.ts), an option is named by
 *  - a word of its label in another form ("vaccines", "refilled", "Impfung") when no other option's label has that
 *    word: reply and label words are compared by their stems (the pack's Snowball stemmer);
 *  - a meaning group of the language pack ("flu shot", "jabs", "booster" are a vaccination; "flickering", "cutting
 *    out", "kaputt" a fault): a group counts for the option whose label words it holds best, or, when no label names
 *    it, for the option of a broader group (a vaccination is a routine visit). A group that no option's label names
 *    says nothing about this question.
 * Each piece of evidence points at one option, or at a few when the group fits several labels equally well; what
 * the reply as a whole means, and whether it is committed or checked, is decided in enum.ts.
 */

/** Evidence for options in a reply: the options it points at (one, or several equally), where, and how it was found. */
export interface OptionEvidence {
  owners: readonly number[];
  start: number;
  end: number;
  via: 'word' | 'meaning';
  /** A group of several broader meanings ("pain": an illness or an injury): beside a word naming an option, it is of that one. */
  generic?: true;
  /** A word of the language that only begins an option's compound label word ("head" for "Headache"): alone, a weak sign. */
  prefix?: true;
  /** Words of a `voids` group ("trans man"): no option (owners empty), and the option words inside them are not read. */
  voids?: true;
  /** Words of a `weak` group ("basketball"): they only support a word of the option's label read beside them. */
  weak?: true;
}

interface Token {
  stem: string;
  start: number;
  end: number;
}

interface CompiledGroup {
  name: string;
  /** Each phrase as its stems. */
  phrases: ReadonlyArray<readonly string[]>;
  /** The options it points at on this question (empty: it says nothing here). */
  owners: readonly number[];
  generic: boolean;
  voids: boolean;
  weak: boolean;
  neutral: boolean;
}

interface CompiledMeaning {
  /** A content stem named by exactly one option value: the option's index (the first of that value). */
  distinct: ReadonlyMap<string, number>;
  groups: readonly CompiledGroup[];
}

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

/** The stems of a folded text's words, with where each word is. */
function tokens(folded: string, m: OptionMeaningWords): Token[] {
  const out: Token[] = [];
  for (const w of folded.matchAll(WORD)) {
    // "knee's", "it's": the 's is a possessive or a verb, not part of the word
    const word = w[0].replace(/['’]s$/u, '');
    out.push({ stem: stemOf(word, m), start: w.index, end: w.index + w[0].length });
  }
  return out;
}

/** The folded words of a text ("(ill or hurt)" → ill, or, hurt; "i'm" stays one word). */
function wordsOf(text: string): string[] {
  return (foldPhrase(text).match(WORD) ?? []).map((w) => w.replace(/['’]s$/u, ''));
}

/** A word's stem; digits stay as they are. */
function stemOf(word: string, m: OptionMeaningWords): string {
  return /^\p{N}+$/u.test(word) ? word : m.stem(word);
}

/** Two stems of one word: equal, or one the other plus a letter or two ("injur" / "injuri"). */
function sameStem(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.length >= 5 && long.length - short.length <= 2 && long.startsWith(short);
}

const cache = new WeakMap<readonly NormalOption[], Map<LanguagePack, CompiledMeaning>>();

/** The words that never name an option on their own: the pack's plain words and the lexicon's filler and joiners. */
function plainStems(pack: LanguagePack, m: OptionMeaningWords): Set<string> {
  const lex = pack.lexicon;
  // a negator of several words ("other than", "instead of") is a phrase: its words alone are not plain ("Other" names an option)
  const negators = lex.negators.filter((n) => wordsOf(n).length === 1);
  return new Set([...m.plain, ...lex.filler, ...lex.joinFiller, ...lex.joiners, ...negators].flatMap(wordsOf).map((w) => stemOf(w, m)));
}

const stemsByPack = new Map<LanguagePack, { plain: ReadonlySet<string>; groupStems: ReadonlyMap<string, ReadonlySet<string>>; phrases: ReadonlyMap<string, ReadonlyArray<readonly string[]>> }>();

/** A pack's plain stems, each group's stems and its phrases as stems: the same for every question, built once. */
function packStems(pack: LanguagePack, m: OptionMeaningWords) {
  let p = stemsByPack.get(pack);
  if (!p) {
    const plain = plainStems(pack, m);
    p = {
      plain,
      // what links a group to a label: its anchors and its one-word entries, never a word inside a phrase ("note for school"
      // is paperwork, and says nothing of a "School gym" option); a group without anchors links by all its words
      groupStems: new Map(m.groups.map((g) => [g.name, new Set((g.anchors?.length ? [...g.anchors, ...g.words.filter((w) => wordsOf(w).length === 1)] : g.words).flatMap(wordsOf).map((w) => stemOf(w, m)).filter((s) => !plain.has(s)))])),
      phrases: new Map(m.groups.map((g) => [g.name, g.words.map((w) => wordsOf(w).map((x) => stemOf(x, m)))])),
    };
    stemsByPack.set(pack, p);
  }
  return p;
}

function compile(options: readonly NormalOption[], pack: LanguagePack, m: OptionMeaningWords): CompiledMeaning {
  let byPack = cache.get(options);
  if (!byPack) cache.set(options, (byPack = new Map()));
  const hit = byPack.get(pack);
  if (hit) return hit;
  const { plain, groupStems, phrases } = packStems(pack, m);
  const contentOf = (text: string) => new Set(wordsOf(text).filter((w) => w.length >= 2 && !/^\p{N}+$/u.test(w)).map((w) => stemOf(w, m)).filter((s) => !plain.has(s)));
  // an option's content words: its label's and its value's (synonyms are phrases of their own, matched as written)
  const content = options.map((o) => new Set([...contentOf(o.label), ...contentOf(o.value.replace(/[_.-]+/g, ' '))]));
  const firstOf = new Map<string, number>();
  options.forEach((o, i) => { if (!firstOf.has(o.value)) firstOf.set(o.value, i); });
  const valuesOf = new Map<string, Set<string>>();
  content.forEach((words, i) => { for (const w of words) (valuesOf.get(w) ?? valuesOf.set(w, new Set()).get(w)!).add(options[i]!.value); });
  const distinct = new Map<string, number>();
  for (const [w, values] of valuesOf) if (values.size === 1) distinct.set(w, firstOf.get([...values][0]!)!);
  // which options a group names: those whose content words it holds the largest share of (each group once)
  const owned = new Map<string, number[]>();
  const direct = (name: string): number[] => {
    const known = owned.get(name);
    if (known) return known;
    const stems = groupStems.get(name);
    if (!stems) return [];
    let best = 0;
    let owners: number[] = [];
    content.forEach((words, i) => {
      if (words.size === 0 || firstOf.get(options[i]!.value) !== i) return;
      const share = [...words].filter((w) => [...stems].some((s) => sameStem(s, w))).length / words.size;
      if (share > best) [best, owners] = [share, [i]];
      else if (share === best && share > 0) owners.push(i);
    });
    owned.set(name, owners);
    return owners;
  };
  // a menu of a kind: the other groups of that broader kind (not the generic ones) name two options or more ("Fever",
  // "Cough", "Headache" … are a menu of illnesses; "Feeling unwell", "An injury" … are not)
  const menuOf = (g: MeaningGroup): boolean => new Set(m.groups.filter((s) => s !== g && !s.offMenu && s.broader?.length === 1 && g.broader?.includes(s.broader[0]!)).flatMap((s) => direct(s.name))).size >= 2;
  const groups = m.groups.map((g): CompiledGroup => {
    // an item off a menu of its kind names the menu's "something else"; elsewhere it is its broader group
    let owners = g.offMenu && !menuOf(g) ? [] : direct(g.name);
    if (owners.length === 0) owners = [...new Set((g.broader ?? []).flatMap(direct))].sort((a, b) => a - b);
    // a neutral group ("this fall", "my trip") names nothing: it only keeps the option words inside it from being read
    if (g.neutral) owners = [];
    return { name: g.name, owners, generic: (g.broader?.length ?? 0) >= 2 && !(g.offMenu && menuOf(g)), voids: g.voids === true, weak: g.weak === true, neutral: g.neutral === true, phrases: phrases.get(g.name)! };
  });
  const out = { distinct, groups };
  byPack.set(pack, out);
  return out;
}

/**
 * The evidence for options in a folded reply outside the spans already read (the options' own phrases): meaning
 * groups first, longest phrase first ("flu shot" before "flu"), then single label words in other forms.
 */
export function optionEvidence(options: readonly NormalOption[], folded: string, taken: ReadonlyArray<{ start: number; end: number }>, pack: LanguagePack): OptionEvidence[] {
  const m = pack.options.meaning;
  if (!m) return [];
  const c = compile(options, pack, m);
  const toks = tokens(folded, m).filter((t) => !taken.some((s) => t.start < s.end && s.start < t.end));
  const used = new Array<boolean>(toks.length).fill(false);
  const out: OptionEvidence[] = [];
  // every group phrase found, longest first; a word belongs to one phrase
  const found: Array<{ at: number; len: number; group: CompiledGroup }> = [];
  for (const g of c.groups) {
    for (const p of g.phrases) {
      if (p.length === 0) continue;
      for (let i = 0; i + p.length <= toks.length; i++) {
        let k = 0;
        while (k < p.length && sameStem(toks[i + k]!.stem, p[k]!) && (k === 0 || toks[i + k]!.start - toks[i + k - 1]!.end <= 2)) k++;
        if (k === p.length) found.push({ at: i, len: p.length, group: g });
      }
    }
  }
  // longest first; of two as long, a group this question's options name before one they do not ("tripping" is a fault here, not a fall)
  found.sort((a, b) => b.len - a.len || Number(b.group.owners.length > 0) - Number(a.group.owners.length > 0) || a.at - b.at);
  for (const f of found) {
    if (used.slice(f.at, f.at + f.len).some(Boolean)) continue;
    for (let k = f.at; k < f.at + f.len; k++) used[k] = true;
    if (f.group.neutral) continue;
    if (f.group.voids) out.push({ owners: [], start: toks[f.at]!.start, end: toks[f.at + f.len - 1]!.end, via: 'meaning', voids: true });
    else if (f.group.owners.length > 0) out.push({ owners: f.group.owners, start: toks[f.at]!.start, end: toks[f.at + f.len - 1]!.end, via: 'meaning', ...(f.group.generic ? { generic: true as const } : {}), ...(f.group.weak ? { weak: true as const } : {}) });
  }
  // German compounds: "Garantiefall", "Initiativbewerbung" — a word no phrase read, beginning or ending with a group's word
  if (m.compounds) {
    toks.forEach((t, i) => {
      if (used[i]) return;
      const word = folded.slice(t.start, t.end);
      const groups = compoundGroups(word, c, m);
      if (groups.length === 0) return;
      used[i] = true;
      for (const g of groups) out.push({ owners: g.owners, start: t.start, end: t.end, via: 'meaning', ...(g.generic ? { generic: true as const } : {}), ...(g.weak ? { weak: true as const } : {}) });
    });
  }
  toks.forEach((t, i) => {
    if (used[i]) return;
    // "head" for "Headache": a word of the language that begins one option's compound label word names it
    const word = folded.slice(t.start, t.end);
    const owner = c.distinct.get(t.stem) ?? [...c.distinct].find(([s]) => sameStem(s, t.stem))?.[1];
    const begun = owner === undefined && t.stem.length >= 4 && pack.isWord?.(word) ? [...c.distinct].find(([s]) => s.length >= t.stem.length + 3 && s.startsWith(t.stem))?.[1] : undefined;
    if (owner !== undefined) out.push({ owners: [owner], start: t.start, end: t.end, via: 'word' });
    else if (begun !== undefined) out.push({ owners: [begun], start: t.start, end: t.end, via: 'word', prefix: true });
  });
  return out.sort((a, b) => a.start - b.start);
}

/**
 * Whether a folded word is a compound that begins with `head` ("flutlichtanlage" with "flutlicht"): three letters or more
 * follow, and they are no suffix of the language's `notSuffix` list ("schmerzlos" is no "schmerz").
 */
export function beginsCompound(word: string, head: string, notSuffix: ReadonlySet<string>): boolean {
  return word.length - head.length >= 3 && word.startsWith(head) && !notSuffix.has(word.slice(head.length));
}

const compoundWords = new WeakMap<OptionMeaningWords, ReadonlyArray<{ word: string; group: string }>>();

/**
 * The groups a compound word names by its first or last part ("garantiefall" → repair, "initiativbewerbung" → job): the
 * longest one-word group entry of four letters or more it begins with (the rest three letters or more and no suffix such
 * as "los") and the longest it ends with (after four letters or more: "verkaufen" is no "kaufen"); only groups that name an option of this question.
 */
function compoundGroups(word: string, c: CompiledMeaning, m: OptionMeaningWords): CompiledGroup[] {
  if (!m.compounds || word.length < 7 || !/^\p{L}+$/u.test(word)) return [];
  let entries = compoundWords.get(m);
  if (!entries) {
    entries = m.groups.filter((g) => !g.voids && !g.neutral).flatMap((g) => g.words.map(foldPhrase).filter((w) => /^\p{L}{4,}$/u.test(w)).map((w) => ({ word: w, group: g.name })))
      .sort((a, b) => b.word.length - a.word.length);
    compoundWords.set(m, entries);
  }
  const notSuffix = new Set(m.compounds.notSuffix.map(foldPhrase));
  const head = entries.find((e) => beginsCompound(word, e.word, notSuffix));
  // (a head needs a real word before it: "verkaufen" is no "kaufen", "ver" being a prefix of the verb)
  const tail = entries.find((e) => word.length - e.word.length >= 4 && word.endsWith(e.word));
  const names = [...new Set([head?.group, tail?.group].filter((n): n is string => n !== undefined))];
  return names.map((n) => c.groups.find((g) => g.name === n)!).filter((g) => g.owners.length > 0);
}

/**
 * Whether a stem read as a word of an option's label ("led" of "Buy new LED lighting") is no word of the meaning the
 * option stands for: the option is named by a meaning group of the pack (buy, repair, research …) and the stem is none of
 * that group's words. Such a word says what the reply is about, not which option: alone, it is checked.
 */
export function offMeaningWord(options: readonly NormalOption[], pack: LanguagePack, owner: number, stem: string): boolean {
  const m = pack.options.meaning;
  if (!m) return false;
  const c = compile(options, pack, m);
  const { groupStems } = packStems(pack, m);
  const mine = c.groups.filter((g) => !g.weak && !g.generic && g.owners.length === 1 && g.owners[0] === owner && m.groups.find((x) => x.name === g.name)?.broader === undefined);
  if (mine.length === 0) return false;
  return !mine.some((g) => [...(groupStems.get(g.name) ?? [])].some((s) => sameStem(s, stem)));
}

/**
 * Whether a folded reply holds a hedge of the pack ("probably", "vielleicht"), a skip phrase ("no idea") or asks a
 * question back — outside the spans that name an option (an option called "Not sure" is no hedge).
 */
export function hedged(folded: string, pack: LanguagePack, inside: ReadonlyArray<{ start: number; end: number }> = [], unsureOnly = false): boolean {
  if (folded.includes('?')) return true;
  const m = pack.options.meaning;
  // `unsureOnly`: a date read against windows of time is an estimate already ("probably in the autumn"): the pack's estimate
  // words are no doubt there; "either", "not sure" still are
  const estimates = new Set(unsureOnly ? (m?.time?.estimates ?? []).map(foldPhrase) : []);
  const phrases = [...(m?.hedges ?? []).filter((h) => !estimates.has(foldPhrase(h))), ...pack.lexicon.skip].map(foldPhrase).filter(Boolean);
  for (const p of phrases) {
    for (let at = folded.indexOf(p); at !== -1; at = folded.indexOf(p, at + 1)) {
      const before = folded[at - 1], after = folded[at + p.length];
      if ((before !== undefined && /[\p{L}\p{N}]/u.test(before)) || (after !== undefined && /[\p{L}\p{N}]/u.test(after))) continue;
      if (!inside.some((s) => s.start <= at && at + p.length <= s.end)) return true;
    }
  }
  return false;
}

/** The options a meaning group of the pack points at on these options ("urgent" → "As soon as possible"); empty when none. */
export function groupOwners(options: readonly NormalOption[], pack: LanguagePack, name: string): readonly number[] {
  const m = pack.options.meaning;
  if (!m) return [];
  return compile(options, pack, m).groups.find((g) => g.name === name)?.owners ?? [];
}
