import type { Lang } from '../../shared/lexicon/index.ts';
import type { WordNumber } from './number-words.ts';

// Numbers written in German, French and Spanish words, read by one small
// table per language. Hand-written: the npm words-to-numbers packages read
// English only, and Recognizers-Text costs ~2 s to load and ~1 ms a call.
// Cardinals only (no ordinals, fractions or "Komma fünf"), as in English;
// "…einhalb" ("zweieinhalb" = 2.5) and "anderthalb" are read in German.

type Table = Readonly<Record<string, number>>;

/** German morphemes of a compound number ("zweihundertsiebenundzwanzig"), folded: lower case, ß as ss, umlauts as plain vowels. */
const DE_UNITS: Table = { ein: 1, eins: 1, zwei: 2, zwo: 2, drei: 3, vier: 4, funf: 5, sechs: 6, sieben: 7, acht: 8, neun: 9 };
const DE_TEENS: Table = {
  null: 0, zehn: 10, elf: 11, zwolf: 12, dreizehn: 13, vierzehn: 14, funfzehn: 15, sechzehn: 16, siebzehn: 17, achtzehn: 18, neunzehn: 19,
};
const DE_TENS: Table = { zwanzig: 20, dreissig: 30, vierzig: 40, funfzig: 50, sechzig: 60, siebzig: 70, achtzig: 80, neunzig: 90 };
const DE_MORPHEMES = [...Object.keys(DE_UNITS), ...Object.keys(DE_TEENS), ...Object.keys(DE_TENS), 'hundert', 'tausend', 'und', 'einhalb']
  .sort((a, b) => b.length - a.length);
const DE_STARTS = new Set(DE_MORPHEMES.map((m) => m.slice(0, 2)));
const DE_SCALES: Table = { million: 1e6, millionen: 1e6, mio: 1e6, milliarde: 1e9, milliarden: 1e9, mrd: 1e9 };
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

/** French words: units, teens and tens are added ("soixante-dix-sept" = 60 + 10 + 7), "quatre-vingt" is 80. */
const FR_SMALL: Table = {
  zero: 0, un: 1, une: 1, deux: 2, trois: 3, quatre: 4, cinq: 5, six: 6, sept: 7, huit: 8, neuf: 9, dix: 10, onze: 11, douze: 12,
  treize: 13, quatorze: 14, quinze: 15, seize: 16, vingt: 20, vingts: 20, trente: 30, quarante: 40, cinquante: 50, soixante: 60,
  septante: 70, huitante: 80, octante: 80, nonante: 90,
};
const FR_HUNDRED = new Set(['cent', 'cents']);
const FR_THOUSAND = new Set(['mille', 'mil']);
const FR_SCALES: Table = { million: 1e6, millions: 1e6, milliard: 1e9, milliards: 1e9 };

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

// Words that, alone, are articles more often than numbers: a count only before a scale or as the whole reply.
const ARTICLES: Readonly<Record<Exclude<Lang, 'en'>, ReadonlySet<string>>> = {
  de: DE_ARTICLES,
  fr: new Set(['un', 'une']),
  es: new Set(['un', 'una', 'uno']),
};
// Words after which a French "neuf" is still nine ("j'en ai neuf", "environ neuf", "les neuf").
const BEFORE_COUNT_FR = new Set(['ai', 'as', 'a', 'avons', 'avez', 'ont', 'sont', 'y', 'en', 'environ', 'de', 'et', 'ou', 'plus', 'moins',
  'que', 'sur', 'pour', 'dans', 'les', 'des', 'nos', 'vos', 'mes', 'ses', 'ces', 'soit', 'seulement', 'juste', 'exactement', 'pres', 'peu']);
const JOINERS: Readonly<Record<Exclude<Lang, 'en'>, string>> = { de: 'und', fr: 'et', es: 'y' };
const WORD = /[\p{L}]+/gu;

/** Folds one word for the tables: lower case, no accents, ß as ss, "ue"/"oe" as "u"/"o" for German. */
function foldWord(word: string, lang: Lang): string {
  const w = word.toLowerCase().replace(/ß/g, 'ss').normalize('NFD').replace(/\p{M}/gu, '');
  return lang === 'de' ? w.replace(/ue/g, 'u').replace(/oe/g, 'o') : w;
}

/** The place a small number leaves free for the next word ("vingt" 20 → a unit may follow; "cent" → up to 99). */
function canFollow(prev: number, next: number, lang: Lang): boolean {
  if (prev >= 1000) return next < prev; // after a thousand or a scale: "dos mil quinientos", "zwei Millionen dreihunderttausend"
  if (lang === 'de') return false; // German writes a number below a million as one word
  if (lang === 'fr' && (prev === 60 || prev === 80) && next >= 10 && next < 20) return true; // soixante-dix, quatre-vingt-onze
  if (prev === 10) return lang === 'fr' && next >= 7 && next <= 9; // dix-sept … dix-neuf
  if (prev % 100 === 0 && prev > 0) return next < 100;
  if (prev % 10 === 0 && prev >= 20) return next < 10 && next > 0;
  return false;
}

/**
 * Runs of number words in German, French or Spanish ("sieben", "zweihundert",
 * "quarante-deux", "veintitrés", "dos mil quinientos", "zwei Millionen"),
 * with their spans in the original text.
 */
export function findWordNumbersIn(text: string, lang: Exclude<Lang, 'en'>): WordNumber[] {
  const words = [...text.matchAll(WORD)].map((m) => ({ w: foldWord(m[0], lang), start: m.index, end: m.index + m[0].length }));
  const found: WordNumber[] = [];
  const articles = ARTICLES[lang];
  const whole = words.length === 1;
  let i = 0;
  while (i < words.length) {
    let total = 0;
    let current = 0;
    let last: number | null = null; // value of the last small word, for canFollow
    let j = i;
    let end = -1;
    for (; j < words.length; j++) {
      const t = words[j]!;
      if (j > i && !adjacent(text, words[j - 1]!.end, t.start)) break;
      const nextWord = words[j + 1]?.w;
      const scaleNext = nextWord !== undefined && adjacent(text, t.end, words[j + 1]!.start) && isScale(nextWord, lang);
      if (articles.has(t.w) && current === 0 && total === 0 && !scaleNext && !whole) break;
      if (t.w === JOINERS[lang] && j > i) {
        const after = words[j + 1];
        if (after && adjacent(text, t.end, after.start) && last !== null && small(after.w, lang) !== null) continue;
        break;
      }
      const s = small(t.w, lang);
      if (s !== null) {
        if (lang === 'fr' && last === 4 && (t.w === 'vingt' || t.w === 'vingts')) {
          current += 76; // quatre-vingt(s) = 80
          last = 80;
        } else {
          if (last !== null && !canFollow(last, s, lang)) break;
          current += s;
          last = s;
        }
        end = t.end;
        continue;
      }
      if (lang === 'fr' && FR_HUNDRED.has(t.w)) {
        if (current >= 100 || (last !== null && last >= 10 && last < 1000)) break;
        current = (current || 1) * 100;
        last = 100;
      } else if ((lang === 'fr' && FR_THOUSAND.has(t.w)) || (lang === 'es' && ES_THOUSAND.has(t.w))) {
        if (total % 1e6 > 0) break;
        total += (current || 1) * 1000;
        current = 0;
        last = 1000;
      } else if (scaleOf(t.w, lang) !== null) {
        total += (current || 1) * scaleOf(t.w, lang)!;
        current = 0;
        last = scaleOf(t.w, lang)!;
      } else break;
      end = t.end;
    }
    if (end === -1) {
      i = Math.max(j, i + 1);
      continue;
    }
    // "un terrain neuf": after a noun "neuf" is "new", not nine (a French count comes before its noun)
    const adjective = lang === 'fr' && j === i + 1 && words[i]!.w === 'neuf' && i > 0 && adjacent(text, words[i - 1]!.end, words[i]!.start)
      && small(words[i - 1]!.w, lang) === null && !BEFORE_COUNT_FR.has(words[i - 1]!.w);
    if (!adjective) found.push({ value: total + current, start: words[i]!.start, end });
    i = words.findIndex((w) => w.start >= end);
    if (i === -1) break;
  }
  return found;
}

/** A small number word (below a thousand, or a whole German compound), or null. */
function small(w: string, lang: Lang): number | null {
  if (lang === 'de') return DE_SCALES[w] !== undefined ? null : DE_ARTICLES.has(w) && w !== 'ein' ? 1 : germanWord(w);
  const table = lang === 'fr' ? FR_SMALL : ES_SMALL;
  return table[w] ?? null;
}

function scaleOf(w: string, lang: Lang): number | null {
  const table = lang === 'de' ? DE_SCALES : lang === 'fr' ? FR_SCALES : ES_SCALES;
  return table[w] ?? null;
}

function isScale(w: string, lang: Lang): boolean {
  return scaleOf(w, lang) !== null || (lang === 'fr' && (FR_HUNDRED.has(w) || FR_THOUSAND.has(w))) || (lang === 'es' && ES_THOUSAND.has(w))
    || (lang === 'de' && (w === 'hundert' || w === 'tausend'));
}

/** The multiplier words that may follow digits in the language ("30 Tsd.", "2 millions", "30 mil"), as powers of ten. */
export const DIGIT_SCALES: Readonly<Record<Exclude<Lang, 'en'>, RegExp>> = {
  // "25 k€" (a spaced k before the euro sign, as French and German write amounts) is thousands too
  de: /^\s?(tausend|tsd\.?|million(?:en)?|mio\.?|milliarde(?:n)?|mrd\.?|k(?=\s?€))(?![\p{L}])/iu,
  fr: /^\s?(mille|millions?|milliards?|k(?=\s?€))(?![\p{L}])/iu,
  es: /^\s?(mil millones|mil|mill[oó]n(?:es)?|k(?=\s?€))(?![\p{L}])/iu,
};

/** The power of ten of a multiplier word DIGIT_SCALES matched. */
export function digitScale(word: string): number {
  const w = foldWord(word, 'fr').replace(/\.$/, '');
  if (w === 'mil millones' || w.startsWith('milliard') || w === 'mrd') return 9;
  if (w.startsWith('mill') || w === 'mio') return 6;
  return 3;
}

/** Words of one number are separated by spaces or a hyphen, nothing else. */
function adjacent(text: string, end: number, start: number): boolean {
  return /^[\s-]+$/.test(text.slice(end, start));
}
