// " dot ", " (dot) ", " [dot] " between two words.
const DOT = /\s*(?:\s|\(|\[)dot(?:\s|\)|\])\s*(?=[\p{L}\p{N}])/giu;

/**
 * "acmepadel dot com", "acme (dot) com": a web address spelled out, with the
 * dots put back; null when nothing was spelled. The caller keeps the result
 * only if it finds one valid address. Spelled email addresses ("ann at example
 * dot com") are deliberately not read: the goldens re-ask them.
 */
export function unspell(text: string): string | null {
  if (!/dot/i.test(text)) return null; // cheap gate: every spelled address has a dot
  const joined = text.replace(DOT, '.');
  return joined === text ? null : joined;
}
