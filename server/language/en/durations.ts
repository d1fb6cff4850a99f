import type { DurationWords } from '../duration-words.ts';

/** English counts of days and ages (server/extract/offline/duration-reply.ts). */
export const EN_DURATIONS: DurationWords = {
  since: ['since', 'started', 'starting', 'began', 'begun', 'start', 'it started', 'from'],
  startDays: ['yesterday', 'today', 'this morning', 'last night', 'this afternoon', 'this evening', 'earlier today'],
  dayUnits: ['day', 'days', 'd'],
  one: /(?<![\p{L}\p{N}])(a|an|one)\s+(?=(?:day|week|fortnight|hour|month|year)s?(?![\p{L}]))/giu,
  asksAge: /(?:^|[^\p{L}])(?:age|ages|how old|aged)(?:$|[^\p{L}])/iu,
  person: /(?:^|[^\p{L}])(?:you|your|patient|patients|child|kid|son|daughter|baby|he|she|his|her|person|player|member|guest|attendee)(?:$|[^\p{L}])/iu,
  ageUnits: { month: 12, months: 12, mo: 12, mos: 12, mth: 12, mths: 12, week: 52, weeks: 52, wk: 52, wks: 52, day: 365, days: 365, year: 1, years: 1, yr: 1, yrs: 1, yo: 1, 'y/o': 1 },
};
