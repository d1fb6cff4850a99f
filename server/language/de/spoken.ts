import type { SpokenWords } from '../spoken-words.ts';

/** German spelled addresses and numbers (server/extract/parse/spelled.ts); words are folded ("fünf" as "funf"). */
export const DE_SPOKEN: SpokenWords = {
  at: ['at', 'ät', 'aet', 'et'],
  dot: ['punkt', 'dot'],
  digits: { null: '0', eins: '1', ein: '1', zwei: '2', zwo: '2', drei: '3', vier: '4', fünf: '5', funf: '5', fuenf: '5', sechs: '6', sieben: '7', acht: '8', neun: '9' },
  repeat: { doppel: 2, doppelt: 2 },
};
