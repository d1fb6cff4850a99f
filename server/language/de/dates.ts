import { chronoOf } from '../chrono.ts';

/** chrono's parsers for this language, loaded on the first date read in it. */
const chrono = () => chronoOf('de');
import type { DateWords } from '../date-words.ts';

/** What parseDate reads in German besides chrono (its parser reads day first, as German writes dates). */
export const DE_DATES: DateWords = {
  parser: () => chrono().casual,
  strictMatches: true,
  loose: /(?<![\p{L}])(?:(?:ungefähr|ungefaehr|etwa|circa|ca\.|so um|irgendwann)\s+(?:\d+|ein|eine|einen|zwei|drei|nächste|naechste|letzte|diese|den|am|im|in)(?![\p{L}])|(?:ende|anfang|mitte)\s+(?:des\s+|der\s+|nächste[nr]?\s+|naechste[nr]?\s+|diese[nr]?\s+)?(?:monats?|woche|jahres?|nächsten|naechsten)(?![\p{L}])|(?:nächste|naechste|kommende|diese)\s+woche|(?:nächsten|naechsten|kommenden|diesen)\s+monat|in\s+(?:\d+|einer|zwei|drei|ein paar)\s+(?:wochen?|monaten?)|oder so(?![\p{L}])|(?:frühjahr|frühling|fruehjahr|sommer|herbst|winter)(?![\p{L}])|so (?:schnell|bald) wie möglich|baldmöglichst|asap)/iu,
  past: /(?<![\p{L}])(?:letzte[nrms]?|gestern|vorgestern|vergangene[nrms]?|her)(?![\p{L}])/iu,
  dayAlone: /^(?:am |den |zum |bis zum |ab dem )?(\d{1,2})\.(?: bitte)?[!]?$/i,
  week: null,
  whichDayIn: null,
};
