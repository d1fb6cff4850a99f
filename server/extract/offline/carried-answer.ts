import { fold, foldPhrase } from '../parse/index.ts';
import type { LanguagePack } from '../../language/pack.ts';

/*
 * A yes or no that already carries the next question's answer: "yep, Aetna" to "Do you have insurance?", "yes,
 * lisinopril 10 mg" to "Do you take any medications?", "ja, die AOK". The conversation layer reads the words after
 * the yes/no word at the question asked next (server/conversation/turn-runner.ts), and takes them only when they
 * answer it outright (see `carriedRest`). The words are the pack's (`lexicon.yes`/`no`, `carried`).
 */

/** The value-like rest after an opening yes or no word ("yep, Aetna" → "Aetna"); null when there is none. */
export function carriedRest(text: string, pack: LanguagePack): string | null {
  const lex = pack.lexicon;
  const words = pack.carried;
  if (!words) return null;
  const folded = fold(text).text;
  const opener = [...lex.yes, ...lex.no].map((w) => fold(w).text).filter((w) => w !== '')
    .sort((a, b) => b.length - a.length).find((w) => folded.startsWith(w) && /^[\s,.;:!—–-]/u.test(folded.slice(w.length)));
  if (opener === undefined) return null;
  const rest = text.trim().slice(opener.length).replace(/^[\s,.;:!—–-]+/u, '').replace(/[\s.!]+$/u, '');
  // a name (capitalised words: "Aetna", "Blue Cross", "die AOK" → "AOK") or something with a figure ("lisinopril 10 mg"),
  // in one clause: "I do, through work" or "yes, but only sometimes" carries nothing
  if (rest === '' || /[,;]/.test(rest)) return null;
  const said = rest.split(/\s+/u);
  const lead = new Set(words.lead.map(foldPhrase));
  const inName = new Set(words.inName.map(foldPhrase));
  const first = said.findIndex((w) => !lead.has(fold(w).text));
  const name = said.slice(Math.max(first, 0));
  const named = name.length > 0 && name.length <= 4 && name.every((w) => /^[\p{Lu}\p{N}]/u.test(w) || inName.has(fold(w).text));
  const self = fold(rest).text;
  const figure = /\p{L}{3,}.*\d|\d.*\p{L}{2,}/u.test(rest) && !words.self.map(foldPhrase).some((w) => self.startsWith(w) && (!/[\p{L}\p{N}]$/u.test(w) || !/[\p{L}\p{N}_]/u.test(self[w.length] ?? '')));
  return named ? name.join(' ') : figure ? rest : null;
}
