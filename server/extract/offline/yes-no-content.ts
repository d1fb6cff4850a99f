import type { OpenQuestion } from '../extractor.ts';
import type { LanguagePack } from '../../language/pack.ts';
import { findPhrase, fold, foldPhrase } from '../parse/index.ts';

/*
 * YES/NO BY CONTENT: a reply with no yes or no word that describes, or denies, what the question
 * asks about answers it, as a front desk would record it.
 *  - A denial of existence, where the prompt asks whether there is any ("Do you take any …?", "Is
 *    anything unsafe …?", "Ist gerade etwas …?"): "none", "nothing like that", "not that I know of",
 *    "she's not on anything", "nicht dass ich wüsste", "nichts dergleichen" → no.
 *  - The prompt's own listed items ("exposed wiring, sparking, or a fixture or pole that looks like it
 *    could fall"; "chest pain or trouble breathing"), in any word form ("sparks", "gefunkt", "wires",
 *    "allergic"), asserted → yes ("saw a few sparks last night"); denied by a negator before them in
 *    their clause, by a word saying they are fine ("breathing fine", "keine losen Teile") or ended
 *    ("no longer") → no. Items only count where the prompt's question lists things (a comma or an
 *    "or"); both asserted and denied, or a question back, and nothing is read.
 * The commit rule then judges the rest of the reply like any yes or no (remarks.ts).
 */

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’]*/gu;
const CLAUSE = /[,;:!?.()[\]—–]+|\s-\s|\b(?:but|aber|and|und)\b/iu;

/** A word's stem for matching an item: "sparking"/"sparks"/"sparked" → "spark", "gefunkt"/"Funken" → "funk". */
function stem(w: string): string {
  let s = w.replace(/['’]s$/u, '');
  if (s.length > 6 && s.startsWith('ge')) s = s.slice(2);
  for (const end of ['ing', 'ung', 'ies', 'es', 'ed', 'en', 'er', 's', 'e', 't']) {
    if (s.length - end.length >= 3 && s.endsWith(end)) return s.slice(0, -end.length);
  }
  return s;
}

/** Whether a reply word names an item word: the same stem, or one begins the other by five letters or more ("Funkenflug"). */
function names(word: string, item: string): boolean {
  if (word.length < 4) return false;
  const a = stem(word);
  const b = stem(item);
  if (a === b) return true;
  const n = Math.min(a.length, b.length);
  if (n >= 5 && (a.startsWith(b) || b.startsWith(a))) return true;
  // "dizzy" / "dizziness": a common start of four letters or more that is most of the shorter stem
  let common = 0;
  while (common < n && a[common] === b[common]) common++;
  return common >= 4 && common >= 0.8 * n;
}

const itemCache = new WeakMap<OpenQuestion, string[]>();

/** The content words of the question's own sentence when it lists things ("…: exposed wiring, sparking, or a fixture…"); empty otherwise. */
function itemsOf(q: OpenQuestion, pack: LanguagePack): string[] {
  let items = itemCache.get(q);
  if (!items) {
    const prompt = q.prompt ?? '';
    const question = prompt.includes('?') ? prompt.slice(0, prompt.indexOf('?')) : prompt;
    const folded = fold(question).text;
    const words = pack.yesNo;
    const lists = words !== undefined && (question.includes(',') || words.listJoiners.some((j) => findPhrase(folded, foldPhrase(j)).length > 0));
    const common = pack.names.reply.common();
    const filler = new Set([...pack.lexicon.filler, ...pack.lexicon.skipFiller, ...(words?.notItems ?? [])].map(foldPhrase));
    items = lists ? [...new Set(folded.match(WORD) ?? [])].filter((w) => w.length >= 4 && !common.has(w) && !filler.has(w)) : [];
    itemCache.set(q, items);
  }
  return items;
}

const has = (text: string, phrases: readonly string[]) => phrases.some((p) => findPhrase(text, foldPhrase(p)).length > 0);

/** What a reply without a yes or no word says about the question by its content: true, false, or null when it says neither. */
export function yesNoByContent(q: OpenQuestion, text: string, pack: LanguagePack): { value: boolean; evidence: string } | null {
  const words = pack.yesNo;
  if (!words || q.answer.type !== 'boolean' || text.includes('?')) return null;
  const lex = pack.lexicon;
  // a yes, a no, a synonym of the flow or a hedge said in words is the parser's to read ("kind of, my chest feels tight"
  // stays a hedge, "both indoor and outdoor" two answers); a word inside "right now" or "alles ok" says neither
  let plain = fold(text).text;
  for (const p of pack.leftovers?.plain ?? []) for (const at of findPhrase(plain, foldPhrase(p)).reverse()) plain = plain.slice(0, at) + ' '.repeat(foldPhrase(p).length) + plain.slice(at + foldPhrase(p).length);
  const spec = q.answer;
  const synonyms = [...(spec.synonyms?.true ?? []), ...(spec.synonyms?.false ?? [])];
  if (has(plain, [...lex.neither, ...lex.skip, ...lex.yes, ...lex.no, ...lex.both, ...synonyms])) return null;
  const { asserted, denied } = read(q, text, pack, has(fold(q.prompt ?? '').text, words.any));
  if (asserted !== null && denied === null) return { value: true, evidence: asserted };
  if (denied !== null && asserted === null) return { value: false, evidence: denied };
  return null;
}

/** Whether a reply names one of the prompt's listed items without denying it ("no, but there's a cable hanging out"): beside a no, it competes. */
export function assertsItem(q: OpenQuestion, text: string, pack: LanguagePack): boolean {
  return pack.yesNo !== undefined && q.answer.type === 'boolean' && read(q, text, pack, false).asserted !== null;
}

/** The first item asserted and the first denial (an item denied, or "none" where the prompt asks whether there is any), as typed. */
function read(q: OpenQuestion, text: string, pack: LanguagePack, asksAny: boolean): { asserted: string | null; denied: string | null } {
  const words = pack.yesNo!;
  const lex = pack.lexicon;
  let asserted: string | null = null;
  let denied: string | null = null;
  const items = itemsOf(q, pack);
  const negators = lex.negators.map(foldPhrase);
  for (const typed of text.split(CLAUSE)) {
    const clause = fold(typed).text;
    const ws = clause.match(WORD) ?? [];
    if (ws.length === 0) continue;
    const shown = typed.match(WORD) ?? [];
    if (asksAny && (has(clause, words.none) || negatedAny(ws, negators, words.anyWords))) denied ??= typed.trim();
    if (items.length === 0) continue;
    // "the wiring was redone last year": a thing named without a problem says neither
    if (has(clause, words.neutral)) continue;
    const fine = has(clause, words.fine) || has(clause, words.ended);
    for (let i = 0; i < ws.length; i++) {
      if (!items.some((item) => names(ws[i]!, item))) continue;
      const before = ws.slice(Math.max(0, i - 3), i).join(' ');
      const word = shown.length === ws.length ? shown[i]! : ws[i]!;
      if (fine || has(before, lex.negators) || has(before, words.none)) denied ??= word;
      else asserted ??= word;
    }
  }
  return { asserted, denied };
}

/** "she's not on anything", "I don't take any": a negator with "any"/"anything" after it in the clause. */
function negatedAny(ws: readonly string[], negators: readonly string[], anyWords: readonly string[]): boolean {
  const text = ws.join(' ');
  return negators.some((n) => findPhrase(text, n).some((at) => {
    const after = text.slice(at + n.length).trim().split(' ').slice(0, 3);
    return after.some((w) => anyWords.includes(w));
  }));
}
