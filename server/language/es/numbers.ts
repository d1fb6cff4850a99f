import type { NumberWords } from '../number-words.ts';
import { localCurrency } from '../currency-names.ts';
import { DOTS_OR_SPACES_DECIMAL_COMMA } from '../digit-format.ts';

/** The words around a number in Spanish, and how Spanish writes digits. */
export const ES_NUMBERS: NumberWords = {
  negated: /(?<![\p{L}])no\s+(?:(?:más|mas|menos)\s+(?:de|que)\s+)?(?:unos\s+|unas\s+|aproximadamente\s+)?[$€£¥₹]?\s?$/iu,
  openEnded: /^(?:\+(?!\s*\d)|\s*(?:o|y)\s+(?:más|mas)(?![\p{L}]))/iu,
  hedge: /(?<![\p{L}])(?:no estoy segur[oa]|ni idea|no sé|no se|no lo sé|no me acuerdo)(?![\p{L}])/iu,
  counted: /^\s*(?:[\p{L}]+\s+)?(?:canchas?|pistas?|campos?|postes?|personas?|gente|piezas?|salas?|jugador(?:es)?|equipos?|lámparas?)(?![\p{L}])/iu,
  none: /^[\s,.!]*(?:ninguno|ninguna|nadie|nada|ni uno|ni una)[\s,.!]*$/iu,
  few: null,
  minusBefore: /(?<![\p{L}])(?:menos)\s*$/iu,
  belowZero: /^\s*(?:grados?\s+|°\s*c?\s+)?bajo\s+cero(?![\p{L}])/iu,
  outOf: /(?:\/|\bde)\s*$/iu,
  half: /^\s*(?:y\s+medio|y\s+media|½)(?![\p{L}])/iu,
  old: /^\s*(?:años|de edad)(?![\p{L}])/iu,
  joiners: ['y', 'o', 'pero', 'no', 'perdón', 'quizás', 'quizas'],
  bestEstimate: 'Si no está seguro, basta con una estimación: ¿qué número anoto?',
  giveIn: (unit) => `Indíquelo en ${unit}, por favor.`,
  plainNumber: (unit) => `Indique solo el número (sin «${unit}»), por favor.`,
  otherCurrency: (typed, wanted) => `Ese importe está en ${typed === '$' ? 'dólares' : typed}: indíquelo en ${wanted}, por favor; no convertimos divisas.`,
  currencyLabel: (code) => (code === '$' ? '$' : localCurrency('es', code)),
  otherKind: null,
  digitFormat: DOTS_OR_SPACES_DECIMAL_COMMA,
  echoTyped: true,
  // "25 k€" (a spaced k before the euro sign, as French and German write amounts) is thousands too
  digitScales: /^\s?(mil millones|mil|mill[oó]n(?:es)?|k(?=\s?€))(?![\p{L}])/iu,
  suffixExponent: { mil: 3 },
  // "42 Jahre", "42 ans", "42 años": years are how an unlabelled count of time is said in these languages; months are asked about
  years: /^(?:jahre?n?|ans|años?|anos?)$/i,
  // "2nd", "3rd" (and the language's own ordinals): a position or a day, not a count; "2nd" is no unit "nd" either
  ordinal: /^(?:st|nd|rd|th|º|ª|o|a|er|ro|ra|do|da|to|ta|vo|va|no|na)(?![\p{L}])/iu,
};
