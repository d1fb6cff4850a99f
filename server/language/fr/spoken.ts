import type { SpokenWords } from '../spoken-words.ts';

/** French spelled addresses and numbers (server/extract/parse/spelled.ts); words are folded ("arobase", "zéro" as "zero"). */
export const FR_SPOKEN: SpokenWords = {
  at: ['arobase', 'arobas', 'at'],
  dot: ['point', 'dot'],
  digits: { zero: '0', 'zéro': '0', un: '1', une: '1', deux: '2', trois: '3', quatre: '4', cinq: '5', six: '6', sept: '7', huit: '8', neuf: '9' },
  repeat: { double: 2, triple: 3 },
};
