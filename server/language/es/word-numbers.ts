import { findWordNumbersBy, foldWord, tensAndHundreds, type Table, type WordNumber, type WordNumberRules } from '../word-numbers.ts';

/** Spanish words: "veintitrés" and the hundreds ("doscientos") are single words; "y" joins tens and units. */
const ES_SMALL: Table = {
  cero: 0, uno: 1, un: 1, una: 1, dos: 2, tres: 3, cuatro: 4, cinco: 5, seis: 6, siete: 7, ocho: 8, nueve: 9, diez: 10, once: 11,
  doce: 12, trece: 13, catorce: 14, quince: 15, dieciseis: 16, diecisiete: 17, dieciocho: 18, diecinueve: 19, veinte: 20,
  veintiuno: 21, veintiun: 21, veintiuna: 21, veintidos: 22, veintitres: 23, veinticuatro: 24, veinticinco: 25, veintiseis: 26,
  veintisiete: 27, veintiocho: 28, veintinueve: 29, treinta: 30, cuarenta: 40, cincuenta: 50, sesenta: 60, setenta: 70,
  ochenta: 80, noventa: 90, cien: 100, ciento: 100, doscientos: 200, doscientas: 200, trescientos: 300, trescientas: 300,
  cuatrocientos: 400, cuatrocientas: 400, quinientos: 500, quinientas: 500, seiscientos: 600, seiscientas: 600,
  setecientos: 700, setecientas: 700, ochocientos: 800, ochocientas: 800, novecientos: 900, novecientas: 900,
};
const ES_THOUSAND = new Set(['mil']);
const ES_SCALES: Table = { millon: 1e6, millones: 1e6 };

/** The Spanish number-word rules. */
export const ES_WORD_NUMBERS: WordNumberRules = {
  fold: foldWord,
  small: (w) => ES_SMALL[w] ?? null,
  scale: (w) => ES_SCALES[w] ?? null,
  hundreds: new Set(),
  thousands: ES_THOUSAND,
  scaleWords: new Set(),
  articles: new Set(['un', 'una', 'uno']),
  joiner: 'y',
  canFollow: tensAndHundreds,
  fourTwenty: new Set(),
  adjective: null,
};

/** Runs of Spanish number words ("veintitrés", "treinta y dos", "dos mil quinientos") with their spans. */
export function spanishWordNumbers(text: string): WordNumber[] {
  return findWordNumbersBy(text, ES_WORD_NUMBERS);
}
