/**
 * Units of measure in replies: "5000 sq ft", "30cm", "about 25 feet", "7,5 m".
 *
 * Why js-quantities, and not Microsoft Recognizers-Text (measured on Node 20,
 * this machine, bench notes in the commit): Recognizers-Text
 * (`@microsoft/recognizers-text-number-with-unit` 1.3.1) read every case right,
 * but costs ~1.1 s to import plus ~1 s for its first call, then 0.5–1.4 ms a
 * call — three to ten times a whole turn's service CPU (~0.15 ms) — ships
 * 13 MB with lodash, and its currency model reads "5000 sq ft" as Hungarian
 * forints ("ft"). Units after a number are a small grammar; what must not be
 * hand-written are the unit names and the conversion factors, and
 * js-quantities (1.8.0, MIT, no dependencies) has both: the alias table
 * ("feet", "metres", "cm" via SI prefixes, "kg", "hours") and NIST-exact
 * factors (5000 ft² → 464.5152 m²; convert-units gives 464.51565).
 * Converters are cached per unit pair (a cached `swiftConverter` call is
 * ~0.05 µs; building a `Qty` is ~0.3 ms, so it only happens once per unit
 * phrase and only when a reply has a number followed by a word).
 * Recognizers-Text stays the candidate for other languages, loaded lazily.
 */
import type QtyType from 'js-quantities';
import { lazyRequire } from '../../shared/lazy-require.ts';

/** js-quantities, loaded on the first unit converted (server/shared/lazy-require.ts). */
const Qty = lazyRequire<typeof QtyType>('js-quantities');

/** A unit read into js-quantities' terms, with its kind ("length", "area", …) and a display label. */
export interface Unit {
  qty: string;
  kind: string;
  label: string;
}

// Kinds that are not a measurement a question converts into ("USD" reads as a currency, "%" as unitless).
const NOT_MEASURES = new Set(['currency', 'unitless']);
// English words that are also unit symbols ("5 in total", "3 a week", "2 s"): a unit only when attached to the number ("5in").
const WORDLIKE = new Set(['a', 'an', 'in', 'at', 'as', 's', 'd', 't', 'c', 'f', 'h', 'b', 'g', 'p', 'y', 'yr', 'min', 'mi', 'l']);
// Spellings js-quantities lacks that visitors type (plurals and short forms of units it knows by another name).
// "tons" is left out on purpose: a US short ton and a metric tonne differ, so it is asked about.
const EXTRA: Record<string, string> = {
  sqft: 'ft^2', sqm: 'm^2', sqmi: 'mi^2', sqkm: 'km^2', hrs: 'h', yrs: 'year',
  tonnes: 'tonne', ha: 'hectare', hectares: 'hectare',
  // German, French and Spanish unit words (a visitor in those languages writes "25 Meter", "30 centimètres", "2 horas")
  metern: 'm', zentimeter: 'cm', zentimetern: 'cm', quadratmeter: 'm^2', quadratmetern: 'm^2', qm: 'm^2', litern: 'L',
  stunde: 'h', stunden: 'h', std: 'h', minuten: 'min', woche: 'wk', wochen: 'wk', tag: 'day', tage: 'day', tagen: 'day', kilo: 'kg', kilos: 'kg', tonnen: 'tonne', hektar: 'hectare',
  mètre: 'm', mètres: 'm', centimètre: 'cm', centimètres: 'cm', millimètre: 'mm', millimètres: 'mm', kilomètre: 'km',
  kilomètres: 'km', heure: 'h', heures: 'h', pieds: 'ft', pouces: 'in', fuß: 'ft', fuss: 'ft', zoll: 'in', quadratfuß: 'ft^2', quadratfuss: 'ft^2',
  metro: 'm', metros: 'm', centímetro: 'cm', centímetros: 'cm', milímetro: 'mm', milímetros: 'mm', kilómetro: 'km',
  kilómetros: 'km', litro: 'L', litros: 'L', hora: 'h', horas: 'h', minutos: 'min', pies: 'ft', pulgadas: 'in', toneladas: 'tonne',
};
// Calendar spans have no fixed length (a month is 28 to 31 days): named so a reply in them is asked again, never converted.
const CALENDAR = /^(months?|mos?|years?|yrs?|decades?|monat|monate|monaten|jahr|jahre|jahren|jahrzehnte?|mois|ans|années?|annees?|mes|meses|años?|anos?)$/i;
const TEMPERATURE: Record<string, string> = {
  '°c': 'tempC', c: 'tempC', celsius: 'tempC', centigrade: 'tempC', 'degrees c': 'tempC', 'degrees celsius': 'tempC', 'deg c': 'tempC',
  '°f': 'tempF', f: 'tempF', fahrenheit: 'tempF', 'degrees f': 'tempF', 'degrees fahrenheit': 'tempF', 'deg f': 'tempF',
};

const units = new Map<string, Unit | null>();
const MAX_UNITS = 512;

/** Reads a unit phrase ("sq ft", "m²", "square metres", "°C", "hours") into a Unit; null when it is not a unit of measure. */
export function readUnit(phrase: string): Unit | null {
  const key = phrase.trim();
  if (units.has(key)) return units.get(key)!;
  const unit = read(key);
  if (units.size >= MAX_UNITS) units.clear();
  units.set(key, unit);
  return unit;
}

function read(phrase: string): Unit | null {
  let p = phrase.normalize('NFKC').replace(/\.$/, '').replace(/\s+/g, ' ');
  if (p === '' || p.length > 30) return null;
  const lower = p.toLowerCase().replace(/^º/, '°');
  const temp = TEMPERATURE[lower];
  if (temp) return make(temp);
  if (CALENDAR.test(p)) return { qty: `calendar ${lower}`, kind: 'time', label: lower };
  let power = '';
  const prefix = /^(sq\.?|square|cu\.?|cubic) (.+)$/i.exec(p);
  if (prefix) {
    power = /^(sq|square)/i.test(prefix[1]!) ? '^2' : '^3';
    p = prefix[2]!;
  } else {
    const suffix = /^(.*?[\p{L}])\s?(?:\^?([23])| (squared|cubed|carrés?|cubes?|cuadrados?|cúbicos?))$/iu.exec(p);
    if (suffix) {
      power = suffix[2] === '2' || /^(?:squared|carr|cuadrad)/i.test(suffix[3] ?? '') ? '^2' : '^3';
      p = suffix[1]!;
    }
  }
  if (!/^[\p{L}µ]+$/u.test(p)) return null;
  const base = EXTRA[p.toLowerCase()] ?? (p.length > 3 ? p.toLowerCase() : p);
  if (power && base.includes('^')) return null;
  return make(base + power);
}

function make(qty: string): Unit | null {
  try {
    const q = Qty()(qty);
    const kind = q.kind();
    if (NOT_MEASURES.has(kind)) return null;
    return { qty, kind, label: label(q.units()) };
  } catch {
    return null;
  }
}

/** "ft2" → "ft²", "tempC" → "°C": how a unit is written back to the visitor. */
function label(units: string): string {
  if (units === 'tempC' || units === 'degC') return '°C';
  if (units === 'tempF' || units === 'degF') return '°F';
  return units.replace(/2$/, '²').replace(/3$/, '³');
}

const converters = new Map<string, ((v: number) => number) | null>();

/** The value in `to`'s unit, exact to 12 significant digits (float noise removed); null for units of different kinds. */
export function convert(value: number, from: Unit, to: Unit): number | null {
  if (from.qty === to.qty) return value;
  const key = `${from.qty}\u0000${to.qty}`;
  let fn = converters.get(key);
  if (fn === undefined) {
    try {
      fn = Qty().swiftConverter(from.qty, to.qty) as (v: number) => number;
    } catch {
      fn = null;
    }
    converters.set(key, fn);
  }
  return fn === null ? null : Number(fn(value).toPrecision(12));
}

/** A unit written right after a number, with its span. */
export interface FoundUnit {
  unit: Unit;
  start: number;
  end: number;
}

const WORDS_AFTER = /^( ?)([\p{L}°º℃℉µ][\p{L}\p{N}²³^]*\.?)(?: ([\p{L}][\p{L}\p{N}²³^]*\.?))?(?: ([\p{L}][\p{L}\p{N}²³^]*\.?))?/u;

/** The unit right after position `at` ("5000 sq ft", "30cm", "25 feet"), longest phrase first; null when the next word is not a unit. */
export function unitAfter(text: string, at: number): FoundUnit | null {
  const m = WORDS_AFTER.exec(text.slice(at, at + 48));
  if (!m) return null;
  const attached = m[1] === '';
  const words = [m[2], m[3], m[4]].filter((w): w is string => w !== undefined);
  for (let n = words.length; n >= 1; n--) {
    const phrase = words.slice(0, n).join(' ');
    if (n === 1 && !attached && WORDLIKE.has(phrase.toLowerCase())) continue;
    const unit = readUnit(phrase);
    if (unit) return { unit, start: at + m[1]!.length, end: at + m[1]!.length + phrase.length };
  }
  return null;
}

/** The display name of a unit kind in a clarification ("an area", "a length"). */
export function kindName(kind: string): string {
  const name = kind.replace(/_/g, ' ');
  return /^[aeiou]/.test(name) ? `an ${name}` : `a ${name}`;
}
