import type { OpenQuestion } from '../extractor.ts';
import type { LanguagePack } from '../../language/pack.ts';
import { findPhrase, fold, foldPhrase } from '../parse/index.ts';
import { keepAbbreviationDots } from './abbreviation-dots.ts';
import { isCurrencyCode } from '../parse/money.ts';

/*
 * EXPLAINED LEFTOVERS (the commit rule, docs/understanding.md): once a value is read, the words
 * left over are a remark — a reason, a story, a source of money, an aside — unless something in
 * them competes with the value: a hedge, a contrast or condition ("but", "unless", "maybe"), an
 * answer that ended ("used to", "no longer"), a correction marker, a question, a negation where
 * it can deny the value, and for a number or a date a second figure, a rate ("per court", "a
 * month") or a bound ("after", "until"). "Dec 25th, 1956 — a Christmas baby!", "cell is 415 555
 * 0132, best after 3pm", "yep BCBS", "zero, we were hoping for sponsorship lol" are committed;
 * "yes but the card's at home", "i think 11/2/1950" are still checked.
 *
 * A number is stricter: words in its own clause must say where it comes from or what it covers
 * ("board approved 60k", "1.2 million for the whole stadium", "vom Förderverein"); another word
 * there ("we spent 20k") is checked as before. Other clauses are remarks as for any value.
 */

const MARK = 'qqvalueqq';
const CLAUSE = /[,;:!.()[\]{}—–…]+|\s-\s|\n/u;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’]*/gu;

const cache = new WeakMap<LanguagePack, { compete: string[]; contactCompete: string[]; date: string[]; number: string[]; negators: string[]; bound: string[] }>();

function listsOf(pack: LanguagePack) {
  let l = cache.get(pack);
  if (!l && pack.leftovers) {
    const w = pack.leftovers;
    const free = new Set(w.besideContact.map(foldPhrase));
    l = { compete: w.compete.map(foldPhrase), contactCompete: w.compete.map(foldPhrase).filter((c) => !free.has(c)), date: w.dateCompete.map(foldPhrase), number: w.numberCompete.map(foldPhrase), negators: pack.lexicon.negators.map(foldPhrase), bound: w.bound.map(foldPhrase) };
    cache.set(pack, l);
  }
  return l;
}

const TYPES = new Set(['boolean', 'integer', 'number', 'date', 'phone', 'email', 'url']);

/**
 * At an estimate question (its prompt invites a ballpark: the pack's `estimate.invited`), a number reply with its
 * guesses ("40k-ish", "maybe a bit more", "so um die") and question marks blanked, so one figure softened is committed;
 * elsewhere the reply as it is.
 */
export function estimateBlanked(text: string, q: OpenQuestion, pack: LanguagePack): string {
  const est = pack.leftovers?.estimate;
  if (!est || (q.answer.type !== 'integer' && q.answer.type !== 'number') || !est.invited.test(q.prompt ?? '')) return text;
  // a question mark softens the figure it follows ("30k? maybe more", "maybe 40k?"); one ending a clause of its own without a
  // figure asks something back about the amount ("10k max, is that enough?", "höchstens 10.000, reicht das?"): it stays
  const guesses = [...est.guesses].map(foldPhrase);
  const softens = (clause: string) => {
    if (/\p{N}/u.test(clause) || pack.wordNumbers(clause).length > 0) return true;
    let f = fold(clause).text;
    for (const g of guesses) for (const at of findPhrase(f, g).reverse()) f = f.slice(0, at) + ' '.repeat(g.length) + f.slice(at + g.length);
    return !/\p{L}/u.test(f);
  };
  // "40k-ish", "50ish": the ending said onto the figure
  let out = text.replace(/[^,;.!?]*\?+/gu, (clause) => (softens(clause.replace(/\?/gu, '')) ? clause.replace(/\?/gu, '.') : clause)).replace(/(?<=[\p{N}kK])[-\s]?ish(?![\p{L}])/gu, (m) => ' '.repeat(m.length));
  for (const phrase of [...est.guesses].map(foldPhrase).sort((a, b) => b.length - a.length)) {
    const f = fold(out);
    // blanked in the reply as typed, through the fold's map back to it (folding joins spaces)
    for (const at of findPhrase(f.text, phrase)) {
      const start = f.starts[at]!;
      const end = f.ends[at + phrase.length - 1]!;
      out = out.slice(0, start) + ' '.repeat(end - start) + out.slice(end);
    }
  }
  return out;
}

/**
 * Whether a reply says its value is a guess ("… but not sure", "ohne Gewähr"), or, at a money question, an amount for now
 * ("$0 right now, we're pricing for next year", "20k for now", "im Moment 0 €"), whatever else it holds.
 */
export function unsureBeside(text: string, q: OpenQuestion, pack: LanguagePack): boolean {
  if (!TYPES.has(q.answer.type) || pack.leftovers === undefined) return false;
  const folded = fold(text).text;
  if (has(folded, pack.leftovers.unsure.map(foldPhrase))) return true;
  const a = q.answer;
  const money = (a.type === 'integer' || a.type === 'number') && (a.currency !== undefined || isCurrencyCode(a.unit));
  return money && has(folded, (pack.leftovers.forNow ?? []).map(foldPhrase));
}

/**
 * Whether a reply at a number question puts a bound below the figure right after it ("less than $8,000", "a bit under
 * 30k", "unter 10.000 $": the pack's `below`): the figure is a ceiling the value lies under, not the value. Read on the
 * reply as typed (an estimate's guesses are not set aside: "a bit less than 30 grand" is still under 30 grand).
 */
export function ceilingBeside(text: string, q: OpenQuestion, pack: LanguagePack): boolean {
  if ((q.answer.type !== 'integer' && q.answer.type !== 'number') || pack.leftovers?.below === undefined) return false;
  const folded = fold(text).text;
  return pack.leftovers.below.map(foldPhrase)
    .some((p) => findPhrase(folded, p).some((at) => /^\s*(?:about|around|approx\S*|ca\S*|etwa|rund)?\s*[$€£¥₹]?\s*\p{N}/u.test(folded.slice(at + p.length))));
}

const has = (clause: string, phrases: readonly string[]) => phrases.some((p) => findPhrase(clause, p).length > 0);

/** A negator within three words before the value's mark ("not 415…", "nicht 0171…"). */
function negatedValue(clause: string, negators: readonly string[]): boolean {
  const at = clause.indexOf(MARK);
  if (at === -1) return false;
  const before = (clause.slice(0, at).match(WORD) ?? []).slice(-3).join(' ');
  return has(before, negators);
}

/**
 * Whether the words a reply leaves over beside its value (`read`: the spans of the value and of
 * other answers found in `text`) are only remarks that neither negate nor compete, so the value
 * may be committed without a check; false when the pack has no leftover words.
 */
export function remarksOnly(text: string, masked: string, read: readonly string[], q: OpenQuestion, pack: LanguagePack, value: unknown, left: readonly string[]): boolean {
  const lists = listsOf(pack);
  const type = q.answer.type;
  // options are matched by their own rules (enum.ts); text answers are not checked here
  if (!lists || !TYPES.has(type) || text.includes('?')) return false;
  // the value's own span marked, so its clause is known; other answers found (contacts) are blank already
  const spans: Array<[number, number]> = [];
  const lower = text.toLowerCase();
  for (const span of read) {
    const at = span ? lower.indexOf(span.toLowerCase()) : -1;
    if (at !== -1 && !spans.some(([s, e]) => at < e && s < at + span.length)) spans.push([at, at + span.length]);
  }
  const spanText = spans.map(([s, e]) => text.slice(s, e)).join(' ');
  let marked = masked;
  for (const [s, e] of spans.sort((a, b) => b[0] - a[0])) marked = `${marked.slice(0, s)} ${MARK} ${marked.slice(e)}`;
  const numeric = type === 'integer' || type === 'number';
  const contact = type === 'phone' || type === 'email' || type === 'url';
  let valueClauses = 0;
  // "Dr. Patel said 60k": a dot after a known abbreviation ends no clause
  for (const raw of keepAbbreviationDots(marked, pack).split(CLAUSE)) {
    const isValue = raw.includes(MARK);
    let clause = fold(raw).text;
    // "but that has to cover installation too", "inkl. Montage", "ist aber noch nicht freigegeben": what the amount covers or how
    // far it is approved is set aside, contrast word and all
    if (numeric) for (const re of pack.leftovers!.numberAside ?? []) clause = clause.replace(re, ' ');
    if (clause.trim() === '') continue;
    if (isValue) valueClauses++;
    // beside a contact, a contrast or an alternative is about the channel ("…@example.org, or call me whenever"): a second
    // value of its type is the parser's to find
    if (has(clause, contact ? lists.contactCompete : lists.compete)) return false;
    // "nothing dangerous": a denial beside a yes
    if (type === 'boolean' && value === true && pack.yesNo && has(clause, pack.yesNo.none.map(foldPhrase))) return false;
    // a second figure beside a number or a date, in digits or in words ("sixteenth of june nineteen seventy")
    // (a digit inside a word is no figure: "a D1 stadium", "our U12 team")
    if ((numeric || type === 'date') && (/(?<![\p{L}\p{N}])\p{N}/u.test(clause.replace(new RegExp(MARK, 'gu'), '')) || pack.wordNumbers(clause.replace(new RegExp(MARK, 'gu'), ' ')).length > 0)) return false;
    if (numeric && has(clause, lists.number)) return false;
    // a bound or a relative day, in the date's own words too ("last tuesday, he's a newborn")
    if (type === 'date' && (has(clause, lists.date) || (isValue && has(fold(spanText).text, lists.date)))) return false;
    // "we're uninsured": a yes made of a pronoun and a verb begins a statement when more words follow in its clause
    if (type === 'boolean' && isValue && lists.bound.includes(fold(spanText).text) && (clause.match(WORD) ?? []).some((w) => w !== MARK && left.includes(w))) return false;
    // a negation: beside a yes it competes wherever it is ("yes, no sparks"), beside a no it agrees ("not right now, it was
    // yesterday"); beside a contact only right before it ("not 0171…"); beside a number or a date anywhere
    if (type === 'boolean' ? value === true && has(clause, lists.negators) : contact ? isValue && negatedValue(clause, lists.negators) : has(clause, lists.negators)) return false;
    if (numeric && isValue) {
      // words in a number's own clause must say where it comes from or what it covers
      let rest = clause.replace(new RegExp(MARK, 'gu'), ' ');
      for (const re of pack.leftovers!.numberExplained) rest = rest.replace(re, ' ');
      if ((rest.match(WORD) ?? []).some((w) => left.includes(w) || left.includes(w.replace(/s$/u, '')))) return false;
    }
  }
  return valueClauses > 0;
}
