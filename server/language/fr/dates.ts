import { chronoOf } from '../chrono.ts';

/** chrono's parsers for this language, loaded on the first date read in it. */
const chrono = () => chronoOf('fr');
import type { DateWords } from '../date-words.ts';

/** What parseDate reads in French besides chrono (its parser reads day first, as French writes dates). */
export const FR_DATES: DateWords = {
  parser: () => chrono().casual,
  strictMatches: true,
  loose: /(?<![\p{L}])(?:(?:vers|environ|à peu près|a peu pres)\s+(?:le|la|les|\d+|une|un|deux|trois)(?![\p{L}])|(?:fin|début|debut|milieu|mi)[\s-]+(?:du\s+|de\s+la\s+|de\s+l'|d')?(?:mois|semaine|année|annee)(?![\p{L}])|(?:la\s+)?semaine\s+prochaine|(?:le\s+)?mois\s+prochain|dans\s+(?:\d+|une|deux|trois|quelques)\s+(?:semaines?|mois)|ou à peu près|ou a peu pres|(?:printemps|été|automne|hiver)(?![\p{L}])|dès que possible|au plus vite|asap)/iu,
  past: /(?<![\p{L}])(?:dernier|dernière|derniere|hier|avant-hier|il y a|passé|passée|passe)(?![\p{L}])/iu,
  dayAlone: /^(?:le |pour le |au |d'ici le )(\d{1,2})(?:er)?(?: s'il vous plaît| svp)?[.!]?$/i,
  week: null,
  whichDayIn: null,
  spokenYears: null,
  holidays: null,
  noFixedDay: null,
  hedge: null,
};
