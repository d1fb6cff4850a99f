/* Whether a sentence names an earlier question (by its key, label, prompt or options). */
import type { OpenQuestion } from '../extractor.ts';
import type { LanguagePack } from '../../language/pack.ts';
import { fold } from '../parse/index.ts';

/** Whether a sentence names the question (a word of its key, label or prompt, or a word sharing its stem: "birthday" for "birth", "allergic" for "allergies"). */
export function namesQuestion(sentence: string, q: OpenQuestion, pack: LanguagePack): boolean {
  // the pack's short filler ("the", "please") names nothing; a longer filler word ("number") can name a question
  const filler = new Set([...pack.lexicon.filler, ...pack.lexicon.skipFiller].map((w) => fold(w).text).filter((w) => w.length < 6));
  const options = q.answer.type === 'enum' ? q.answer.options.map((o) => (typeof o === 'string' ? o : `${o.label ?? ''} ${o.value.replace(/_/g, ' ')}`)).join(' ') : '';
  const own = [...q.key.split(/[_.-]+/), ...(fold(`${q.label ?? ''} ${q.prompt ?? ''} ${options}`).text.match(/[\p{L}]{4,}/gu) ?? [])]
    .map((w) => fold(w).text).filter((w) => w.length >= 4 && !filler.has(w) && !COMMON.has(w));
  const said = fold(sentence).text.match(/[\p{L}]{4,}/gu) ?? [];
  return said.some((w) => !COMMON.has(w) && own.some((o) => w === o || w.startsWith(o) || stem(w, o)));
}

/** Whether a sentence names the question by a word of its key ("court size" for court_size; words of 4 letters or more). */
export function namesKey(sentence: string, q: OpenQuestion): boolean {
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
