import { normalOptions } from '../../flow/answer-types.ts';
import type { OpenQuestion, ProposedUpdate } from '../extractor.ts';
import {
  charBits, coerceValue, findEmails, findPhones, findPhrase, findUrls, fold, foldPhrase, longestHits, mask, mayOccur, originalSlice,
  parseAnswer, type ParseContext, type PhraseHit,
} from '../parse/index.ts';
import { findCurrencies, isCurrencyCode } from '../parse/money.ts';
import { findName, NAME_KEYS } from './name.ts';
import { negated, negatedAfter } from '../parse/enum.ts';
import { beginsCompound } from '../parse/option-meaning.ts';
import { countryInDoubt } from '../parse/phone.ts';
import { packOf } from '../../language/registry.ts';
import type { LanguagePack } from '../../language/pack.ts';

/** Shorter enum phrases ("yes", "led") are too common to read as an answer to a question nobody asked yet. */
const MIN_VOLUNTEERED_PHRASE = 4;
const SELF_EVIDENT = 0.9;
const BY_OPTION = 0.8;
const BY_NAME = 0.85;

/**
 * Values for OTHER open questions that the message gives unambiguously:
 * email, phone and URL (self-identifying), enum options named by a distinctive
 * phrase that belongs to one question only, "my name is …" for a name key, and
 * an age said as one ("she's 35", "35 years old") for the one age question.
 * Never another free-text or number answer for a question that was not asked.
 */
export function volunteeredUpdates(
  text: string,
  current: OpenQuestion | null,
  open: readonly OpenQuestion[],
  ctx: ParseContext,
): ProposedUpdate[] {
  const others = open.filter((q) => q.key !== current?.key);
  const updates: ProposedUpdate[] = [];

  const emails = findEmails(text);
  const urls = findUrls(text).filter((u) => u.distinctive);
  // a phone volunteered at another question has at least 7 digits: "40.000" is a short number in some plans, but an amount here
  // … and is not one a neighbour country may own while the message names none ("044 123 45 67" in a German session: asked at its question)
  const phones = findPhones(text, ctx).filter((p) => (text.slice(p.start, p.end).match(/\d/g)?.length ?? 0) >= 7 && !countryInDoubt(text, p, ctx));
  // most messages hold no address or number: nothing is listed or counted for them
  if (emails.length > 0) addSelfEvident(updates, ctx, text, current, others, 'email', emails);
  if (urls.length > 0) addSelfEvident(updates, ctx, text, current, others, 'url', urls);
  if (phones.length > 0) addSelfEvident(updates, ctx, text, current, others, 'phone', phones);

  for (const u of optionUpdates(text, current, others, packOf(ctx.locale))) {
    const q = others.find((o) => o.key === u.key)!;
    add(updates, ctx, q, u.value, BY_OPTION, u.evidence);
  }

  const money = moneyUpdate(text, current, others, ctx);
  if (money) add(updates, ctx, money.q, money.value, BY_OPTION, money.evidence);

  const age = ageUpdate(text, others, packOf(ctx.locale));
  if (age) add(updates, ctx, age.q, age.value, SELF_EVIDENT, age.evidence);

  if (!(current && NAME_KEYS.has(current.key))) {
    let plain: string | undefined; // masked when a name question is open (most turns have none)
    for (const q of others) {
      if (!NAME_KEYS.has(q.key) || q.answer.type !== 'text') continue;
      plain ??= emails.length + urls.length + phones.length === 0 ? text : mask(text, [...emails, ...urls, ...phones].map((f) => [f.start, f.end] as const));
      const name = findName(plain, q.key === 'first_name' ? 1 : 3);
      if (name) add(updates, ctx, q, name.value, BY_NAME, name.evidence);
    }
  }
  return updates.length < 2 ? updates : updates.sort((a, b) => others.findIndex((q) => q.key === a.key) - others.findIndex((q) => q.key === b.key));
}

/** A question asking an age: an integer question whose key is `age` (`patient_age`) or whose label or prompt asks one. */
const AGE_KEY = /(?:^|_)age(?:_|$)/i;
const AGE_ASKED = /\b(?:age|how old|alter|wie alt)\b/i;

/**
 * An age said in passing ("she's 35", "35 years old": the pack's `age`) for the one open age question that was
 * not asked, so a date of birth and an age given together can be checked against each other (flow-ir.md "Derived
 * answers"); none when the pattern is not found once or no single question asks an age.
 */
function ageUpdate(text: string, others: readonly OpenQuestion[], pack: LanguagePack): { q: OpenQuestion; value: number; evidence: string } | undefined {
  if (!pack.age) return undefined;
  const asks = others.filter((q) => q.answer.type === 'integer' && (AGE_KEY.test(q.key) || AGE_ASKED.test(`${q.label ?? ''} ${q.prompt ?? ''}`)));
  if (asks.length !== 1) return undefined;
  const all = [...text.matchAll(new RegExp(pack.age.source, `${pack.age.flags.replace('g', '')}g`))];
  if (all.length !== 1) return undefined;
  const m = all[0]!;
  return { q: asks[0]!, value: Number(m[1] ?? m[2] ?? m[3]), evidence: m[0] };
}

/** A money question: a number or integer answer with a currency, or a unit that is a currency code. */
const asksMoney = (q: OpenQuestion) => (q.answer.type === 'integer' || q.answer.type === 'number') && (q.answer.currency !== undefined || isCurrencyCode(q.answer.unit));

/**
 * An amount said with its currency ("budget around $30k", "Budget: so 30.000 Dollar") for the one other open money question,
 * when the current question asks no money: the one clause holding a currency, read by that question's own parser (a range,
 * a negated amount, another currency or a per-item figure gives nothing).
 */
function moneyUpdate(text: string, current: OpenQuestion | null, others: readonly OpenQuestion[], ctx: ParseContext): { q: OpenQuestion; value: unknown; evidence: string } | undefined {
  if ((current && asksMoney(current)) || findCurrencies(text).length === 0) return undefined;
  const targets = others.filter(asksMoney);
  if (targets.length !== 1) return undefined;
  const clauses = text.split(/(?<=[,;!?]|\.(?!\d))\s+|\s+(?:and|but|und|aber)\s+/iu).filter((c) => findCurrencies(c).length > 0);
  if (clauses.length !== 1) return undefined;
  const read = parseAnswer(targets[0]!.answer, clauses[0]!, ctx);
  return read.ok && !read.check ? { q: targets[0]!, value: read.value, evidence: read.evidence } : undefined;
}

/** The words of a message written as one compound beginning with an option's one-word spelling ("tennisplatz": Tennis). */
function compoundHits(folded: string, enums: readonly OpenQuestion[], current: OpenQuestion | null, notSuffix: readonly string[]): PhraseHit<Owner>[] {
  const hits: PhraseHit<Owner>[] = [];
  const suffixes = new Set(notSuffix.map(foldPhrase));
  for (const m of folded.matchAll(/\p{L}{8,}/gu)) {
    const word = m[0];
    for (const q of enums) {
      if (q.answer.type !== 'enum') continue;
      for (const sp of spellingsOf(q.answer).spellings) {
        if (sp.folded.length < 5 || !/^\p{L}+$/u.test(sp.folded) || !beginsCompound(word, sp.folded, suffixes)) continue;
        hits.push({ owner: { key: q.key, option: sp.option, folded: sp.folded, eligible: q.key !== current?.key && sp.eligible }, start: m.index, end: m.index + word.length });
      }
    }
  }
  return hits;
}

/** Adds the one value of a self-identifying type found (email, url, phone) for the one other question of that type. */
function addSelfEvident(
  updates: ProposedUpdate[], ctx: ParseContext, text: string, current: OpenQuestion | null, others: readonly OpenQuestion[],
  type: 'email' | 'url' | 'phone', found: ReadonlyArray<{ value: unknown; start: number; end: number }>,
): void {
  // The current question of the same type already took the value; another one would be a guess.
  if (current?.answer.type === type) return;
  const targets = others.filter((q) => q.answer.type === type);
  const values = [...new Set(found.map((f) => f.value))];
  if (targets.length !== 1 || values.length !== 1) return;
  add(updates, ctx, targets[0]!, values[0], SELF_EVIDENT, text.slice(found[0]!.start, found[0]!.end));
}

/** Adds a value for a question not given one yet, if it survives the question's own constraints (a pattern, a date range…). */
function add(updates: ProposedUpdate[], ctx: ParseContext, q: OpenQuestion, value: unknown, confidence: number, evidence: string): void {
  if (updates.some((u) => u.key === q.key)) return;
  const checked = coerceValue(q.answer, value, ctx);
  if (checked.ok) updates.push({ key: q.key, value: checked.value, confidence, evidence });
}

/**
 * Enum options of other questions named in the message. All enum phrases of
 * every open question (the current one too) compete longest-first, so "court"
 * never counts inside another question's "basketball court"; a phrase shared
 * by two questions counts for neither, and a negated one ("no chest pain") for none.
 */
function optionUpdates(text: string, current: OpenQuestion | null, others: readonly OpenQuestion[], pack: LanguagePack): Array<{ key: string; value: unknown; evidence: string }> {
  if (!others.some((q) => q.answer.type === 'enum')) return [];
  const enums: OpenQuestion[] = current?.answer.type === 'enum' ? [current] : [];
  for (const q of others) if (q.answer.type === 'enum') enums.push(q);
  const folded = fold(text);
  // Every occurrence of every spelling, in question, option and spelling order (findHits' order).
  const found: PhraseHit<Owner>[] = [];
  const chars = charBits(folded.text);
  for (const q of enums) {
    if (q.answer.type !== 'enum') continue;
    const eligibleHere = q.key !== current?.key;
    for (const sp of spellingsOf(q.answer).spellings) {
      if (!mayOccur(sp.chars, chars)) continue; // a character the message lacks: not in it
      for (const start of findPhrase(folded.text, sp.folded)) {
        found.push({ owner: { key: q.key, option: sp.option, folded: sp.folded, eligible: eligibleHere && sp.eligible }, start, end: start + sp.folded.length });
      }
    }
  }
  // German compounds: "Tennisplatz", "Basketballhalle" name the sport whose one-word spelling (five letters or more) begins
  // them, the rest being three letters or more and no suffix of the pack's list ("problemlos")
  const compounds = pack.options.meaning?.compounds;
  if (compounds) found.push(...compoundHits(folded.text, enums, current, compounds.notSuffix));
  if (found.length === 0) return [];
  // "no chest pain, just a cough": a negated option is never volunteered, as in a direct answer (parse/enum.ts);
  // "keine Ahnung, bin neu hier": an option word inside a not-knowing phrase ("keine" of "keine Ahnung") answers nothing
  const unsure = unsureSpans(folded.text, pack);
  const hits = longestHits(found).filter((h) => h.owner.eligible && ownerCount(enums, h.owner.folded) === 1
    && !negated(folded.text, h.start, pack) && !negatedAfter(folded.text, h.end, pack)
    && !unsure.some(([a, b]) => h.start >= a && h.end <= b));
  const out: Array<{ key: string; value: unknown; evidence: string }> = [];
  for (const q of others) {
    if (q.answer.type !== 'enum') continue;
    const mine = hits.filter((h) => h.owner.key === q.key);
    const chosen = [...new Set(mine.map((h) => h.owner.option))].sort((a, b) => a - b);
    if (chosen.length === 0 || (!q.answer.multiple && chosen.length > 1)) continue;
    const options = spellingsOf(q.answer).options;
    const values = chosen.map((i) => options[i]!.value);
    const evidence = mine.map((h) => originalSlice(text, folded, h.start, h.end)).join(', ');
    out.push({ key: q.key, value: q.answer.multiple ? values : values[0], evidence });
  }
  return out;
}

/** Where the folded message says it does not know ("no idea", "keine Ahnung", the pack's hedges and unsure starts). */
function unsureSpans(folded: string, pack: LanguagePack): Array<readonly [number, number]> {
  const spans: Array<readonly [number, number]> = [];
  for (const w of [...pack.text.unsure, ...pack.lexicon.neither]) {
    const f = foldPhrase(w);
    if (f === '') continue;
    for (const start of findPhrase(folded, f)) spans.push([start, start + f.length] as const);
  }
  return spans;
}

/** How many of the questions have a phrase of this spelling. */
function ownerCount(enums: readonly OpenQuestion[], f: string): number {
  return new Set(enums.filter((q) => q.answer.type === 'enum' && spellingsOf(q.answer).folded.has(f)).map((q) => q.key)).size;
}

/** Who a found spelling counts for. */
interface Owner {
  key: string;
  option: number;
  folded: string;
  /** A name (label or synonym) long enough to be volunteered, of a question other than the current one. */
  eligible: boolean;
}

type EnumSpec = Extract<OpenQuestion['answer'], { type: 'enum' }>;

interface Spellings {
  options: ReturnType<typeof normalOptions>;
  /** One per folded spelling of each option (a label equal to its value is a single, named one), in option order. */
  spellings: ReadonlyArray<{ option: number; folded: string; eligible: boolean; chars: readonly number[] }>;
  /** Every folded spelling of the spec. */
  folded: ReadonlySet<string>;
}

const spellingCache = new WeakMap<EnumSpec, Spellings>();

/** The folded spellings of a spec's options, built once per spec (a flow's specs do not change after compile). */
function spellingsOf(spec: EnumSpec): Spellings {
  let c = spellingCache.get(spec);
  if (c) return c;
  const options = normalOptions(spec);
  const spellings: Array<{ option: number; folded: string; eligible: boolean; chars: readonly number[] }> = [];
  options.forEach((o, option) => {
    // One candidate per spelling, so a label equal to its value is a single (named) phrase.
    const byFold = new Map<string, boolean>();
    for (const [phrase, named] of [[o.value, false] as const, [o.label, true] as const, ...o.synonyms.map((s) => [s, true] as const)]) {
      const f = foldPhrase(phrase);
      if (f === '') continue;
      byFold.set(f, named || (byFold.get(f) ?? false));
    }
    for (const [f, named] of byFold) spellings.push({ option, folded: f, eligible: named && f.length >= MIN_VOLUNTEERED_PHRASE, chars: charBits(f) });
  });
  c = { options, spellings, folded: new Set(spellings.map((sp) => sp.folded)) };
  spellingCache.set(spec, c);
  return c;
}
