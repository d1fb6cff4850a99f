import { z } from 'zod';
import { lazy } from '../../shared/lazy.ts';
import { fail, ok, theOneFound, type ParseResult } from './parse-result.ts';
import type { LanguagePack } from '../../language/pack.ts';
import { spelledEmail } from './spelled.ts';
import { oneEdit } from './one-edit.ts';

/** Mail providers most addresses are at: a domain one typing slip from exactly one of them is checked with the visitor. */
const PROVIDERS = [
  'gmail.com', 'googlemail.com', 'yahoo.com', 'hotmail.com', 'outlook.com', 'live.com', 'msn.com', 'icloud.com', 'me.com', 'aol.com',
  'protonmail.com', 'proton.me', 'comcast.net', 'verizon.net', 'att.net', 'btinternet.com', 'hotmail.co.uk', 'yahoo.co.uk',
  'gmx.de', 'gmx.net', 'web.de', 't-online.de', 'freenet.de', 'yahoo.de', 'hotmail.de', 'outlook.de', 'orange.fr', 'free.fr',
  'yahoo.fr', 'hotmail.fr', 'laposte.net', 'yahoo.es', 'hotmail.es',
];

/** An email address found in a message, lowercased, with its span. */
export interface FoundEmail {
  value: string;
  start: number;
  end: number;
}

// Dot-separated labels keep the domain part unambiguous, so the scan is linear.
const EMAIL = /[\p{L}\p{N}._%+'-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/gu;
const VALID = lazy(() => z.email());

/** Every valid email address in the text, lowercased (the committed form). */
export function findEmails(text: string): FoundEmail[] {
  const found: FoundEmail[] = [];
  if (!text.includes('@')) return found; // every address has one; most messages have none
  for (const m of text.matchAll(EMAIL)) {
    // Sentence punctuation glued to the local part ("(ann@x.io") is not part of it.
    const lead = /^['.]+/.exec(m[0])?.[0].length ?? 0;
    const value = m[0].slice(lead).toLowerCase();
    if (VALID().safeParse(value).success) found.push({ value, start: m.index + lead, end: m.index + m[0].length });
  }
  return found;
}

/** Parses an email answer: the one address in the message, lowercased; one spelled in the pack's words ("ann at example dot com") too. */
export function parseEmail(text: string, pack?: LanguagePack): ParseResult {
  if (pack?.spoken && findEmails(text).length === 0) {
    const spelled = spelledEmail(text, pack.spoken, pack.names.reply.common(), (s) => findEmails(s).length === 1 && findEmails(s)[0]!.value === s);
    // read, not typed: never exact (the commit rule judges the words around it)
    if (spelled) return ok(spelled.value, text.slice(spelled.start, spelled.end), false);
  }
  // "maria @ example.com", "maria@example . com": spaces typed around the @ or a dot of a single address
  if (findEmails(text).length === 0 && (text.match(/@/g)?.length ?? 0) === 1) {
    const joined = text.replace(/\s*@\s*/, '@').replace(/(@[^\s]*?)\s+\.\s*(?=[\p{L}])/gu, '$1.');
    if (joined !== text && findEmails(joined).length === 1) text = joined;
  }
  // "k.weber@t-online,de", "ann@web;de": a comma or semicolon typed for the domain's dot — read, and checked once as read
  let slipped = false;
  if (findEmails(text).length === 0 && (text.match(/@/g)?.length ?? 0) === 1) {
    const dotted = text.replace(/(@[\p{L}\p{N}.-]+)[,;]\s?(?=\p{L}{2,}(?![\p{L}\p{N}.@-]))/gu, '$1.');
    if (dotted !== text && findEmails(dotted).length === 1) {
      text = dotted;
      slipped = true;
    }
  }
  const found = theOneFound(text, findEmails(text), {
    none: "That doesn't look like an email address.",
    many: 'I found more than one email address — which one should I use?',
  });
  if (found.ok && spaceInside(text, String(found.value), pack)) {
    return fail('Is there a space in that address? Please type it again in one piece.');
  }
  // "tom@gmial.com", "ann@hotmial.com", "jo@gmail.con": checked once ("Just to check: tom@gmial.com?"), never corrected unasked
  return found.ok && (slipped || typoOfProvider(String(found.value))) ? { ...found, check: true } : found;
}

/** Words that may stand right before an address without a colon ("email me at ann@…", "use ann@…", "E-Mail ann@…"). */
const LEAD_IN = new Set(['email', 'mail', 'e', 'emails', 'address', 'addy', 'adresse', 'mailadresse', 'correo', 'courriel', 'try', 'reach', 'write', 'contact', 'send', 'cc']);

/**
 * Whether the visitor seems to have typed a space inside the address: right before it, with one space and nothing else
 * between, stands a word that is no word of the language and no lead-in, and the address does not hold it ("angela
 * rossi@gmail.com", "anna lena@t-online.de") and the address before the @ is one plain word. "Tom Becker tom.becker@…",
 * "nehmen Sie stattdessen t.wolf@…" and "email me at ann@…" are addresses as typed.
 */
function spaceInside(text: string, address: string, pack?: LanguagePack): boolean {
  const at = text.toLowerCase().indexOf(address);
  if (at <= 0) return false;
  const before = /(?:^|[\s,;:(])([\p{L}]{2,}) $/u.exec(text.slice(Math.max(0, at - 40), at));
  if (!before) return false;
  const word = before[1]!.toLowerCase();
  if (LEAD_IN.has(word) || (pack?.names.reply.common().has(word) ?? word.length <= 3)) return false;
  // the tail of a split address is a plain word ("rossi@", "lena@"); "t.wolf@", "kev77@" are addresses of their own
  const local = address.slice(0, address.indexOf('@'));
  return /^\p{L}{2,}$/u.test(local) && !local.includes(word);
}

/** Whether the address's domain is one typing slip (a letter added, dropped, changed or two swapped) from exactly one known provider. */
export function typoOfProvider(address: string): boolean {
  const domain = address.slice(address.lastIndexOf('@') + 1);
  if (PROVIDERS.includes(domain)) return false;
  const near = PROVIDERS.filter((p) => Math.abs(p.length - domain.length) <= 1 && oneEdit(domain, p));
  return near.length === 1;
}

/** Normalises a structured email proposal (lowercased). */
export function coerceEmail(value: unknown): ParseResult {
  if (typeof value !== 'string') return fail("That doesn't look like an email address.");
  const r = parseEmail(value);
  return r.ok ? { ...r, exact: true } : r;
}
