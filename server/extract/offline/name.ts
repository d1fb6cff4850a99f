/** A name the user introduced themselves with, as typed. */
export interface FoundName {
  value: string;
  evidence: string;
}

/** Answer keys that hold a person's name and so may be filled from "my name is …". */
export const NAME_KEYS: ReadonlySet<string> = new Set(['name', 'full_name', 'first_name']);

// "my name is" / "call me" announce a name, so any case goes; "I'm" and
// "this is" announce anything ("I'm looking for…"), so the name must be
// capitalised and not a common word.
const INTRO = /(?<![\p{L}\p{N}])(my name is|my name['’]s|name is|call me|i am|i['’]m|this is)\s+/giu;
const LOOSE_INTROS = new Set(['my name is', "my name's", 'my name’s', 'name is', 'call me']);
const TOKEN = /^[\p{L}][\p{L}'’-]*(?:\.(?=\s|$))?/u;
const STOP = new Set([
  'and', 'or', 'but', 'from', 'with', 'at', 'in', 'on', 'of', 'the', 'a', 'an', 'here', 'i', 'my', 'me', 'we', 'our',
  'by', 'for', 'to', 'is', 'please', 'thanks', 'thank', 'email', 'phone', 'number', 'mail',
]);
const NOT_NAMES = new Set([
  'looking', 'interested', 'not', 'calling', 'writing', 'sorry', 'fine', 'good', 'great', 'just', 'also', 'very',
  'so', 'trying', 'ready', 'happy', 'glad', 'new', 'still', 'based', 'located', 'ok', 'okay', 'sure', 'yes', 'no',
  'thinking', 'planning', 'hoping', 'wondering', 'going', 'after', 'about', 'asking', 'afraid', 'unsure', 'done',
  'the', 'a', 'an', 'here', 'back', 'currently', 'curious', 'busy', 'available', 'in', 'on', 'at',
  'from', 'with', 'really', 'totally', 'only', 'always', 'never', 'working', 'buying', 'building', 'opening', 'it',
]);

/**
 * Finds "my name is Ann Lee" / "I'm Ann" / "this is Ann" in a message (with
 * addresses and numbers already blanked by the caller). `words` limits the
 * name's length: 1 for a first name, up to 3 otherwise.
 */
export function findName(text: string, words: number): FoundName | null {
  for (const m of text.matchAll(INTRO)) {
    const loose = LOOSE_INTROS.has(m[1]!.toLowerCase());
    const names: string[] = [];
    let at = m.index + m[0].length;
    while (names.length < words) {
      const t = TOKEN.exec(text.slice(at, at + 64))?.[0];
      if (!t) break;
      const bare = t.replace(/\.$/, '');
      const lower = bare.toLowerCase();
      if (STOP.has(lower) || (!loose && !/^\p{Lu}/u.test(bare)) || (names.length === 0 && NOT_NAMES.has(lower))) break;
      // A single-letter initial keeps its dot ("Ann J. Lee"); a sentence's full stop is not part of the name.
      names.push(bare.length === 1 ? t : bare);
      at += t.length;
      if (t.endsWith('.') && bare.length > 1) break;
      const gap = /^ +/.exec(text.slice(at, at + 8))?.[0];
      if (!gap) break;
      at += gap.length;
    }
    if (names.length === 0) continue;
    const value = names.join(' ');
    const end = text.indexOf(names[names.length - 1]!, m.index + m[1]!.length) + names[names.length - 1]!.length;
    return { value, evidence: text.slice(m.index, end) };
  }
  return null;
}
