import { createRequire } from 'node:module';

// Common words of a language (stopwords-iso: "just", "want", "the", "geht", "nichts"), for telling a
// sentence from a name. Loaded the first time a name reply is read in the language, not on import.

const require = createRequire(import.meta.url);
const cache = new Map<string, ReadonlySet<string>>();

/** The common words of language `code` (lower case), less `names` — given names the list also holds ("will", "may"). */
export function commonWords(code: string, names: readonly string[]): ReadonlySet<string> {
  let set = cache.get(code);
  if (!set) {
    const all = require('stopwords-iso') as Record<string, string[] | undefined>;
    const keep = new Set(names);
    set = new Set((all[code] ?? []).map((w) => w.toLowerCase()).filter((w) => !keep.has(w)));
    cache.set(code, set);
  }
  return set;
}
