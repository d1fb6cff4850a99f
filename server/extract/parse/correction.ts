/**
 * Self-corrections inside one reply: "3 courts — sorry, 4", "3, no wait, 4",
 * "3 actually 4", "yes, I mean no". The words after the last marker are the
 * answer when they hold one; otherwise (a trailing "sorry", "actually" as a
 * lead-in) the whole reply is read as usual.
 */
const MARKER = /(?<![\p{L}\p{N}'’])(?:sorry|no wait|wait|actually|i mean|i meant|correction|make that|make it|scratch that|oops|or rather|no(?=[\s,]+(?:\d|zero|one|two|three|four|five|six|seven|eight|nine|ten)(?![\p{L}])))(?![\p{L}\p{N}'’])/giu;

/** The part of the reply after its last self-correction marker, when something came before it; null when there is none. */
export function correctedTail(text: string): string | null {
  let last: RegExpExecArray | null = null;
  MARKER.lastIndex = 0;
  for (let m = MARKER.exec(text); m; m = MARKER.exec(text)) last = m;
  if (!last) return null;
  const head = text.slice(0, last.index);
  const tail = text.slice(last.index + last[0].length);
  if (!/[\p{L}\p{N}]/u.test(head) || !/[\p{L}\p{N}]/u.test(tail)) return null;
  return tail.replace(/^[\s,;:.!—–-]+/u, '');
}
