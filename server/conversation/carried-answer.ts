import { fold } from '../extract/parse/index.ts';
import { packOf } from '../language/registry.ts';

/*
 * A yes or no that already carries the next question's answer: "yep, Aetna" to "Do you have insurance?", "yes,
 * lisinopril 10 mg" to "Do you take any medications?", "ja, die AOK". The words after the yes/no word are read at
 * the question asked next (turn-runner.ts), and taken only when they answer it outright (see `carriedRest`).
 */

/** The value-like rest after an opening yes or no word ("yep, Aetna" → "Aetna"); null when there is none. */
export function carriedRest(text: string, locale: string | undefined): string | null {
  const lex = packOf(locale).lexicon;
  const folded = fold(text).text;
  const opener = [...lex.yes, ...lex.no].map((w) => fold(w).text).filter((w) => w !== '')
    .sort((a, b) => b.length - a.length).find((w) => folded.startsWith(w) && /^[\s,.;:!—–-]/u.test(folded.slice(w.length)));
  if (opener === undefined) return null;
  const rest = text.trim().slice(opener.length).replace(/^[\s,.;:!—–-]+/u, '').replace(/[\s.!]+$/u, '');
  // a name (capitalised words: "Aetna", "Blue Cross", "die AOK" → "AOK") or something with a figure ("lisinopril 10 mg"),
  // in one clause: "I do, through work" or "yes, but only sometimes" carries nothing
  if (rest === '' || /[,;]/.test(rest)) return null;
  const words = rest.split(/\s+/u);
  const lead = words.findIndex((w) => !['the', 'die', 'der', 'das', 'den', 'its', "it's", 'it’s', 'es', 'ist'].includes(fold(w).text));
  const said = words.slice(Math.max(lead, 0));
  const named = said.length > 0 && said.length <= 4 && said.every((w) => /^[\p{Lu}\p{N}]/u.test(w) || /^(?:of|and|&|für|und)$/iu.test(w));
  const figure = /\p{L}{3,}.*\d|\d.*\p{L}{2,}/u.test(rest) && !/^(?:i|we|ich|wir)\b/iu.test(rest);
  return named ? said.join(' ') : figure ? rest : null;
}
