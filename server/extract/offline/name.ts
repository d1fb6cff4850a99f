import { en } from '../../language/en/index.ts';
import type { NameWords } from '../../language/pack.ts';

/** A name the user introduced themselves with, as typed. */
export interface FoundName {
  value: string;
  evidence: string;
}

/** Answer keys that hold a person's name and so may be filled from "my name is …". */
export const NAME_KEYS: ReadonlySet<string> = new Set(['name', 'full_name', 'first_name']);

const TOKEN = /^[\p{L}][\p{L}'’-]*(?:\.(?=\s|$))?/u;

/**
 * Finds "my name is Ann Lee" / "I'm Ann" / "this is Ann" in a message (with
 * addresses and numbers already blanked by the caller). `words` limits the
 * name's length: 1 for a first name, up to 3 otherwise.
 */
export function findName(text: string, words: number, names: NameWords = en.names, intro: RegExp = names.intro): FoundName | null {
  for (const m of text.matchAll(intro)) {
    const loose = names.loose.has(m[1]!.toLowerCase());
    const name = readName(text, m.index + m[0].length, words, loose, names);
    if (name) return { value: name.value, evidence: text.slice(m.index, name.end) };
  }
  return null;
}

/** The name written at `at`: up to `words` words, capitalised unless `loose`, stopping at common words. */
function readName(text: string, start: number, words: number, loose: boolean, w: NameWords): { value: string; end: number } | null {
  const names: string[] = [];
  let at = start;
  let end = start;
  while (names.length < words) {
    const t = TOKEN.exec(text.slice(at, at + 64))?.[0];
    if (!t) break;
    const bare = t.replace(/\.$/, '');
    const lower = bare.toLowerCase();
    if (w.stop.has(lower) || (!loose && !/^\p{Lu}/u.test(bare)) || (names.length === 0 && w.notNames.has(lower))) break;
    // A single-letter initial keeps its dot ("Ann J. Lee"); a sentence's full stop is not part of the name.
    names.push(bare.length === 1 ? t : bare);
    at += t.length;
    end = at - (t.length - (bare.length === 1 ? t.length : bare.length));
    if (t.endsWith('.') && bare.length > 1) break;
    const gap = /^ +/.exec(text.slice(at, at + 8))?.[0];
    if (!gap) break;
    at += gap.length;
  }
  return names.length === 0 ? null : { value: names.join(' '), end };
}
