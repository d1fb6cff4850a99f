import { createRequire } from 'node:module';

// Word stems by the Snowball algorithms (snowball-stemmers): "vaccines", "vaccinated", "vaccination" → "vaccin";
// "Leuchten" → "leucht". Loaded the first time an option is read in other words, not on import.

const require = createRequire(import.meta.url);
const stemmers = new Map<string, (word: string) => string>();

/** The stemmer of a Snowball algorithm ('english', 'german', 'french', 'spanish'), memoised per word. */
export function stemmer(algorithm: string): (word: string) => string {
  let fn = stemmers.get(algorithm);
  if (!fn) {
    const snowball = require('snowball-stemmers') as typeof import('snowball-stemmers').default;
    const s = snowball.newStemmer(algorithm);
    const memo = new Map<string, string>();
    fn = (word: string) => {
      let out = memo.get(word);
      if (out === undefined) {
        out = s.stem(word);
        if (memo.size < 20_000) memo.set(word, out);
      }
      return out;
    };
    stemmers.set(algorithm, fn);
  }
  return fn;
}
