// How visitors of many European languages write digits (a pack names its format in `numbers.digitFormat`): a decimal comma
// ("7,5"), thousands grouped by dots in German and Spanish ("1.234,56") and by
// a space, no-break space or narrow no-break space in all three ("1 234,56",
// which French typing tools insert). Rewritten into the plain form the number
// finders read, one for one in length (padded with leading zeros), so every
// span still points into what the visitor typed.

const SPACES = '[ \\u00a0\\u202f]';
// A thousands group: three digits after the separator, and no digit (or a separator and a digit) right after.
const DOTTED = String.raw`\d{1,3}(?:\.\d{3})+(?:,\d+)?`;
const SPACED = String.raw`\d{1,3}(?:${SPACES}\d{3})+(?:,\d+)?`;
const DECIMAL = String.raw`\d+,\d+`;
/** Dots or spaces group thousands, a comma marks decimals (German, Spanish): "1.234,56", "1 234,56", "7,5". */
export const DOTS_OR_SPACES_DECIMAL_COMMA = new RegExp(String.raw`(?<![\p{L}\p{N}.,])(?:${DOTTED}|${SPACED}|${DECIMAL})(?![\p{N}]|[.,]\d)`, 'gu');
/**
 * Spaces group thousands, a comma marks decimals (French): "1 234,56". "30.000" alone is left to the dot rule every
 * language shares (asked unless euros or a whole number); with a decimal comma it is read.
 */
export const SPACES_DECIMAL_COMMA = new RegExp(String.raw`(?<![\p{L}\p{N}.,])(?:\d{1,3}(?:\.\d{3})+,\d+|${SPACED}|${DECIMAL})(?![\p{N}]|[.,]\d)`, 'gu');
/**
 * Spaces group thousands in a language that writes digits the English way ("25 000", "1 200 000"): a first group
 * without a leading zero, then groups of exactly three digits, and no further digits after a space (a phone number's
 * "555 201 3344" is not one).
 */
export const SPACED_THOUSANDS = new RegExp(String.raw`(?<![\p{L}\p{N}.,])[1-9]\d{0,2}(?:${SPACES}\d{3})+(?![\p{N}]|[.,]\d|${SPACES}\d)`, 'gu');
/** Apostrophes group thousands, as the Swiss write them in every language ("40'000", "1’250’000"): unambiguous, read everywhere. */
const APOSTROPHE_THOUSANDS = /(?<![\p{L}\p{N}.,'’])[1-9]\d{0,2}(?:['’]\d{3})+(?![\p{N}]|['’.,]\d)/gu;

/** The text with Swiss thousands ("40'000") written plain, one for one in length (padded with leading zeros: "0040000"). */
export function apostropheDigits(text: string): string {
  if (!/\d['’]\d/u.test(text)) return text;
  return text.replace(APOSTROPHE_THOUSANDS, (typed) => {
    const plain = typed.replace(/['’]/gu, '');
    return '0'.repeat(typed.length - plain.length) + plain;
  });
}

// "1,234" or "30,000" with nothing else: a decimal comma to a European, thousands to an English typist.
const COMMA_THOUSANDS = /^\d{1,3}(?:,\d{3})+$/;

/** A number that could be read two ways, as typed and as its two readings. */
export interface AmbiguousDigits {
  typed: string;
  decimal: number;
  thousands: number;
}

/**
 * The text with the language's digit formats rewritten into plain ones
 * ("1.234,56" → "01234.56", "7,5" → "7.5": same length, padded with leading zeros),
 * or the first number that reads two ways ("30,000": 30 or 30000?).
 */
export function localDigits(text: string, format: RegExp): string | AmbiguousDigits {
  if (!/\d[.,\s\u00a0\u202f]\d/u.test(text)) return text;
  let out = text;
  for (const m of text.matchAll(format)) {
    const typed = m[0];
    if (COMMA_THOUSANDS.test(typed)) return { typed, decimal: Number(typed.replace(',', '.')), thousands: Number(typed.replace(/,/g, '')) };
    const plain = typed.replace(/[.\s\u00a0\u202f]/gu, '').replace(',', '.');
    // padded with leading zeros, not spaces: "5.000 sq ft" must keep its unit right after the number
    out = out.slice(0, m.index) + '0'.repeat(typed.length - plain.length) + plain + out.slice(m.index + typed.length);
  }
  return out;
}
