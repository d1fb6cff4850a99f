import { findWordNumbersBy, foldWord, tensAndHundreds, type Table, type WordNumber, type WordNumberRules } from '../word-numbers.ts';

/** French words: units, teens and tens are added ("soixante-dix-sept" = 60 + 10 + 7), "quatre-vingt" is 80. */
const FR_SMALL: Table = {
  zero: 0, un: 1, une: 1, deux: 2, trois: 3, quatre: 4, cinq: 5, six: 6, sept: 7, huit: 8, neuf: 9, dix: 10, onze: 11, douze: 12,
  treize: 13, quatorze: 14, quinze: 15, seize: 16, vingt: 20, vingts: 20, trente: 30, quarante: 40, cinquante: 50, soixante: 60,
  septante: 70, huitante: 80, octante: 80, nonante: 90,
};
const FR_HUNDRED = new Set(['cent', 'cents']);
const FR_THOUSAND = new Set(['mille', 'mil']);
const FR_SCALES: Table = { million: 1e6, millions: 1e6, milliard: 1e9, milliards: 1e9 };
// Words after which a French "neuf" is still nine ("j'en ai neuf", "environ neuf", "les neuf").
const BEFORE_COUNT_FR = new Set(['ai', 'as', 'a', 'avons', 'avez', 'ont', 'sont', 'y', 'en', 'environ', 'de', 'et', 'ou', 'plus', 'moins',
  'que', 'sur', 'pour', 'dans', 'les', 'des', 'nos', 'vos', 'mes', 'ses', 'ces', 'soit', 'seulement', 'juste', 'exactement', 'pres', 'peu']);

/** The French number-word rules. */
export const FR_WORD_NUMBERS: WordNumberRules = {
  fold: foldWord,
  small: (w) => FR_SMALL[w] ?? null,
  scale: (w) => FR_SCALES[w] ?? null,
  hundreds: FR_HUNDRED,
  thousands: FR_THOUSAND,
  scaleWords: new Set(),
  articles: new Set(['un', 'une']),
  joiner: 'et',
  canFollow: (prev, next) => {
    if ((prev === 60 || prev === 80) && next >= 10 && next < 20) return true; // soixante-dix, quatre-vingt-onze
    if (prev === 10) return next >= 7 && next <= 9; // dix-sept … dix-neuf
    return tensAndHundreds(prev, next);
  },
  fourTwenty: new Set(['vingt', 'vingts']),
  adjective: { word: 'neuf', countsAfter: BEFORE_COUNT_FR },
};

/** Runs of French number words ("quarante-deux", "quatre-vingt-dix-sept", "deux mille cinq cents") with their spans. */
export function frenchWordNumbers(text: string): WordNumber[] {
  return findWordNumbersBy(text, FR_WORD_NUMBERS);
}
