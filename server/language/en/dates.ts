import { chronoOf } from '../chrono.ts';

/** chrono's parsers for this language, loaded on the first date read in it. */
const chrono = () => chronoOf('en');
import type { DateWords } from '../date-words.ts';

// Countries that write dates month-first; everyone else reads 03/04 as 3 April.
const MONTH_FIRST = new Set(['US', 'PH', 'FM', 'MH', 'PW', 'GU', 'AS', 'MP', 'PR', 'VI', 'UM']);

/** What parseDate reads in English besides chrono (moved unchanged from parse/date.ts). */
export const EN_DATES: DateWords = {
  parser: (country) => (MONTH_FIRST.has(country.trim().toUpperCase()) ? chrono().casual : chrono().GB),
  strictMatches: false,
  loose: /(?<![\p{L}])(?:(?:about|around|roughly|approximately|approx\.?|ca\.?|circa|maybe|sometime|some time|or so)\s+(?:a|an|one|two|three|\d+|the|last|next|this)\b|(?:end|beginning|start|middle|mid|early|late)\s+(?:of\s+)?(?:the\s+|this\s+|next\s+)?(?:month|week|year)\b|\bor so\b)/iu,
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
};
