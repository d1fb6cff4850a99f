/* A single choice just made, said anew after a "no" opening the next reply: "hmm, no, we're honestly just researching" after "asap". */
import type { OpenQuestion } from '../extractor.ts';
import type { LanguagePack } from '../../language/pack.ts';
import { fold, parseAnswer, type ParseContext } from '../parse/index.ts';
import type { Earlier } from './late-earlier.ts';
import { unexplainedWords } from './commit-rule.ts';

/** Interjections that may stand before the no ("hmm, no", "oh no", "ach nein", "ok nee"). */
const LEAD = new Set(['oh', 'ah', 'ach', 'och', 'oje', 'hmm', 'hm', 'hmmm', 'mhm', 'um', 'uh', 'well', 'ok', 'okay', 'so', 'also', 'naja', 'na']);
/** No words of one word that packs leave out as answers of their own ("ne" is German speech for "nee"). */
const EXTRA_NO = ['ne', 'nö', 'noe', 'naa', 'nah'];

/**
 * A reply opening with a no (after interjections: "hmm, no, …", "Ne, eigentlich …", "Ach nein, …") right after a single
 * choice was made, whose rest reads at that choice as another option: the no takes back the choice, the rest says which.
 * Not where the current question is a yes/no (the no answers it) or reads the head or the rest itself. A rest read only
 * tentatively (checked, or with words the reading leaves over) has the choice asked again (`reopen`). Undefined when the reply is no such thing.
 */
export function choiceRedone(
  sentence: string, previous: Earlier | undefined, current: OpenQuestion | null, ctx: ParseContext, pack: LanguagePack,
): { value: unknown; from: number } | { reopen: true } | undefined {
  if (previous === undefined || previous.pii || previous.answer.type !== 'enum' || previous.answer.multiple || previous.value === null) return undefined;
  if (current !== null && (current.answer.type === 'boolean' || current.key === previous.key)) return undefined;
  const head = noHead(sentence, pack);
  if (head === undefined) return undefined;
  const rest = sentence.slice(head);
  if (!/\p{L}{2,}/u.test(rest)) return undefined;
  // the current question's own answer ("no, 30k" at the budget) is no choice said anew
  if (current !== null && current.answer.type !== 'text' && (parseAnswer(current.answer, rest, ctx).ok || parseAnswer(current.answer, sentence.slice(0, head), ctx).ok)) return undefined;
  const read = parseAnswer(previous.answer, rest, ctx);
  if (!read.ok || JSON.stringify(read.value) === JSON.stringify(previous.value)) return undefined;
  // a reading checked, or with words the commit rule finds unexplained ("no, maybe june?"), takes the choice back and asks it again
  if (read.check) return { reopen: true };
  return read.exact || unexplainedWords(rest, read.evidence.split(', '), previous, pack, read.value).length === 0 ? { value: read.value, from: 0 } : { reopen: true };
}

/** Where the words after a no opening the sentence start ("hmm, no, we're …" → at "we're"); undefined without one. */
function noHead(sentence: string, pack: LanguagePack): number | undefined {
  const noWords = new Set([...pack.lexicon.no.filter((w) => !/\s/.test(w) && /\p{L}/u.test(w)), ...EXTRA_NO].map((w) => fold(w).text));
  let sawNo = false;
  let end = 0;
  for (const m of sentence.matchAll(/[\p{L}]+|[^\p{L}]+/gu)) {
    if (!/\p{L}/u.test(m[0])) {
      // only spaces and soft punctuation between the head's words
      if (/[^\s,;:.!—–-]/u.test(m[0])) break;
      continue;
    }
    const w = fold(m[0]).text;
    if (!sawNo && LEAD.has(w)) continue;
    if (noWords.has(w) && !sawNo) {
      sawNo = true;
      end = m.index + m[0].length;
      continue;
    }
    break;
  }
  if (!sawNo) return undefined;
  const after = /^[\s,;:.!—–-]*/u.exec(sentence.slice(end))![0];
  return end + after.length;
}
