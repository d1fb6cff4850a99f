import type { OpenQuestion } from '../extractor.ts';
import type { LanguagePack } from '../../language/pack.ts';
import { findPhrase, fold, foldPhrase } from '../parse/index.ts';
import { questionForm } from './not-an-answer.ts';

/*
 * YES/NO BY CONTENT: a reply with no yes or no word that describes, or denies, what the question
 * asks about answers it, as a front desk would record it.
 *  - A denial of existence, where the prompt asks whether there is any ("Do you take any …?", "Is
 *    anything unsafe …?", "Ist gerade etwas …?"): "none", "nothing like that", "not that I know of",
 *    "she's not on anything", "nicht dass ich wüsste", "nichts dergleichen" → no.
 *  - The prompt's own listed items ("exposed wiring, sparking, or a fixture or pole that looks like it
 *    could fall"; "chest pain or trouble breathing"), in any word form ("sparks", "gefunkt", "wires",
 *    "allergic"), asserted → yes ("saw a few sparks last night"); denied by a negator before them in
 *    their clause, by a word saying they are fine ("breathing fine", "keine losen Teile") or ended
 *    ("no longer") → no. Items only count where the prompt's question lists things (a comma or an
 *    "or"); both asserted and denied, or a question back, and nothing is read.
 *  - Kinds the prompt asks about by a general word ("any medications … supplements", "allergies to medicines,
 *    foods or latex"): a member named ("just vitamin D", "peanuts", "tylenol sometimes") → yes; "only/just X" where
 *    X is a member of a kind the prompt does not name and names none of its items ("just the cough" at "chest pain
 *    or trouble breathing", "only to cats" at "medicines, foods or latex") → no.
 *  - "all fine", "looks fine", "alles in Ordnung" where the prompt asks whether there is anything → no.
 *  - A fact that rules the topic out ("I'm a guy", "hysterectomy", "she's 7" at "could you be pregnant") → no.
 *  - An item asserted beside items denied ("no sparks, but a cable is hanging out") → yes: the denial is of one item.
 * The commit rule then judges the rest of the reply like any yes or no (remarks.ts).
 */

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’]*/gu;
/** Where a clause ends inside a folded reply (punctuation): the words after a "no" that it may deny stop there. */
const CLAUSE_END = /[,;:.!?()[\]—–]/u;
const clauseCache = new WeakMap<LanguagePack, RegExp>();

/** Where a reply splits into clauses: punctuation, a spaced dash, and the pack's "but" and "and" words. */
function clauseOf(pack: LanguagePack): RegExp {
  let re = clauseCache.get(pack);
  if (!re) {
    const { and, but } = pack.lexicon.conjunctions;
    const words = [...but, ...and].map((w) => w.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')).join('|');
    re = new RegExp(`[,;:!?.()[\\]—–]+|\\s-\\s|(?<![\\p{L}\\p{N}_])(?:${words})(?![\\p{L}\\p{N}_])`, 'iu');
    clauseCache.set(pack, re);
  }
  return re;
}

/** A word's stem for matching an item: "sparking"/"sparks"/"sparked" → "spark", "gefunkt"/"Funken" → "funk". */
function stem(w: string): string {
  let s = w.replace(/['’]s$/u, '');
  if (s.length > 6 && s.startsWith('ge')) s = s.slice(2);
  for (const end of ['ing', 'ung', 'ies', 'es', 'ed', 'en', 'er', 's', 'e', 't']) {
    if (s.length - end.length >= 3 && s.endsWith(end)) return s.slice(0, -end.length);
  }
  return s;
}

/** Whether a reply word names an item word: the same stem, or one begins the other by five letters or more ("Funkenflug"). */
function names(word: string, item: string): boolean {
  if (word.length < 4) return false;
  const a = stem(word);
  const b = stem(item);
  // "Masten" for "Mast": one's stem is the other word whole (the stem of "Mast" cuts its "t")
  if (a === b || a === item || word === b) return true;
  const n = Math.min(a.length, b.length);
  if (n >= 5 && (a.startsWith(b) || b.startsWith(a))) return true;
  // "dizzy" / "dizziness": a common start of four letters or more that is most of the shorter stem
  let common = 0;
  while (common < n && a[common] === b[common]) common++;
  return common >= 4 && common >= 0.8 * n;
}

const itemCache = new WeakMap<OpenQuestion, string[]>();
const plainCache = new WeakMap<LanguagePack, ReadonlySet<string>>();

/** Words that say nothing about the question: the pack's filler and its yes and no words. */
function plainOf(pack: LanguagePack): ReadonlySet<string> {
  let set = plainCache.get(pack);
  if (!set) {
    const lex = pack.lexicon;
    set = new Set([...lex.filler, ...lex.skipFiller, ...lex.joinFiller, ...lex.yes, ...lex.no, ...lex.negators].flatMap((w) => foldPhrase(w).match(WORD) ?? []));
    plainCache.set(pack, set);
  }
  return set;
}

/** The content words of the question's own sentence when it lists things ("…: exposed wiring, sparking, or a fixture…"); empty otherwise. */
function itemsOf(q: OpenQuestion, pack: LanguagePack): string[] {
  let items = itemCache.get(q);
  if (!items) {
    const prompt = q.prompt ?? '';
    const question = prompt.includes('?') ? prompt.slice(0, prompt.indexOf('?')) : prompt;
    const folded = fold(question).text;
    const words = pack.yesNo;
    const lists = words !== undefined && (question.includes(',') || words.listJoiners.some((j) => findPhrase(folded, foldPhrase(j)).length > 0));
    const common = pack.names.reply.common();
    const filler = new Set([...pack.lexicon.filler, ...pack.lexicon.skipFiller, ...(words?.notItems ?? [])].map(foldPhrase));
    items = lists ? [...new Set(folded.match(WORD) ?? [])].filter((w) => w.length >= 4 && !common.has(w) && !filler.has(w)) : [];
    // "cable" names the prompt's "wiring": a group of words for one thing names the item whichever is said
    for (const group of words?.alike ?? []) if (group.some((g) => items!.some((i) => names(foldPhrase(g), i)))) items.push(...group.map(foldPhrase));
    itemCache.set(q, items);
  }
  return items;
}

const has = (text: string, phrases: readonly string[]) => phrases.some((p) => findPhrase(text, foldPhrase(p)).length > 0);

/**
 * The reply with each yes word that says a thing named is fine blanked (the pack's `fine` words that are also yes words,
 * "ok", "okay", "passt"), where one of the prompt's items stands within three words before it in its clause: "breathing ok",
 * "I can breathe ok", "Kabel ok" say the item is fine — content, no yes to the question. Same length, so spans keep their place.
 */
export function fineBlanked(q: OpenQuestion, text: string, pack: LanguagePack): string {
  const words = pack.yesNo;
  if (!words || q.answer.type !== 'boolean') return text;
  const items = itemsOf(q, pack);
  if (items.length === 0) return text;
  const yes = new Set(pack.lexicon.yes.map(foldPhrase));
  const fine = words.fine.map(foldPhrase).filter((w) => yes.has(w));
  const folded = fold(text);
  let out = text;
  for (const w of fine) {
    for (const at of findPhrase(folded.text, w)) {
      const before = (folded.text.slice(0, at).split(CLAUSE_END).at(-1)!.match(WORD) ?? []).slice(-3);
      if (!before.some((b) => items.some((item) => names(b, item)))) continue;
      const from = folded.starts[at]!;
      const to = folded.ends[at + w.length - 1]!;
      out = out.slice(0, from) + ' '.repeat(to - from) + out.slice(to);
    }
  }
  return out;
}

/**
 * What a reply without a yes or no word says about the question by its content: true, false, or null when it says neither.
 * `hedged`: the yes was read beside a clause that only hedges ("maybe? amoxicillin gave me hives once") — the visitor doubts
 * it counts, so it is checked with them, never committed.
 */
export function yesNoByContent(q: OpenQuestion, text: string, pack: LanguagePack): { value: boolean; evidence: string; whole?: true; hedged?: true } | null {
  const words = pack.yesNo;
  if (!words || q.answer.type !== 'boolean') return null;
  // "kinda? one fixture is hanging at a weird angle", "maybe? amoxicillin gave me a rash", "fish oil, does that count?": a hedge
  // asked, or whether a thing of a kind the prompt names counts, beside clauses that say what there is — those clauses answer;
  // a hedge said of it ("maybe", "not sure", "vielleicht") leaves the yes to be checked
  const apart = hedgeApart(q, text, pack);
  if (apart !== null) {
    const r = yesNoByContent(q, apart.rest, pack);
    return r !== null && r.value && r.whole ? (apart.hedged ? { value: true, evidence: r.evidence, hedged: true } : r) : null;
  }
  if (text.includes('?')) return null;
  const lex = pack.lexicon;
  // a yes, a no, a synonym of the flow or a hedge said in words is the parser's to read ("kind of, my chest feels tight"
  // stays a hedge, "both indoor and outdoor" two answers); a word inside "right now" or "alles ok" says neither
  let plain = fold(fineBlanked(q, text, pack)).text;
  for (const p of pack.leftovers?.plain ?? []) for (const at of findPhrase(plain, foldPhrase(p)).reverse()) plain = plain.slice(0, at) + ' '.repeat(foldPhrase(p).length) + plain.slice(at + foldPhrase(p).length);
  const spec = q.answer;
  const synonyms = [...(spec.synonyms?.true ?? []), ...(spec.synonyms?.false ?? [])];
  // "tylenol sometimes when I need it": how often one takes a thing of the kind asked about is no half answer
  const often = new Set((words.frequency ?? []).map(foldPhrase));
  const member = membersIn(q, fold(text).text, pack).some((m) => m.named);
  const half = lex.neither.filter((p) => !(member && often.has(foldPhrase(p))));
  // "could be, we've been trying" at "Is there any chance you could be pregnant?": the chance asked about is a yes
  const chance = words.chance;
  if (chance && has(fold(q.prompt ?? '').text, chance.asks) && has(plain, chance.possible)
    && !has(plain, [...lex.no, ...lex.negators, ...lex.askBack, ...(pack.leftovers?.unsure ?? []), 'unlikely', 'doubt', 'unwahrscheinlich', 'glaube nicht'])) {
    return { value: true, evidence: text.trim(), whole: true };
  }
  // "fine whatever", "meinetwegen" where the prompt asks for agreement: a reluctant assent is a yes
  if (assents(q, text, pack)) return { value: true, evidence: text.trim(), whole: true };
  // "too many to list 😩", "a few", "jede Menge" where the prompt asks whether there are any: a number of them is a yes
  if (has(fold(q.prompt ?? '').text, words.any) && quantityOnly(text, pack)) return { value: true, evidence: text.trim(), whole: true };
  // "kinda hard to breathe", "kind of, my chest feels tight": a degree beside an item the prompt lists is that item, mildly — a
  // yes; a degree alone ("kinda?") or any other half answer is asked about
  const degrees = new Set((pack.options.meaning?.degrees ?? []).map(foldPhrase));
  const halfSaid = half.filter((p) => has(plain, [p]));
  const degreeOnly = halfSaid.length > 0 && halfSaid.every((p) => degrees.has(foldPhrase(p)));
  // "define unsafe", "what do you mean by loose": a question back about a word of the prompt answers nothing
  if (has(plain, [...(degreeOnly ? [] : half), ...lex.skip, ...lex.yes, ...lex.no, ...lex.both, ...synonyms, ...lex.askBack])) return null;
  if (degreeOnly) {
    // "kind of hard to breathe when I go up stairs": only at times — no yes to "right now"
    if (has(plain, [...(words.conditions ?? []), ...(words.frequency ?? []), ...(pack.leftovers?.compete ?? [])])) return null;
    const r = read(q, text, pack, has(fold(q.prompt ?? '').text, words.any));
    return r.asserted !== null && r.denied === null ? { value: true, evidence: r.asserted } : null;
  }
  const out = ruledOut(q, text, pack);
  if (out) return { value: false, evidence: out };
  const r = read(q, text, pack, has(fold(q.prompt ?? '').text, words.any));
  // "keine Funken, aber ein Kabel hängt raus": an item asserted beside items denied is a yes
  // `whole`: every clause was read, so the value needs no check ("used to take metformin but stopped in the summer")
  const whole = r.unread === 0 ? { whole: true as const } : {};
  if (r.asserted !== null && (r.denied === null || r.itemDenialOnly)) return { value: true, evidence: r.asserted, ...whole };
  if (r.denied !== null && r.asserted === null) return { value: false, evidence: r.denied, ...whole };
  return null;
}

/**
 * How the content of a reply stands to the yes or no the parser read in it: `true` when a "no" denies only items and
 * another item is asserted ("no sparks, but a cable is hanging out" → yes); `agrees` when the content says the same
 * as the word ("no chest pain, only a runny nose"; "yes, peanuts"), so the rest needs no check; null otherwise.
 */
export function contentBeside(q: OpenQuestion, text: string, pack: LanguagePack, said: boolean): { flip: boolean } | { agrees: true } | null {
  const words = pack.yesNo;
  if (!words || q.answer.type !== 'boolean' || text.includes('?')) return null;
  if (has(fold(text).text, pack.lexicon.askBack)) return null;
  const r = read(q, text, pack, has(fold(q.prompt ?? '').text, words.any));
  if (!said && r.asserted !== null && noOnlyBeforeItems(q, text, pack)) return { flip: true };
  // the content agrees only when it accounts for every clause ("no sparks, but there's a box open at the base" is checked)
  if (r.unread > 0) return null;
  if (said && r.asserted !== null && r.denied === null) return { agrees: true };
  if (!said && r.denied !== null && r.asserted === null) return { agrees: true };
  return null;
}

/** Whether a reply names one of the prompt's listed items without denying it ("no, but there's a cable hanging out"): beside a no, it competes. */
export function assertsItem(q: OpenQuestion, text: string, pack: LanguagePack): boolean {
  return pack.yesNo !== undefined && q.answer.type === 'boolean' && read(q, text, pack, false).asserted !== null;
}

/** Every "no" word of the reply stands right before one of the prompt's items ("no sparks", "keine Funken"): it denies that item, not the question. */
function noOnlyBeforeItems(q: OpenQuestion, text: string, pack: LanguagePack): boolean {
  const items = itemsOf(q, pack);
  const folded = fold(text).text;
  let any = false;
  for (const p of [...pack.lexicon.no, ...(pack.yesNo?.none ?? [])].map(foldPhrase)) {
    for (const at of findPhrase(folded, p)) {
      any = true;
      // the words after it in its own clause: "nothing dangerous, the fixture just stays dark" denies no fixture
      const next = (folded.slice(at + p.length).split(CLAUSE_END)[0]!.match(WORD) ?? []).slice(0, 3);
      if (!next.some((w) => items.some((item) => names(w, item)))) return false;
    }
  }
  return any;
}

interface KindSets {
  /** Members of kinds the prompt names, and of those it does not, folded, longest first. */
  members: ReadonlyArray<{ phrase: string; named: boolean }>;
}

const kindCache = new WeakMap<OpenQuestion, KindSets>();

/** The kinds' members, marked by whether the prompt's question names their kind ("medications", "foods"). */
function kindsOf(q: OpenQuestion, pack: LanguagePack): KindSets {
  let k = kindCache.get(q);
  if (!k) {
    const prompt = q.prompt ?? '';
    const question = fold(prompt.includes('?') ? prompt.slice(0, prompt.indexOf('?')) : prompt).text;
    const members = (pack.yesNo?.kinds ?? []).flatMap((kind) => {
      const named = kind.names.some((n) => findPhrase(question, foldPhrase(n)).length > 0);
      return kind.members.map((m) => ({ phrase: foldPhrase(m), named }));
    }).sort((a, b) => b.phrase.length - a.phrase.length);
    k = { members };
    kindCache.set(q, k);
  }
  return k;
}

/** The kinds' members named in a folded text, longest first, not overlapping, with where they are. */
function membersIn(q: OpenQuestion, folded: string, pack: LanguagePack): Array<{ at: number; end: number; named: boolean }> {
  const out: Array<{ at: number; end: number; named: boolean }> = [];
  for (const m of kindsOf(q, pack).members) {
    for (const at of findPhrase(folded, m.phrase)) {
      const end = at + m.phrase.length;
      if (!out.some((o) => at < o.end && o.at < end)) out.push({ at, end, named: m.named });
    }
  }
  return out.sort((a, b) => a.at - b.at);
}

/** A fact that rules the question's topic out ("I'm a guy", "she's 7" at "could you be pregnant?"), as typed; null when none. */
function ruledOut(q: OpenQuestion, text: string, pack: LanguagePack): string | null {
  const prompt = fold(q.prompt ?? '').text.match(WORD) ?? [];
  const folded = fold(text).text;
  const negators = pack.lexicon.negators.map(foldPhrase);
  for (const rule of pack.yesNo?.rulesOut ?? []) {
    if (!prompt.some((w) => rule.topic.some((t) => w.startsWith(t)))) continue;
    for (const f of rule.facts) {
      for (const at of findPhrase(folded, foldPhrase(f))) {
        const before = (folded.slice(0, at).match(WORD) ?? []).slice(-2).join(' ');
        if (!has(before, negators)) return text.trim();
      }
    }
    const age = rule.age?.exec(folded.replace(/[.!]+\s*$/u, ''));
    if (age && rule.under !== undefined && Number(age[1]) < rule.under) return text.trim();
  }
  return null;
}

/**
 * The first clause asserting an item (or a thing of a kind asked about) and the first denial (an item denied, "only" a
 * thing outside what is asked, "all fine", or "none" where the prompt asks whether there is any), as typed; whether
 * every denial was of a listed item ("no sparks") rather than of the question as a whole.
 */
function read(q: OpenQuestion, text: string, pack: LanguagePack, asksAny: boolean): { asserted: string | null; denied: string | null; itemDenialOnly: boolean; unread: number } {
  const words = pack.yesNo!;
  const lex = pack.lexicon;
  let asserted: string | null = null;
  let denied: string | null = null;
  let itemDenialOnly = true;
  // clauses with a word that is neither filler nor a yes or no, and where nothing was read
  let unread = 0;
  const plainWords = plainOf(pack);
  const items = itemsOf(q, pack);
  const prompt = new Set((fold(q.prompt ?? '').text.match(WORD) ?? []).map(stem));
  const negators = lex.negators.map(foldPhrase);
  const only = (words.only ?? []).map(foldPhrase);
  const joiners = [...words.listJoiners, ...(words.negatedJoiners ?? [])].map(foldPhrase);
  for (const typed of text.split(clauseOf(pack))) {
    const clause = fold(typed).text;
    const ws = clause.match(WORD) ?? [];
    if (ws.length === 0) continue;
    const shown = typed.match(WORD) ?? [];
    let seen = false;
    const assert = (what: string) => { seen = true; asserted ??= what; };
    const deny = (what: string) => { seen = true; denied ??= what; };
    const fine = has(clause, words.fine) || has(clause, words.ended);
    // "we taped off the area just in case": a step taken against a danger the prompt lists
    if (items.length > 0 && has(clause, words.precautions ?? [])) assert(typed.trim());
    // "keine Funken" denies an item (read below), "keine" alone the question
    // "nothing regular", "none prescribed", "nichts Regelmäßiges": a word right after the "none" that narrows it (no filler, no word
    // of the prompt's) denies only part of what is asked — something else may be taken — so the clause is not read as a no
    const narrowed = (after: string) => {
      const next = after.match(WORD)?.[0];
      return next !== undefined && !/^[,;:.!?]/u.test(after.trimStart()) && !plainWords.has(next) && !prompt.has(stem(next)) && !items.some((item) => names(next, item));
    };
    // ("keine Gefahr": a "none" that is a negator too is an article, the word after it what is denied)
    const noneAlone = words.none.map(foldPhrase).some((n) => findPhrase(clause, n).some((at) => !(clause.slice(at + n.length).match(WORD) ?? []).slice(0, 3).some((w) => items.some((item) => names(w, item)))
      && (negators.includes(n) || !narrowed(clause.slice(at + n.length)))));
    if (asksAny && (noneAlone || negatedAny(ws, negators, words.anyWords) || has(clause, words.allFine ?? []))) {
      deny(typed.trim());
      itemDenialOnly = false;
    }
    // a thing of a kind the prompt names ("vitamin D" at "any medications … supplements"), or "only" one it does not
    let itemNamed = false;
    for (let i = 0; i < ws.length; i++) if (items.some((item) => names(ws[i]!, item))) itemNamed = true;
    for (const m of membersIn(q, clause, pack)) {
      const before = (clause.slice(0, m.at).match(WORD) ?? []).slice(-3).join(' ');
      if (m.named) {
        if (fine || has(before, lex.negators) || has(before, words.none)) deny(typed.trim());
        else assert(typed.trim());
      } else if (!itemNamed && only.some((o) => findPhrase(before, o).length > 0) && !has(before, words.onlyWhen ?? [])) {
        // "just the cough" denies the item asked; "only when I cough" says it happens at times (nothing read)
        deny(typed.trim());
        itemDenialOnly = false;
      }
    }
    // "not anymore, lost it when I changed jobs", "it lapsed last month": an answer that has ended is a no; "stopped in the
    // summer" beside a thing denied already is part of that denial
    if (has(clause, words.ended) && !seen) {
      if (items.length === 0 || !itemNamed) { deny(typed.trim()); itemDenialOnly = false; }
    }
    // "just checked": a clause mentioning a check or a repair without a problem competes with nothing
    if (has(clause, words.neutral) && !itemNamed) seen = true;
    if (items.length === 0 || has(clause, words.neutral)) {
      if (!seen && ws.some((w) => !plainWords.has(w))) unread++;
      continue;
    }
    // "the wiring was redone last year": a thing named without a problem says neither (above)
    // "no exposed wiring or sparks": a negator's scope runs on over items joined by "or"/"nor"; "Funken eigentlich nicht",
    // "sparks not really": a negator within two words after an item denies it too
    let deniedAt = -1;
    for (let i = 0; i < ws.length; i++) {
      if (!items.some((item) => names(ws[i]!, item))) continue;
      const before = ws.slice(Math.max(0, i - 3), i).join(' ');
      const after = ws.slice(i + 1, i + 3).join(' ');
      const between = deniedAt >= 0 ? ws.slice(deniedAt + 1, i) : [];
      const carried = between.length > 0 && between.length <= 4 && between.some((w) => joiners.includes(w));
      if (fine || carried || has(before, lex.negators) || has(before, words.none) || has(after, lex.negators)) {
        deniedAt = i;
        deny(shown.length === ws.length ? shown[i]! : ws[i]!);
      } else assert(typed.trim());
    }
    if (!seen && ws.some((w) => !plainWords.has(w))) unread++;
  }
  return { asserted, denied, itemDenialOnly, unread };
}

/** "she's not on anything", "I don't take any": a negator with "any"/"anything" after it in the clause. */
function negatedAny(ws: readonly string[], negators: readonly string[], anyWords: readonly string[]): boolean {
  const text = ws.join(' ');
  return negators.some((n) => findPhrase(text, n).some((at) => {
    const after = text.slice(at + n.length).trim().split(' ').slice(0, 3);
    return after.some((w) => anyWords.includes(w));
  }));
}

/** Whether a reply is only quantity words (the pack's `quantityOnly`: "lots", "too many to list", "a few", "jede Menge") and filler. */
function quantityOnly(text: string, pack: LanguagePack): boolean {
  let t = ` ${fold(text).text.replace(/[^\p{L}\p{N}' ]+/gu, ' ').replace(/\s+/g, ' ').trim()} `;
  if (t.trim() === '' || /\p{N}/u.test(t) || t.trim().split(' ').length > 8) return false;
  let hit = false;
  for (const p of [...pack.text.quantityOnly, ...(pack.yesNo?.many ?? [])].map(foldPhrase).sort((a, b) => b.length - a.length)) {
    if (t.includes(` ${p} `)) {
      t = t.split(` ${p} `).join(' ');
      hit = true;
    }
  }
  const plain = plainOf(pack);
  return hit && t.trim().split(' ').every((w) => w === '' || plain.has(w) || ['of', 'them', 'things', 'stuff', 'davon', 'sachen', 'honestly', 'really'].includes(w));
}

/** Whether the prompt asks for agreement and the reply is only a reluctant assent and filler ("fine whatever", "von mir aus"). */
function assents(q: OpenQuestion, text: string, pack: LanguagePack): boolean {
  const a = pack.yesNo?.assent;
  if (!a || !has(fold(q.prompt ?? '').text, a.asks)) return false;
  let t = ` ${fold(text).text.replace(/’/g, "'").replace(/[^\p{L}\p{N}' ]+/gu, ' ').replace(/\s+/g, ' ').trim()} `;
  if (has(t, a.not) || t.trim().split(' ').length > 8) return false;
  let hit = false;
  for (const p of [...a.words].map(foldPhrase).sort((x, y) => y.length - x.length)) {
    if (t.includes(` ${p} `)) {
      t = t.split(` ${p} `).join(' ');
      hit = true;
    }
  }
  const plain = plainOf(pack);
  return hit && t.trim().split(' ').every((w) => w === '' || plain.has(w));
}

/**
 * The reply without its clauses that only hedge ("kinda?", "maybe?", "not sure": the lexicon's `neither` and `skip` phrases and
 * filler) or only ask whether it counts ("does that count?", beside a thing of a kind the prompt names), a question mark after a
 * statement dropped ("the pole is leaning a bit since the storm?"), and whether a hedge was set apart (`hedged`); null when there
 * is no such clause, nothing else, a yes or no word in a hedge clause, or another clause with the form of a question.
 */
function hedgeApart(q: OpenQuestion, text: string, pack: LanguagePack): { rest: string; hedged: boolean } | null {
  const lex = pack.lexicon;
  const form = pack.text.questionForm;
  const clauses = text.split(/(?<=[?])|[,;:.!…]+|\s[—–-]\s/u).map((c) => c.trim()).filter((c) => /[\p{L}\p{N}]/u.test(c));
  if (clauses.length < 2) return null;
  const plain = plainOf(pack);
  // (where the prompt asks whether there is a chance, a possibility said is the answer, no hedge: "kann sein, …" at a pregnancy)
  const chance = pack.yesNo?.chance;
  const possible = new Set(chance && has(fold(q.prompt ?? '').text, chance.asks) ? chance.possible.map(foldPhrase) : []);
  const hedges = [...lex.neither, ...lex.skip].map(foldPhrase).filter((h) => !possible.has(h)).sort((a, b) => b.length - a.length);
  const degrees = new Set((pack.options.meaning?.degrees ?? []).map(foldPhrase));
  const counts = new Set([...(form?.aux ?? []), ...(form?.subjects ?? []), ...(form?.scope ?? [])].map(foldPhrase));
  let apart = 0;
  let asksCount = false;
  let hedgedApart = false;
  const kept: string[] = [];
  for (const c of clauses) {
    let f = ` ${fold(c).text.replace(/[^\p{L}\p{N}' ]+/gu, ' ').replace(/\s+/g, ' ').trim()} `;
    let hedged = false;
    let doubt = false;
    for (const h of hedges) if (f.includes(` ${h} `)) { f = f.split(` ${h} `).join(' '); hedged = true; doubt ||= !degrees.has(h); }
    const left = f.trim().split(' ').filter((w) => w !== '');
    // ("kinda?", "kind of" say how much, not whether: a degree set apart leaves the yes sure)
    if (hedged && left.every((w) => plain.has(w) && !has(w, [...lex.yes, ...lex.no]))) { apart++; hedgedApart ||= doubt; continue; }
    if (questionForm(c, pack)) {
      // "does that count", "zählt das": whether what the other clauses name counts
      if (left.every((w) => counts.has(w) || plain.has(w)) && (form?.scope ?? []).some((sc) => has(f, [sc]))) { apart++; asksCount = true; continue; }
      return null;
    }
    kept.push(c.replace(/[?\s]+$/u, ''));
  }
  if (apart === 0 || kept.length === 0) return null;
  const rest = kept.join(', ');
  // "fish oil, does that count?" counts only where the prompt names its kind ("… medicines and supplements")
  if (asksCount && !membersIn(q, fold(rest).text, pack).some((m) => m.named)) return null;
  return { rest, hedged: hedgedApart };
}

/**
 * Whether a "none" of the reply is narrowed by the word right after it ("nothing regular", "none prescribed", "nichts
 * Regelmäßiges": no filler, no word of the prompt's, not an article "none" like "keine"): a no read from it (a flow's synonym
 * "nothing") denies only part of what is asked and is checked.
 */
export function narrowedNone(q: OpenQuestion, text: string, pack: LanguagePack): boolean {
  const words = pack.yesNo;
  if (!words) return false;
  const folded = fold(text).text;
  const plainWords = plainOf(pack);
  const negators = pack.lexicon.negators.map(foldPhrase);
  const prompt = new Set((fold(q.prompt ?? '').text.match(WORD) ?? []).map(stem));
  const longer = words.none.map(foldPhrase);
  // "nix gefährlich", "nothing unsafe": the flow's own words after it, or a phrase saying all is fine, are what is denied
  if (has(folded, words.allFine ?? [])) return false;
  const spec = q.answer.type === 'boolean' ? q.answer : undefined;
  const own = new Set([...(spec?.synonyms?.true ?? []), ...(spec?.synonyms?.false ?? [])].flatMap((w) => foldPhrase(w).match(WORD) ?? []));
  return words.none.map(foldPhrase).filter((n) => !negators.includes(n)).some((n) => findPhrase(folded, n).some((at) => {
    // a longer "none" phrase holding this one ("nothing at all", "none known") is no narrowing
    if (longer.some((l) => l.length > n.length && l.startsWith(n) && folded.slice(at, at + l.length) === l)) return false;
    const after = folded.slice(at + n.length);
    const next = after.match(WORD)?.[0];
    return next !== undefined && !/^[,;:.!?]/u.test(after.trimStart()) && !plainWords.has(next) && !prompt.has(stem(next)) && !own.has(next);
  }));
}
