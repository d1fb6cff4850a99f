import type { SpokenWords } from '../spoken-words.ts';

/** Spanish spelled addresses and numbers (server/extract/parse/spelled.ts); words are folded ("arroba", "cero"). */
export const ES_SPOKEN: SpokenWords = {
  at: ['arroba', 'at'],
  dot: ['punto', 'dot'],
  digits: { cero: '0', uno: '1', una: '1', dos: '2', tres: '3', cuatro: '4', cinco: '5', seis: '6', siete: '7', ocho: '8', nueve: '9' },
  repeat: { doble: 2, triple: 3 },
};
