/* An answer given about what a "no" just denied: "Cigna" at "Who is your insurance provider?" after "no" to having insurance. */
import type { OpenQuestion } from '../extractor.ts';
import type { LanguagePack } from '../../language/pack.ts';
import { fold, foldPhrase, parseAnswer, type ParseContext } from '../parse/index.ts';
import { stemmer } from '../../language/stem.ts';
import type { Earlier } from './late-earlier.ts';

const stem = stemmer('english');
/** Words of a question's key that say nothing of its topic ("has_insurance", "takes_medication", "insurance_provider"). */
const KEY_PLAIN = new Set(['has', 'have', 'takes', 'take', 'is', 'are', 'any', 'do', 'does', 'wants', 'want', 'needs', 'need', 'the', 'of', 'and', 'or', 'name',
  'number', 'id', 'type', 'kind', 'details', 'detail', 'list', 'now', 'other', 'more', 'yes', 'no']);

/** The topic words of a key, stemmed ("has_insurance" → insur; "insurance_provider" → insur, provid). */
const topic = (key: string) => new Set(key.split(/[^A-Za-z]+|(?<=[a-z])(?=[A-Z])/u).map((w) => w.toLowerCase()).filter((w) => w.length >= 4 && !KEY_PLAIN.has(w)).map(stem));

/**
 * Whether the reply answers the current question about the very thing the yes/no just answered "no" denied: the two keys
 * share a topic word ("has_insurance" and "insurance_provider", "has_allergies" and "allergies"), the reply reads as the
 * current answer and holds no no, negator, none, skip or hedge word and no question. The visitor contradicts the no (a
 * misclick, or the no meant something else): the yes/no is asked again, never left beside an answer it denies.
 */
export function deniedThenGiven(text: string, previous: Earlier | undefined, current: OpenQuestion | null, ctx: ParseContext, pack: LanguagePack): boolean {
  if (previous === undefined || current === null || previous.answer.type !== 'boolean' || previous.value !== false || previous.pii) return false;
  if (current.answer.type === 'boolean' || current.key === previous.key || text.includes('?')) return false;
  const mine = topic(previous.key);
  if (mine.size === 0 || ![...topic(current.key)].some((w) => mine.has(w))) return false;
  const lex = pack.lexicon;
  const denying = [...lex.no, ...lex.negators, ...lex.neither, ...lex.skip, ...lex.declines, ...(pack.yesNo?.none ?? [])].map(foldPhrase).filter(Boolean);
  const folded = ` ${fold(text).text.replace(/[^\p{L}\p{N}' ]+/gu, ' ').replace(/\s+/g, ' ').trim()} `;
  if (!/[\p{L}\p{N}]/u.test(folded) || denying.some((p) => folded.includes(` ${p} `))) return false;
  return parseAnswer(current.answer, text, ctx).ok;
}
