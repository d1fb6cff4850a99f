import type { OpenQuestion, ProposedUpdate } from '../extractor.ts';
import type { LanguagePack } from '../../language/pack.ts';
import { fold, parseAnswer, type ParseContext } from '../parse/index.ts';
import { normalOptions } from '../../flow/answer-types.ts';
import { unexplainedWords } from './commit-rule.ts';
import { yesNoByContent } from './yes-no-content.ts';

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
const LATE = /(?<![\p{L}])(?:wrong|typo|forgot|forgotten|mistake|hang on|hold on|oops|should be|should have said|i meant|meant to say|found it|missing|missed|left (?:off|out)|tippfehler|fehlt|fehlte|fehlten|falsch|vergessen|gefunden|versehentlich|korrigiere|nachtrag|doch|moment|erreur|faute|oublié|error|equivoqué|olvidé|now (?:that )?i think about it|come to think of it|on second thought|wenn ich(?:['’]s| es) mir recht überlege|jetzt wo ich drüber nachdenke)(?![\p{L}])/iu;
/** Words that put an answer another way ("more like 4 days", "ex-husband technically", "eher 25.000 $"): a correction when a new value is read, never a reason to ask again. */
const APPROX = /(?<![\p{L}])(?:more like|closer to|technically|strictly speaking|eher|genau genommen|streng genommen|plutôt|más bien)(?![\p{L}])/iu;
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
    const approx = APPROX.exec(sentence);
    const markerAt = Math.min(weak?.index ?? Infinity, late?.index ?? Infinity, approx?.index ?? Infinity);
    let clauseAt = markerAt === Infinity ? 0 : clauseStart(sentence, markerAt);
    // "ach nein, wir wollen doch …": a head of interjections belongs to the correction, unless it answers the current question ("no, and …")
    // a trailing marker ("eher 3 bis 12 Monate, sorry.") marks the sentence before it
    pack.corrections.lastIndex = 0;
    if (!/[\p{L}\p{N}]/u.test(sentence.slice(clauseAt).replace(pack.corrections, '').replace(new RegExp(LATE.source, 'giu'), '').replace(new RegExp(APPROX.source, 'giu'), ''))) clauseAt = 0;
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
      const value = nameFix(sentence, q, marked, nameAsked, pack);
      if (value === undefined) continue;
      let from = nameClause(sentence, value);
      // "sorry, it's spelled Scott": a head of markers and interjections goes with it
      pack.corrections.lastIndex = 0;
      if (from > 0 && !/[\p{L}\p{N}]/u.test(sentence.slice(0, from).replace(pack.corrections, '').replace(INTERJECTIONS, ''))) from = 0;
      return { update: { key: q.key, value, evidence: sentence.slice(from).trim(), corrects: true }, rest: blank(from) };
    }
    // "Oak Hill Middle not High", "endet auf 79 nicht 78": a part of the answer named and replaced, with or without a marker
    for (const q of order) {
      if (isName(q) || (current !== null && q.key === current.key)) continue;
      const edit = notEdit(sentence, q, ctx, pack);
      if (edit === undefined) continue;
      if ('reopen' in edit) return { reopen: q.key, rest: blank(0) };
      return { update: { key: q.key, value: edit.value, evidence: sentence.slice(edit.from, edit.to).trim(), corrects: true }, rest: cut(text, at + edit.from, at + edit.to) };
    }
    // "missed a 9 at the end of the ID", "die letzten beiden Ziffern sind vertauscht", "the 45k is per field, we have 2":
    // an edit said in words, applied to the answer it names (or the one just given)
    for (const q of order) {
      if (current !== null && q.key === current.key) continue;
      const edit = wordEdit(sentence, q, ctx, pack, q === previous);
      if (edit === undefined) continue;
      if ('reopen' in edit) return { reopen: q.key, rest: blank(0) };
      return { update: { key: q.key, value: edit.value, evidence: sentence.trim(), corrects: true }, rest: blank(0) };
    }
    // "oh one thing, she gets nosebleeds a lot" right after a free-text question was skipped: the note it was asked for
    const note = previous ? skippedNote(sentence, previous, current, ctx) : undefined;
    if (note !== undefined) return { update: { key: previous!.key, value: note, evidence: sentence.trim(), corrects: true }, rest: blank(0) };
    // "no. oh and a cough too", "no, also a headache": more options for the multiple choice answered the turn before
    const more = previous ? addedOptions(sentence, previous, current, ctx) : undefined;
    if (more) return { update: { key: previous!.key, value: more.value, evidence: sentence.slice(more.from).trim(), corrects: true }, rest: blank(more.from) };
    // "no. oh and court 3 is flickering too", "nein. ach ja, Platz 4 flackert auch": more for the description given the turn before
    const told = previous && /[\p{L}\p{N}]/u.test(blank(0)) ? addedText(sentence, previous, current, ctx, pack) : undefined;
    if (told !== undefined) return { update: { key: previous!.key, value: told, evidence: sentence.trim(), corrects: true }, rest: blank(0) };
    // "that 15k was per court … 30k total": a sentence that repeats the earlier amount goes back to it
    const refers = previous && !previous.pii && typeof previous.value === 'number' && repeatsNumber(sentence, previous, ctx);
    if (markerAt === Infinity && !refers) {
      // "Mail ist natürlich j.meyer@gmx.de, Handy 0170 9876543": a contact said again under its name is the new one
      const again = restated(sentence, named, current, ctx, pack);
      if (again) return { update: { key: again.key, value: again.value, evidence: sentence.slice(again.from, again.to).trim(), corrects: true }, rest: cut(text, at + again.from, at + again.to) };
      continue;
    }
    for (const q of order) {
      const isPrevious = q === previous;
      const isNamed = named.includes(q);
      if (forCurrent && !isNamed) continue;
      if (!isPrevious && !isNamed) continue;
      if (isName(q)) {
        if (isNamed && late && !question) return { reopen: q.key, rest: blank(clauseAt) };
        continue;
      }
      // "more like", "technically" alone add nothing to a description
      // a short answer said anew beside the current one ("Lakeview Academy actually, sorry. kim@…"): at a free-text question
      // only when the reply says more than this sentence or the sentence names the answer (else it may be that answer)
      const elsewhere = current === null || current.answer.type !== 'text' || isNamed || /[\p{L}\p{N}]/u.test(blank(0))
        || (current.answer.pattern !== undefined && !parseAnswer(current.answer, sentence, ctx).ok);
      const anew = (weak !== null || late !== null || approx !== null) && elsewhere;
      const inClause = anew && clause !== sentence ? shortTextFix(clause, q, ctx, pack) : undefined;
      const inSentence = anew && inClause === undefined ? shortTextFix(sentence, q, ctx, pack) : undefined;
      const read = inClause !== undefined ? { value: inClause, whole: false } : inSentence !== undefined ? { value: inSentence, whole: true }
        : readValue(q, sentence, clause, ctx, weak !== null || late !== null, pack);
      const value = read?.value;
      // the same value again beside "wrong" or "by mistake" names what was wrong ("I clicked male by mistake"): asked again below
      const same = value !== undefined && !q.pii && JSON.stringify(value) === JSON.stringify(q.value);
      // …unless only the whole sentence read it, the correcting clause not ("asap isn't realistic, more like this summer",
      // "Sofort ist unrealistisch, eher im Herbst"): the sentence says the answer given and puts it another way — asked again below
      const repeats = same && read!.whole && clause !== sentence && markerAt !== Infinity;
      if (same && !late && !(repeats && (isNamed || isPrevious))) continue;
      // an addition to a free-text answer marked only by "actually" or "sorry" is taken beside an answer to the current
      // question ("no, and it's courts 1 AND 2 actually"); as the whole reply it is more likely this answer's own words
      const added = value !== undefined && q.answer.type === 'text' && typeof q.value === 'string' && typeof value === 'string' && value.startsWith(q.value.trim().replace(/[.!;\s]+$/u, ''));
      if (added && !late && !isNamed && !/[\p{L}\p{N}]/u.test(blank(read!.whole ? 0 : clauseAt))) continue;
      if (value !== undefined && !same) {
        // "asap isn't realistic, more like this summer": a head that names this answer goes with the correction
        const head = sentence.slice(0, clauseAt);
        const headNames = clauseAt > 0 && namesQuestion(head, q, pack) && !(current !== null && current.answer.type !== 'text' && parseAnswer(current.answer, head, ctx).ok);
        const from = read!.whole || headNames ? 0 : clauseAt;
        return { update: { key: q.key, value, evidence: sentence.slice(from).trim(), corrects: true }, rest: blank(from) };
      }
      // the sentence goes back to this answer but its new value cannot be read: ask the question again
      if (!question && ((isNamed && markerAt !== Infinity) || (isPrevious && late !== null) || (isPrevious && refers) || (isPrevious && repeats))) {
        // a head that says the answer given goes with it ("Sofort ist unrealistisch, …")
        return { reopen: q.key, rest: blank(repeats || (clauseAt > 0 && namesQuestion(sentence.slice(0, clauseAt), q, pack)) ? 0 : clauseAt) };
      }
    }
  }
  return null;
}

/**
 * Options added to the multiple choice answered the turn before, in a clause marked as an addition ("also", "too",
 * "as well", "oh and", "auch"): the clause must name an option not chosen yet and must not answer the current question.
 */
function addedOptions(sentence: string, q: Earlier, current: OpenQuestion | null, ctx: ParseContext): { value: unknown[]; from: number } | undefined {
  if (q.pii || q.answer.type !== 'enum' || !q.answer.multiple || !Array.isArray(q.value)) return undefined;
  const marker = ADDS.exec(sentence) ?? OH_AND.exec(sentence);
  if (!marker) return undefined;
  const from = clauseStart(sentence, marker.index);
  const clause = sentence.slice(from);
  if (current !== null && current.key !== q.key && current.answer.type !== 'text' && parseAnswer(current.answer, clause, ctx).ok) return undefined;
  const read = parseAnswer(q.answer, clause, ctx);
  if (!read.ok || !Array.isArray(read.value)) return undefined;
  // named, not inferred: every word read is in an option's own name ("a headache too", not "my back hurts" → sore throat)
  const names = normalOptions(q.answer).flatMap((o) => [o.label, ...o.synonyms, String(o.value)]).map((n) => fold(n).text);
  if (!read.evidence.split(', ').every((e) => names.some((n) => n.includes(fold(e).text)))) return undefined;
  const chosen = q.value as unknown[];
  const added = read.value.filter((v) => !chosen.includes(v));
  return added.length === 0 ? undefined : { value: [...chosen, ...added], from };
}

/** A description and an afterthought added to it, as one record: "court 2 is dark; court 3 is flickering too" (a correction restating it is a sentence of its own). */
function joinText(was: string, added: string): string {
  return `${was.trim().replace(/[.!;,\s]+$/u, '')}; ${added}`;
}

/** "oh and", "ach ja", "and also" opening an afterthought, dropped from what is added. */
const AFTERTHOUGHT = /^[\s,;:—–-]*(?:(?:oh|ah|ach|and|und|also|ja|yeah|btw|übrigens|ubrigens|plus)(?![\p{L}])[\s,;:!—–-]*)+/iu;

/**
 * An afterthought for the free-text description answered the turn before, typed beside the next answer ("no. oh and court
 * 3 is flickering too", "nein. ach ja, Platz 4 flackert auch"): a sentence of three words or more marked as an addition
 * ("too", "also", "as well", "auch", "noch", "oh and") that neither answers the current question nor reads as its yes/no.
 */
function addedText(sentence: string, q: Earlier, current: OpenQuestion | null, ctx: ParseContext, pack: LanguagePack): string | undefined {
  const a = q.answer;
  if (q.pii || a.type !== 'text' || isName(q) || typeof q.value !== 'string' || (a.max !== undefined && a.max <= 200)) return undefined;
  if (q.value.trim().split(/\s+/).length < 3 || !(ADDS.test(sentence) || OH_AND.test(sentence) || /^\W*(?:ach ja|oh yeah|oh and)/iu.test(sentence))) return undefined;
  // "ach ja", "oh yeah" open the afterthought: no yes to the current question
  const added = sentence.replace(/^\W*(?:ach ja|oh ja|oh yeah|oh yes|ah yes|ah ja)(?![\p{L}])/iu, '').replace(AFTERTHOUGHT, '').replace(/^[\s,;:!—–-]+/u, '').trim().replace(/[\s.!;,]+$/u, '');
  if (current !== null && current.answer.type !== 'text' && (parseAnswer(current.answer, added, ctx).ok || yesNoByContent(current, added, pack) !== null)) return undefined;
  return (added.match(/[\p{L}\p{N}]+/gu) ?? []).length >= 3 ? joinText(q.value, added) : undefined;
}

/** "oh and a cough", "ach und Husten": an afterthought opening a clause. */
const OH_AND = /(?<![\p{L}])(?:oh|ah|ach|oh,)\s+(?:and|und)(?![\p{L}])/iu;

/** Whether a question asks for a person's name. */
function isName(q: Earlier): boolean {
  return q.answer.type === 'text' && (q.answer.kind === 'name' || /(?:^|_)name$/.test(q.key));
}

/** The reply with `from`..`to` blanked and a joiner left at its start dropped. */
function cut(text: string, from: number, to: number): string {
  return (text.slice(0, from) + ' '.repeat(to - from) + text.slice(to)).replace(/^[\s,.;:!—–-]*(?:(?:and|und|et|y|anyway|anyhow|anyways|jedenfalls|egal|wie auch immer)(?![\p{L}])[\s,]*)?\s*/iu, '').replace(/[\s,;:.!—–-]+$/u, '');
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
function readValue(q: Earlier, sentence: string, clause: string, ctx: ParseContext, marked: boolean, pack?: LanguagePack): { value: unknown; whole: boolean } | undefined {
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
function shortTextFix(sentence: string, q: Earlier, ctx: ParseContext, pack: LanguagePack): unknown {
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
function nameFix(sentence: string, q: Earlier, marked: boolean, nameAsked: boolean, pack: LanguagePack): string | undefined {
  if (typeof q.value !== 'string' || q.value.trim() === '') return undefined;
  const words = q.value.trim().split(/\s+/);
  const letters = (w: string) => fold(w).text.replace(/[^\p{L}]/gu, '');
  const runs = [...sentence.matchAll(NAME_RUN)].map((r) => r[0]);
  const swap = (i: number, w: string) => words.map((x, j) => (j === i ? x.replace(/^[\p{L}'’-]+/u, w) : x)).join(' ');
  // a word like one of the name's, respelled in words ("John with an h", "Meyer mit ey") or said alone or as the legal name
  // ("Jonathan actually, legal name"); at a name question only a spelling said in words counts
  const fullSaid = FULL.test(sentence) || NAME_WORDS.test(sentence);
  for (const m of sentence.matchAll(/\p{Lu}[\p{L}'’-]+/gu)) {
    const w = m[0];
    const lw = letters(w);
    if (lw.length < 3 || words.some((x) => letters(x) === lw) || notAName(w, pack)) continue;
    const spelled = new RegExp(`^\\s*,?\\s*(?:${SPELL.source})`, 'iu').test(sentence.slice(m.index + w.length)) || SPELLED_BEFORE.test(sentence.slice(0, m.index));
    // "Catherine with a C" for "Katherine": said how it is spelled, the first letter may differ
    const i = words.findIndex((x) => similar(letters(x), lw) || (spelled && lw.length >= 4 && distance(letters(x), lw) <= 2));
    if (i < 0) continue;
    if (spelled || (!nameAsked && marked && (fullSaid || aloneIn(sentence, m.index, w, pack)))) return swap(i, w);
  }
  // "Thomas, sorry, that's his full name" for "Tom Baker": the one name said beside "full name" is the first name
  if (!nameAsked && marked && fullSaid && words.length >= 2) {
    const said = [...sentence.matchAll(/\p{Lu}[\p{L}'’-]+/gu)].filter((m) => letters(m[0]).length >= 3 && !notAName(m[0], pack) && !words.some((x) => letters(x) === letters(m[0])));
    if (said.length === 1 && aloneIn(sentence, said[0]!.index, said[0]![0], pack)) return swap(0, said[0]![0]);
  }
  // "ex-husband technically" for "Paul, husband": the relation said anew
  if (marked) {
    // the relation as the name reading records it ("stepdad" → "stepfather", "dad" → "father")
    const as = (r: string) => pack.names.reply.relationAs[r] ?? r;
    for (const m of sentence.matchAll(/(?<![\p{L}-])(ex-?|step-?|half-?|great-?|stief)(\p{L}{3,})(?![\p{L}])/giu)) {
      const word = fold(m[2]!).text;
      const i = words.findIndex((x) => /^\p{Ll}/u.test(x) && [word, as(word)].includes(letters(x)));
      const whole = m[0].toLowerCase();
      if (i >= 0) return swap(i, as(whole) !== whole ? as(whole) : `${m[1]!.toLowerCase()}${as(word)}`);
    }
  }
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

/** Saying how a name is spelled: "with an h", "with two l's", "spelled", "mit ey", "mit zwei p", "geschrieben". */
const SPELL = /(?:with (?:an?|one|two|double|a double)\s+\p{L}{1,2}(?:['’]?s)?|spel(?:led|t)\b|mit (?:einem |zwei |doppel-?)?(?!(?:es|um|so|da|im|am|zu|ihm|ihr|uns|dem|der|den|die|das)(?![\p{L}]))\p{L}{1,2}(?![\p{L}])|geschrieben|avec (?:un |deux )?\p{L}{1,2}(?![\p{L}])|con (?:una? |dos )?\p{L}{1,2}(?![\p{L}]))/iu;
/** "spelled Scott", "it's spelt: Scott", "geschrieben: Schmitt", "schreibt sich Meyer": the spelling said before the name. */
const SPELLED_BEFORE = /(?:spel(?:led|t)|written|geschrieben|schreibt sich|buchstabiert)(?:\s+(?:with|like|as|wie|mit))?\s*[:,]?\s*$/iu;
/** Words that say which name is meant: "legal name", "first name", "richtiger Name". */
const NAME_WORDS = /(?<![\p{L}])(?:(?:legal|proper|real|official|first|given|birth)\s+name|(?:richtige|offizielle|vollständige)[rn]?\s+name|eigentlich heißt|heißt eigentlich)(?![\p{L}])/iu;
/** Words beside a name said alone: "Jonathan actually", "sorry, Jonathan". */
const BESIDE_NAME = new Set(['it', "it's", 'its', 'is', 'the', 'his', 'her', 'my', 'their', 'legal', 'full', 'name', "that's", 'thats', 'ist', 'es', 'der', 'die', 'das',
  'übrigens', 'ubrigens', 'eigentlich', 'natürlich', 'naturlich', 'richtig', 'btw', 'by', 'way', 'correct', 'right', 'lol', 'oh', 'ah', 'and', 'und', 'no', 'nein', 'not', 'but']);

/** Whether a capitalised word is no name (a marker or a common word opening the sentence: "Sorry", "Oops", "It's"). */
function notAName(w: string, pack: LanguagePack): boolean {
  const f = fold(w).text;
  pack.corrections.lastIndex = 0;
  return pack.names.notNames.has(f) || pack.names.stop.has(f) || BESIDE_NAME.has(f) || pack.corrections.test(w) || LATE.test(w) || APPROX.test(w);
}

/** Whether the clause holding the word says nothing else but markers and a few words about it ("Jonathan actually", "Thomas, sorry"). */
function aloneIn(sentence: string, at: number, w: string, pack: LanguagePack): boolean {
  let start = 0;
  let end = sentence.length;
  for (const b of sentence.matchAll(BOUNDARY)) {
    if (b.index + b[0].length <= at) start = b.index + b[0].length;
    else if (b.index >= at + w.length) { end = b.index; break; }
  }
  const rest = sentence.slice(start, at) + ' ' + sentence.slice(at + w.length, end);
  pack.corrections.lastIndex = 0;
  const stripped = rest.replace(pack.corrections, ' ').replace(new RegExp(LATE.source, 'giu'), ' ').replace(new RegExp(APPROX.source, 'giu'), ' ');
  return (stripped.match(/[\p{L}'’]+/gu) ?? []).every((x) => BESIDE_NAME.has(fold(x).text));
}

/** Two spellings of one name: the same first letter, and one starts the other ("Jon", "Jonathan") or they differ by a letter or two ("Maier", "Meyer"). */
function similar(a: string, b: string): boolean {
  if (a === b || a[0] !== b[0]) return false;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length >= 3 && long.startsWith(short)) return true;
  return distance(a, b) <= (short.length >= 4 ? 2 : 1);
}

/** The Levenshtein distance of two short words. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

const NOT_WORDS = new Set(['not', 'nicht', 'statt', 'anstatt', 'pas']);
const EDIT_TOKEN = /[\p{L}\p{N}](?:[\p{L}\p{N}'’&@_-]|\.(?=[\p{L}\p{N}]))*/gu;
/** Words before the new part that are no part of it: "sorry its", "ist die", "the last four are". */
const EDIT_LEAD = new Set(['sorry', 'oops', 'actually', 'its', "it's", 'it’s', 'it', 'is', 'ist', 'es', 'der', 'die', 'das', 'the', 'and', 'und', 'no', 'nein', 'wait',
  'ach', 'oh', 'entschuldigung', 'i', 'ich', 'meant', 'meinte', 'mean', 'should', 'be', 'sollte', 'sein', 'heißt', 'heisst', 'called', 'my', 'bad', 'well', 'so', 'also', 'ok', 'okay',
  'um', 'hmm', 'correction', 'korrektur', 'a', 'an', 'ein', 'eine', 'that', "that's", 'was', 'war', 'were', 'a', 'typo', 'tippfehler', 'btw', 'übrigens', 'ubrigens']);
/** Words after the edit that belong to it ("…, my bad", "…, sorry"). */
const EDIT_TAIL = /^[\s,;:—–-]*(?:(?:sorry|my bad|btw|übrigens|entschuldigung|bitte|please|thanks|technically|actually|lol|oops|typo|tippfehler|hab mich vertippt|my mistake|mein fehler)[\s,;:!.—–-]*)+$/iu;
/** Words saying the edit is at the end: "ends in 92", "the last digits", "endet auf 79". */
const AT_END = /(?<![\p{L}])(?:ends?|ending|last|endet|enden|letzten?|hinten)(?![\p{L}])/iu;

/**
 * "Oak Hill Middle not High", "Grundschule Nord, nicht Realschule", "the last digits are 0123 not 0132": a part of the
 * earlier answer said after "not"/"nicht", and what replaces it before. The new value is the words before "not" when
 * they hold the rest of the answer, else the answer with that part replaced; asked again when the part is found but
 * the replacement is not, or the answer is pii (its value unseen) and digits are swapped. Undefined when the sentence
 * names no part of the answer.
 */
function notEdit(sentence: string, q: Earlier, ctx: ParseContext, pack: LanguagePack): { value: unknown; from: number; to: number } | { reopen: true } | undefined {
  const toks = [...sentence.matchAll(EDIT_TOKEN)].map((m) => ({ t: m[0], at: m.index, end: m.index + m[0].length, f: fold(m[0]).text }));
  const gap = (i: number) => sentence.slice(toks[i]!.end, toks[i + 1]!.at);
  for (let k = 1; k < toks.length - 1; k++) {
    if (!NOT_WORDS.has(toks[k]!.f) || /[,;:—–]/.test(gap(k))) continue;
    // the words before "not", back to the clause's start (a comma right before "not" is allowed), less the lead-in
    let s0 = k - 1;
    while (s0 > 0 && !/[,;:—–]|\s[-–]\s/.test(gap(s0 - 1))) s0--;
    let p0 = s0;
    pack.corrections.lastIndex = 0;
    while (p0 < k && (EDIT_LEAD.has(toks[p0]!.f) || new RegExp(`^(?:${pack.corrections.source})$`, 'iu').test(toks[p0]!.t))) p0++;
    const before = toks.slice(p0, k);
    const y = toks[k + 1]!;
    const finish = (yEnd: number) => {
      const tail = sentence.slice(yEnd);
      const to = EDIT_TAIL.test(tail) || tail.trim() === '' ? sentence.length : (/[,;:—–]/.exec(tail) ? yEnd : yEnd);
      return { from: before.length > 0 ? toks[s0]!.at : toks[s0]!.at, to };
    };
    // a typed answer said both ways: "june 5th not may 6", "8 not 7" — the part after "not" must read as the answer given
    if (!q.pii && q.value !== undefined && !['text', 'phone', 'email', 'url'].includes(q.answer.type)) {
      if (before.length === 0) continue;
      const end = Math.min(y.at + (/[,;:—–]/.exec(sentence.slice(y.at))?.index ?? sentence.length - y.at), sentence.length);
      const said = sentence.slice(before[0]!.at, before.at(-1)!.end);
      const now = readValue(q, said, said, ctx, true)?.value;
      const was = readValue(q, sentence.slice(y.at, end), sentence.slice(y.at, end), ctx, true)?.value;
      if (now !== undefined && was !== undefined && JSON.stringify(was) === JSON.stringify(q.value) && JSON.stringify(now) !== JSON.stringify(q.value)) {
        return { value: now, ...finish(end) };
      }
      continue;
    }
    if (typeof q.value !== 'string' || q.pii) {
      // digits swapped in an answer not seen here (pii): ask it again
      if (q.pii && q.answer.type === 'phone' && /^\d{2,}$/.test(y.t) && before.length > 0 && /^\d{2,}$/.test(before.at(-1)!.t)) return { reopen: true };
      continue;
    }
    const old = q.value;
    if (q.answer.type === 'text') {
      const oldToks = [...old.matchAll(EDIT_TOKEN)].map((m) => ({ t: m[0], f: fold(m[0]).text }));
      // the longest run after "not" that is a run of the answer's words
      for (let len = Math.min(4, toks.length - k - 1); len >= 1; len--) {
        const run = toks.slice(k + 1, k + 1 + len);
        if (run.some((r, j) => j > 0 && /[^\s]/.test(sentence.slice(run[j - 1]!.end, r.at)))) continue;
        if (run.every((r) => r.f.length < 2)) continue;
        // the part is the whole rest of its clause ("not high.", "nicht Realschule, sorry"): "not club lights" names no part
        const after = sentence.slice(run.at(-1)!.end);
        if (!(after.trim() === '' || /^\s*[,;:.!?—–]/.test(after) || EDIT_TAIL.test(after))) continue;
        const i = oldToks.findIndex((_, j) => run.every((r, n) => oldToks[j + n]?.f === r.f));
        if (i < 0) continue;
        const spot = finish(run.at(-1)!.end);
        if (before.length === 0) return { reopen: true };
        const others = oldToks.filter((_, j) => j < i || j >= i + len).map((o) => o.f);
        const said = before.map((b) => b.f);
        if (others.length > 0 && others.every((o) => said.includes(o)) && said.some((w) => !oldToks.some((o) => o.f === w))) {
          return { value: sentence.slice(before[0]!.at, before.at(-1)!.end), ...spot };
        }
        // a long clause before "not" is a sentence of its own, not the replacement ("the lights flicker, not the club's")
        if (before.length > len + 2) continue;
        // what the two sides share is no part of the edit: "Middle school, not high school", "St Mark's not St Mary's",
        // "Realschule Nord, nicht Gymnasium" (for "Gymnasium Nord Schule")
        let put = [...before];
        let from = i;
        let to = i + len;
        while (put.length > 1 && to - from > 1 && put.at(-1)!.f === oldToks[to - 1]!.f) { put.pop(); to--; }
        while (put.length > 1 && to - from > 1 && put[0]!.f === oldToks[from]!.f) { put.shift(); from++; }
        for (let j = to; put.length > 1 && j < oldToks.length && put.at(-1)!.f === oldToks[j]!.f; j++) put.pop();
        for (let j = from - 1; put.length > 1 && j >= 0 && put[0]!.f === oldToks[j]!.f; j--) put.shift();
        put = put.slice(-Math.max(to - from, 1) - 1);
        if (put.some((b) => oldToks.some((o) => o.f === b.f))) return { reopen: true };
        const words = oldToks.map((o) => o.t);
        words.splice(from, to - from, ...put.map((b) => b.t));
        return { value: words.join(' '), ...spot };
      }
      continue;
    }
    // a typed answer kept as a string (a phone, an email, a web address): the part replaced where it occurs once
    if (!['phone', 'email', 'url'].includes(q.answer.type) || y.f.length < 2) continue;
    const afterY = sentence.slice(y.end);
    if (!(afterY.trim() === '' || /^\s*[,;:.!?—–]/.test(afterY) || EDIT_TAIL.test(afterY))) continue;
    const hay = fold(old).text;
    const found = [...hay.matchAll(new RegExp(y.f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g'))].map((m) => m.index);
    if (found.length === 0) continue;
    const x = before.at(-1);
    if (x === undefined || (/^\d+$/.test(y.t) && !/^\d+$/.test(x.t))) return { reopen: true };
    const where = found.length === 1 ? found[0]! : AT_END.test(sentence) && hay.endsWith(y.f) ? hay.length - y.f.length : -1;
    if (where < 0) return { reopen: true };
    const read = parseAnswer(q.answer, old.slice(0, where) + x.t + old.slice(where + y.t.length), ctx);
    if (!read.ok || read.value === old) return { reopen: true };
    return { value: read.value, ...finish(y.end) };
  }
  return undefined;
}

/** Words saying characters are missing: "missed", "left off", "forgot", "fehlt", "vergessen". */
const MISSING = /(?<![\p{L}])(?:missed|missing|left (?:off|out)|forgot|forgotten|dropped|fehlt|fehlte|fehlen|vergessen)(?![\p{L}])/iu;
/** Words saying two characters are the wrong way round. */
const SWAPPED = /(?<![\p{L}])(?:swapped|switched|mixed up|transposed|(?:the )?wrong way (?:round|around)|back to front|vertauscht|verdreht|verwechselt)(?![\p{L}])/iu;
/** Where a missing character goes: at the end or at the start. */
const AT_START = /(?<![\p{L}])(?:start|beginning|front|anfang|vorne|vorn)(?![\p{L}])/iu;
const AT_THE_END = /(?<![\p{L}])(?:end|ende|hinten|last)(?![\p{L}])/iu;
/** Which two are swapped: the last two, the first two, or "the two digits" of a number that has two. */
const LAST_TWO = /(?<![\p{L}])(?:last two|final two|letzten (?:beiden|zwei)|beiden letzten|zwei letzten)(?![\p{L}])/iu;
const FIRST_TWO = /(?<![\p{L}])(?:first two|ersten (?:beiden|zwei)|beiden ersten|zwei ersten)(?![\p{L}])/iu;
const THE_TWO = /(?<![\p{L}])(?:the two|both|die (?:beiden|zwei))(?![\p{L}])/iu;
/** "the 45k is per field", "die 40k sind pro Platz": a per-item word. */
const PER_ITEM = /(?<![\p{L}])(?:per|each|a piece|apiece|pro|je|jeweils|für jeden|für jede|fuer jeden)(?![\p{L}])/iu;

/** "extra zero", "one zero too many", "eine Null zu viel": the number was typed with one zero too many. */
const EXTRA_ZERO = /(?<![\p{L}])(?:(?:an? |one )?(?:extra|additional) (?:zero|0)|(?:one |a )?(?:zero|0) too many|too many (?:zeros?|0s?)|(?:eine )?(?:null|0) zu viel|(?:eine )?(?:null|0) (?:ist )?zu viel)(?![\p{L}])/iu;
/** "that's per court", "that figure is per court", "das ist pro Platz": the answer just given, said to be per item without repeating it. */
const THAT_PER = /(?<![\p{L}])(?:that(?:['’]s| is| was)|this is|it(?:['’]s| is| was)|that (?:figure|amount|number|budget|price)(?:['’]s| is| was)|das (?:ist|sind|war|gilt)|der betrag (?:ist|gilt)|die summe (?:ist|gilt)|das budget (?:ist|gilt))\s+(?:\p{L}+\s+)?(?:per|each|pro|je|jeweils|für jeden|für jede)(?![\p{L}])/iu;
/** A count said as a figure or a word (two … ten, zwei … zehn). */
const COUNT_WORDS = ['', '', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', '', '', 'zwei', 'drei', 'vier', 'fünf', 'sechs', 'sieben', 'acht', 'neun', 'zehn'];
const COUNT = /(?<![\p{L}\p{N}$€£.,])(?:(\d{1,2})(?![\p{N}]|[.,]\d|\s?(?:k|m|tsd|000|[$€£%])(?![\p{L}]))|(two|three|four|five|six|seven|eight|nine|ten|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn)(?![\p{L}]))/giu;
/** An amount rather than a count: "5k", "3.000", "$200", "2500". */
const AMOUNT = /\d\s?(?:k|m|tsd)(?![\p{L}])|\d{3,}|\d[.,]\d{3}|[$€£]\s?\d/iu;
/** "add another 5k", "plus 2k more", "noch 5k … dazu", "kommen noch 3.000 dazu": an amount added to the one given. */
const ADD_AMOUNT = /(?<![\p{L}])(?:add|adding|plus|on top|dazu|hinzu|zusätzlich|obendrauf|draufrechnen|drauf)(?![\p{L}])/iu;

/** The amounts in a sentence read as the answer's figures ("5k", "3.000", "$2,500"), each once. */
function figures(sentence: string, q: Earlier, ctx: ParseContext): number[] {
  const out: number[] = [];
  for (const n of sentence.matchAll(/(?<![\p{L}\p{N}])[$€£]?\d[\d.,]*\d?\s?(?:k|m|tsd\.?)?(?![\p{L}\p{N}])/giu)) {
    const read = parseAnswer(q.answer, n[0].replace(/[.,]$/, ''), ctx);
    if (read.ok && typeof read.value === 'number' && !out.includes(read.value)) out.push(read.value);
  }
  return out;
}

/**
 * An edit of an earlier answer said in words: a character missing at the end or the start ("missed a 9 at the end",
 * "vorne fehlt eine 0"), two characters swapped ("the last two digits are swapped", "I swapped the two digits of the
 * budget" for 45000 → 54000), or an amount said to be per item beside a count ("the 45k is per field, we have 2" → 90000).
 * The edited value is read as the question's answer again; asked again (`reopen`) when the edit is not clear (which two
 * digits, where the character goes) or the answer is pii (its value is not sent). Undefined when the sentence says none.
 */
function wordEdit(sentence: string, q: Earlier, ctx: ParseContext, pack: LanguagePack, isPrevious = false): { value: unknown } | { reopen: true } | undefined {
  const a = q.answer;
  const numeric = a.type === 'integer' || a.type === 'number';
  const codeLike = a.type === 'phone' || (a.type === 'text' && (a.pattern !== undefined || (typeof q.value === 'string' && /\d/.test(q.value) && !/\s/.test(q.value.trim()))));
  if (!numeric && !codeLike) return undefined;
  const again = (v: string): { value: unknown } | { reopen: true } => {
    const read = parseAnswer(a, v, ctx);
    return read.ok && JSON.stringify(read.value) !== JSON.stringify(q.value) ? { value: read.value } : { reopen: true };
  };
  // a number said per item beside a count: "the 45k is per field btw, we have 2"
  if (numeric && !q.pii && typeof q.value === 'number' && PER_ITEM.test(sentence) && repeatsNumber(sentence, q, ctx)) {
    const counts = [...sentence.matchAll(/(?<![\p{L}\p{N}$€£.,])(\d{1,2})(?![\p{N}]|[.,]\d|\s?(?:k|m|tsd|000|[$€£%])(?![\p{L}]))/giu)].map((m) => Number(m[1]))
      .filter((n) => n >= 2 && n <= 50 && n !== q.value);
    if (counts.length === 1) return again(String(q.value * counts[0]!));
    return { reopen: true };
  }
  // "4000 sorry extra zero", "eine Null zu viel": the figure said is the new value; without one, one zero comes off
  const zero = EXTRA_ZERO.exec(sentence);
  if (numeric && zero) {
    if (q.pii || typeof q.value !== 'number') return { reopen: true };
    const said = figures(sentence.replace(zero[0], ' '), q, ctx);
    if (said.length === 1) return said[0] !== q.value ? { value: said[0] } : { reopen: true };
    if (said.length > 1 || q.value === 0 || q.value % 10 !== 0) return { reopen: true };
    return again(String(q.value / 10));
  }
  // "that's per court, we have 2", "das ist pro Platz, wir haben zwei": the answer just given said to be per item, unrepeated
  if (numeric && isPrevious && !q.pii && typeof q.value === 'number' && THAT_PER.test(sentence) && !AMOUNT.test(sentence)) {
    const counts = [...sentence.matchAll(COUNT)].map((m) => (m[1] !== undefined ? Number(m[1]) : COUNT_WORDS.indexOf(m[2]!.toLowerCase()) % 11))
      .filter((n) => n >= 2 && n <= 50);
    return counts.length === 1 ? again(String(q.value * counts[0]!)) : { reopen: true };
  }
  // "add another 5k for the parking lot lights", "rechnen Sie noch 5k … dazu": an amount added to the money answer
  if (numeric && a.currency !== undefined && !q.pii && typeof q.value === 'number' && ADD_AMOUNT.test(sentence) && !APPROX.test(sentence)) {
    const said = figures(sentence, q, ctx);
    if (said.length === 1 && said[0]! >= 100 && said[0] !== q.value) return again(String(q.value + said[0]!));
  }
  const missing = MISSING.exec(sentence);
  if (missing && codeLike && !numeric) {
    // the one character said: "a 9", "eine 8", "the digit 3", "an X"
    const chars = [...sentence.matchAll(/(?<![\p{L}\p{N}])(?:an?|one|the|eine?n?|die|noch eine?)?\s*(?:digit|number|letter|ziffer|zahl|buchstaben?)?\s*(\d|[A-HJ-Z])(?![\p{L}\p{N}])/gu)].map((m) => m[1]!);
    const end = AT_THE_END.test(sentence);
    const start = AT_START.test(sentence);
    if (chars.length !== 1 || end === start) return q.pii || chars.length > 0 ? { reopen: true } : undefined;
    if (q.pii || typeof q.value !== 'string') return { reopen: true };
    return again(end ? q.value + chars[0] : chars[0] + q.value);
  }
  if (SWAPPED.test(sentence)) {
    if (q.pii || (typeof q.value !== 'string' && typeof q.value !== 'number')) return { reopen: true };
    const text = String(q.value);
    const at = [...text.matchAll(/\d/g)].map((m) => m.index);
    const swap = (i: number, j: number) => again(text.slice(0, i) + text[j] + text.slice(i + 1, j) + text[i] + text.slice(j + 1));
    if (LAST_TWO.test(sentence) && at.length >= 2) return swap(at.at(-2)!, at.at(-1)!);
    if (FIRST_TWO.test(sentence) && at.length >= 2) return swap(at[0]!, at[1]!);
    // "the two digits" of 45000: the two that are not trailing zeros
    const significant = numeric ? text.replace(/0+$/, '').replace(/\D/g, '') : '';
    if (numeric && THE_TWO.test(sentence) && significant.length === 2 && /^\d+$/.test(text)) return swap(0, 1);
    return { reopen: true };
  }
  return undefined;
}

/** A contact answer (email, phone, web address) said again under its name in a clause of its own, with another value; undefined when none. */
function restated(sentence: string, named: readonly Earlier[], current: OpenQuestion | null, ctx: ParseContext, pack: LanguagePack): { key: string; value: unknown; from: number; to: number } | undefined {
  for (const q of named) {
    if (!['email', 'phone', 'url'].includes(q.answer.type) || current?.answer.type === q.answer.type) continue;
    let start = 0;
    for (const b of [...sentence.matchAll(BOUNDARY), { index: sentence.length, 0: '' } as unknown as RegExpMatchArray]) {
      const clause = sentence.slice(start, b.index);
      if (namesQuestion(clause, q, pack)) {
        const read = parseAnswer(q.answer, clause, ctx);
        if (read.ok && read.value !== q.value) return { key: q.key, value: read.value, from: start, to: b.index! };
      }
      start = b.index! + b[0].length;
    }
  }
  return undefined;
}

/** Words that add something after a question was passed: "oh one thing", "one more thing", "I forgot to say", "eine Sache noch", "Nachtrag". */
const NOTE = /^\W*(?:(?:oh|ah|ach|and|und|oh and|ah and)\W+)?(?:one (?:more |other |last )?thing|something else|i forgot to (?:say|mention)|forgot to (?:say|mention)|before i forget|p\.?s\.?|eine sache noch|noch (?:eine sache|etwas|was)|nachtrag|was ich vergessen habe|(?:please )?(?:tell|let) (?:the )?(?:doctor|nurse|team|technician|electrician|them)(?: know)?(?: that)?|sagen sie (?:dem arzt|der ärztin|der aerztin|dem team|bitte dem arzt)(?:,? dass)?|(?:bitte )?dem arzt sagen(?:,? dass)?)(?![\p{L}])[\s,:;—–-]*/iu;

/** The note said after an optional free-text question was skipped ("oh one thing, she gets nosebleeds a lot"); undefined when none. */
function skippedNote(sentence: string, previous: Earlier, current: OpenQuestion | null, ctx: ParseContext): string | undefined {
  const a = previous.answer;
  if (previous.pii || previous.value !== null || a.type !== 'text' || isName(previous) || (a.max !== undefined && a.max <= 200)) return undefined;
  const m = NOTE.exec(sentence);
  if (!m) return undefined;
  if (current !== null && current.answer.type !== 'text' && parseAnswer(current.answer, sentence, ctx).ok) return undefined;
  const said = sentence.slice(m[0].length).trim().replace(/[\s.!]+$/u, '');
  return (said.match(/[\p{L}\p{N}]+/gu) ?? []).length >= 3 ? said : undefined;
}
