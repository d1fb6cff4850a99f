import { findWordNumbersBy, foldWord, type Table, type WordNumber, type WordNumberRules } from '../word-numbers.ts';

// German number words: a number below a million is one word ("dreihundertsiebenundzwanzig"), read morpheme by morpheme.

/** German morphemes of a compound number ("zweihundertsiebenundzwanzig"), folded: lower case, ß as ss, umlauts as plain vowels. */
const DE_UNITS: Table = { ein: 1, eins: 1, zwei: 2, zwo: 2, drei: 3, vier: 4, funf: 5, sechs: 6, sieben: 7, acht: 8, neun: 9 };
const DE_TEENS: Table = {
  null: 0, zehn: 10, elf: 11, zwolf: 12, dreizehn: 13, vierzehn: 14, funfzehn: 15, sechzehn: 16, siebzehn: 17, achtzehn: 18, neunzehn: 19,
};
const DE_TENS: Table = { zwanzig: 20, dreissig: 30, vierzig: 40, funfzig: 50, sechzig: 60, siebzig: 70, achtzig: 80, neunzig: 90 };
const DE_MORPHEMES = [...Object.keys(DE_UNITS), ...Object.keys(DE_TEENS), ...Object.keys(DE_TENS), 'hundert', 'tausend', 'und', 'einhalb']
  .sort((a, b) => b.length - a.length);
const DE_STARTS = new Set(DE_MORPHEMES.map((m) => m.slice(0, 2)));
const DE_SCALES: Table = { viertelmillion: 2.5e5, million: 1e6, millionen: 1e6, mio: 1e6, milliarde: 1e9, milliarden: 1e9, mrd: 1e9 };
// "ein"/"eine" alone is an article ("eine Frage"); it counts only before a scale or as the whole reply
const DE_ARTICLES = new Set(['ein', 'eine', 'einen', 'einer', 'einem']);

/** The value of one German number word ("siebenundzwanzig", "dreitausendfünfhundert"); null when it is not one. */
function germanWord(word: string): number | null {
  if (word === 'anderthalb') return 1.5;
  // most words of a message start with no number morpheme: one set lookup rejects them
  if (!DE_STARTS.has(word.slice(0, 2))) return null;
  const parts: string[] = [];
  for (let at = 0; at < word.length; ) {
    const m = DE_MORPHEMES.find((p) => word.startsWith(p, at));
    if (!m) return null;
    parts.push(m);
    at += m.length;
  }
  let total = 0;
  let current = 0;
  let prev = '';
  let hundred = false;
  for (const p of parts) {
    // "…und" joins a unit to its tens (7 + 20), nothing else
    if (p === 'und' ? !(prev in DE_UNITS) : prev === 'und' && !(p in DE_TENS)) return null;
    if (p in DE_UNITS || p in DE_TEENS || p in DE_TENS) {
      // a number word follows only a hundred, a thousand or "und" ("zweidrei" is no number)
      if (prev !== '' && prev !== 'hundert' && prev !== 'tausend' && prev !== 'und') return null;
      if (p === 'eins' && parts[parts.length - 1] !== p) return null;
      current += (DE_UNITS[p] ?? DE_TEENS[p] ?? DE_TENS[p])!;
    } else if (p === 'hundert') {
      if (hundred || !(prev === '' || prev === 'tausend' || prev in DE_UNITS)) return null;
      current += prev in DE_UNITS ? DE_UNITS[prev]! * 99 : 100;
      hundred = true;
    } else if (p === 'tausend') {
      if (total > 0) return null;
      total = (current || 1) * 1000;
      current = 0;
      hundred = false;
    } else if (p === 'einhalb') {
      if (prev === '' || parts[parts.length - 1] !== p) return null;
      current += 0.5;
    }
    prev = p;
  }
  return parts.length === 1 && parts[0] === 'und' ? null : total + current;
}

/** The German number-word rules. */
export const DE_WORD_NUMBERS: WordNumberRules = {
  fold: (word) => foldWord(word).replace(/ue/g, 'u').replace(/oe/g, 'o'),
  small: (w) => (DE_SCALES[w] !== undefined ? null : DE_ARTICLES.has(w) && w !== 'ein' ? 1 : germanWord(w)),
  scale: (w) => DE_SCALES[w] ?? null,
  hundreds: new Set(),
  thousands: new Set(),
  scaleWords: new Set(['hundert', 'tausend']),
  articles: DE_ARTICLES,
  joiner: 'und',
  canFollow: () => false, // German writes a number below a million as one word
  fourTwenty: new Set(),
  adjective: null,
  // "eine halbe Million", "ne halbe Mio", "eine dreiviertel Million"
  fractions: { halb: 0.5, halbe: 0.5, halben: 0.5, viertel: 0.25, dreiviertel: 0.75 },
};

/** Runs of German number words ("sieben", "zweihundert", "zwei Millionen") with their spans. */
export function germanWordNumbers(text: string): WordNumber[] {
  return findWordNumbersBy(text, DE_WORD_NUMBERS);
}
