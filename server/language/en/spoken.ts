import type { SpokenWords } from '../spoken-words.ts';

/** English spelled addresses and numbers (server/extract/parse/spelled.ts). */
export const EN_SPOKEN: SpokenWords = {
  at: ['at'],
  dot: ['dot'],
  digits: { zero: '0', oh: '0', o: '0', nought: '0', one: '1', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9' },
  repeat: { double: 2, triple: 3 },
};
