import type { LanguagePack } from '../../language/pack.ts';
import type { ValuePartWords } from '../../language/text-words.ts';
import { fold, foldPhrase } from '../parse/index.ts';

/*
 * WHICH PART OF A SHORT REPLY IS THE VALUE — a company, a club, an insurer
 * (docs/understanding.md, "Short text and codes"). Beside the value a visitor
 * says where it comes from, how it changed, what kind of place it is, or which
 * part of it is meant; none of that is the record:
 *
 *  - a source said before it: "the card says Meridian", "my husband says it's
 *    Aetna", "on the invoice it's Acme Ltd", "laut Karte die TK", "auf der
 *    Rechnung steht Hohenberg" → the value after it;
 *  - a change over time: "we switched to Humana in January", "used to be
 *    Aetna, now Cigna", "Cigna (was Aetna until last year)", "früher AOK, jetzt
 *    TK", "seit Januar die TK" → the value now; a change still to come
 *    ("switching to Cigna next month") leaves two candidates: asked which;
 *  - a description beside a name: "we're a small pickleball club, Dink
 *    Masters", "Dink Masters, a small pickleball club", "ein kleiner Verein,
 *    der TSV Hohenberg" → the name (a description names nothing: it starts
 *    with an indefinite article);
 *  - after the name, a part of the site ("the tennis side", "the gym not the
 *    field", "for the middle school gym", "es geht um die Sporthalle"), how it
 *    is had ("through my husband's job", "über meinen Arbeitgeber") or a code
 *    for another question ("member ID is U48812233") → the name alone.
 *
 * Each rule takes a part only when the rest is accounted for by its words; a
 * part it does not know is left to the short-text rules (a trailing clause is
 * checked once).
 */

/** A word of a reply as typed, folded, and where it stands. */
interface Tok { raw: string; f: string; start: number; end: number }

const TOKEN = /[\p{L}\p{N}]+(?:['’.&-][\p{L}\p{N}]+)*['’]?/gu;

/** The words of a text, as typed and folded. */
function toks(text: string): Tok[] {
  return [...text.matchAll(TOKEN)].map((m) => ({ raw: m[0], f: foldPhrase(m[0]).replace(/’/g, "'"), start: m.index, end: m.index + m[0].length }));
}

/** The length in words of the longest phrase of `list` at word `i` of `t`, or 0. */
function phraseAt(t: Tok[], i: number, list: readonly string[]): number {
  let best = 0;
  for (const p of list) {
    const words = foldPhrase(p).replace(/’/g, "'").split(/\s+/).filter((x) => x !== '');
    if (words.length > best && words.every((w, k) => t[i + k]?.f === w)) best = words.length;
  }
  return best;
}

/** Whether a word was typed with a capital and is not the first word of the part. */
function named(tok: Tok, first: boolean): boolean {
  return /^\p{Lu}/u.test(tok.raw) && !first && tok.raw !== 'I';
}

/** The text from word `i` on, as typed, without the punctuation around it. */
function from(text: string, t: Tok[], i: number, j = t.length): string {
  if (i >= j) return '';
  return text.slice(t[i]!.start, t[j - 1]!.end).replace(/^[\s,;:—–-]+|[\s,;:—–-]+$/gu, '').trim();
}

/** The pack's words for this, or null when the language has none. */
function wordsOf(pack: LanguagePack): ValuePartWords | null {
  return pack.text.valueParts ?? null;
}

/**
 * A source said before the value ("the card says Meridian", "on the invoice it's Acme Ltd", "laut Karte die TK"): the
 * value after it, or the text unchanged. The words before a source verb are at most five, typed without a capital or
 * a digit; a place before the value names a source noun ("card", "invoice", "Karte").
 */
export function withoutSource(typed: string, pack: LanguagePack): string {
  const w = wordsOf(pack);
  if (!w) return typed;
  const text = withoutWaiting(typed, pack, w);
  const t = toks(text);
  for (let i = 0; i < Math.min(t.length - 1, 7); i++) {
    const before = t.slice(0, i);
    if (before.some((x, k) => /\p{N}/u.test(x.raw) || named(x, k === 0))) break;
    // "the card says", "my husband says it's", "it reads"
    const verb = i > 0 ? phraseAt(t, i, w.sourceVerbs) : 0;
    // "on the invoice it's", "laut Karte", "auf der Karte steht", "according to the card,"
    const place = i === 0 ? placeAt(t, w) : 0;
    const cut = verb > 0 ? i + verb : place;
    if (cut === 0) continue;
    let k = cut;
    const then = phraseAt(t, k, w.sourceThen);
    k += then;
    const rest = withoutShownAfter(from(text, t, k), w);
    if (/[\p{L}\p{N}]/u.test(rest) && k < t.length) return withoutPlaceAfter(rest, w);
    break;
  }
  return withoutPlaceAfter(text, w);
}

/** The value after a source without where the source shows it ("Anthem on it", "AOK drauf"), when something is left. */
function withoutShownAfter(text: string, w: ValuePartWords): string {
  const t = toks(text);
  for (let s = 1; s < t.length; s++) {
    const n = phraseAt(t, s, w.sourceAfter ?? []);
    if (n > 0 && s + n === t.length) return from(text, t, 0, s);
  }
  return text;
}

/** The value without a source named after it ("Northfield Padel on the invoice", "die TK laut Karte"), when something is left. */
function withoutPlaceAfter(text: string, w: ValuePartWords): string {
  const t = toks(text);
  for (let s = 1; s < t.length; s++) {
    const prep = phraseAt(t, s, w.sourceBefore);
    if (prep === 0 || t.length - s - prep > 3) continue;
    const after = t.slice(s + prep);
    const noun = after.at(-1);
    if (after.length === 0 || !noun || !w.sourceNouns.some((n) => noun.f === foldPhrase(n) || (foldPhrase(n).length >= 5 && noun.f.endsWith(foldPhrase(n))))) continue;
    // only small words between the preposition and the noun ("on the invoice", "on my card")
    if (after.slice(0, -1).some((x) => /^\p{Lu}/u.test(x.raw) || x.f.length > 5)) continue;
    const value = from(text, t, 0, s);
    if (/[\p{L}\p{N}]/u.test(value)) return value;
  }
  return text;
}

/** At the start, a place naming a source ("on the invoice", "laut Karte", "auf meiner Karte steht"): the words it takes, or 0. */
function placeAt(t: Tok[], w: ValuePartWords): number {
  const prep = phraseAt(t, 0, w.sourceBefore);
  if (prep === 0) return 0;
  // the last source noun within four words ("on the front of the card it's Molina")
  let found = 0;
  for (let j = prep; j < Math.min(t.length - 1, prep + 5); j++) {
    if (/\p{N}/u.test(t[j]!.raw)) break;
    if (w.sourceNouns.some((n) => t[j]!.f === foldPhrase(n) || (foldPhrase(n).length >= 5 && t[j]!.f.endsWith(foldPhrase(n))))) found = j + 1;
  }
  // German puts the verb next ("auf der Karte steht X"); a verb there is part of the source
  return found === 0 ? 0 : found + phraseAt(t, found, w.sourceVerbs);
}

/** What a change over time leaves: the value now, a question (a change still to come), or null (no change said). */
export type Current = { value: string } | { ask: true } | null;

/**
 * The value now when a reply says how it changed ("we switched to Humana in January", "used to be Aetna, now Cigna",
 * "Cigna (was Aetna until last year)", "früher AOK, jetzt TK", "seit Januar die TK"); a change still to come
 * ("switching to Cigna next month", "ab Februar die TK") is asked about; null when the reply says no change.
 */
export function currentValue(text: string, pack: LanguagePack): Current {
  const w = wordsOf(pack);
  if (!w) return null;
  const t = toks(text);
  if (t.some((_, i) => phraseAt(t, i, w.future) > 0)) return t.some((_, i) => phraseAt(t, i, [...w.before, ...w.switchedTo, ...w.now]) > 0) || hasTwoNames(text, t) ? { ask: true } : null;
  // "we switched to Humana in January", "changed from Aetna to Humana": the value after the switch, to the clause's end
  for (let i = 0; i < t.length; i++) {
    const n = phraseAt(t, i, w.switchedTo);
    if (n === 0) continue;
    // "Cigna, I think. Might've switched to Humana in January", "vielleicht sind wir zur TK gewechselt": a change in doubt says no value now
    if (doubtsChange(text, t, pack)) return { ask: true };
    let k = i + n;
    // "changed from Aetna to Humana": the value after "to"; "we switched from Aetna" alone says no value now
    if (w.switchFrom.includes(t[k - 1]!.f) || phraseAt(t, k, w.switchFrom) > 0) {
      const end = clauseEnd(text, t, k);
      const to = t.slice(k, end).findIndex((x) => w.switchTo.includes(x.f));
      if (to < 0) return { ask: true };
      k += to + 1;
    }
    const end = clauseEnd(text, t, k);
    const value = trimTime(text, t, k, end, w);
    if (value !== null) return { value };
  }
  // German word order: "wir sind zur TK gewechselt", "zur Barmer gewechselt"
  for (let i = 0; i < t.length; i++) {
    if (!w.switchedAfter.includes(t[i]!.f)) continue;
    let s = i - 1;
    while (s >= 0 && !w.switchTo.includes(t[s]!.f) && clauseEnd(text, t, s) > i) s--;
    if (s < 0 || !w.switchTo.includes(t[s]!.f)) continue;
    const value = trimTime(text, t, s + 1, i, w);
    if (value !== null) return { value };
  }
  // clauses: one says the value ended ("used to be Aetna", "was Aetna until last year", "früher AOK"), another is the value now
  const parts = clauses(text, t);
  if (parts.length < 2) return sinceAlone(text, t, w);
  const old = parts.filter((p) => markedAt(t, p, [...w.before]));
  if (old.length === 0) return null;
  const rest = parts.filter((p) => !old.includes(p));
  if (rest.length !== 1) return null;
  const p = rest[0]!;
  let k = p.from;
  k += phraseAt(t, k, w.now);
  const value = trimTime(text, t, k, p.to, w, true);
  return value === null ? null : { value };
}

/**
 * Whether a reply doubts the change it tells: a question mark, a not-knowing phrase (the pack's `unsure`), a guess (the
 * leftovers' `estimate.guesses`: "maybe", "probably", "I think", "vielleicht", "glaube") or a modal of what may have been
 * ("might've", "may have", "could have", "könnte").
 */
function doubtsChange(text: string, t: Tok[], pack: LanguagePack): boolean {
  if (text.includes('?')) return true;
  const guesses = (pack.leftovers?.estimate?.guesses ?? []).filter((g) => !['if', 'wenn', 'falls', 'depends', 'depending', 'hängt'].includes(g));
  const list = [...pack.text.unsure, ...guesses, ...MAY_HAVE];
  if (t.some((_, i) => phraseAt(t, i, list) > 0)) return true;
  return t.some((x) => /^(?:might|may|could|must)(?:'ve|’ve)$/u.test(x.f));
}

/** Modals of what may have been, in the packs' languages. */
const MAY_HAVE = ['might have', 'may have', 'could have', 'might be', 'may be', 'könnte', 'könnten', 'kann sein', 'il se peut', 'peut-être', 'puede que', 'quizás'];

/** "seit Januar die TK", "since January it's Humana" at the start: the value after the time, else null. */
function sinceAlone(text: string, t: Tok[], w: ValuePartWords): Current {
  // "Humana since January", "die TK seit Januar": a time the value holds since, at the end
  for (let s = 1; s < t.length - 1; s++) {
    if (!(w.now.includes(t[s]!.f) && w.timeBefore.includes(t[s]!.f))) continue;
    if (t.slice(s + 1).every((x) => isTimeWord(x, w) || w.timeBefore.includes(x.f))) {
      const value = from(text, t, 0, s);
      return /[\p{L}]/u.test(value) ? { value } : null;
    }
  }
  const lead = phraseAt(t, 0, w.now);
  if (lead === 0 || !w.timeBefore.includes(t[0]!.f)) return null;
  let k = lead;
  while (k < t.length && k < lead + 3 && isTimeWord(t[k]!, w)) k++;
  if (k === lead) return null;
  k += phraseAt(t, k, w.sourceThen);
  const value = from(text, t, k);
  return /[\p{L}]/u.test(value) ? { value } : null;
}

/** Whether the reply names two things in capitals apart ("Kaiser … Humana"). */
function hasTwoNames(text: string, t: Tok[]): boolean {
  return clauses(text, t).filter((p) => t.slice(p.from, p.to).some((x, k) => named(x, k === 0) || (k === 0 && /^\p{Lu}/u.test(x.raw)))).length >= 2;
}

/** Whether a clause holds one of the markers. */
function markedAt(t: Tok[], p: { from: number; to: number }, list: readonly string[]): boolean {
  for (let i = p.from; i < p.to; i++) if (phraseAt(t, i, list) > 0) return true;
  return false;
}

const BREAK = /[,;:()\[\]]|\s[—–-]\s|[—–]|\.(?:\s|$)|\?|!/u;

/** The clauses of a reply as word ranges, at commas, brackets, dashes, full stops and "but". */
function clauses(text: string, t: Tok[]): Array<{ from: number; to: number }> {
  const out: Array<{ from: number; to: number }> = [];
  let start = 0;
  for (let i = 1; i <= t.length; i++) {
    const gap = i < t.length ? text.slice(t[i - 1]!.end, t[i]!.start) : '';
    if (i === t.length || BREAK.test(gap) || ['but', 'aber', 'mais', 'pero'].includes(t[i]!.f)) {
      out.push({ from: start, to: i });
      start = ['but', 'aber', 'mais', 'pero'].includes(t[i]?.f ?? '') ? i + 1 : i;
    }
  }
  return out.filter((p) => p.to > p.from);
}

/** Where the clause holding word `k` ends (a word index). */
function clauseEnd(text: string, t: Tok[], k: number): number {
  for (const p of clauses(text, t)) if (k >= p.from && k < p.to) return p.to;
  return t.length;
}

/** Whether a word belongs to a time ("january", "year", "2023", "Januar"). */
function isTimeWord(tok: Tok, w: ValuePartWords): boolean {
  return /^\p{N}+$/u.test(tok.raw) || w.timeWords.includes(tok.f);
}

/**
 * The words from `from` to `to` without a time phrase at either end ("in January", "since last year", "as of this
 * month", "seit Januar") and a "now" word ("now", "jetzt"), as typed; null when nothing named is left.
 */
function trimTime(text: string, t: Tok[], start: number, end: number, w: ValuePartWords, nowToo = false): string | null {
  let a = start;
  let b = end;
  for (let pass = 0; pass < 3; pass++) {
    const before = [a, b];
    if (nowToo) a += phraseAt(t, a, w.now);
    // a time phrase at the end: a preposition, then time words only
    for (let s = Math.max(a + 1, b - 4); s < b; s++) {
      if (!w.timeBefore.includes(t[s]!.f) && !isTimeWord(t[s]!, w)) continue;
      if (t.slice(s, b).every((x) => isTimeWord(x, w) || w.timeBefore.includes(x.f)) && t.slice(s, b).some((x) => isTimeWord(x, w))) {
        b = s;
        break;
      }
    }
    // a time phrase at the start ("since January, Humana")
    if (w.timeBefore.includes(t[a]?.f ?? '')) {
      let k = a + 1;
      while (k < b && isTimeWord(t[k]!, w)) k++;
      if (k > a + 1 && k < b) a = k;
    }
    if (nowToo && b - 1 > a && phraseAt(t, b - 1, w.now) === 1) b -= 1;
    if (before[0] === a && before[1] === b) break;
  }
  a += phraseAt(t, a, w.sourceThen);
  const value = from(text, t, a, b);
  return /[\p{L}]/u.test(value) ? value : null;
}

/** Whether a part only describes ("a small pickleball club", "we're a small club", "ein kleiner Verein"): an indefinite article first, no name in it. */
export function describes(part: string, pack: LanguagePack): boolean {
  const w = wordsOf(pack);
  if (!w) return false;
  const t = toks(part);
  let i = phraseAt(t, 0, w.weAre);
  // "a small pickleball club", "unseren tennisclub": an indefinite article or a possessive, then only description
  if (!(w.indefinite.includes(t[i]?.f ?? '') || w.possessive.includes(t[i]?.f ?? '')) || t.length - i < 2) return false;
  // a description says what kind of place or person it is ("club", "charity", "contractor", "Tennisverein"): "my sister" is none
  const kinds = [...pack.text.vagueNouns, ...w.siteNouns, ...w.kinds, ...pack.names.reply.roles].map(foldPhrase);
  if (!t.slice(i + 1).some((x) => kinds.some((k) => x.f === k || x.f === `${k}s` || (k.length >= 4 && x.f.endsWith(k))))) return false;
  // English capitals name something ("a Texas club"); German capitalises every noun, so there only a word of capitals does ("ein TSV")
  return t.slice(i + 1).every((x) => !/\p{N}/u.test(x.raw) && (pack.code === 'de' ? !/^\p{Lu}{2,}$/u.test(x.raw) : !/^\p{Lu}/u.test(x.raw)));
}

/** Whether a part names something: a word typed with a capital (in German: a word of capitals or one that is no noun of the pack's lists). */
export function namesSomething(part: string, pack: LanguagePack): boolean {
  const w = wordsOf(pack);
  const t = toks(part);
  if (pack.code !== 'de') return t.some((x) => /^\p{Lu}/u.test(x.raw) && x.raw !== 'I');
  const kinds = [...(w?.siteNouns ?? []), ...pack.text.vagueNouns].map(foldPhrase);
  return t.some((x) => /^\p{Lu}{2,}$/u.test(x.raw) || (/^\p{Lu}/u.test(x.raw) && !kinds.some((k) => x.f === k || (k.length >= 4 && x.f.endsWith(k)))));
}

/**
 * Whether a trailing part only narrows or explains the name before it: a part of the site ("the tennis side", "the gym
 * not the field", "for the middle school gym", "es geht um die Sporthalle am Schulzentrum"), how it is had ("through
 * my husband's job", "über meinen Arbeitgeber"), or a description ("a small pickleball club"). It names nothing else and
 * holds no digit.
 */
export function narrows(tail: string, pack: LanguagePack): boolean {
  const w = wordsOf(pack);
  if (!w || /\p{N}/u.test(tail)) return false;
  const t = toks(tail);
  if (t.length === 0) return false;
  if (describes(tail, pack)) return true;
  const lead = phraseAt(t, 0, w.siteLead);
  const via = phraseAt(t, 0, w.via);
  const site = (x: Tok) => w.siteNouns.map(foldPhrase).some((n) => x.f === n || x.f === `${n}s` || (n.length >= 4 && x.f.endsWith(n)));
  // another name in it ("the council owns Riverside") is not a narrowing
  const other = pack.code === 'de' ? t.slice(lead).some((x) => /^\p{Lu}{2,}$/u.test(x.raw)) : t.slice(1).some((x) => /^\p{Lu}/u.test(x.raw) && x.raw !== 'I');
  if (other) return false;
  // "(Sporthalle)", "(gym)", "(the courts)": only the part of the site, with no lead
  const small = new Set([...w.siteLead.flatMap((x) => foldPhrase(x).split(' ')), ...pack.text.vagueWords.map(foldPhrase)]);
  if (t.length <= 3 && t.some(site) && t.every((x) => site(x) || small.has(x.f))) return true;
  // a clause of its own after the lead ("die Anlage gehört aber der Stadt") says more than which part
  const clause = new Set(pack.text.clauseWords.map(foldPhrase));
  if (lead > 0 && t.slice(lead).some(site) && !t.some((x) => w.competes.includes(x.f)) && !t.slice(lead).some((x) => clause.has(x.f))) return true;
  // "through my husband's job", "via work": how it is had, naming nothing
  if (via > 0 && t.length - via <= 4 && t.slice(via).every((x) => pack.text.vagueWords.map(foldPhrase).includes(x.f) || pack.text.vagueNouns.map(foldPhrase).includes(x.f) || w.viaNouns.includes(x.f) || /['’]s$/u.test(x.raw)
    // "thru my dads job": a possessive typed without its apostrophe
    || (x.f.endsWith('s') && w.viaNouns.includes(x.f.slice(0, -1))))) return true;
  return false;
}

/**
 * Whether a trailing part is a remark about people that names nothing and competes with nothing: "my husband is active
 * duty", "she handles the billing", "mein Mann ist da versichert" — it starts with a possessive and a relation or with a
 * pronoun (the name pack's `statement`), holds no digit, no name (a capital only on "I", a relation or a common word), no
 * hedge, negation, contrast or change ("used to", "switched", "now").
 */
export function aboutPeople(tail: string, pack: LanguagePack): boolean {
  const w = wordsOf(pack);
  if (!w || /\p{N}/u.test(tail)) return false;
  const t = toks(tail);
  if (t.length < 3) return false;
  const names = pack.names.reply;
  const relation = (x: Tok) => names.relations.has(x.f.replace(/'s$/u, ''));
  const opens = (w.possessive.includes(t[0]!.f) && t[1] !== undefined && relation(t[1]!)) || (names.statement?.test(tail.trim().toLowerCase()) ?? false);
  if (!opens) return false;
  const common = names.common();
  if (t.some((x) => /^\p{Lu}/u.test(x.raw) && x.raw !== 'I' && !/^I['’]/u.test(x.raw) && !relation(x) && !common.has(x.f))) return false;
  const doubt = [...w.competes, ...w.before, ...w.switchedTo, ...w.future, ...pack.lexicon.negators, ...pack.text.unsure, 'now', 'jetzt'];
  // "my husband thinks": a verb's other form too
  const bare = t.map((x) => ({ ...x, f: x.f.replace(/(?<=\p{L}{3})(?:s|t)$/u, '') }));
  return !t.some((_, i) => phraseAt(t, i, doubt) > 0 || phraseAt(bare, i, doubt) > 0);
}

/** Whether a trailing part says where the project is ("the project is at Westfield Middle", "das Projekt ist in der Halle Nord"). */
export function saysSite(tail: string, pack: LanguagePack): boolean {
  const re = wordsOf(pack)?.siteIs;
  if (re === undefined || /\p{N}/u.test(tail) || !re.test(fold(tail).text.replace(/’/g, "'"))) return false;
  // "the install is for a client - Pine Hills Country Club": whom it is for, named, is a second candidate, not where it is
  return !(FOR_WHOM.test(tail) && toks(tail).slice(1).some((x) => /^\p{Lu}\p{Ll}/u.test(x.raw)));
}

/** "for", "für", "pour", "para": a site clause with one says whom the project is for. */
const FOR_WHOM = /(?<![\p{L}])(?:for|für|fuer|pour|para)(?![\p{L}])/iu;

/** A short answer without how it is had said after it without a comma ("UnitedHealthcare via my wife's job"): the value before, else unchanged. */
export function withoutViaAfter(text: string, pack: LanguagePack): string {
  const w = wordsOf(pack);
  if (!w) return text;
  const t = toks(text);
  for (let s = 1; s < t.length - 1; s++) {
    if (phraseAt(t, s, w.via) === 0) continue;
    const tail = text.slice(t[s]!.start);
    if (!narrows(tail, pack) || describes(tail, pack)) continue;
    const value = from(text, t, 0, s);
    if (/[\p{L}]/u.test(value)) return value;
  }
  return text;
}

/** The reply without clauses before the value that only wait or say where it is ("its on the card hold on... Cigna" → "Cigna"). */
function withoutWaiting(text: string, pack: LanguagePack, w: ValuePartWords): string {
  const t = toks(text);
  const parts = clauses(text, t);
  const quiet = new Set([...w.waiting, ...w.sourceNouns, ...w.sourceBefore, ...w.sourceThen, ...(pack.text.discourse ?? [])].flatMap((x) => foldPhrase(x).replace(/’/g, "'").split(/\s+/)));
  let k = 0;
  while (k < parts.length - 1 && t.slice(parts[k]!.from, parts[k]!.to).every((x) => quiet.has(x.f))) k++;
  return k === 0 ? text : from(text, t, parts[k]!.from);
}

/** Whether a short answer holds a word standing in for what the visitor does not know, typed in lower case ("blue something", "irgendwas mit Sport"). */
export function hasPlaceholder(text: string, pack: LanguagePack): boolean {
  const w = wordsOf(pack);
  if (!w) return false;
  const t = toks(text);
  return t.some((x, i) => /^\p{Ll}/u.test(x.raw) && phraseAt(t, i, w.placeholder) > 0);
}

/** A name without the town said after it without a comma ("Grundschule Am Wall in Bremen" → "Grundschule Am Wall"), when the rest names something. */
export function withoutTownAfter(text: string, pack: LanguagePack): string {
  const w = wordsOf(pack);
  if (!w) return text;
  const t = toks(text);
  for (let s = 2; s < t.length - 1; s++) {
    const n = phraseAt(t, s, w.placeAfter);
    if (n === 0 || t.length - s - n > 2) continue;
    // the town: one or two words with a capital, to the end
    if (!t.slice(s + n).every((x) => /^\p{Lu}/u.test(x.raw))) continue;
    const value = from(text, t, 0, s);
    if (namesSomething(value.split(/\s+/).slice(1).join(' '), pack) && !/[,;(]/u.test(value)) return value;
  }
  return text;
}
