import { en } from '../../language/en/index.ts';
import type { LanguagePack } from '../../language/pack.ts';

// Self-corrections inside one reply: "3 courts — sorry, 4", "3, no wait, 4",
// "3 actually 4", "yes, I mean no". The words after the last marker (the
// pack's `corrections`) are the answer when they hold one; otherwise (a
// trailing "sorry", "actually" as a lead-in) the whole reply is read as usual.

/** The part of the reply after its last self-correction marker, when something came before it; null when there is none. */
export function correctedTail(text: string, pack: LanguagePack = en): string | null {
  let last: RegExpExecArray | null = null;
  const marker = pack.corrections;
  marker.lastIndex = 0;
  for (let m = marker.exec(text); m; m = marker.exec(text)) last = m;
  if (!last) return null;
  const head = text.slice(0, last.index);
  const tail = text.slice(last.index + last[0].length);
  if (!/[\p{L}\p{N}]/u.test(head) || !/[\p{L}\p{N}]/u.test(tail)) return null;
  return tail.replace(/^[\s,;:.!—–-]+/u, '');
}
