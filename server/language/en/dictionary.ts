import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type nspell from 'nspell';

// Whether a word is an English word: hunspell's English dictionary (`dictionary-en`, the en_US list of SCOWL)
// read by `nspell`. The recognisers ask it before reading a word as a typo of another ("earache" is no slip of
// "headache", "branch" none of "blanch"). Loaded on the first question (about 0.3 s, a 550 kB dictionary), not
// when the package is imported.

let speller: ReturnType<typeof nspell> | undefined;

/** Whether hunspell's English dictionary knows the word, as typed or in lower case. */
export function isEnglishWord(word: string): boolean {
  if (!speller) {
    const require = createRequire(import.meta.url);
    const dir = dirname(require.resolve('dictionary-en'));
    speller = (require('nspell') as typeof nspell)(readFileSync(join(dir, 'index.aff')), readFileSync(join(dir, 'index.dic')));
  }
  return speller.correct(word) || speller.correct(word.toLowerCase());
}
