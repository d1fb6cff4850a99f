/* A contact said again under its name with another value. */
import type { OpenQuestion } from '../extractor.ts';
import type { LanguagePack } from '../../language/pack.ts';
import { parseAnswer, type ParseContext } from '../parse/index.ts';
import type { Earlier } from './late-earlier.ts';
import { BOUNDARY, LATE } from './late-markers.ts';
import { namesQuestion } from './late-question-names.ts';

/** A contact answer (email, phone, web address) said again under its name in a clause of its own, with another value; undefined when none. */
export function restated(sentence: string, named: readonly Earlier[], current: OpenQuestion | null, ctx: ParseContext, pack: LanguagePack): { key: string; value: unknown; from: number; to: number } | undefined {
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

/**
 * A contact value put in place of one given ("no. and that's my home phone, my cell is 708 555 0191, use that one",
 * "skip. and use coach.r@… instead, the other one bounces"): a sentence with a replacing word (REPLACES) or a late marker
 * that holds one value of an earlier contact answer's type, other than the one given. The answer it replaces: the one
 * just given when it is of that type, else the one earlier answer of that type the sentence names, else the only earlier
 * answer of that type; none when the current question asks for that type or the answer is unclear. `from` is where the
 * clause holding the value or the marker starts (what comes before it answers the current question). With `keepHead` (the
 * marker is a wish for the other channel, "rather email: a@b.de" at the phone question) `from`..`to` is the value alone:
 * the wish stays with the current question, which it declines.
 */
export function replacedContact(sentence: string, previous: Earlier | undefined, answered: readonly Earlier[], current: OpenQuestion | null, ctx: ParseContext, pack: LanguagePack, marker: RegExpExecArray | null, keepHead = false): { key: string; value: unknown; from: number; to?: number } | undefined {
  if (marker === null) return undefined;
  const earlier = [...(previous ? [previous] : []), ...answered];
  for (const type of ['email', 'phone', 'url'] as const) {
    if (current?.answer.type === type) continue;
    const ofType = earlier.filter((q) => q.answer.type === type);
    if (ofType.length === 0) continue;
    const named = ofType.filter((q) => namesQuestion(sentence, q, pack));
    const q = previous?.answer.type === type ? previous : named.length === 1 ? named[0]! : ofType.length === 1 ? ofType[0]! : undefined;
    if (q === undefined) continue;
    // the values of that type, clause by clause (a phone read across clauses would join two numbers)
    const found: { value: unknown; at: number; span?: [number, number] }[] = [];
    let start = 0;
    for (const b of [...sentence.matchAll(BOUNDARY), { index: sentence.length, 0: '' } as unknown as RegExpMatchArray]) {
      const clause = sentence.slice(start, b.index);
      const read = parseAnswer(q.answer, clause, ctx);
      const spanAt = read.ok ? clause.indexOf(read.evidence) : -1;
      if (read.ok && !found.some((f) => f.value === read.value)) found.push({ value: read.value, at: start, ...(spanAt >= 0 ? { span: [start + spanAt, start + spanAt + read.evidence.length] as [number, number] } : {}) });
      start = b.index! + b[0].length;
    }
    if (found.length !== 1 || found[0]!.value === q.value) continue;
    // a wish for the other channel ("rather email: …") stays with the current question, which it declines
    // (unless the reply answers it too: "617 555 0123 — actually you can also email me, pat@…")
    if (keepHead && found[0]!.span && !(current !== null && parseAnswer(current.answer, sentence.slice(0, found[0]!.at), ctx).ok)) return { key: q.key, value: found[0]!.value, from: found[0]!.span[0], to: found[0]!.span[1] };
    let from = Math.min(found[0]!.at, clauseStartOf(sentence, marker.index));
    // "skip, and use … instead": a head that answers the current question stays with it; "oh and", "sorry" go with the correction
    const bare = (part: string) => {
      pack.corrections.lastIndex = 0;
      return !/[\p{L}\p{N}]/u.test(part.replace(pack.corrections, ' ').replace(new RegExp(LATE.source, 'giu'), ' ').replace(/(?<![\p{L}])(?:oh|ah|ach|and|und|so|also|btw|ok|okay|well)(?![\p{L}])/giu, ''));
    };
    while (from > 0 && bare(sentence.slice(clauseStartOf(sentence, from - 1), from))) from = clauseStartOf(sentence, from - 1);
    if (from > 0 && bare(sentence.slice(0, from))) from = 0;
    return { key: q.key, value: found[0]!.value, from };
  }
  return undefined;
}

/** Where the clause holding position `at` starts. */
function clauseStartOf(sentence: string, at: number): number {
  let start = 0;
  for (const b of sentence.matchAll(BOUNDARY)) if (b.index + b[0].length <= at) start = b.index + b[0].length;
  return start;
}

/** A head naming an answer before its new value: "and budget:", "Und zum Budget:", "das Budget ist jetzt", "our budget's now". */
const LABEL_HEAD = /^[\s,;:.!—–-]*(?:(?:and|und|oh|ah|ach|also|so|btw|übrigens|ubrigens|plus|ok|okay)[\s,]+)*(?:(?:the|our|my|das|der|die|unser|unsere|unser|zum|zur|re|about|regarding|wegen|beim)\s+)?((?:\p{L}+[\s-]+)?\p{L}+?)(?:['’]s(?=\s)|\s*:|\s+(?:is|are|was|ist|sind|beträgt|betraegt|liegt bei|would be|wäre|waere|will be|wird)(?![\p{L}]))/iu;
/** A condition or a question beside a figure: no new answer ("budget: 30k if we add a court", "Budget: 30k, falls …"). */
const CONDITION = /(?<![\p{L}])(?:if|unless|might|could|wenn|falls|sofern|vielleicht|eventuell|könnte|koennte)(?![\p{L}])|\?/iu;

/**
 * An amount said again under its question's name, without a marker: "asap. and budget: the board just approved 26k", "Und zum
 * Budget: der Verein hat jetzt 28k bewilligt", "Das Budget ist jetzt 19.000": a sentence opening with the question's own name
 * (every word of it naming the question) and a colon or a copula, one figure after it read as that answer, another than the
 * one given, with no condition beside it. Undefined when none.
 */
export function restatedAmount(sentence: string, named: readonly Earlier[], current: OpenQuestion | null, ctx: ParseContext, pack: LanguagePack): { key: string; value: unknown } | undefined {
  const m = LABEL_HEAD.exec(sentence);
  if (m === null) return undefined;
  const said = sentence.slice(m[0].length);
  if (CONDITION.test(said) || (said.match(/\d[\d.,]*/g) ?? []).length !== 1) return undefined;
  for (const q of named) {
    if ((q.answer.type !== 'integer' && q.answer.type !== 'number') || (current !== null && q.key === current.key)) continue;
    if (!m[1]!.split(/[\s-]+/).every((w) => namesQuestion(w, q, pack))) continue;
    const read = parseAnswer(q.answer, said, ctx);
    if (read.ok && read.value !== q.value) return { key: q.key, value: read.value };
  }
  return undefined;
}
