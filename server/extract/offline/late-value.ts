/* The new value a correcting sentence gives an earlier answer (typed, a code of the same shape, a short text said anew). */
import type { LanguagePack } from '../../language/pack.ts';
import { fold, parseAnswer, type ParseContext } from '../parse/index.ts';
import { unexplainedWords } from './commit-rule.ts';
import { yesNoByContent } from './yes-no-content.ts';
import { isName, type Earlier } from './late-earlier.ts';
import { ADDS, APPROX, INTERJECTIONS, LATE, TOTAL, YEAR } from './late-markers.ts';
import { notAName } from './late-name-fix.ts';

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
    if (content) return { value: content.value, whole };
    if (!read.ok) continue;
    let value = read.value;
    if (a.type === 'date' && typeof value === 'string' && typeof q.value === 'string' && !YEAR.test(part)) value = `${q.value.slice(0, 4)}${value.slice(4)}`;
    if (a.type === 'enum' && a.multiple && Array.isArray(value) && Array.isArray(q.value) && ADDS.test(sentence)) value = [...new Set([...q.value, ...value])];
    return { value, whole };
  }
  return undefined;
}

/** A run of capitalised words, lower-case joiners allowed inside ("Grundschule am Park", "Bank of America"). */
const PROPER_RUN = /(?<![\p{L}\p{N}'’-])[\p{Lu}\p{N}][\p{L}\p{N}'’&.-]*(?:\s+(?:(?:of|the|and|&|am|an|der|die|das|von|de|la|le|du|del|y|und|im|zum|zur|for)\s+)*[\p{Lu}\p{N}][\p{L}\p{N}'’&.-]*)*/gu;
/** A copula before a short answer said anew: "it's", "it is", "es ist", "ist es", "heißt", "called", "the card says". */
const COPULA = /(?<![\p{L}])(?:it['’]?s|it is|is|ist|heißt|heisst|hieß|called|named|says|sagt|steht|should be|sollte)(?![\p{L}])/iu;
/** Words beside a short answer said anew that add nothing ("wrong one", "typo", "we switched", "the card says"). */
const SAID_ANEW = new Set(['wrong', 'one', 'typo', 'now', 'switched', 'changed', 'new', 'card', 'says', 'say', 'said', 'meant', 'mean', 'name', 'called',
  'is', 'it', 'its', "it's", 'it’s', 'for', 'a', 'an', 'the', 'our', 'my', 'we', 'oh', 'ah', 'ach', 'ok', 'so', 'and', 'und', 'not', 'really', 'right',
  'ist', 'es', 'für', 'fur', 'den', 'die', 'der', 'das', 'dem', 'ein', 'eine', 'einen', 'unser', 'unseren', 'unsere', 'heißt', 'heisst', 'richtig', 'falsch', 'neu', 'jetzt',
  'verein', 'club', 'school', 'schule', 'organisation', 'organization', 'team', 'private', 'privat', 'project', 'projekt', 'provider', 'insurance', 'versicherung']);

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
  const stripped = sentence.replace(pack.corrections, (m) => ' '.repeat(m.length)).replace(new RegExp(LATE.source, 'giu'), (m) => ' '.repeat(m.length))
    .replace(new RegExp(APPROX.source, 'giu'), (m) => ' '.repeat(m.length)).replace(/(?<![\p{L}])(?:doch|eigentlich|wait|warte)(?![\p{L}])/giu, (m) => ' '.repeat(m.length));
  const runs = [...stripped.matchAll(PROPER_RUN)].map((r) => {
    // marker-like or common words opening a sentence ("Oh", "It's", "Doch") are no part of the name
    const parts = r[0].split(/\s+/);
    let i = 0;
    while (i < parts.length && (notAName(parts[i]!, pack) || SAID_ANEW.has(fold(parts[i]!).text))) i++;
    const run = parts.slice(i).join(' ');
    return { run, at: r.index + r[0].length - run.length };
  }).filter((r) => /\p{L}{2,}/u.test(r.run));
  if (runs.length !== 1) return undefined;
  // said as the answer: first in the sentence ("Lakeview Academy actually") or after a copula ("it's", "es ist", "heißt",
  // "the card says"); "Entschuldigung für die Verzögerung" is no answer (German nouns are capitalised)
  const before = stripped.slice(0, runs[0]!.at);
  if (/[\p{L}\p{N}]/u.test(before.replace(INTERJECTIONS, '')) && !COPULA.test(before)) return undefined;
  const value = runs[0]!.run.replace(/[.,;:!]+$/u, '');
  if (typeof q.value === 'string' && fold(q.value).text === fold(value).text) return undefined;
  const read = parseAnswer(a, value, ctx);
  if (!read.ok) return undefined;
  const left = unexplainedWords(stripped, [value], q, pack).filter((w) => !SAID_ANEW.has(w));
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
