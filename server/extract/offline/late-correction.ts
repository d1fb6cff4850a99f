import type { OpenQuestion, ProposedUpdate } from '../extractor.ts';
import type { LanguagePack } from '../../language/pack.ts';
import { parseAnswer, type ParseContext } from '../parse/index.ts';
import { isName, withLocalValue, type Earlier } from './late-earlier.ts';
import { APPROX, INTERJECTIONS, LATE, REPLACES, SENTENCE, TOTAL, clauseStart, cut } from './late-markers.ts';
import { namesKey, namesQuestion } from './late-question-names.ts';
import { nameClause, nameFix, replacedName, saysSpelling, saysWhichName } from './late-name-fix.ts';
import { notEdit } from './late-not-edit.ts';
import { PER_ITEM, wordEdit } from './late-word-edit.ts';
import { addedOptions, addedText, skippedNote } from './late-additions.ts';
import { REASON, readValue, repeatsNumber, sameShape, shortTextFix } from './late-value.ts';
import { replacedContact, restated, restatedAmount } from './late-restated.ts';
import { nearCodeFix } from './late-near-code.ts';
import { phoneEnding } from './late-phone-parts.ts';
import { digitFix } from './late-digit-fix.ts';
import { yesNoAnew } from './late-yes-no.ts';
import { choiceRedone } from './late-choice.ts';
import { deniedThenGiven } from './late-denied.ts';
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


export type { Earlier } from './late-earlier.ts';

/** What a reply corrects: the new value (`update`) or the question to ask again (`reopen`), and the reply without it. */
export interface LateCorrection { update?: ProposedUpdate; reopen?: string; rest: string }

/** The correction of an earlier answer in a reply, and the reply without it; null when there is none. */
export function lateCorrection(
  text: string, given: Earlier | undefined, answeredGiven: readonly Earlier[], current: OpenQuestion | null, ctx: ParseContext, pack: LanguagePack,
  carried = false,
): LateCorrection | null {
  // a pii answer's value, kept locally, is read like any other here (the rules run in this process; none of it goes to a model)
  const previous = given ? withLocalValue(given) : undefined;
  const answered = answeredGiven.map(withLocalValue);
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
      const value = nameFix(sentence, q, marked, nameAsked, pack, /[\p{L}\p{N}]/u.test(blank(0)));
      if (value === undefined) {
        // "Oh, make it my sister Grace Kim instead": another person put in place of the one given just before (or named)
        const other = !nameAsked && (q === previous || named.includes(q)) ? replacedName(sentence, q, markerAt !== Infinity, pack) : undefined;
        if (other) return { update: { key: q.key, value: other.value, evidence: sentence.slice(other.from).trim(), corrects: true }, rest: blank(other.from) };
        continue;
      }
      let from = nameClause(sentence, value);
      // "sorry, it's spelled Scott": a head of markers and interjections goes with it
      pack.corrections.lastIndex = 0;
      // …and so does one that says which name it is ("oh you need the legal one — Elizabeth Rose Taylor", "that's the short one, the legal one is …")
      const nameAt = sentence.indexOf(value.split(/\s+/)[0]!);
      if (from > 0 && (!/[\p{L}\p{N}]/u.test(sentence.slice(0, from).replace(pack.corrections, '').replace(INTERJECTIONS, '')) || saysWhichName(sentence.slice(0, nameAt > 0 ? nameAt : from)) || saysSpelling(sentence.slice(0, from)))) from = 0;
      return { update: { key: q.key, value, evidence: sentence.slice(from).trim(), corrects: true }, rest: blank(from) };
    }
    // "Oak Hill Middle not High", "endet auf 79 nicht 78": a part of the answer named and replaced, with or without a marker
    for (const q of order) {
      if (isName(q) || (current !== null && q.key === current.key)) continue;
      const edit = notEdit(sentence, q, ctx, pack);
      if (edit === undefined) continue;
      if ('reopen' in edit) return { reopen: q.key, rest: blank(0) };
      // "Moment, ist j.mueller@…com, nicht .de": a head of markers and interjections goes with it
      pack.corrections.lastIndex = 0;
      const editFrom = edit.from > 0 && !/[\p{L}\p{N}]/u.test(sentence.slice(0, edit.from).replace(pack.corrections, '').replace(new RegExp(LATE.source, 'giu'), '').replace(INTERJECTIONS, '')) ? 0 : edit.from;
      return { update: { key: q.key, value: edit.value, evidence: sentence.slice(edit.from, edit.to).trim(), corrects: true }, rest: cut(text, at + editFrom, at + edit.to) };
    }
    // "the last digit is 9 not 8", "die letzte Ziffer ist eine 9, nicht 8: 0171 2345679": one digit of a number or code said anew
    for (const q of order) {
      if (current !== null && q.key === current.key) continue;
      const fix = digitFix(sentence, q, ctx, pack);
      if (fix === undefined) continue;
      if ('reopen' in fix) return { reopen: q.key, rest: blank(0) };
      return { update: { key: q.key, value: fix.value, evidence: sentence.trim(), corrects: true }, rest: blank(0) };
    }
    // "correction, her number ends 0184", "die Nummer endet auf 5658": a phone's ending said anew
    for (const q of order) {
      if (current !== null && q.key === current.key) continue;
      const end = phoneEnding(sentence, q, ctx);
      if (end === undefined) continue;
      if ('reopen' in end) return { reopen: q.key, rest: blank(0) };
      return { update: { key: q.key, value: end.value, evidence: sentence.trim(), corrects: true }, rest: blank(0) };
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
    // "my cell is 708 555 0191, use that one", "use coach.r@… instead": a contact value put in place of the one given
    // …and "rather email: a@b.de", "lieber per Mail: …" at the phone question: the other channel's value for its own question
    const wish = current?.answer.type === 'phone' ? pack.otherChannel.email.exec(sentence) : current?.answer.type === 'email' ? pack.otherChannel.phone.exec(sentence) : null;
    const replacing = REPLACES.exec(sentence) ?? late;
    const put = replacedContact(sentence, previous, answered, current, ctx, pack, replacing ?? wish, replacing === null && wish !== null);
    if (put) return { update: { key: put.key, value: put.value, evidence: sentence.slice(put.from, put.to).trim(), corrects: true }, rest: put.to === undefined ? blank(put.from) : cut(text, at + put.from, at + put.to) };
    // "and the ID starts with a double W, WW123456789": a code said again with a letter or two changed says what it corrects
    const near = nearCodeFix(sentence, order.length > 0 ? [...order, ...earlier.filter((q) => !order.includes(q))] : earlier, current, ctx);
    if (near) return near.reopen ? { reopen: near.key, rest: blank(0) } : { update: { key: near.key, value: near.value, evidence: sentence.trim(), corrects: true }, rest: cut(text, at + near.from, at + near.to) };
    // "oh one thing, she gets nosebleeds a lot" right after a free-text question was skipped: the note it was asked for
    const note = previous ? skippedNote(sentence, previous, current, ctx) : undefined;
    if (note !== undefined) return { update: { key: previous!.key, value: note, evidence: sentence.trim(), corrects: true }, rest: blank(0) };
    // "no. oh and a cough too", "no, also a headache": more options for the multiple choice answered the turn before
    const more = previous ? addedOptions(sentence, previous, current, ctx) : undefined;
    if (more) return { update: { key: previous!.key, value: more.value, evidence: sentence.slice(more.from).trim(), corrects: true }, rest: blank(more.from) };
    // "no. oh and court 3 is flickering too", "nein. ach ja, Platz 4 flackert auch": more for the description given the turn before
    const told = previous && /[\p{L}\p{N}]/u.test(blank(0)) ? addedText(sentence, previous, current, ctx, pack, blank(0)) : undefined;
    if (told !== undefined) return { update: { key: previous!.key, value: told, evidence: sentence.trim(), corrects: true }, rest: blank(0) };
    // "that 15k was per court … 30k total": a sentence that repeats the earlier amount goes back to it
    // …and so does one that says an amount was per item and gives the total ("that 40 was per court, … so 120k total")
    const refers = previous && !previous.pii && typeof previous.value === 'number'
      && (repeatsNumber(sentence, previous, ctx) || (PER_ITEM.test(sentence) && new RegExp(TOTAL.source, 'iu').test(sentence)));
    // "found the order number BF-115500": a code of the example's shape for a code question skipped before, the sentence naming it
    for (const q of named.length > 0 ? named : previous ? [previous] : []) {
      if (q.value !== null || q.answer.type !== 'text' || (current !== null && q.key === current.key) || (!named.includes(q) && late === null)) continue;
      const code = sameShape(sentence, q);
      if (code === undefined || (current?.answer.type === 'text' && current.answer.pattern !== undefined && parseAnswer(current.answer, code, ctx).ok)) continue;
      const read = parseAnswer(q.answer, code, ctx);
      if (read.ok) return { update: { key: q.key, value: read.value, evidence: sentence.trim(), corrects: true }, rest: blank(0) };
    }
    // "hmm, no, we're honestly just researching" after "asap": a no opening the reply takes back the choice just made
    const redone = at === 0 && markerAt === Infinity && !carried ? choiceRedone(sentence, previous, current, ctx, pack) : undefined;
    if (redone) return 'reopen' in redone ? { reopen: previous!.key, rest: blank(0) } : { update: { key: previous!.key, value: redone.value, evidence: sentence.trim(), corrects: true }, rest: blank(0) };
    if (markerAt === Infinity && !refers && !carried) {
      // "Mail ist natürlich j.meyer@gmx.de, Handy 0170 9876543": a contact said again under its name is the new one
      const again = restated(sentence, named, current, ctx, pack);
      if (again) return { update: { key: again.key, value: again.value, evidence: sentence.slice(again.from, again.to).trim(), corrects: true }, rest: cut(text, at + again.from, at + again.to) };
      // "and budget: the board just approved 26k", "Das Budget ist jetzt 19.000": an amount said again under its name
      const amount = restatedAmount(sentence, named, current, ctx, pack);
      if (amount) return { update: { key: amount.key, value: amount.value, evidence: sentence.trim(), corrects: true }, rest: blank(0) };
      // "oh it's Cigna now, switched in Feb": the short answer just given said anew with why it changed (no marker needed)
      if (previous && previous.value !== null && REASON.test(sentence) && !(current !== null && previous.key === current.key)) {
        const value = shortTextFix(sentence, previous, ctx, pack);
        if (value !== undefined) return { update: { key: previous.key, value, evidence: sentence.trim(), corrects: true }, rest: blank(0) };
      }
      // "the club is Harbor Tennis Club. 312 555 0188", "Verein ist der SC Lindenau": a short answer skipped before, given later
      // under its name (nothing to contradict, so no marker is needed); at a free-text question only beside more words
      for (const q of named) {
        if (q.value !== null || (current !== null && q.key === current.key) || (current?.answer.type === 'text' && !/[\p{L}\p{N}]/u.test(blank(0)))) continue;
        const value = shortTextFix(sentence, q, ctx, pack);
        if (value !== undefined) return { update: { key: q.key, value, evidence: sentence.trim(), corrects: true }, rest: blank(0) };
      }
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
      // "no. forgot, there are exposed wires at pole 2 too" at the safety question: a clause that reads as the current yes/no
      // by its content is that question's, not words added to a description (the current reading sees the whole reply)
      if (q.answer.type === 'text' && !isNamed && current !== null && current.answer.type === 'boolean' && yesNoByContent(current, clause, pack) !== null) continue;
      // "more like", "technically" alone add nothing to a description
      // a short answer said anew beside the current one ("Lakeview Academy actually, sorry. kim@…"): at a free-text question
      // only when the reply says more than this sentence or the sentence names the answer (else it may be that answer)
      const elsewhere = current === null || current.answer.type !== 'text' || isNamed || /[\p{L}\p{N}]/u.test(blank(0))
        || (current.answer.pattern !== undefined && !parseAnswer(current.answer, sentence, ctx).ok);
      const anew = (weak !== null || late !== null || approx !== null || carried) && elsewhere;
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
      // "Eigentlich keine Eile, eher Ende des Jahres": the clause that puts the answer another way ("eher", "more like") reads
      // nothing, and the value came from the head before it — the head gives the reason, not the answer: asked again
      const approxClause = approx !== null ? sentence.slice(clauseStart(sentence, approx.index)) : sentence;
      const headOnly = value !== undefined && !same && read!.whole && approx !== null && approxClause !== sentence && q.answer.type !== 'text'
        && readValue(q, approxClause, approxClause, ctx, false, pack) === undefined;
      if (headOnly && !question && (isPrevious || isNamed)) return { reopen: q.key, rest: blank(0) };
      if (value !== undefined && !same && !headOnly) {
        // "asap isn't realistic, more like this summer": a head that names this answer goes with the correction
        const head = sentence.slice(0, clauseAt);
        const headNames = clauseAt > 0 && namesQuestion(head, q, pack) && !(current !== null && current.answer.type !== 'text' && parseAnswer(current.answer, head, ctx).ok);
        const from = read!.whole || headNames ? 0 : clauseAt;
        return { update: { key: q.key, value, evidence: sentence.slice(from).trim(), corrects: true }, rest: blank(from) };
      }
      // the sentence goes back to this answer but its new value cannot be read: ask the question again
      // (a typed answer just given, put another way with "more like" / "eher" in words not read: asked again too)
      if (!question && ((isNamed && markerAt !== Infinity) || (isPrevious && late !== null) || (isPrevious && refers) || (isPrevious && repeats)
        || (isPrevious && approx !== null && q.answer.type !== 'text' && !forCurrent))) {
        // "oh wait, Aetna was my old one. it's Cigna now": a later sentence giving this answer's new value is the correction
        const after = carried ? null : lateCorrection(cut(text, at, at + sentence.length), given, answeredGiven, current, ctx, pack, true);
        if (after?.update?.key === q.key) return after;
        // a head that says the answer given goes with it ("Sofort ist unrealistisch, …")
        return { reopen: q.key, rest: blank(repeats || (clauseAt > 0 && namesQuestion(sentence.slice(0, clauseAt), q, pack)) ? 0 : clauseAt) };
      }
    }
  }
  // "Cigna" at the provider question after "no" to having insurance: the no is asked again, never kept beside it
  if (deniedThenGiven(text, previous, current, ctx, pack)) return { reopen: previous!.key, rest: text };
  // "well not sparks exactly, it's just flickering. no danger. Hank": the yes/no just given, said the other way by its content
  const anew = yesNoAnew(text, previous, current, ctx, pack);
  if (anew) return { update: { key: previous!.key, value: anew.value, evidence: anew.evidence, corrects: true }, rest: anew.rest };
  return null;
}
