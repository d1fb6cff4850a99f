import type { SpokenWords } from '../../language/spoken-words.ts';

// " dot ", " (dot) ", " [dot] " between two words.
const DOT = /\s*(?:\s|\(|\[)dot(?:\s|\)|\])\s*(?=[\p{L}\p{N}])/giu;

/**
 * "acmepadel dot com", "acme (dot) com": a web address spelled out, with the
 * dots put back; null when nothing was spelled. The caller keeps the result
 * only if it finds one valid address. Spelled email addresses ("ann at example
 * dot com") are read by spelledEmail below, at an email question only.
 */
export function unspell(text: string): string | null {
  if (!/dot/i.test(text)) return null; // cheap gate: every spelled address has a dot
  const joined = text.replace(DOT, '.');
  return joined === text ? null : joined;
}

/** A value spelled out in words, with the span of the words that spelled it. */
export interface Spelled {
  value: string;
  start: number;
  end: number;
}

const esc = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const emailPatterns = new WeakMap<SpokenWords, RegExp>();

/** The pattern of an address spelled with the pack's words for "@" and "." (typed alone or in brackets; a typed "." or "@" also joins). */
function emailPattern(words: SpokenWords): RegExp {
  let re = emailPatterns.get(words);
  if (!re) {
    const at = words.at.map(esc).join('|');
    const dot = words.dot.map(esc).join('|');
    const sep = `(?:\\s*\\.\\s*|\\s+(?:${dot})\\s+|\\s*[([]\\s*(?:${dot})\\s*[)\\]]\\s*)`;
    const atSep = `(?:\\s+(?:${at})\\s+|\\s*[([]\\s*(?:${at})\\s*[)\\]]\\s*|\\s*@\\s*)`;
    re = new RegExp(`(?<![\\p{L}\\p{N}._%+'-])([\\p{L}\\p{N}_%+'-]+(?:${sep}[\\p{L}\\p{N}_%+'-]+)*)${atSep}([\\p{L}\\p{N}-]+(?:${sep}[\\p{L}\\p{N}-]+)+)(?![\\p{L}\\p{N}])`, 'giu');
    emailPatterns.set(words, re);
  }
  return re;
}

// a spelled domain ends in a country's two letters or one of the common generic endings ("… dot smith" is no address)
const TLD = /^(?:\p{L}{2}|com|org|net|edu|gov|mil|info|biz|io|app|dev|club|online|shop|store|tech|email|mail|name|pro|site|web|xyz|coop|museum|sport|team|tennis|golf|school)$/u;

/**
 * "john dot smith at gmail dot com", "info (at) tc-gruen-weiss (Punkt) de", "k.asante-mensah (at) outlook.com":
 * an email address spelled with the language's words, put together and lowercased; null when none is spelled or
 * the result is no address. `isAddress` checks the joined form (the email parser's own test); a local part that is
 * one common word ("we're at lakeview.com") is no address.
 */
export function spelledEmail(text: string, words: SpokenWords, common: ReadonlySet<string>, isAddress: (s: string) => boolean): Spelled | null {
  const re = emailPattern(words);
  re.lastIndex = 0;
  const dot = new RegExp(`\\s*(?:[([]\\s*)?(?:${words.dot.map(esc).join('|')})(?:\\s*[)\\]])?\\s*|\\s*\\.\\s*`, 'giu');
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const local = m[1]!.replace(dot, '.');
    const domain = m[2]!.replace(dot, '.');
    const value = `${local}@${domain}`.toLowerCase();
    const tld = domain.slice(domain.lastIndexOf('.') + 1).toLowerCase();
    const oneWord = !local.includes('.') && common.has(local.toLowerCase());
    if (TLD.test(tld) && !oneWord && isAddress(value)) return { value, start: m.index, end: m.index + m[0].length };
    re.lastIndex = m.index + 1;
  }
  return null;
}

/**
 * "nine one seven five five five zero one two three", "six one seven, five five five, zero one one nine",
 * "null eins sieben sechs …": a run of digit words (and digits, "double five") as digits, with its span; null
 * without a run of `least` digits or more (seven: a phone) that holds three digit words at least (digits alone are read as typed).
 */
export function spelledDigits(text: string, words: SpokenWords, least = 7): Spelled | null {
  const token = /[\p{L}]+|\p{N}+/gu;
  let best: Spelled | null = null;
  let run = '';
  let said = 0;
  let start = -1;
  let end = -1;
  let repeat = 1;
  let lastEnd = 0;
  const close = () => {
    if (run.length >= least && said >= 3 && (!best || run.length > best.value.length)) best = { value: run, start, end };
    run = '';
    said = 0;
    start = -1;
    repeat = 1;
  };
  for (const m of text.matchAll(token)) {
    const w = m[0].toLowerCase();
    const gap = text.slice(lastEnd, m.index);
    if (start !== -1 && !/^[\s,.\-/]*$/u.test(gap)) close();
    lastEnd = m.index + m[0].length;
    const digit = words.digits[w] ?? (/^\p{N}+$/u.test(w) ? w : undefined);
    if (digit !== undefined) {
      if (start === -1) start = m.index;
      run += digit.repeat(repeat);
      if (words.digits[w] !== undefined) said++;
      repeat = 1;
      end = lastEnd;
    } else if (words.repeat[w] !== undefined && start !== -1) {
      repeat = words.repeat[w]!;
    } else if (words.repeat[w] !== undefined) {
      start = m.index;
      repeat = words.repeat[w]!;
    } else close();
  }
  close();
  return best;
}
