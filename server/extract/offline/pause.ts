import type { LanguagePack } from '../../language/pack.ts';
import { fold, foldPhrase } from '../parse/index.ts';

/*
 * A PAUSE ("hold on", "one sec", "ugh let me check", "Moment bitte", "ich schau mal nach"): the visitor asks for a moment
 * before answering. The whole reply is made of the pack's pause phrases (at least one), its fillers and its discourse words;
 * anything else ("hold on, the area is 800 not 700", "one sec: 0171 2345678") is read as usual. The question stays open
 * without a miss, and the answer before is not taken back (a bare "hold on" is no correction).
 */

const cache = new WeakMap<LanguagePack, { phrases: string[][]; fillers: string[][] }>();

function listsOf(pack: LanguagePack): { phrases: string[][]; fillers: string[][] } | null {
  const p = pack.text.pause;
  if (!p) return null;
  let l = cache.get(pack);
  if (!l) {
    const words = (x: string) => foldPhrase(x).replace(/’/g, "'").split(/\s+/).filter(Boolean);
    const byLength = (a: string[], b: string[]) => b.length - a.length;
    l = { phrases: p.phrases.map(words).sort(byLength), fillers: [...p.fillers, ...(pack.text.discourse ?? [])].map(words).sort(byLength) };
    cache.set(pack, l);
  }
  return l;
}

/**
 * Whether the whole reply only asks for a moment before answering (the pack's `text.pause`). At a question asking for a
 * number, a figure in the reply ("2 mins") may be its answer: never a pause there.
 */
export function pauses(text: string, pack: LanguagePack, numeric = false): boolean {
  const lists = listsOf(pack);
  if (!lists || text.length > 80) return false;
  const words = fold(text).text.replace(/’/g, "'").split(/[^\p{L}\p{N}']+/u).map((w) => w.replace(/^'+|'+$/g, '')).filter(Boolean);
  if (words.length === 0 || (numeric && words.some((w) => /\p{N}/u.test(w)))) return false;
  let i = 0;
  let paused = false;
  const at = (phrase: string[]) => phrase.every((w, k) => words[i + k] === w);
  while (i < words.length) {
    const phrase = lists.phrases.find(at);
    if (phrase) {
      paused = true;
      i += phrase.length;
      continue;
    }
    const filler = lists.fillers.find(at);
    if (!filler) return false;
    i += filler.length;
  }
  return paused;
}
