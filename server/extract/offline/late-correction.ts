import type { OpenQuestion, ProposedUpdate } from '../extractor.ts';
import type { LanguagePack } from '../../language/pack.ts';
import { fold, parseAnswer, type ParseContext } from '../parse/index.ts';

/*
 * A correction typed a turn (or more) late: "actually make that 25k. and asap
 * please" at the timeline question, after "20k" to the budget. A sentence of
 * the reply that holds a correction marker (the pack's `corrections`, or a late
 * one: "wrong", "typo", "forgot", "hang on", "Tippfehler", "Nachtrag", "doch")
 * corrects an earlier answer:
 *  - the question answered the turn before, when the sentence reads as an answer
 *    to it with another value and is not itself an answer to the current
 *    question (unless it names the earlier one: "the birthday is Feb 3rd, sorry");
 *  - any earlier answer the sentence names ("oops, typo in the email, …").
 * From the sentence, the part from the clause holding the marker on is the
 * correction ("no, and it's courts 1 AND 2 actually": "no" still answers the
 * current question). The value: a typed answer read from it (a date without a
 * year keeps the year it had; "30k total" is the total; a multiple choice with
 * "also", "too", "forgot" adds to what was chosen), an order-number-like code of
 * the same shape, a name completed or respelled, or — for a free-text answer
 * of a few words — the clause added to it. When the value cannot be read but
 * the sentence names the answer, or holds a late marker right after it was
 * given, the earlier question is asked again (`reopen`) rather than ignored.
 * The rest of the reply is read for the current question.
 */

/** An earlier answer a reply may correct: a pii one comes without its value. */
export type Earlier = OpenQuestion & { value?: unknown; pii?: true };

/** What a reply corrects: the new value (`update`) or the question to ask again (`reopen`), and the reply without it. */
export interface LateCorrection { update?: ProposedUpdate; reopen?: string; rest: string }

// a sentence ends at . ! ? ; before a space or the end ("25.000 $" and "k.mueller@gmx.de" are one)
const SENTENCE = /(?:[^.!?;\n]|[.!?;](?![\s]|$))+[.!?;]*/gu;
const NAME_RUN = /\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*)*/gu;
/** Markers that a reply goes back to something said before (stronger than "sorry" or "actually", which also open a plain answer). */
const LATE = /(?<![\p{L}])(?:wrong|typo|forgot|forgotten|mistake|hang on|hold on|oops|should be|should have said|i meant|meant to say|found it|tippfehler|falsch|vergessen|gefunden|versehentlich|korrigiere|nachtrag|doch|moment|erreur|faute|oublié|error|equivoqué|olvidé)(?![\p{L}])/iu;
const YEAR = /(?<![\p{N}])(?:\d{4}|'\d{2})(?![\p{N}])/u;
/** Words that add to a multiple choice rather than replace it. */
const ADDS = /(?<![\p{L}])(?:also|too|as well|plus|forgot|forgotten|auch|außerdem|ausserdem|noch|zusätzlich|vergessen|aussi|también)(?![\p{L}])/iu;
/** "30k total", "in total 30k", "insgesamt 30.000": the total said beside a per-item figure. */
const TOTAL = /(?<![\p{L}\p{N}])([$€£]?\d[\d.,]*\s?(?:k|m|tsd\.?|mio\.?)?\s?(?:[$€£]|dollars?|dollar|euros?)?)\s+(?:in\s+)?(?:total|altogether|overall|all in|insgesamt|gesamt)(?![\p{L}])|(?:total(?:\s+of)?|in total|insgesamt|gesamt)\s+([$€£]?\d[\d.,]*\s?(?:k|m|tsd\.?|mio\.?)?\s?(?:[$€£]|dollars?|dollar|euros?)?)/giu;
/** A head made only of interjections: "oh no", "ach nein", "ok so". */
const INTERJECTIONS = /^[\s,;:—–-]*(?:(?:oh|ah|ach|ok|okay|no|nope|nein|nee|hmm|well|so|also|and|und|och|oje|oops|argh|hm|right)[\s,;:!—–-]*)+$/iu;
/** A clause boundary inside a sentence: a comma, semicolon, colon or dash. */
const BOUNDARY = /[,;:]\s+|\s+[—–-]\s+|[—–]/gu;
/** "first name is Klaus", "surname is Becker", "Vorname ist Klaus". */
const FIRST_NAME = /(?<![\p{L}])(?:[Ff]irst name|[Ff]orename|[Gg]iven name|[Vv]orname)(?:\s+(?:is|ist|'s))?(?:\s+(?:übrigens|actually|by the way))?\s+(\p{Lu}[\p{L}'’-]+)/u;
const LAST_NAME = /(?<![\p{L}])(?:[Ss]urname|[Ll]ast name|[Ff]amily name|[Nn]achname)(?:\s+(?:is|ist|'s))?(?:\s+(?:übrigens|actually|by the way))?\s+(\p{Lu}[\p{L}'’-]+)/u;
/** "Emily, not Emma": a name said instead of one given. */
const INSTEAD = /(\p{Lu}[\p{L}'’-]+),?\s+(?:not|nicht)\s+(\p{Lu}[\p{L}'’-]+)/u;
/** Words that say a name is given in full: "Sam Whitfield, full name", "Klaus Müller, vollständig". */
const FULL = /(?<![\p{L}])(?:full name|full|whole name|vollständig|vollständiger name|ganzer name)(?![\p{L}])/iu;

/** The correction of an earlier answer in a reply, and the reply without it; null when there is none. */
export function lateCorrection(
  text: string, previous: Earlier | undefined, answered: readonly Earlier[], current: OpenQuestion | null, ctx: ParseContext, pack: LanguagePack,
): LateCorrection | null {
  const earlier = [...(previous ? [previous] : []), ...answered.filter((a) => a.key !== previous?.key && a.key !== current?.key)];
  if (earlier.length === 0) return null;
  for (const m of text.matchAll(SENTENCE)) {
    const sentence = m[0];
    const at = m.index;
    pack.corrections.lastIndex = 0;
    const weak = pack.corrections.exec(sentence);
    const late = LATE.exec(sentence);
    const markerAt = Math.min(weak?.index ?? Infinity, late?.index ?? Infinity);
    let clauseAt = markerAt === Infinity ? 0 : clauseStart(sentence, markerAt);
    // "ach nein, wir wollen doch …": a head of interjections belongs to the correction, unless it answers the current question ("no, and …")
    // a trailing marker ("eher 3 bis 12 Monate, sorry.") marks the sentence before it
    pack.corrections.lastIndex = 0;
    if (!/[\p{L}\p{N}]/u.test(sentence.slice(clauseAt).replace(pack.corrections, '').replace(new RegExp(LATE.source, 'giu'), ''))) clauseAt = 0;
    const head = sentence.slice(0, clauseAt);
    if (clauseAt > 0 && INTERJECTIONS.test(head) && !(current !== null && current.answer.type !== 'text' && parseAnswer(current.answer, head, ctx).ok)) clauseAt = 0;
    const clause = sentence.slice(clauseAt);
    const question = /\?\s*$/.test(sentence);
    const forCurrent = current !== null && current.answer.type !== 'text' && parseAnswer(current.answer, clause, ctx).ok;
    // a sentence about the current question ("set court size to the whole stadium") names an earlier one only by its key
    const aboutCurrent = current !== null && namesKey(sentence, current);
    const named = earlier.filter((q) => (aboutCurrent ? namesKey(sentence, q) : namesQuestion(sentence, q, pack)));
    const order = [...named, ...(previous && !named.includes(previous) ? [previous] : [])];
    const blank = (from: number) => cut(text, at + from, at + sentence.length);
    // a name respelled or completed says itself what it corrects, with or without a marker
    // (at a name question an unmarked name is that question's answer: "Mary O'Connor" is no respelling of "Liam OConnor")
    const nameAsked = current !== null && isName(current);
    for (const q of earlier.filter(isName)) {
      const marked = markerAt !== Infinity || named.includes(q);
      if (nameAsked && !marked) continue;
      const value = nameFix(sentence, q, marked);
      if (value === undefined) continue;
      const from = nameClause(sentence, value);
      return { update: { key: q.key, value, evidence: sentence.slice(from).trim(), corrects: true }, rest: blank(from) };
    }
    // "that 15k was per court … 30k total": a sentence that repeats the earlier amount goes back to it
    const refers = previous && !previous.pii && typeof previous.value === 'number' && repeatsNumber(sentence, previous, ctx);
    if (markerAt === Infinity && !refers) continue;
    for (const q of order) {
      const isPrevious = q === previous;
      const isNamed = named.includes(q);
      if (forCurrent && !isNamed) continue;
      if (!isPrevious && !isNamed) continue;
      if (isName(q)) {
        if (isNamed && late && !question) return { reopen: q.key, rest: blank(clauseAt) };
        continue;
      }
      const read = readValue(q, sentence, clause, ctx, markerAt !== Infinity);
      const value = read?.value;
      // the same value again beside "wrong" or "by mistake" names what was wrong ("I clicked male by mistake"): asked again below
      const same = value !== undefined && !q.pii && JSON.stringify(value) === JSON.stringify(q.value);
      if (same && !late) continue;
      // an addition to a free-text answer marked only by "actually" or "sorry" is taken beside an answer to the current
      // question ("no, and it's courts 1 AND 2 actually"); as the whole reply it is more likely this answer's own words
      const added = value !== undefined && q.answer.type === 'text' && typeof q.value === 'string' && typeof value === 'string' && value.startsWith(q.value.trim().replace(/[.!\s]+$/u, ''));
      if (added && !late && !isNamed && !/[\p{L}\p{N}]/u.test(blank(read!.whole ? 0 : clauseAt))) continue;
      if (value !== undefined && !same) {
        const from = read!.whole ? 0 : clauseAt;
        return { update: { key: q.key, value, evidence: sentence.slice(from).trim(), corrects: true }, rest: blank(from) };
      }
      // the sentence goes back to this answer but its new value cannot be read: ask the question again
      if (!question && ((isNamed && markerAt !== Infinity) || (isPrevious && late !== null) || (isPrevious && refers))) {
        return { reopen: q.key, rest: blank(clauseAt) };
      }
    }
  }
  return null;
}

/** Whether a question asks for a person's name. */
function isName(q: Earlier): boolean {
  return q.answer.type === 'text' && (q.answer.kind === 'name' || /(?:^|_)name$/.test(q.key));
}

/** The reply with `from`..`to` blanked and a joiner left at its start dropped. */
function cut(text: string, from: number, to: number): string {
  return (text.slice(0, from) + ' '.repeat(to - from) + text.slice(to)).replace(/^[\s,.;:!—–-]*(?:and|und|et|y)?\s*/iu, '').replace(/[\s,;:.!—–-]+$/u, '');
}

/** Where the clause holding the marker at `markerAt` starts: after the last boundary before it, else the sentence's start. */
function clauseStart(sentence: string, markerAt: number): number {
  let start = 0;
  for (const b of sentence.matchAll(BOUNDARY)) if (b.index + b[0].length <= markerAt) start = b.index + b[0].length;
  return start;
}

/** Where the clause holding a corrected name starts. */
function nameClause(sentence: string, value: string): number {
  const last = value.split(/\s+/).at(-1) ?? value;
  const at = sentence.indexOf(last);
  return at <= 0 ? 0 : clauseStart(sentence, at);
}

/** The new value for a typed or free-text earlier answer read from its correcting clause, else the whole sentence (`whole`); undefined when none. */
function readValue(q: Earlier, sentence: string, clause: string, ctx: ParseContext, marked: boolean): { value: unknown; whole: boolean } | undefined {
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
    const read = parseAnswer(a, part, ctx);
    if (!read.ok) continue;
    let value = read.value;
    if (a.type === 'date' && typeof value === 'string' && typeof q.value === 'string' && !YEAR.test(part)) value = `${q.value.slice(0, 4)}${value.slice(4)}`;
    if (a.type === 'enum' && a.multiple && Array.isArray(value) && Array.isArray(q.value) && ADDS.test(sentence)) value = [...new Set([...q.value, ...value])];
    return { value, whole };
  }
  return undefined;
}

/** A code in the text shaped like the answer or the prompt's example ("BF-103377" for "looks like BF-104233"); undefined when none. */
function sameShape(text: string, q: Earlier): string | undefined {
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
function repeatsNumber(sentence: string, q: Earlier, ctx: ParseContext): boolean {
  for (const n of sentence.matchAll(/(?<![\p{L}\p{N}])[$€£]?\d[\d.,]*\s?(?:k|m|tsd\.?)?(?![\p{L}])/giu)) {
    const read = parseAnswer(q.answer, n[0], ctx);
    if (read.ok && read.value === q.value) return true;
  }
  return false;
}

/**
 * A name corrected in the sentence: a word of it respelled ("O'Connor with an apostrophe" for "OConnor"), one said
 * instead of another ("Emily, not Emma"), a first or last name added ("Vorname ist Klaus"), or — when the sentence
 * marks or names it — the name completed ("Sam Whitfield, full name" for "Sam"). Undefined when none.
 */
function nameFix(sentence: string, q: Earlier, marked: boolean): string | undefined {
  if (typeof q.value !== 'string' || q.value.trim() === '') return undefined;
  const words = q.value.trim().split(/\s+/);
  const letters = (w: string) => fold(w).text.replace(/[^\p{L}]/gu, '');
  const runs = [...sentence.matchAll(NAME_RUN)].map((r) => r[0]);
  // a respelling: the same letters, written otherwise
  for (const run of runs) {
    for (const w of run.split(/\s+/)) {
      const i = words.findIndex((x) => letters(x) === letters(w) && x !== w && letters(w).length >= 3);
      if (i >= 0 && /['’-]/.test(w) !== /['’-]/.test(words[i]!)) return words.map((x, j) => (j === i ? w : x)).join(' ');
    }
  }
  const instead = INSTEAD.exec(sentence);
  if (instead) {
    const i = words.findIndex((x) => letters(x) === letters(instead[2]!));
    if (i >= 0 && letters(instead[1]!) !== letters(instead[2]!)) return words.map((x, j) => (j === i ? instead[1]! : x)).join(' ');
  }
  const first = FIRST_NAME.exec(sentence);
  if (first && words.length === 1 && letters(first[1]!) !== letters(words[0]!)) return `${first[1]} ${words[0]}`;
  const last = LAST_NAME.exec(sentence);
  if (last && words.length === 1 && letters(last[1]!) !== letters(words[0]!)) return `${words[0]} ${last[1]}`;
  // completed: a name that starts with the first name given and adds to it
  if (!marked && !FULL.test(sentence)) return undefined;
  for (const run of runs) {
    const parts = run.split(/\s+/);
    if (parts.length < 2 || letters(parts[0]!) !== letters(words[0]!) || run === q.value.trim()) continue;
    return run;
  }
  return undefined;
}

/** Whether a sentence names the question (a word of its key, label or prompt, or a word sharing its stem: "birthday" for "birth", "allergic" for "allergies"). */
function namesQuestion(sentence: string, q: OpenQuestion, pack: LanguagePack): boolean {
  // the pack's short filler ("the", "please") names nothing; a longer filler word ("number") can name a question
  const filler = new Set([...pack.lexicon.filler, ...pack.lexicon.skipFiller].map((w) => fold(w).text).filter((w) => w.length < 6));
  const options = q.answer.type === 'enum' ? q.answer.options.map((o) => (typeof o === 'string' ? o : `${o.label ?? ''} ${o.value.replace(/_/g, ' ')}`)).join(' ') : '';
  const own = [...q.key.split(/[_.-]+/), ...(fold(`${q.label ?? ''} ${q.prompt ?? ''} ${options}`).text.match(/[\p{L}]{4,}/gu) ?? [])]
    .map((w) => fold(w).text).filter((w) => w.length >= 4 && !filler.has(w) && !COMMON.has(w));
  const said = fold(sentence).text.match(/[\p{L}]{4,}/gu) ?? [];
  return said.some((w) => !COMMON.has(w) && own.some((o) => w === o || w.startsWith(o) || stem(w, o)));
}

/** Whether a sentence names the question by a word of its key ("court size" for court_size; words of 4 letters or more). */
function namesKey(sentence: string, q: OpenQuestion): boolean {
  const own = q.key.split(/[_.-]+/).map((w) => fold(w).text).filter((w) => w.length >= 4 && !COMMON.has(w));
  const said = fold(sentence).text.match(/[\p{L}]{4,}/gu) ?? [];
  return said.some((w) => own.some((o) => w === o || w.startsWith(o) || stem(w, o)));
}

/** Two words share a stem: a common start of 6 letters or more, short of each by at most 3. */
function stem(a: string, b: string): boolean {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i >= 6 && a.length - i <= 3 && b.length - i <= 3;
}

/** Words of prompts that name no particular question ("what", "your", "please"). */
const COMMON = new Set([
  'what', 'which', 'when', 'where', 'your', 'have', 'does', 'this', 'that', 'with', 'from', 'there', 'they', 'their', 'would', 'like',
  'please', 'just', 'about', 'into', 'best', 'also', 'them', 'then', 'were', 'will', 'know', 'tell', 'give', 'some', 'sure', 'right',
  'it’s', 'thanks', 'something', 'else', 'other', 'anything', 'more', 'less', 'within', 'than', 'only', 'been', 'having', 'hoping', 'looking', 'help', 'need', 'want', 'make', 'say', 'said', 'sorry', 'actually', 'wait', 'fine',
  'ihre', 'ihren', 'ihrer', 'haben', 'sind', 'eine', 'einen', 'oder', 'wenn', 'bitte', 'gerade', 'einfach', 'sagen', 'welche', 'welchen', 'welches',
]);
