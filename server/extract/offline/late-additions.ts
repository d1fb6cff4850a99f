/* Late additions: options added to a multiple choice, an afterthought to a description, the note for a skipped question. */
import type { OpenQuestion } from '../extractor.ts';
import type { LanguagePack } from '../../language/pack.ts';
import { fold, parseAnswer, type ParseContext } from '../parse/index.ts';
import { normalOptions } from '../../flow/answer-types.ts';
import { yesNoByContent } from './yes-no-content.ts';
import { isName, type Earlier } from './late-earlier.ts';
import { ADDS, OH_AND, clauseStart } from './late-markers.ts';

/**
 * Options added to the multiple choice answered the turn before, in a clause marked as an addition ("also", "too",
 * "as well", "oh and", "auch"): the clause must name an option not chosen yet and must not answer the current question.
 */
export function addedOptions(sentence: string, q: Earlier, current: OpenQuestion | null, ctx: ParseContext): { value: unknown[]; from: number } | undefined {
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
export function addedText(sentence: string, q: Earlier, current: OpenQuestion | null, ctx: ParseContext, pack: LanguagePack): string | undefined {
  const a = q.answer;
  if (q.pii || a.type !== 'text' || isName(q) || typeof q.value !== 'string' || (a.max !== undefined && a.max <= 200)) return undefined;
  if (q.value.trim().split(/\s+/).length < 3 || !(ADDS.test(sentence) || OH_AND.test(sentence) || /^\W*(?:ach ja|oh yeah|oh and)/iu.test(sentence))) return undefined;
  // "ach ja", "oh yeah" open the afterthought: no yes to the current question
  const added = sentence.replace(/^\W*(?:ach ja|oh ja|oh yeah|oh yes|ah yes|ah ja)(?![\p{L}])/iu, '').replace(AFTERTHOUGHT, '').replace(/^[\s,;:!—–-]+/u, '').trim().replace(/[\s.!;,]+$/u, '');
  if (current !== null && current.answer.type !== 'text' && (parseAnswer(current.answer, added, ctx).ok || yesNoByContent(current, added, pack) !== null)) return undefined;
  return (added.match(/[\p{L}\p{N}]+/gu) ?? []).length >= 3 ? joinText(q.value, added) : undefined;
}

/** Words that add something after a question was passed: "oh one thing", "one more thing", "I forgot to say", "eine Sache noch", "Nachtrag". */
const NOTE = /^\W*(?:(?:oh|ah|ach|and|und|oh and|ah and)\W+)?(?:one (?:more |other |last )?thing|something else|i forgot to (?:say|mention)|forgot to (?:say|mention)|before i forget|p\.?s\.?|eine sache noch|noch (?:eine sache|etwas|was)|nachtrag|was ich vergessen habe|(?:please |pls |plz |could you |can you )?(?:tell|let) (?:the )?(?:doctor|dr\.?|nurse|team|technician|electrician|them)(?: know)?(?: that)?|sagen sie (?:dem arzt|der ärztin|der aerztin|dem team|bitte dem arzt)(?:,? dass)?|(?:bitte )?dem arzt sagen(?:,? dass)?)(?![\p{L}])[\s,:;—–-]*/iu;

/** The note said after an optional free-text question was skipped ("oh one thing, she gets nosebleeds a lot"); undefined when none. */
export function skippedNote(sentence: string, previous: Earlier, current: OpenQuestion | null, ctx: ParseContext): string | undefined {
  const a = previous.answer;
  if (previous.pii || previous.value !== null || a.type !== 'text' || isName(previous) || (a.max !== undefined && a.max <= 200)) return undefined;
  const m = NOTE.exec(sentence);
  if (!m) return undefined;
  if (current !== null && current.answer.type !== 'text' && parseAnswer(current.answer, sentence, ctx).ok) return undefined;
  const said = sentence.slice(m[0].length).trim().replace(/[\s.!]+$/u, '');
  return (said.match(/[\p{L}\p{N}]+/gu) ?? []).length >= 3 ? said : undefined;
}
