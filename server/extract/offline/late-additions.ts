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
export function addedText(sentence: string, q: Earlier, current: OpenQuestion | null, ctx: ParseContext, pack: LanguagePack, rest = ''): string | undefined {
  const a = q.answer;
  if (q.pii || a.type !== 'text' || isName(q) || typeof q.value !== 'string' || (a.max !== undefined && a.max <= 200)) return undefined;
  if (!(ADDS.test(sentence) || OH_AND.test(sentence) || /^\W*(?:ach ja|oh yeah|oh and)/iu.test(sentence))) return undefined;
  // a list of a word or two ("lisinopril 10mg") gets an item said as forgotten ("and amlodipine 5mg, forgot that one")
  const forgot = FORGOT.test(sentence);
  const strong = forgot || OH_AND.test(sentence) || /^\W*(?:ach ja|oh yeah|oh and)/iu.test(sentence);
  if (q.value.trim().split(/\s+/).length < 3 && !strong) return undefined;
  // "ach ja", "oh yeah" open the afterthought: no yes to the current question; a clause saying only that it was forgotten is dropped
  const opened = sentence.replace(/^\W*(?:ach ja|oh ja|oh yeah|oh yes|ah yes|ah ja)(?![\p{L}])/iu, '').replace(AFTERTHOUGHT, '').replace(/^[\s,;:!—–-]+/u, '');
  const added = opened.split(/(?<=[,;:—–])\s*|\s+(?=[—–-]\s)/u).filter((c) => !MARKER_ONLY.test(c)).join(' ')
    .replace(/^[\s,;:!—–-]+/u, '').trim().replace(/[\s.!;,—–-]+$/u, '');
  // "I take metformin 500 twice a day too": the item alone
  const item = TAKES.test(added) ? added.replace(TAKES, '').replace(TRAILING_ADDS, '') : added;
  const reading = (t: string): unknown => {
    if (current === null || current.answer.type === 'text') return undefined;
    const read = parseAnswer(current.answer, t, ctx);
    return read.ok ? read.value : yesNoByContent(current, t, pack)?.value;
  };
  // an item said forgotten beside a sentence that answers the current question the same way ("and amlodipine 5mg, forgot that
  // one. allergic to sulfa"), or said taken ("no. oh and I take metformin 500 twice a day too"), goes back to the list even when
  // it could be read for the current question too; a reading the other way ("no. forgot, there are exposed wires too") does not
  const now = reading(added);
  const there = now === undefined ? undefined : reading(rest);
  if (now !== undefined && !(there !== undefined && ((forgot && there === now) || (TAKING.test(added) && strong)))) return undefined;
  return (item.match(/[\p{L}\p{N}]+/gu) ?? []).length >= (forgot ? 1 : 3) ? joinText(q.value, item) : undefined;
}

/** "I also take", "she's on", "ich nehme auch" opening an item added to a list: dropped, the item is the record. */
const TAKES = /^(?:(?:i|we|she|he|they)(?:['’]m|['’]s|['’]re)?\s+(?:also\s+|too\s+)?(?:take|takes|use|uses|am on|is on|are on|on|have|has)\s+(?:also\s+)?|(?:ich|sie|er|wir)\s+(?:nehme|nimmt|nehmen)\s+(?:auch|noch|außerdem|ausserdem)?\s*(?:noch\s+)?)(?=\S)/iu;
/** An item said taken ("I take", "she's on", "ich nehme"): a medicine for a list, never a yes to another question. */
const TAKING = /^(?:(?:i|we|she|he|they)(?:['’]m|['’]s|['’]re)?\s+(?:also\s+)?(?:take|takes|am on|is on|are on|on)|(?:ich|sie|er|wir)\s+(?:nehme|nimmt|nehmen))(?![\p{L}])/iu;
/** "too", "as well", "auch" closing an item added: dropped. */
const TRAILING_ADDS = /[\s,]+(?:too|as well|also|auch|auch noch|noch)$/iu;

/** Words that say something was forgotten or left out: "forgot", "left out", "missed", "vergessen", "oublié", "olvidé". */
const FORGOT = /(?<![\p{L}])(?:forgot|forgotten|forget|left (?:out|off)|missed|vergessen|vergaß|oublié|olvidé)(?![\p{L}])/iu;

/** A clause saying only that something was forgotten or is added ("forgot that one", "I forgot", "sorry", "hab ich vergessen", "too"). */
const MARKER_ONLY = /^[\s,;:.!—–-]*(?:(?:oh|ah|and|und|sorry|oops|i|i've|ive|we|she|he|also|too|as well|that|that one|this|this one|one|to (?:say|mention|add)|forgot|forgotten|left (?:out|off)|missed|hab|habe|ich|das|den|die|vergessen|auch|noch|entschuldigung|sorry)(?![\p{L}])[\s,;:.!—–-]*)+$/iu;

/** Who a note is for: "the doctor", "the nurse", "den Arzt", "das Team". */
const ADDRESSEE = '(?:doctor|doc|dr\\.?|nurse|nurses|team|staff|technician|tech|electrician|installer|arzt|ärztin|aerztin|pflege|schwester|techniker|elektriker|monteur)';

/** Words that add something after a question was passed: "oh one thing", "one more thing", "I forgot to say", "eine Sache noch", "Nachtrag". */
const NOTE_WORDS = /^\W*(?:(?:oh|ah|ach|and|und|oh and|ah and|ach und)\W+)?(?:(?:please |pls |also |could you |can you )?(?:note|make a note|add a note|put down|write down|add)(?: (?:down|that|this|too))*(?= )|just so you know|fyi|for your info(?:rmation)?|(?:nur |noch )?zur info(?:rmation)?|bitte (?:notieren|vermerken|aufschreiben)(?: sie)?(?:,? dass)?|notieren sie(?: bitte)?(?:,? dass)?|vermerken sie(?: bitte)?(?:,? dass)?|one (?:more |other |last )?thing|something else|i forgot to (?:say|mention)|forgot to (?:say|mention)|before i forget|p\.?s\.?|eine sache noch|noch (?:eine sache|etwas|was)|nachtrag|was ich vergessen habe|(?:please |pls |plz |could you |can you )?(?:tell|let) (?:the )?(?:doctor|dr\.?|nurse|team|technician|electrician|them)(?: know)?(?: that)?|sagen sie (?:dem arzt|der ärztin|der aerztin|dem team|bitte dem arzt)(?:,? dass)?|(?:bitte )?dem arzt sagen(?:,? dass)?|(?:a |one )?note (?:for|to) (?:the )?ADDRESSEE|(?:eine )?(?:notiz|info|anmerkung) (?:für|an) (?:den |die |das )?ADDRESSEE|(?:for|to|für|an) (?:the |den |die |das )?ADDRESSEE(?=\s*[:—–-]))(?:\s+(?:for|to|für|an) (?:the |den |die |das )?ADDRESSEE)?(?![\p{L}])[\s,:;—–-]*/iu;
const NOTE = new RegExp(NOTE_WORDS.source.replace(/ADDRESSEE/g, ADDRESSEE), 'iu');

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
