import * as chrono from 'chrono-node';
import type { Lang } from '../../shared/lexicon/index.ts';

/** What parseDate reads in one language besides chrono: spans and hedges on the day, past words, a day alone. */
export interface DateWords {
  /** chrono's parser for the language; English picks its parser by country (US: month first). */
  parser: chrono.Chrono | null;
  /** "end of the month", "about a week ago", "nächste Woche": a span or a hedge on the day, asked about. */
  loose: RegExp;
  /** "last monday", "letzten Montag", "hier": the past, which a future-only question refuses. */
  past: RegExp;
  /** A reply that is only a day of the month ("the 3rd", "am 3.", "le 3", "el 3"); group 1 is the day. */
  dayAlone: RegExp;
}

// chrono's German, French and Spanish parsers read day first ("03/04" is 3 April), as those countries write dates.
const WORDS: Readonly<Record<Exclude<Lang, 'en'>, DateWords>> = {
  de: {
    parser: chrono.de.casual,
    loose: /(?<![\p{L}])(?:(?:ungefähr|ungefaehr|etwa|circa|ca\.|so um|irgendwann)\s+(?:\d+|ein|eine|einen|zwei|drei|nächste|naechste|letzte|diese|den|am|im|in)(?![\p{L}])|(?:ende|anfang|mitte)\s+(?:des\s+|der\s+|nächste[nr]?\s+|naechste[nr]?\s+|diese[nr]?\s+)?(?:monats?|woche|jahres?|nächsten|naechsten)(?![\p{L}])|(?:nächste|naechste|kommende|diese)\s+woche|(?:nächsten|naechsten|kommenden|diesen)\s+monat|in\s+(?:\d+|einer|zwei|drei|ein paar)\s+(?:wochen?|monaten?)|oder so(?![\p{L}])|(?:frühjahr|frühling|fruehjahr|sommer|herbst|winter)(?![\p{L}])|so (?:schnell|bald) wie möglich|baldmöglichst|asap)/iu,
    past: /(?<![\p{L}])(?:letzte[nrms]?|gestern|vorgestern|vergangene[nrms]?|her)(?![\p{L}])/iu,
    dayAlone: /^(?:am |den |zum |bis zum |ab dem )?(\d{1,2})\.(?: bitte)?[!]?$/i,
  },
  fr: {
    parser: chrono.fr.casual,
    loose: /(?<![\p{L}])(?:(?:vers|environ|à peu près|a peu pres)\s+(?:le|la|les|\d+|une|un|deux|trois)(?![\p{L}])|(?:fin|début|debut|milieu|mi)[\s-]+(?:du\s+|de\s+la\s+|de\s+l'|d')?(?:mois|semaine|année|annee)(?![\p{L}])|(?:la\s+)?semaine\s+prochaine|(?:le\s+)?mois\s+prochain|dans\s+(?:\d+|une|deux|trois|quelques)\s+(?:semaines?|mois)|ou à peu près|ou a peu pres|(?:printemps|été|automne|hiver)(?![\p{L}])|dès que possible|au plus vite|asap)/iu,
    past: /(?<![\p{L}])(?:dernier|dernière|derniere|hier|avant-hier|il y a|passé|passée|passe)(?![\p{L}])/iu,
    dayAlone: /^(?:le |pour le |au |d'ici le )(\d{1,2})(?:er)?(?: s'il vous plaît| svp)?[.!]?$/i,
  },
  es: {
    parser: chrono.es.casual,
    loose: /(?<![\p{L}])(?:(?:sobre|alrededor de|más o menos|mas o menos|aproximadamente|hacia)\s+(?:el|la|los|\d+|una|un|dos|tres)(?![\p{L}])|(?:finales|principios|mediados|fin|final|principio)\s+de(?:l)?\s+(?:este\s+|próximo\s+|proximo\s+)?(?:mes|semana|año|ano)(?![\p{L}])|la\s+semana\s+que\s+viene|(?:la\s+)?próxima\s+semana|(?:la\s+)?proxima\s+semana|el\s+mes\s+que\s+viene|(?:el\s+)?próximo\s+mes|(?:el\s+)?proximo\s+mes|dentro\s+de\s+(?:\d+|una|dos|tres|unas)\s+(?:semanas?|mes(?:es)?)|o así|o asi|(?:primavera|verano|otoño|invierno)(?![\p{L}])|lo antes posible|cuanto antes|asap)/iu,
    past: /(?<![\p{L}])(?:pasado|pasada|ayer|anteayer|hace)(?![\p{L}])/iu,
    dayAlone: /^(?:el |para el |el día |el dia |día |dia )(\d{1,2})(?: por favor)?[.!]?$/i,
  },
};

/** The date words of a language other than English. */
export function dateWords(lang: Exclude<Lang, 'en'>): DateWords {
  return WORDS[lang];
}
