import { EN_NAMES } from '../en/phrases.ts';
import { FR_NAME_REPLY } from './name-reply.ts';
import type { NameWords, OptionWords } from '../pack.ts';

// French phrases the rules read: self-corrections, name introductions, option negation and "all of them".
// "non" is a marker only before a number (elsewhere it answers or negates).

/** Self-corrections inside one reply. */
export const FR_CORRECTIONS = /(?<![\p{L}\p{N}'’])(?:pardon|désolé|désolée|je veux dire|je voulais dire|attendez|attends|correction|plutôt|non(?=[\s,]+(?:\d|zéro|un|une|deux|trois|quatre|cinq|six|sept|huit|neuf|dix|onze|douze|treize|quatorze|quinze|seize|vingt|trente|quarante|cinquante|soixante|cent|mille)(?![\p{L}])))(?![\p{L}\p{N}'’])/giu;

/** French name introductions; the words ending a name are English's still (as before the packs). */
export const FR_NAMES: NameWords = {
  intro: /(?<![\p{L}\p{N}])(je m['’]appelle|mon nom est|mon nom c['’]est|appelez-moi|je suis|c['’]est|ici)\s+/giu,
  answerIntro: /(?<![\p{L}\p{N}])(je m['’]appelle|mon nom est|mon nom c['’]est|appelez-moi|je suis|c['’]est|ici)\s+/giu,
  loose: new Set(["je m'appelle", 'je m’appelle', 'mon nom est', "mon nom c'est", 'mon nom c’est', 'appelez-moi']),
  stop: EN_NAMES.stop,
  notNames: EN_NAMES.notNames,
  whose: null,
  reply: FR_NAME_REPLY,
};

/** French option negation (before: built from the lexicon's negators) and "all of them", on folded text. */
export const FR_OPTIONS: OptionWords = {
  negationBefore: null,
  negationAfter: /^ (?:non|pas|surtout pas|jamais|certainement pas)(?![\p{L}])/u,
  all: {
    gate: /\b(?:tou|l'ensemble)/,
    reply: /^(?:(?:je veux |je voudrais |nous voulons |on veut )?(?:tous(?: les trois)?|toutes(?: les trois)?|tout|l'ensemble))(?: svp| s'il vous plait| merci)?(?:(?: ?,)? (?:sauf|excepte|a part|hormis|mais pas(?: de| le| la| les)?) (.+))?$/,
    filler: new Set(['le', 'la', 'les', "l'", 'du', 'de', 'des', 'et', 'ou', 'svp']),
  },
};
