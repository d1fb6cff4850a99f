import { EN_NAMES } from '../en/phrases.ts';
import { DE_NAME_REPLY } from './name-reply.ts';
import type { NameWords, OptionWords } from '../pack.ts';

// German phrases the rules read: self-corrections, name introductions, option negation and "all of them".
// "nein" is a marker only before a number (elsewhere it answers or negates); German capitalises nouns, so "ich bin" ("ich bin Kunde") is no introduction except when answering the name question.

/** Self-corrections inside one reply. */
export const DE_CORRECTIONS = /(?<![\p{L}\p{N}'’])(?:sorry|entschuldigung|pardon|äh|ich meine|ich meinte|moment|warte|korrektur|besser gesagt|spa(?:ß|ss) beiseite|scherz beiseite|nur spa(?:ß|ss)|kleiner scherz|war nur ein scherz|scherz|nein(?=[\s,]+(?:\d|null|ein|zwei|drei|vier|fünf|fuenf|sechs|sieben|acht|neun|zehn|elf|zwölf|zwoelf|zwanzig|dreißig|dreissig|vierzig|fünfzig|sechzig|siebzig|achtzig|neunzig|hundert|tausend)))(?![\p{L}\p{N}'’])/giu;

/** German name introductions; the words ending a name are English's still (as before the packs). */
export const DE_NAMES: NameWords = {
  intro: /(?<![\p{L}\p{N}])(mein name ist|ich heiße|ich heisse|nennen sie mich|hier spricht|hier ist?)\s+/giu,
  answerIntro: /(?<![\p{L}\p{N}])(mein name ist|ich heiße|ich heisse|nennen sie mich|hier spricht|hier ist?|ich bin|das ist?)\s+/giu,
  loose: new Set(['mein name ist', 'ich heiße', 'ich heisse', 'nennen sie mich']),
  stop: EN_NAMES.stop,
  notNames: EN_NAMES.notNames,
  whose: null,
  reply: DE_NAME_REPLY,
};

/** German option negation (before: built from the lexicon's negators) and "all of them", on folded text. */
export const DE_OPTIONS: OptionWords = {
  negationBefore: null,
  negationAfter: /^ (?:nicht|eher nicht|lieber nicht|bloss nicht|auf keinen fall|nein|keinesfalls)(?![\p{L}])/u,
  all: {
    gate: /\b(?:alle|samtl)/,
    reply: /^(?:(?:ich mochte |wir mochten |ich will |wir wollen |wir brauchen )?(?:alle(?: davon| drei| optionen)?|alles|samtliche))(?: bitte| danke)?(?:(?: ?,)? (?:ausser|bis auf|ohne|nur nicht|aber nicht|aber kein|aber keine|aber keinen) (.+))?$/,
    filler: new Set(['der', 'die', 'das', 'den', 'dem', 'und', 'oder', 'bitte']),
  },
};
