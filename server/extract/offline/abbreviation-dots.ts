import type { LanguagePack } from '../../language/pack.ts';
import { fold } from '../parse/index.ts';

/*
 * A dot after a known abbreviation ends no clause: "St. Mary's Catholic School, the gym not the field",
 * "Dr. Raj Patel, athletic director", "Mt. Pleasant High", "Dr. med. Klaus Berger", "FC St. Pauli", "Nr. 5",
 * "z. B.". The clause cutters (short answers, explained leftovers, names) read the reply with such dots
 * replaced by a one-dot leader (same length, so their indices still point into the typed text). A single
 * letter before a dot is an initial ("J. R. Hartley", "z. B.") and ends nothing either.
 */

/** The character a cut-free dot is shown as: a one-dot leader, which no clause pattern takes for a full stop. */
export const KEPT_DOT = '\u2024';

const cache = new WeakMap<LanguagePack, { plain: ReadonlySet<string>; beforeDigit: ReadonlySet<string> }>();

function listsOf(pack: LanguagePack) {
  let l = cache.get(pack);
  if (!l) {
    const plain = new Set<string>();
    const beforeDigit = new Set<string>();
    for (const a of pack.text.abbreviations) (a.endsWith('+digit') ? beforeDigit : plain).add(fold(a.replace(/\+digit$/u, '')).text);
    l = { plain, beforeDigit };
    cache.set(pack, l);
  }
  return l;
}

/** The text with every dot after a known abbreviation or an initial replaced by `KEPT_DOT` (same length). */
export function keepAbbreviationDots(text: string, pack: LanguagePack): string {
  if (!text.includes('.')) return text;
  const { plain, beforeDigit } = listsOf(pack);
  // the word before each dot, with inner dots ("e.g", "z.B"), followed by what comes after the dot
  return text.replace(/(?<![\p{L}\p{N}.])([\p{L}]+(?:\.[\p{L}]+)*)\.(?=(\s*)(.?))/gu, (all, word: string, _space: string, next: string) => {
    const w = fold(word).text;
    const kept = w.length === 1 || plain.has(w) || (beforeDigit.has(w) && /\p{N}/u.test(next));
    // a dot at the very end ends the reply, not a clause: it is left alone
    return kept && next !== '' ? `${word.replace(/\./gu, KEPT_DOT)}${KEPT_DOT}` : all;
  });
}
