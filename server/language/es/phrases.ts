import { EN_NAMES } from '../en/phrases.ts';
import { ES_NAME_REPLY } from './name-reply.ts';
import type { NameWords, OptionWords } from '../pack.ts';

// Spanish phrases the rules read: self-corrections, name introductions, option negation and "all of them".
// "no" is a marker only before a number (elsewhere it answers or negates).

/** Self-corrections inside one reply. */
export const ES_CORRECTIONS = /(?<![\p{L}\p{N}'’])(?:perdón|perdon|perdona|lo siento|quiero decir|quise decir|digo|mejor dicho|espera|corrijo|no(?=[\s,]+(?:\d|cero|uno|una|un|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|once|doce|veinte|veinti\p{L}*|treinta|cuarenta|cincuenta|sesenta|setenta|ochenta|noventa|cien|ciento|mil)(?![\p{L}])))(?![\p{L}\p{N}'’])/giu;

/** Spanish name introductions; the words ending a name are English's still (as before the packs). */
export const ES_NAMES: NameWords = {
  intro: /(?<![\p{L}\p{N}])(me llamo|mi nombre es|llámame|llamame|soy|habla)\s+/giu,
  answerIntro: /(?<![\p{L}\p{N}])(me llamo|mi nombre es|llámame|llamame|soy|habla)\s+/giu,
  loose: new Set(['me llamo', 'mi nombre es', 'llámame', 'llamame']),
  stop: EN_NAMES.stop,
  notNames: EN_NAMES.notNames,
  whose: null,
  reply: ES_NAME_REPLY,
};

/** Spanish option negation (before: built from the lexicon's negators) and "all of them", on folded text. */
export const ES_OPTIONS: OptionWords = {
  negationBefore: null,
  negationAfter: /^ (?:no|nunca|jamas|para nada|de ninguna manera)(?![\p{L}])/u,
  all: {
    gate: /\btod/,
    reply: /^(?:(?:quiero |queremos |necesitamos )?(?:todos(?: ellos)?|todas(?: ellas)?|todo))(?: por favor| gracias)?(?:(?: ?,)? (?:excepto|menos|salvo|aparte de|pero no|pero sin) (.+))?$/,
    filler: new Set(['el', 'la', 'los', 'las', 'del', 'de', 'y', 'o', 'por', 'favor']),
  },
};
