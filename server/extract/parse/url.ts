import { z } from 'zod';
import { lazy } from '../../shared/lazy.ts';
import { findEmails } from './email.ts';
import { fail, mask, theOneFound, type ParseResult } from './parse-result.ts';
import { unspell } from './spelled.ts';

/** A web address found in a message, normalised to include a scheme, with its span. */
export interface FoundUrl {
  value: string;
  start: number;
  end: number;
  /** Written with a scheme, "www." or a well-known top-level domain — not just two words and a dot. */
  distinctive: boolean;
}

// With a scheme anything up to whitespace; without one, dot-separated labels
// ending in a letters-only TLD, plus an optional path. Labels are delimited by
// dots, so the scan stays linear.
const URL_LIKE =
  /\bhttps?:\/\/[^\s<>"'`]+|(?<![\p{L}\p{N}@./:-])(?:www\.)?(?:[\p{L}\p{N}-]+\.)+\p{L}{2,24}(?![\p{L}\p{N}-])(?::\d{1,5})?(?:[/?#][^\s<>"'`]*)?/giu;
const TRAILING = /[.,;:!?)\]}'"»”’]+$/u;
const VALID = lazy(() => z.url({ protocol: /^https?$/ }));
// A short list is enough: it only decides whether a bare "x.y" in a message
// about something else is confidently a web address.
const WELL_KNOWN_TLDS = new Set([
  'com', 'org', 'net', 'io', 'co', 'ai', 'app', 'dev', 'biz', 'info', 'edu', 'gov', 'us', 'uk', 'ca', 'au',
  'de', 'fr', 'es', 'it', 'nl', 'be', 'ch', 'at', 'se', 'no', 'dk', 'fi', 'ie', 'nz', 'in', 'jp', 'br', 'mx',
  'shop', 'store', 'online', 'site', 'tech', 'xyz',
]);

/** Every http(s) web address in the text (email addresses are not web addresses), with a scheme added when missing. */
export function findUrls(text: string): FoundUrl[] {
  // every match has "://" or a dot before its top-level domain
  if (!text.includes('.') && !text.includes(':')) return [];
  const plain = mask(text, findEmails(text).map((e) => [e.start, e.end] as const));
  const found: FoundUrl[] = [];
  for (const m of plain.matchAll(URL_LIKE)) {
    const raw = m[0].replace(TRAILING, '');
    const hasScheme = /^https?:\/\//i.test(raw);
    const value = hasScheme ? raw : `https://${raw}`;
    if (!VALID().safeParse(value).success) continue;
    const host = (hasScheme ? raw.replace(/^https?:\/\//i, '') : raw).split(/[/?#:]/)[0]!.toLowerCase();
    const tld = host.slice(host.lastIndexOf('.') + 1);
    const distinctive = hasScheme || host.startsWith('www.') || WELL_KNOWN_TLDS.has(tld);
    found.push({ value, start: m.index, end: m.index + raw.length, distinctive });
  }
  return found;
}

/** Parses a URL answer: the one web address in the message, trimmed, with https:// added when it had no scheme. */
export function parseUrl(text: string): ParseResult {
  // "acmepadel dot com": kept only when it spells one address with a scheme, "www." or a well-known top-level domain
  // ("ann at example dot com" is an email address spelled out, not a website)
  if (findUrls(text).length === 0 && !/(?:^|[\s([])at(?:$|[\s)\]])|@/i.test(text)) {
    const joined = unspell(text);
    const found = joined === null ? [] : findUrls(joined);
    if (found.length === 1 && found[0]!.distinctive) text = joined!;
  }
  return theOneFound(text, findUrls(text), {
    none: "That doesn't look like a web address.",
    many: 'I found more than one web address — which one should I use?',
  });
}

/** Normalises a structured URL proposal (scheme added when missing). */
export function coerceUrl(value: unknown): ParseResult {
  if (typeof value !== 'string') return fail("That doesn't look like a web address.");
  const r = parseUrl(value);
  return r.ok ? { ...r, exact: true } : r;
}
