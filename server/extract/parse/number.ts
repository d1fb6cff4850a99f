import type { AnswerSpec } from '../../flow/answer-types.ts';
import { digitScale } from '../../language/word-numbers.ts';
import { apostropheDigits, localDigits, SPACED_THOUSANDS } from '../../language/digit-format.ts';
import { say } from '../../language/parser-messages.ts';
import type { NumberWords } from '../../language/number-words.ts';
import { en } from '../../language/en/index.ts';
import type { LanguagePack } from '../../language/pack.ts';
import { findCurrencies, isCurrencyCode, sameCurrency } from './money.ts';
import { readParts } from './amount-parts.ts';
import { localNumber } from '../../language/local-number.ts';
import { clarify, fail, hasWordsOutside, ok, type Conversion, type ParseResult } from './parse-result.ts';
import { convert, kindName, readUnit, unitAfter, type Unit } from './quantity.ts';

type NumberSpec = Extract<AnswerSpec, { type: 'number' | 'integer' }>;

/** A number found in a message, with its span (currency sign and multiplier included). */
export interface FoundNumber {
  value: number;
  start: number;
  end: number;
}

// Digits with optional sign, currency and a multiplier. Letters or digits right
// before the number mean it is part of a word ("m2", "covid19"); single-letter
// multipliers must be attached ("2m") so "420 m" reads as a unit, word
// multipliers may follow a space ("2 million").
const DIGITS = new RegExp(
  String.raw`(?<![\p{L}\p{N}.,])([-−]?)(?:([$€£¥₹])\s?)?` +
    String.raw`(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+,\d{1,2}(?![\p{N}])|\d+(?:\.\d+)?|\.\d+)` +
    String.raw`(?:(k|m|b|bn|mn|mln|mil)(?![\p{L}\p{N}²³])|\s(k)(?![\p{L}\p{N}²³])|\s?(hundred\s+(?:thousand|grand|million|billion)|hundred|thousand|grand|million|millions|billion|billions|mil|mill)(?![\p{L}]))?`,
  'giu',
);

const ASCII_DIGIT = /[0-9]/;

const EXPONENT: Record<string, number> = {
  k: 3, thousand: 3, grand: 3, m: 6, mn: 6, mln: 6, mil: 6, mill: 6, million: 6, millions: 6, b: 9, bn: 9, billion: 9, billions: 9,
  // "2 hundred thousand", "3 hundred grand"
  hundred: 2, 'hundred thousand': 5, 'hundred grand': 5, 'hundred million': 8, 'hundred billion': 11,
};

// "7,5" (one or two digits after the comma) is a decimal comma, as most of Europe writes it; "7,500" is thousands.
const DECIMAL_COMMA = /^\d+,\d{1,2}$/;

/**
 * Every number in the text, written in digits ("25,000", "$1.5k", "2 million",
 * "7,5") or words ("twenty five"). With `measured`, an attached "m" is metres,
 * not millions ("2m" for a height).
 */
export function findNumbers(text: string, unit?: string, measured = false, pack: LanguagePack = en): FoundNumber[] {
  const found: FoundNumber[] = [];
  // every match has an ASCII digit (\d under the u flag)
  if (ASCII_DIGIT.test(text)) for (const m of text.matchAll(DIGITS)) {
    const [, sign = '', , digits = '', attached, spacedK, long] = m;
    // "100 k", "$ 60 k": a k after one space is a thousand too ("420 m" stays metres: only k is read apart)
    const short = attached ?? spacedK;
    let suffix = (short ?? long ?? '').toLowerCase().replace(/\s+/gu, ' ');
    let end = m.index + m[0].length;
    // "the 2nd", "my 50th", "am 3ten": an ordinal is a position or a day, not a count (nor "2" in the unit "nd")
    if (pack.numbers.ordinal && (short ?? long) === undefined && pack.numbers.ordinal.test(text.slice(end, end + 4))) continue;
    // With a unit such as "m" or "kg", "420m" is 420 metres, not 420 million.
    if (short && ((unit && unit.trim().toLowerCase().startsWith(suffix)) || (measured && suffix === 'm'))) {
      suffix = '';
      end -= short.length;
    }
    let exponent = pack.numbers.suffixExponent[suffix] ?? EXPONENT[suffix] ?? 0;
    // "30 Tsd.", "2 millions", "30 mil": the language's multiplier words after digits
    const scale = pack.numbers.digitScales && suffix === '' ? pack.numbers.digitScales.exec(text.slice(end, end + 16)) : null;
    if (scale) {
      exponent = digitScale(scale[1]!);
      end += scale[0].length;
    }
    // Scaling through the exponent keeps "2.3m" exactly 2300000 (2.3 * 1e6 is not).
    const plain = DECIMAL_COMMA.test(digits) ? digits.replace(',', '.') : digits.replace(/,/g, '');
    const value = Number(`${sign ? '-' : ''}${plain}e${exponent}`);
    found.push({ value, start: m.index, end });
  }
  for (const w of pack.wordNumbers(text)) {
    if (found.some((d) => w.start < d.end && d.start < w.end)) continue;
    found.push(w);
  }
  return found.sort((a, b) => a.start - b.start);
}

/**
 * Parses a number or integer answer from free text, applying min/max. A money
 * question (`currency`, or a `unit` that is an ISO currency code) refuses an
 * amount in another currency; a question with a unit of measure converts a
 * value typed in another unit of the same kind exactly ("5000 sq ft" → 464.5152
 * m², an integer question rounds and says so) and refuses one of another kind.
 */
export function parseNumber(spec: NumberSpec, text: string, pack: LanguagePack = en): ParseResult {
  const money = spec.currency ?? (isCurrencyCode(spec.unit) ? spec.unit : undefined);
  const measure = money === undefined && spec.unit ? readUnit(spec.unit) : null;
  const w: NumberWords = pack.numbers;
  // what the visitor typed, for evidence and echoes (English keeps the spans it always showed)
  const typedText = text;
  let spacedTyped = false;
  // "40'000": Swiss thousands, in any language
  const swiss = apostropheDigits(text);
  if (swiss !== text) {
    text = swiss;
    spacedTyped = true;
  }
  if (w.digitFormat) {
    // "1.234,56", "7,5", "1 234,56": the visitor's digit format; "30,000" reads two ways and is asked about
    const local = localDigits(text, w.digitFormat);
    if (typeof local !== 'string') {
      return clarify(say(pack, 'commaOrThousands', { a: pack.formatNumber(local.decimal), b: pack.formatNumber(local.thousands) }));
    }
    text = local;
  } else {
    // "25 000", "1 200 000": thousands grouped by spaces, as many visitors type them in any language
    const spaced = localDigits(text, SPACED_THOUSANDS);
    if (typeof spaced === 'string' && spaced !== text) {
      text = spaced;
      spacedTyped = true;
    }
  }
  const grouped = dotThousands(spec, text, money, pack);
  if (typeof grouped !== 'string') return grouped;
  text = grouped;
  const shown = w.echoTyped || spacedTyped ? typedText : text;
  const all = dropCovered(signed(text, halves(text, findNumbers(text, spec.unit, measure !== null, pack), w), w)).filter((f) => !outOf(text, f, spec.max, w));
  // "not 4", "not more than 40k": a negated number is never the answer; another one beside it may be ("not 4, just 3")
  const unnegated = all.filter((f) => !w.negated.test(text.slice(Math.max(0, f.start - 40), f.start)));
  if (unnegated.length === 0 && all.length > 0) return clarify(say(pack, 'negatedNumber', { typed: shown.slice(all[0]!.start, all[0]!.end).trim() }));
  // "$30k", "30.000 Dollar" at a question in m², metres or days: an amount of money is never that answer (another
  // question's, perhaps: the budget); a figure beside it may be ("about 700 m², budget $30k"). Only money: asked again in
  // the question's own unit. (A question without a unit may be money, so an amount there is read as before.)
  const cash = measure !== null ? findCurrencies(text) : [];
  const isMoney = (f: FoundNumber) => cash.some((c) => c.start < f.end + 4 && f.start - 4 < c.end);
  if (cash.length > 0 && unnegated.length > 0 && unnegated.every(isMoney)) return clarify(w.giveIn(spec.unit!));
  const found = cash.length > 0 ? unnegated.filter((f) => !isMoney(f)) : unnegated;
  // "none" / "nobody" to a count that may be zero is 0 (to one that may not, the range check says so)
  if (found.length === 0 && w.none.test(text)) return checkNumber(spec, 0, text.trim(), true, undefined, pack);
  // "a pair of padel courts", "a couple"; "just me" to a count of people
  const few = found.length === 0 && w.few ? w.few.exec(text) : null;
  if (few) return checkNumber(spec, few[1] ? 1 : 2, few[0].trim(), false, undefined, pack);
  if (found.length === 0) return fail(say(pack, spec.type === 'integer' ? 'notWhole' : 'notNumber'));
  // "4k per court, 3 courts": a per-item figure with the count of those items is the total
  const total = found.length === 2 ? perItemTotal(text, found, typedText) : null;
  if (total) {
    const r = checkNumber(spec, total.value, total.evidence, false, undefined, pack);
    return r.ok && total.check ? { ...r, check: true } : r;
  }
  // "between 15 and 20k", "80k total - 60k for the lights and 20k for install", "25k plus 5k from the club" (amount-parts.ts)
  const parts = found.length > 1 && w.parts ? readParts(text, found, w.parts, money !== undefined) : null;
  if (parts?.kind === 'range') return clarify(say(pack, 'range', { a: localNumber(pack.code, parts.low, 6), b: localNumber(pack.code, parts.high, 6) }));
  if (parts && !(money !== undefined && findCurrencies(text).some((c) => !sameCurrency(c.code, money)))) {
    const r = checkNumber(spec, parts.value, shown.slice(parts.start, parts.end).trim(), false, undefined, pack);
    return r.ok && (parts.kind === 'sum' || parts.check) ? { ...r, check: true } : r;
  }
  // "2 tennis and 2 padel": numbers of different things; the total is the visitor's to give
  if (found.length > 1 && labelsDiffer(text, found, w)) return clarify(say(pack, 'total'));
  // "6+", "10 or more": a lower bound, not the number
  if (found.some((f) => w.openEnded.test(text.slice(f.end, f.end + 12)))) return clarify(say(pack, 'exactly'));
  // "not sure, around 40?": a guess asked back is not an answer
  if (w.hedge.test(text) && /\?\s*$/.test(text)) return clarify(w.bestEstimate);
  // "10 %" to a count or a plain number: a share of something, not the number asked (a question in % takes it)
  if (!PERCENT_UNIT.test(spec.unit?.trim() ?? '') && found.some((f) => PERCENT_AFTER.test(text.slice(f.end, f.end + 12)))) return clarify(say(pack, 'notPercent'));
  if (money !== undefined) {
    const other = findCurrencies(text).find((c) => !sameCurrency(c.code, money));
    if (other) {
      return clarify(w.otherCurrency(w.currencyLabel(other.code), w.currencyLabel(money)));
    }
  }
  const read: Array<{ value: number; conversion?: Conversion; end: number }> = [];
  for (const f of found) {
    const typed = measure ? unitAfter(text, f.end) : null;
    if (!typed || !measure) {
      // "18 months" to a question without a unit, "2 tennis courts" to one in m²: the count is of something else
      const unitless = measure === null && money === undefined ? unitAfter(text, f.end) : null;
      // "42 Jahre", "42 ans", "42 años": years are how an unlabelled count of time is said in these languages; months are asked about
      const years = w.years !== null && unitless !== null && w.years.test(unitless.unit.label);
      if (unitless && !years && !w.old.test(text.slice(unitless.end, unitless.end + 8))) return clarify(w.plainNumber(unitless.unit.label));
      if (measure && w.counted.test(text.slice(f.end, f.end + 40))) return clarify(w.giveIn(spec.unit!));
      read.push({ value: f.value, end: f.end });
      continue;
    }
    // "minus 10 degrees" to a question in °C or °F: "degrees" is its unit, not an angle
    if (measure.kind === 'temperature' && typed.unit.kind === 'angle' && /^deg/i.test(text.slice(typed.start, typed.end))) {
      read.push({ value: f.value, end: typed.end });
      continue;
    }
    const converted = convert(f.value, typed.unit, measure);
    if (converted === null) return clarify(otherUnit(typed.unit, measure, spec.unit!, w));
    if (typed.unit.qty === measure.qty || converted === f.value) {
      read.push({ value: f.value, end: typed.end });
      continue;
    }
    // a time said in a smaller unit counts whole ones: "12 hours" is 0 days, not 1 ("Say 0 if they started today")
    const value = spec.type === 'integer' ? (measure.kind === 'time' ? Math.floor(converted + 1e-9) : Math.round(converted)) : converted;
    const raw = shown.slice(f.start, typed.end).trim();
    read.push({ value, end: typed.end, conversion: { raw, from: typed.unit.label, to: spec.unit!, value, exact: value === converted } });
  }
  const distinct = [...new Set(read.map((r) => r.value))];
  if (distinct.length > 1) return fail(say(pack, 'moreThanOneNumber'));
  const first = read[0]!;
  // a unit typed after the number does not make the reply exact unless it is the question's own (confidence as before)
  const spans = found.map((f) => [f.start, f.end] as const);
  const exact = !hasWordsOutside(withoutUnit(text, spec.unit), spans);
  return checkNumber(spec, first.value, shown.slice(found[0]!.start, first.end), exact, first.conversion, pack);
}

// The words around a number per language (negation, open end, hedge, counted nouns, none…) are each pack's numbers.ts (server/language/<code>/).
// A word right after a number: its label ("2 tennis and 2 padel").
const LABEL_AFTER = /^\s*([\p{L}]{3,})/u;

// "per court", "each court", "pro Platz", "je Platz" right after a number ("20k-ish per court" too)
const PER_AFTER = /^(?:[-\s]?ish)?\s*(?:(?:[$€£]|dollars?|euros?|usd|eur)\s*)?(?:per|each|a|an|pro|je)\s+([\p{L}]{3,})/iu;
const stem4 = (w: string) => w.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().slice(0, 4);

/**
 * "4k per court, 3 courts", "5.000 € pro Platz, 2 Plätze": one number per item and the other counting those items
 * (a word with the same start) give the total; null otherwise (a per-item figure alone is the commit rule's to check).
 */
function perItemTotal(text: string, found: FoundNumber[], typed: string): { value: number; evidence: string; check: boolean } | null {
  const [a, b] = found as [FoundNumber, FoundNumber];
  for (const [per, count] of [[a, b], [b, a]] as const) {
    const item = PER_AFTER.exec(text.slice(per.end, per.end + 30));
    if (!item || !Number.isInteger(count.value) || count.value < 1) continue;
    const counted = LABEL_AFTER.exec(text.slice(count.end, count.end + 30));
    // "40k per court, we have 3": a count said after the per-item figure without its noun is those items, checked first
    const bare = count.start > per.end && count.value <= 100 && (!counted || stem4(item[1]!) !== stem4(counted[1]!)) && COUNT_BEFORE.test(text.slice(per.end + item[0].length, count.start));
    if (!bare && (!counted || stem4(item[1]!) !== stem4(counted[1]!))) continue;
    const first = Math.min(per.start, count.start);
    const last = Math.max(per.end + item[0].length, count.end + (bare ? 0 : counted![0].length));
    // the evidence as typed ("6.000", not the normalised "06000"), so the commit rule finds it in the reply
    return { value: per.value * count.value, evidence: (typed.length === text.length ? typed : text).slice(first, last).trim(), check: bare };
  }
  return null;
}

// the words before a count of the items a per-item figure is for ("…, we have 3", "and there are 4", "x 3", "wir haben 3")
const COUNT_BEFORE = /(?:we have|we've got|we got|there are|there're|we need|for|times|x|×|haben wir|wir haben|es sind|für|mal)\s*$/iu;

/** Whether each number is followed by its own, different word ("2 tennis and 2 padel"). */
function labelsDiffer(text: string, found: FoundNumber[], w: NumberWords): boolean {
  const labels = found.map((f) => LABEL_AFTER.exec(text.slice(f.end, f.end + 30))?.[1]?.toLowerCase());
  return labels.every((l) => l !== undefined && !w.joiners.includes(l)) && new Set(labels).size === labels.length;
}

/** Numbers inside another's span ("zero" in "5 below zero", "half" read as a word) are part of it. */
function dropCovered(found: FoundNumber[]): FoundNumber[] {
  return found.filter((f) => !found.some((o) => o !== f && o.start <= f.start && f.end <= o.end && o.end - o.start > f.end - f.start));
}

/** "minus 10 degrees", "5 below zero": the number is negative. */
function signed(text: string, found: FoundNumber[], w: NumberWords): FoundNumber[] {
  return found.map((f) => {
    if (f.value > 0 && w.minusBefore.test(text.slice(Math.max(0, f.start - 12), f.start))) return { ...f, value: -f.value };
    const below = w.belowZero.exec(text.slice(f.end, f.end + 24));
    return below && f.value > 0 ? { ...f, value: -f.value, end: f.end + below[0].length } : f;
  });
}

/** "7/10", "6 out of 10" on a scale whose max is 10: the 10 is the scale, not an answer. */
function outOf(text: string, f: FoundNumber, max: number | undefined, w: NumberWords): boolean {
  return max !== undefined && f.value === max && w.outOf.test(text.slice(Math.max(0, f.start - 8), f.start));
}

/** "4 and a half", "seven and a half", "4½": the number grows by a half and its span takes the words in. */
function halves(text: string, found: FoundNumber[], w: NumberWords): FoundNumber[] {
  return found.map((f) => {
    const m = w.half.exec(text.slice(f.end, f.end + 20));
    return m ? { value: f.value + 0.5, start: f.start, end: f.end + m[0].length } : f;
  });
}

// "30.000", "1.200.000": digits grouped by three with dots, as much of Europe writes thousands.
const DOT_GROUPS = /(?<![\p{N}.,])([1-9]\d{0,2})((?:\.\d{3})+)(?![\p{N}]|[.,]\d)/gu;
const EURO_LIKE = new Set(['EUR']);

/**
 * Dot-grouped thousands read as thousands where no other reading fits: a
 * money question in euros (or a "€" typed), a whole-number question, or two
 * groups or more ("1.200.000"). Elsewhere "2.500" could be 2.5 or 2500, so
 * it is asked about. Returns the text with those dots blanked (spans keep
 * their positions) or the question to ask.
 */
function dotThousands(spec: NumberSpec, text: string, money: string | undefined, pack: LanguagePack): string | ParseResult {
  if (!text.includes('.')) return text;
  let out = text;
  for (const m of text.matchAll(DOT_GROUPS)) {
    const groups = m[2]!.length / 4;
    const euro = (money !== undefined && EURO_LIKE.has(money.toUpperCase())) || /€|\beur(?:o|os)?\b/i.test(text);
    if (!(euro || spec.type === 'integer' || groups >= 2)) {
      const digits = m[0];
      return clarify(say(pack, 'dotOrComma', pack.numbers.echoTyped ? { a: pack.formatNumber(Number(digits.replace(/\./g, ''))), b: pack.formatNumber(Number(digits)) }
        : { a: digits, b: digits.replace(/\./g, ',') }));
    }
    const plain = m[1]! + m[2]!.replace(/\./g, '');
    out = out.slice(0, m.index) + plain + ' '.repeat(m[0].length - plain.length) + out.slice(m.index + m[0].length);
  }
  return out;
}

// A percentage after a number, in the four languages ("10 %", "80 percent", "30 per cent", "20 Prozent", "20 pour cent", "20 por ciento").
const PERCENT_AFTER = /^\s*(?:%|(?:percent|per cent|pct|prozent|pour ?cent|por ?ciento)(?![\p{L}]))/iu;
// A question whose unit is a percentage.
const PERCENT_UNIT = /^(?:%|percent|per cent|pct|prozent|pour ?cent|por ?ciento)$/i;

/** The clarification for a value typed in a unit the question's cannot be converted from. */
function otherUnit(typed: Unit, wanted: Unit, written: string, w: NumberWords): string {
  if (typed.kind === wanted.kind || !w.otherKind) return w.giveIn(written);
  return w.otherKind(kindName(typed.kind), typed.label, kindName(wanted.kind), written);
}

/** Normalises a structured number proposal: a JSON number passes, "25k" or "25,000" is parsed. */
export function coerceNumber(spec: NumberSpec, value: unknown, pack: LanguagePack = en): ParseResult {
  if (typeof value === 'number') return checkNumber(spec, value, String(value), true, undefined, pack);
  if (typeof value === 'string') {
    const r = parseNumber(spec, value, pack);
    return r.ok ? { ...r, exact: true } : r;
  }
  return fail(say(pack, 'notNumber'));
}

function checkNumber(spec: NumberSpec, value: number, evidence: string, exact: boolean, conversion: Conversion | undefined, pack: LanguagePack): ParseResult {
  if (Number.isNaN(value)) return fail(say(pack, 'notNumber'));
  if (!Number.isFinite(value)) return fail(say(pack, 'tooLarge'));
  if (spec.type === 'integer' && !Number.isInteger(value)) return fail(say(pack, 'wholeNumber'));
  const unit = spec.unit ? ` ${spec.unit}` : '';
  const { min, max } = spec;
  if ((min !== undefined && value < min) || (max !== undefined && value > max)) {
    const p = { min: min === undefined ? '' : pack.formatNumber(min), max: max === undefined ? '' : pack.formatNumber(max), unit };
    if (min !== undefined && max !== undefined) return fail(say(pack, 'between', p));
    if (min !== undefined) return fail(say(pack, 'atLeast', p));
    return fail(say(pack, 'atMost', p));
  }
  return ok(value === 0 ? 0 : value, evidence, exact, conversion);
}

/** Blanks the spec's unit ("m²" also as "m2") so "420 m²" still counts as just the answer. */
function withoutUnit(text: string, unit: string | undefined): string {
  const u = unit?.trim().normalize('NFKC').toLowerCase();
  if (!u) return text;
  const plain = text.normalize('NFKC');
  const lower = plain.toLowerCase();
  // Folding may change lengths ("²" → "2" keeps it, "ﬀ" does not); only blank when indices still line up.
  if (lower.length !== text.length) return text;
  let out = text;
  for (let at = lower.indexOf(u); at !== -1; at = lower.indexOf(u, at + 1)) {
    out = out.slice(0, at) + ' '.repeat(u.length) + out.slice(at + u.length);
  }
  return out;
}
