import type { OpenQuestion, ProposedUpdate } from '../extractor.ts';
import type { LanguagePack } from '../../language/pack.ts';
import { fold, parseAnswer, type ParseContext } from '../parse/index.ts';

/*
 * A correction typed a turn late: "actually make that 25k. and asap please"
 * at the timeline question, after "20k" to the budget. A sentence of the reply
 * that holds a correction marker (the pack's `corrections`, or a late one:
 * "wrong", "typo", "forgot", "Tippfehler") and reads as an answer to the
 * previous question, with another value than the one it holds, corrects it —
 * when the sentence is not itself an answer to the current question, or names
 * the previous question ("the birthday is Feb 3rd, sorry"). The rest of the
 * reply is read for the current question. A date corrected without a year keeps
 * the year it had ("born 03/02/2015" → "Feb 3rd, sorry" → 2015-02-03).
 */

// a sentence ends at . ! ? ; before a space or the end ("25.000 $" and "k.mueller@gmx.de" are one)
const SENTENCE = /(?:[^.!?;\n]|[.!?;](?![\s]|$))+[.!?;]*/gu;
const NAME_RUN = /\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*)*/u;
const LATE = /(?<![\p{L}])(?:wrong|typo|forgot|mistake|hang on|oops|tippfehler|falsch|vergessen|versehentlich|korrigiere|erreur|faute|oublié|error|equivoqué|olvidé)(?![\p{L}])/iu;
const YEAR = /(?<![\p{N}])(?:\d{4}|'\d{2})(?![\p{N}])/u;

/** The correction of the previous answer in a reply, and the reply without it; null when there is none. */
export function lateCorrection(
  text: string, previous: OpenQuestion & { value: unknown }, current: OpenQuestion | null, ctx: ParseContext, pack: LanguagePack,
): { update: ProposedUpdate; rest: string } | null {
  const isName = previous.answer.type === 'text' && (previous.answer.kind === 'name' || /(?:^|_)name$/.test(previous.key));
  if (previous.answer.type === 'text' && !isName) return null;
  for (const m of text.matchAll(SENTENCE)) {
    const sentence = m[0];
    pack.corrections.lastIndex = 0;
    if (!pack.corrections.test(sentence) && !LATE.test(sentence)) continue;
    let value: unknown;
    if (isName) {
      // "Sarah Jones, sorry": a name that keeps the first name given and completes or respells the rest
      const name = NAME_RUN.exec(sentence)?.[0];
      const first = typeof previous.value === 'string' ? previous.value.trim().split(/\s+/)[0]?.toLowerCase() : undefined;
      if (!name || !first || name.split(/\s+/)[0]!.toLowerCase() !== first || name.split(/\s+/).length < 2) continue;
      value = name;
    } else {
      const read = parseAnswer(previous.answer, sentence, ctx);
      if (!read.ok) continue;
      value = read.value;
    }
    if (previous.answer.type === 'date' && typeof value === 'string' && typeof previous.value === 'string' && !YEAR.test(sentence)) {
      value = `${previous.value.slice(0, 4)}${value.slice(4)}`;
    }
    if (JSON.stringify(value) === JSON.stringify(previous.value)) continue;
    const forCurrent = current !== null && current.answer.type !== 'text' && parseAnswer(current.answer, sentence, ctx).ok;
    if (forCurrent && !namesQuestion(sentence, previous, pack)) continue;
    const rest = (text.slice(0, m.index) + ' '.repeat(sentence.length) + text.slice(m.index + sentence.length)).replace(/^[\s,.;:!—–-]*(?:and|und|et|y)?\s*/iu, '');
    return { update: { key: previous.key, value, evidence: sentence.trim(), corrects: true }, rest };
  }
  return null;
}

/** Whether a sentence names the question (a word of its key, label or prompt, or a word starting with one: "birthday" for "birth"). */
function namesQuestion(sentence: string, q: OpenQuestion, pack: LanguagePack): boolean {
  const filler = new Set([...pack.lexicon.filler, ...pack.lexicon.skipFiller].map((w) => fold(w).text));
  const own = [...q.key.split(/[_.-]+/), ...(fold(`${q.label ?? ''} ${q.prompt ?? ''}`).text.match(/[\p{L}]{4,}/gu) ?? [])].filter((w) => w.length >= 4 && !filler.has(w));
  const said = fold(sentence).text.match(/[\p{L}]{4,}/gu) ?? [];
  return said.some((w) => own.some((o) => w === o || w.startsWith(o)));
}
