/**
 * Currencies named in a money reply ("€30,000", "£20k", "30000 euros",
 * "EUR 30k"). An amount in another currency than the question's is never
 * converted — rates move, and a lead's budget is what they said, not what a
 * rate made of it — so the extractor asks for the question's currency instead.
 */

// "$" alone is read as the question's dollar when the question is in dollars (a US site asking
// for USD sees "$" from everyone); prefixed dollars ("C$", "A$") are their own currencies.
const SIGNS: ReadonlyArray<readonly [RegExp, string]> = [
  // a code is a word of its own ("100USD" too): "academy" holds no CAD, "audit" no AUD
  [/(?<![\p{L}])(?:US\$|USD(?![\p{L}]))/giu, 'USD'],
  [/(?<![\p{L}])(?:CA?\$|CAD(?![\p{L}]))/giu, 'CAD'],
  [/(?<![\p{L}])(?:AU?\$|AUD(?![\p{L}]))/giu, 'AUD'],
  [/(?<![\p{L}])(?:NZ\$|NZD(?![\p{L}]))/giu, 'NZD'],
  [/€|\bEUR\b|\beuros?\b/giu, 'EUR'],
  [/£|\bGBP\b|\bquid\b|\bsterling\b|\bpounds?\b/giu, 'GBP'],
  [/¥|\bJPY\b|\byen\b/giu, 'JPY'],
  [/₹|\bINR\b|\brupees?\b/giu, 'INR'],
  [/\bCHF\b|\bswiss francs?\b/giu, 'CHF'],
  // the same currencies named in German, French and Spanish
  [/(?<![\p{L}])(?:Pfund|livres?(?: sterling)?|libras?(?: esterlinas?)?)(?![\p{L}])/giu, 'GBP'],
  [/(?<![\p{L}])(?:Franken|francs? suisses?|francos? suizos?)(?![\p{L}])/giu, 'CHF'],
  [/(?<![\p{L}])(?:yenes)(?![\p{L}])/giu, 'JPY'],
  [/(?<![\p{L}])(?:Rupien|roupies?|rupias?)(?![\p{L}])/giu, 'INR'],
  [/\bMXN\b|\bpesos?\b/giu, 'MXN'],
  [/\bdollars?\b|\bbucks\b/giu, '$'],
  [/(?<![\p{L}])d[oó]lar(?:es)?(?![\p{L}])/giu, '$'],
  [/(?<![\p{L}])\$/gu, '$'],
];

const MAYBE = /[$€£¥₹]|[A-Z]{3}|eur|pound|quid|sterling|yen|rupee|franc|peso|dollar|buck|d[oó]lar|pfund|livre|libra|franken|rupi|roupie/i;

/** A currency named in a reply, with its span; `code` is '$' for a bare dollar of no stated country. */
export interface FoundCurrency {
  code: string;
  start: number;
  end: number;
}

/** Every currency sign, code or name in the text, earliest first, spans not overlapping. */
export function findCurrencies(text: string): FoundCurrency[] {
  // most replies name no currency: one scan decides before the thirteen below
  if (!MAYBE.test(text)) return [];
  const found: FoundCurrency[] = [];
  for (const [re, code] of SIGNS) {
    for (const m of text.matchAll(re)) {
      const start = m.index;
      const end = start + m[0].length;
      if (found.some((f) => start < f.end && f.start < end)) continue;
      found.push({ code, start, end });
    }
  }
  // any other ISO code typed in capitals ("SEK 40000", "40000 NOK")
  for (const m of text.matchAll(/(?<![\p{L}])[A-Z]{3}(?![\p{L}])/gu)) {
    if (!CODES.has(m[0]) || found.some((f) => m.index < f.end && f.start < m.index + 3)) continue;
    found.push({ code: m[0], start: m.index, end: m.index + 3 });
  }
  return found.sort((a, b) => a.start - b.start);
}

/** Whether a currency named in a reply is the question's (a bare "$" or "dollars" is any dollar). */
export function sameCurrency(found: string, wanted: string): boolean {
  return found === wanted || (found === '$' && DOLLARS.has(wanted));
}

const DOLLARS: ReadonlySet<string> = new Set(['USD', 'CAD', 'AUD', 'NZD', 'SGD', 'HKD']);

/** Whether a unit string is plainly an ISO 4217 currency code ("USD"), so a number answer with it is money. */
export function isCurrencyCode(unit: string | undefined): unit is string {
  return unit !== undefined && /^[A-Z]{3}$/.test(unit) && CODES.has(unit);
}

const CODES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

const names = new Map<string, string>();

/** The English name of a currency code ("US Dollar"), for the clarification. */
export function currencyName(code: string): string {
  let name = names.get(code);
  if (name === undefined) {
    name = new Intl.DisplayNames(['en'], { type: 'currency' }).of(code) ?? code;
    names.set(code, name);
  }
  return name;
}
