/* The new value a correcting sentence gives an earlier answer (typed, a code of the same shape, a short text said anew). */
import type { LanguagePack } from '../../language/pack.ts';
import { fold, parseAnswer, type ParseContext } from '../parse/index.ts';
import { unexplainedWords } from './commit-rule.ts';
import { yesNoByContent } from './yes-no-content.ts';
import { isName, type Earlier } from './late-earlier.ts';
import { ADDS, APPROX, INTERJECTIONS, LATE, TOTAL, YEAR } from './late-markers.ts';
import { notAName } from './late-name-fix.ts';
import { monthNamed } from '../parse/date.ts';

/** The new value for a typed or free-text earlier answer read from its correcting clause, else the whole sentence (`whole`); undefined when none. */
export function readValue(q: Earlier, sentence: string, clause: string, ctx: ParseContext, marked: boolean, pack?: LanguagePack): { value: unknown; whole: boolean } | undefined {
  const a = q.answer;
  if (a.type === 'text') {
    const code = sameShape(clause, q);
    if (code !== undefined) return { value: code, whole: false };
    // a description of a few words gets the clause added ("it's courts 1 AND 2 actually")
    if (marked && !q.pii && typeof q.value === 'string' && q.value.trim().split(/\s+/).length >= 3 && (a.max === undefined || a.max > 200)) {
      const added = clause.trim().replace(/^(?:and|und|et|y)\s+/iu, '').replace(/[\s,;.!]+$/u, '');
      if ((added.match(/[\p{L}\p{N}]+/gu) ?? []).length >= 3) return { value: `${q.value.trim().replace(/[.!\s]+$/u, '')}. ${added}`, whole: false };
    }
    return undefined;
  }
  for (const [part, whole] of clause === sentence ? [[sentence, true] as const] : [[clause, false] as const, [sentence, true] as const]) {
    if (a.type === 'integer' || a.type === 'number') {
      for (const total of part.matchAll(TOTAL)) {
        const said = parseAnswer(a, (total[1] ?? total[2]!).trim(), ctx);
        if (said.ok) return { value: said.value, whole };
      }
    }
    // a date without a year keeps the year it had: read it without asking for one (a date of birth would)
    const keepsYear = a.type === 'date' && typeof q.value === 'string' && !YEAR.test(part);
    const read = parseAnswer(keepsYear ? { ...a, birth: false } : a, part, ctx);
    // "actually wait, the cover on the junction box is off and you can see wires": a yes/no said by its content
    const content = !read.ok && a.type === 'boolean' && pack ? yesNoByContent(q, part, pack) : null;
    // (a hedged one, "maybe? the pole leans", is no new value: the answer is asked again)
    if (content && !content.hedged) return { value: content.value, whole };
    // "oops typo in the email, it's riversidepadel.co.uk": the domain said anew, the part before the @ kept
    const domain = !read.ok && a.type === 'email' && typeof q.value === 'string' ? newDomain(q.value, part) : undefined;
    if (domain !== undefined) {
      const put = parseAnswer(a, domain, ctx);
      if (put.ok && put.value !== q.value) return { value: put.value, whole };
    }
    if (!read.ok) continue;
    let value = read.value;
    if (a.type === 'date' && typeof value === 'string' && typeof q.value === 'string' && !YEAR.test(part)) value = `${q.value.slice(0, 4)}${value.slice(4)}`;
    if (a.type === 'enum' && a.multiple && Array.isArray(value) && Array.isArray(q.value) && ADDS.test(sentence)) value = [...new Set([...q.value, ...value])];
    return { value, whole };
  }
  return undefined;
}

/** The email with its domain replaced by the one web domain said in the text ("riversidepadel.co.uk"), or undefined. */
function newDomain(email: string, text: string): string | undefined {
  const at = email.lastIndexOf('@');
  if (at <= 0 || text.includes('@')) return undefined;
  const said = [...text.matchAll(/(?<![\p{L}\p{N}@._-])((?:[\p{L}\p{N}][\p{L}\p{N}-]*\.)+\p{L}{2,6})(?![\p{L}\p{N}@_-]|\.[\p{L}\p{N}])/gu)];
  if (said.length !== 1) return undefined;
  return `${email.slice(0, at + 1)}${said[0]![1]!.toLowerCase()}`;
}

/** Whether a word is a month's name cut short ("Jan", "Sept", "Feb."): three letters or more that open one. */
function monthShort(word: string, pack: LanguagePack): boolean {
  const w = fold(word.replace(/\.$/u, '')).text;
  return w.length >= 3 && pack.messages.months.some((m) => fold(m).text.startsWith(w));
}

/** A run of capitalised words, lower-case joiners allowed inside ("Grundschule am Park", "Bank of America"). */
const PROPER_RUN = /(?<![\p{L}\p{N}'’-])[\p{Lu}\p{N}][\p{L}\p{N}'’&.-]*(?:\s+(?:(?:of|the|and|&|am|an|der|die|das|von|de|la|le|du|del|y|und|im|zum|zur|for)\s+)*[\p{Lu}\p{N}][\p{L}\p{N}'’&.-]*)*/gu;
/** A copula before a short answer said anew: "it's", "it is", "es ist", "ist es", "heißt", "called", "the card says". */
const COPULA = /(?<![\p{L}])(?:it['’]?s|it is|is|ist|heißt|heisst|hieß|called|named|says|sagt|steht|should be|sollte|put(?: it)?(?: down)?(?: under| as)?|file it under|list it (?:under|as)|make it|schreiben sie|tragen sie|nehmen sie|setzen sie)(?![\p{L}])/iu;
/** Words beside a short answer said anew that add nothing ("wrong one", "typo", "we switched", "the card says"). */
const SAID_ANEW = new Set(['wrong', 'one', 'typo', 'now', 'switched', 'changed', 'new', 'card', 'says', 'say', 'said', 'meant', 'mean', 'name', 'called',
  'is', 'it', 'its', "it's", 'it’s', 'for', 'a', 'an', 'the', 'our', 'my', 'we', 'oh', 'ah', 'ach', 'ok', 'so', 'and', 'und', 'not', 'really', 'right',
  'ist', 'es', 'für', 'fur', 'den', 'die', 'der', 'das', 'dem', 'ein', 'eine', 'einen', 'unser', 'unseren', 'unsere', 'heißt', 'heisst', 'richtig', 'falsch', 'neu', 'jetzt',
  'verein', 'club', 'school', 'schule', 'organisation', 'organization', 'team', 'private', 'privat', 'project', 'projekt', 'provider', 'insurance', 'versicherung',
  // "put it under …", "put … for the company", "schreiben Sie … rein", "tragen Sie … ein"
  'put', 'under', 'as', 'down', 'company', 'firma', 'sie', 'rein', 'ein', 'hin', 'bitte', 'please', 'doch', 'lieber', 'tragen', 'schreiben', 'setzen', 'nehmen']);
/** A clause giving the reason for a new answer: "I switched jobs", "they switched at new year", "wir haben gewechselt". */
export const REASON = /(?<![\p{L}])(?:switched|changed|moved|new job|new employer|new plan|got a new|gewechselt|neuer job|neuen job|neue stelle|umgezogen)(?![\p{L}])/iu;

/**
 * A short free-text answer (an organisation, an insurer) said anew in a marked sentence: one run of capitalised words
 * ("Lakeview Academy actually, sorry", "it's Humana actually", "Doch, es ist für die Grundschule am Park") with nothing
 * else but markers and the words of SAID_ANEW or the question's own. Not for names, codes, long text or a pii answer.
 */
export function shortTextFix(sentence: string, q: Earlier, ctx: ParseContext, pack: LanguagePack): unknown {
  const a = q.answer;
  if (a.type !== 'text' || q.pii || isName(q) || a.pattern !== undefined || a.max === undefined || a.max > 200) return undefined;
  if (/\p{L}+-?\d{3,}|\d{3,}-?\p{L}+/u.test(q.prompt ?? '')) return undefined;
  pack.corrections.lastIndex = 0;
  // a clause with no capitalised word that gives the reason ("…, I switched jobs", "…, they switched at new year") is set aside
  // (a month or a day of the week in it is a date, no organisation: "…, switched in Jan", "…, changed jobs in March")
  const noReason = sentence.replace(/([,;—–]\s*|\s[-–]\s)([^,;—–]*)$/u, (m, _sep: string, clause: string) => (REASON.test(clause)
    && !(clause.replace(/^\s*I(?![\p{L}])/u, '').match(/(?<![\p{L}])\p{Lu}\p{L}+/gu) ?? []).some((w) => monthNamed(w, pack) === null && !monthShort(w, pack) && !parseAnswer({ type: 'date' }, w, ctx).ok) ? ' '.repeat(m.length) : m));
  const stripped = noReason.replace(pack.corrections, (m) => ' '.repeat(m.length)).replace(new RegExp(LATE.source, 'giu'), (m) => ' '.repeat(m.length))
    .replace(new RegExp(APPROX.source, 'giu'), (m) => ' '.repeat(m.length)).replace(/(?<![\p{L}])(?:doch|eigentlich|wait|warte)(?![\p{L}])/giu, (m) => ' '.repeat(m.length));
  const runs = [...stripped.matchAll(PROPER_RUN)].map((r) => {
    // marker-like or common words opening a sentence ("Oh", "It's", "Doch") are no part of the name
    const parts = r[0].split(/\s+/);
    let i = 0;
    while (i < parts.length && (notAName(parts[i]!, pack) || SAID_ANEW.has(fold(parts[i]!).text))) i++;
    const run = parts.slice(i).join(' ');
    return { run, at: r.index + r[0].length - run.length };
  }).filter((r) => /\p{L}{2,}/u.test(r.run));
  // "sorry its cigna now": in small letters, one to three words between a copula and "now" / "jetzt", nothing else beside them
  if (runs.length === 0) {
    const low = /^[\s,;:.!—–-]*(?:(?:oh|ah|ach|ok|so|and|und|no|nein)[\s,]+)*(?:it['’]?s|it is|es ist|ist)\s+((?:[\p{Ll}&'’.-]+\s+){0,2}[\p{Ll}&'’.-]{3,})\s+(?:now|nowadays|these days|jetzt|inzwischen|mittlerweile)[\s.!,]*$/u.exec(stripped);
    if (low && !low[1]!.split(/\s+/).some((w) => SAID_ANEW.has(fold(w).text) || pack.names.stop.has(fold(w).text))) {
      const read = parseAnswer(a, low[1]!, ctx);
      if (read.ok && !(typeof q.value === 'string' && fold(q.value).text === fold(low[1]!).text)) return read.value;
    }
    return undefined;
  }
  // "the HOA is Oak Ridge Estates HOA": a run named again inside the one after the copula is no second answer
  if (runs.length === 2 && COPULA.test(stripped.slice(runs[0]!.at + runs[0]!.run.length, runs[1]!.at))
    && runs[0]!.run.split(/\s+/).every((w) => runs[1]!.run.split(/\s+/).includes(w))) runs.shift();
  if (runs.length !== 1) return undefined;
  // said as the answer: first in the sentence ("Lakeview Academy actually") or after a copula ("it's", "es ist", "heißt",
  // "the card says"); "Entschuldigung für die Verzögerung" is no answer (German nouns are capitalised)
  const before = stripped.slice(0, runs[0]!.at);
  // (or after a label or a dash: "organisation: Eastside YMCA", "we're a club, yes - Pine Valley Pickleball Club")
  if (/[\p{L}\p{N}]/u.test(before.replace(INTERJECTIONS, '')) && !COPULA.test(before) && !/(?:[:—–]|\s-)\s*$/u.test(before)) return undefined;
  const value = runs[0]!.run.replace(/[.,;:!]+$/u, '');
  // "ID U4409 1120 301": a run holding a code or a long figure is a number said, no organisation said anew
  if (/\p{N}{3,}/u.test(value)) return undefined;
  if (typeof q.value === 'string' && fold(q.value).text === fold(value).text) return undefined;
  const read = parseAnswer(a, value, ctx);
  if (!read.ok) return undefined;
  const valueWords = new Set(value.split(/\s+/).map((w) => fold(w).text));
  const left = unexplainedWords(stripped, [value], q, pack).filter((w) => !SAID_ANEW.has(w) && !valueWords.has(w));
  return left.length === 0 ? read.value : undefined;
}

/** A code in the text shaped like the answer or the prompt's example ("BF-103377" for "looks like BF-104233"); undefined when none. */
export function sameShape(text: string, q: Earlier): string | undefined {
  const shape = (s: string) => s.replace(/\p{L}/gu, 'a').replace(/\p{N}/gu, '9');
  const CODE = /(?<![\p{L}\p{N}-])(?=[\p{L}\p{N}-]*\p{N})(?=[\p{L}\p{N}-]*\p{L})[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*(?![\p{L}\p{N}-])/gu;
  const examples = [...(typeof q.value === 'string' ? [q.value.trim()] : []), ...[...(q.prompt ?? '').matchAll(CODE)].map((c) => c[0])]
    .filter((s) => /\p{N}/u.test(s) && /\p{L}/u.test(s) && !/\s/.test(s) && s.length >= 5);
  if (examples.length === 0) return undefined;
  const shapes = new Set(examples.map(shape));
  const found = [...text.matchAll(CODE)].map((c) => c[0]).filter((c) => shapes.has(shape(c)) && c !== q.value && !(q.prompt ?? '').includes(c));
  return found.length === 1 ? found[0] : undefined;
}

/** Whether the sentence holds a number that reads as the earlier answer's value ("that 15k was per court"). */
export function repeatsNumber(sentence: string, q: Earlier, ctx: ParseContext): boolean {
  for (const n of sentence.matchAll(/(?<![\p{L}\p{N}])[$€£]?\d[\d.,]*\s?(?:k|m|tsd\.?)?(?![\p{L}])/giu)) {
    const read = parseAnswer(q.answer, n[0], ctx);
    if (read.ok && read.value === q.value) return true;
  }
  return false;
}
