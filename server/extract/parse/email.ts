import { z } from 'zod';
import { lazy } from '../../shared/lazy.ts';
import { fail, ok, theOneFound, type ParseResult } from './parse-result.ts';
import type { LanguagePack } from '../../language/pack.ts';
import { spelledEmail } from './spelled.ts';

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
  return theOneFound(text, findEmails(text), {
    none: "That doesn't look like an email address.",
    many: 'I found more than one email address — which one should I use?',
  });
}

/** Normalises a structured email proposal (lowercased). */
export function coerceEmail(value: unknown): ParseResult {
  if (typeof value !== 'string') return fail("That doesn't look like an email address.");
  const r = parseEmail(value);
  return r.ok ? { ...r, exact: true } : r;
}
