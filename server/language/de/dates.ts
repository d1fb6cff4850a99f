import { chronoOf } from '../chrono.ts';

/** chrono's parsers for this language, loaded on the first date read in it. */
const chrono = () => chronoOf('de');
import type { DateWords } from '../date-words.ts';
import { germanWordNumbers } from './word-numbers.ts';

const MONTHS = ['Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober', 'November', 'Dezember'];
const CENTURIES: Record<string, number> = { elf: 11, zwölf: 12, zwoelf: 12, dreizehn: 13, vierzehn: 14, fünfzehn: 15, fuenfzehn: 15, sechzehn: 16, siebzehn: 17, achtzehn: 18, neunzehn: 19 };
/** A year in words: "neunzehnhundertachtzig", "neunzehnhundert achtzig", "zweitausendzehn", "zweitausendundfünf". */
const SPOKEN_YEAR = new RegExp(`(?<![\\p{L}])(?:(${Object.keys(CENTURIES).join('|')})\\s?hundert((?:\\s?und)?\\s?\\p{L}*)|zweitausend((?:\\s?und)?\\s?\\p{L}*))(?![\\p{L}])`, 'giu');

/** What parseDate reads in German besides chrono (its parser reads day first, as German writes dates). */
export const DE_DATES: DateWords = {
  parser: () => chrono().casual,
  strictMatches: true,
  loose: /(?<![\p{L}])(?:(?:ungefähr|ungefaehr|etwa|circa|ca\.|so um|irgendwann)\s+(?:\d+|ein|eine|einen|zwei|drei|nächste|naechste|letzte|diese|den|am|im|in)(?![\p{L}])|(?:ende|anfang|mitte)\s+(?:des\s+|der\s+|nächste[nr]?\s+|naechste[nr]?\s+|diese[nr]?\s+)?(?:monats?|woche|jahres?|nächsten|naechsten)(?![\p{L}])|(?:nächste|naechste|kommende|diese)\s+woche|(?:nächsten|naechsten|kommenden|diesen)\s+monat|in\s+(?:\d+|einer|zwei|drei|ein paar)\s+(?:wochen?|monaten?)|oder so(?![\p{L}])|(?:frühjahr|frühling|fruehjahr|sommer|herbst|winter)(?![\p{L}])|so (?:schnell|bald) wie möglich|baldmöglichst|asap)/iu,
  past: /(?<![\p{L}])(?:letzte[nrms]?|gestern|vorgestern|vergangene[nrms]?|her)(?![\p{L}])/iu,
  dayAlone: /^(?:am |den |der |dem |zum |bis zum |ab dem |seit dem |vom )?(\d{1,2})\.(?: bitte)?[!]?$/i,
  week: null,
  whichDayIn: (month) => `Welcher Tag im ${month}? Bitte nennen Sie das genaue Datum.`,
  spokenYears: {
    find: SPOKEN_YEAR,
    digits: ([all, century, hundreds, thousands]) => {
      const base = century !== undefined ? CENTURIES[century.toLowerCase()]! * 100 : 2000;
      const tail = (century !== undefined ? hundreds : thousands) ?? '';
      const rest = tail.replace(/^\s*und\s*/iu, '').trim();
      if (rest === '') return String(base);
      const found = germanWordNumbers(rest);
      if (found.length === 1 && found[0]!.start === 0 && found[0]!.end === rest.length && found[0]!.value < 100) return String(base + found[0]!.value);
      // "neunzehnhundert geboren": the word after is no part of the year
      return /^\s/u.test(tail) ? `${base}${tail}` : all;
    },
  },
  holidays: {
    days: [
      [/(?<![\p{L}])heilig(?:er\s+)?abend(?![\p{L}])/iu, 12, 24],
      [/(?<![\p{L}])(?:zweite[nmr]?|2\.)\s*weihnachts(?:feier)?tag(?![\p{L}])/iu, 12, 26],
      [/(?<![\p{L}])(?:(?:erste[nmr]?|1\.)\s*)?weihnachts(?:feier)?tag(?![\p{L}])/iu, 12, 25],
      [/(?<![\p{L}])silvester(?![\p{L}])/iu, 12, 31],
      [/(?<![\p{L}])neujahr(?:stag)?(?![\p{L}])/iu, 1, 1],
      [/(?<![\p{L}])tag\s+der\s+deutschen\s+einheit(?![\p{L}])/iu, 10, 3],
      [/(?<![\p{L}])valentinstag(?![\p{L}])/iu, 2, 14],
      [/(?<![\p{L}])halloween(?![\p{L}])/iu, 10, 31],
      [/(?<![\p{L}])nikolaus(?:tag)?(?![\p{L}])/iu, 12, 6],
      [/(?<![\p{L}])allerheiligen(?![\p{L}])/iu, 11, 1],
    ],
    say: (month, day) => `${day}. ${MONTHS[month - 1]}`,
  },
  // "Weihnachten" is three days in German; Easter and the holidays move
  noFixedDay: /(?<![\p{L}])(?:weihnachten|ostern|oster(?:sonntag|montag)|karfreitag|pfingst(?:en|sonntag|montag)|himmelfahrt|fronleichnam|fasching|karneval|fastnacht|frühjahr|frühling|fruehjahr|fruehling|sommer|herbst|winter|(?:sommer|oster|herbst|winter|weihnachts|pfingst)?ferien|saison|semester)(?![\p{L}])/iu,
  hedge: /^(?:(?:so\s+um|um|so\s+gegen|gegen|etwa|ungefähr|ungefaehr|circa|ca\.|sagen\s+wir(?:\s+mal)?|vielleicht|eher|wohl|lieber)\s+)+/iu,
};
