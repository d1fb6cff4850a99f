// " dot ", " (dot) ", " [dot] " between two words; the same for "at".
const DOT = /\s*(?:\s|\(|\[)dot(?:\s|\)|\])\s*(?=[\p{L}\p{N}])/giu;
const AT = /\s*(?:\s|\(|\[)at(?:\s|\)|\])\s*(?=[\p{L}\p{N}])/giu;

/**
 * "maria dot lopez at gmail dot com", "acme (dot) com": the address spelled
 * out to dodge scrapers, with the symbols put back. `at` is replaced only when
 * the message has no "@" and exactly one spelled "at" followed later by a
 * spelled "dot", so "at home" in a sentence is left alone. Null when nothing
 * was spelled; the caller keeps the result only if it finds one valid address.
 */
export function unspell(text: string, withAt: boolean): string | null {
  if (!/dot/i.test(text)) return null; // cheap gate: every spelled address has a dot
  let out = text;
  if (withAt) {
    if (text.includes('@')) return null;
    const ats = [...text.matchAll(AT)];
    if (ats.length !== 1) return null;
    const at = ats[0]!;
    if (!DOT.test(text.slice(at.index + at[0].length))) return null;
    DOT.lastIndex = 0;
    out = text.slice(0, at.index) + '@' + text.slice(at.index + at[0].length);
  }
  const joined = out.replace(DOT, '.');
  return joined === text ? null : joined;
}
