import { chronoOf } from '../chrono.ts';

/** chrono's parsers for this language, loaded on the first date read in it. */
const chrono = () => chronoOf('en');
import type { DateWords } from '../date-words.ts';
import { findWordNumbers } from './word-numbers.ts';

// Countries that write dates month-first; everyone else reads 03/04 as 3 April.
const MONTH_FIRST = new Set(['US', 'PH', 'FM', 'MH', 'PW', 'GU', 'AS', 'MP', 'PR', 'VI', 'UM']);

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const CENTURIES: Record<string, number> = { eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19, twenty: 20 };
const UNIT = 'one|two|three|four|five|six|seven|eight|nine';
const TEEN = 'ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen';
const TENS = 'twenty|thirty|forty|fourty|fifty|sixty|seventy|eighty|ninety';
/** The last two digits of a year in words: "seventy", "eighty-two", "oh five", "twelve" (not a unit alone: "twenty one" is a day). */
const TWO = `(?:(?:oh|o|zero)[\\s-]+(?:${UNIT})|(?:${TENS})(?:[\\s-]+(?:${UNIT}))?|${TEEN})`;
/**
 * A year in words: "nineteen seventy", "nineteen eighty-two", "nineteen oh five", "nineteen hundred (and) five",
 * "twenty twelve", "two thousand (and) ten", "two thousand three".
 */
const SPOKEN_YEAR = new RegExp(
  `(?<![\\p{L}-])(?:(${Object.keys(CENTURIES).join('|')})[\\s-]+(?:hundred(?:[\\s-]+(?:and[\\s-]+)?(${TWO}|${UNIT}))?|(${TWO}))|two[\\s-]+thousand(?:[\\s-]+(?:and[\\s-]+)?(${TWO}|${UNIT}))?)(?![\\p{L}])`,
  'giu',
);

/** The value of a year's last two digits in words; NaN when unreadable. */
function spokenTwo(text: string): number {
  const t = text.toLowerCase().replace(/^(?:oh|o|zero)[\s-]+/u, '');
  const found = findWordNumbers(t);
  return found.length === 1 && found[0]!.value < 100 ? found[0]!.value : Number.NaN;
}

/** What parseDate reads in English besides chrono (moved unchanged from parse/date.ts). */
export const EN_DATES: DateWords = {
  parser: (country) => (MONTH_FIRST.has(country.trim().toUpperCase()) ? chrono().casual : chrono().GB),
  strictMatches: false,
  loose: /(?<![\p{L}])(?:(?:about|around|roughly|approximately|approx\.?|ca\.?|circa|maybe|sometime|some time|or so)\s+(?:a|an|one|two|three|\d+|the|last|next|this)\b|in\s+a\s+(?:couple|few)\s+(?:of\s+)?(?:days|weeks|months)\b|in\s+(?:a\s+)?(?:few|several|couple)\s+(?:days|weeks|months)\b|(?:end|beginning|start|middle|mid|early|late)\s+(?:of\s+)?(?:the\s+|this\s+|next\s+)?(?:month|week|year)\b|\bor so\b)/iu,
  past: /(?<![\p{L}])(?:last|yesterday|ago|previous|past)(?![\p{L}])/iu,
  // A reply that is only a day of the month: "the 3rd", "on the 20th", "21st please". A suffix or "the" is required, so a bare number is never a date.
  dayAlone: /^(?:(?:on|by|for) )?(?:the )?(\d{1,2})(?:st|nd|rd|th)(?: (?:please|pls|if possible))?[.!]?$/i,
  week: {
    span: /(?<![\p{L}])(?:next|last|this|previous|past|coming|following|the)\s+week(?:end)?(?![\p{L}])/iu,
    next: /^(?:next|coming|following)\b/i,
    weekday: /(?<![\p{L}])(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|sday|rsday|urday)?(?![\p{L}])/iu,
    ask: (typed) => `Which day ${typed.trim().toLowerCase()}? Please give the exact date.`,
  },
  whichDayIn: (month) => `Which day in ${month}? Please give the exact date.`,
  spokenYears: {
    find: SPOKEN_YEAR,
    digits: ([all, century, hundreds, tail, thousands]) => {
      const rest = (t: string | undefined) => (t === undefined ? 0 : spokenTwo(t));
      const year = century !== undefined ? CENTURIES[century.toLowerCase()]! * 100 + rest(hundreds ?? tail) : 2000 + rest(thousands);
      return Number.isNaN(year) ? all : String(year);
    },
  },
  holidays: {
    days: [
      [/(?<![\p{L}])(?:christmas|xmas)\s+eve(?![\p{L}])/iu, 12, 24],
      [/(?<![\p{L}])(?:christmas|xmas)(?:\s+day)?(?![\p{L}])/iu, 12, 25],
      [/(?<![\p{L}])boxing\s+day(?![\p{L}])/iu, 12, 26],
      [/(?<![\p{L}])new\s+year['’]?s\s+eve(?![\p{L}])/iu, 12, 31],
      [/(?<![\p{L}])new\s+year['’]?s(?:\s+day)?(?![\p{L}])/iu, 1, 1],
      [/(?<![\p{L}])(?:halloween|hallowe['’]en)(?![\p{L}])/iu, 10, 31],
      [/(?<![\p{L}])(?:st\.?\s+|saint\s+)?valentine['’]?s(?:\s+day)?(?![\p{L}])/iu, 2, 14],
      [/(?<![\p{L}])(?:st\.?\s+|saint\s+)patrick['’]?s(?:\s+day)?(?![\p{L}])/iu, 3, 17],
      [/(?<![\p{L}])independence\s+day(?![\p{L}])/iu, 7, 4],
      [/(?<![\p{L}])veterans['’]?\s+day(?![\p{L}])/iu, 11, 11],
    ],
    say: (month, day) => `${MONTHS[month - 1]} ${day}`,
  },
  noFixedDay: /(?<![\p{L}])(?:easter|good\s+friday|thanksgiving|memorial\s+day|labou?r\s+day|mother['’]?s\s+day|father['’]?s\s+day|passover|ramadan|eid|diwali|hanukkah|spring|summer|autumn|fall|winter|(?:school\s+|summer\s+|easter\s+|christmas\s+)?(?:holidays|break|vacation)|half[\s-]term|semester|season)(?![\p{L}])/iu,
  // "august the ninth", "march the 3rd": chrono reads "ninth of august", not a month, "the" and a day
  forChrono: [
    {
      find: /(?<![\p{L}])(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\s+the\s+(\d{1,2}(?:st|nd|rd|th)|(?:twenty|thirty)[\s-]?(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|thirtieth)(?![\p{L}])/giu,
      by: (m) => `${m[2]} of ${m[1]}`,
    },
  ],
  order: {
    dayFirst: /(?<![\p{L}])(?:(?:that['’]?s\s+|in\s+|it['’]?s\s+)?dd[\/.-]mm(?:[\/.-]yy(?:yy)?)?(?:\s+(?:format|order))?|(?:the\s+)?day\s+(?:first|before\s+(?:the\s+)?month)|(?:in\s+)?(?:uk|british|european|euro)\s+(?:format|style|order|way)|i['’]?m\s+(?:from|in)\s+the\s+uk)(?![\p{L}])/giu,
    monthFirst: /(?<![\p{L}])(?:(?:that['’]?s\s+|in\s+|it['’]?s\s+)?mm[\/.-]dd(?:[\/.-]yy(?:yy)?)?(?:\s+(?:format|order))?|(?:the\s+)?month\s+(?:first|before\s+(?:the\s+)?day)|(?:in\s+)?(?:us|american)\s+(?:format|style|order|way))(?![\p{L}])/giu,
  },
  hedge: /^(?:(?:let['’]?s\s+say|lets\s+say|say|make\s+it|how\s+about|maybe|probably|around|about|roughly|approximately|approx\.?|circa|ca\.?|like|ish)\s+)+/iu,
};
