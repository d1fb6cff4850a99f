import { createRequire } from 'node:module';

// Word stems by the Snowball algorithms (snowball-stemmers): "vaccines", "vaccinated", "vaccination" → "vaccin";
// "Leuchten" → "leucht". The package loads the first time a word is stemmed, not on import: a language pack names its
// stemmer at load (`stem: stemmer('german')`), which costs nothing until an option is read in other words.

const require = createRequire(import.meta.url);
const stemmers = new Map<string, (word: string) => string>();

/** The stemmer of a Snowball algorithm ('english', 'german', 'french', 'spanish'), memoised per word; loaded on its first word. */
export function stemmer(algorithm: string): (word: string) => string {
  let fn = stemmers.get(algorithm);
  if (!fn) {
    let s: { stem(word: string): string } | undefined;
    const memo = new Map<string, string>();
    fn = (word: string) => {
      let out = memo.get(word);
      if (out === undefined) {
        s ??= (require('snowball-stemmers') as typeof import('snowball-stemmers').default).newStemmer(algorithm);
        out = s.stem(word);
        if (memo.size < 20_000) memo.set(word, out);
      }
      return out;
    };
    stemmers.set(algorithm, fn);
  }
  return fn;
}
