import type { SpokenWords } from '../spoken-words.ts';

/** German spelled addresses and numbers (server/extract/parse/spelled.ts); words are folded ("fünf" as "funf"). */
export const DE_SPOKEN: SpokenWords = {
  at: ['at', 'ät', 'aet', 'et'],
  dot: ['punkt', 'dot'],
  digits: { null: '0', eins: '1', ein: '1', zwei: '2', zwo: '2', drei: '3', vier: '4', fünf: '5', funf: '5', fuenf: '5', sechs: '6', sieben: '7', acht: '8', neun: '9' },
  repeat: { doppel: 2, doppelt: 2 },
  insteadOfEmail: [
    'ruft mich', 'ruf mich', 'rufen sie mich', 'anrufen', 'angerufen', 'anruf', 'lieber anrufen', 'lieber angerufen', 'lieber telefonisch',
    'lieber telefon', 'lieber per telefon', 'lieber ein anruf', 'lieber einen anruf', 'bitte anrufen', 'nur telefonisch',
    'per telefon', 'telefonisch', 'keine mail', 'keine e-mail', 'keine email', 'habe keine', 'hab keine', 'kein mail',
  ],
  insteadOfPhone: [
    'lieber per mail', 'lieber per e-mail', 'lieber per email', 'lieber mail', 'lieber e-mail', 'lieber email', 'per mail',
    'per e-mail', 'per email', 'nur per mail', 'nur mail', 'mail reicht', 'e-mail reicht', 'email reicht', 'kein telefon',
    'keine telefonnummer', 'kein handy', 'nicht anrufen', 'keine anrufe', 'habe keins', 'hab keins', 'habe kein', 'hab kein',
  ],
};
