import type { DurationWords } from '../duration-words.ts';

/** English counts of days and ages (server/extract/offline/duration-reply.ts). */
export const EN_DURATIONS: DurationWords = {
  since: ['since', 'started', 'starting', 'began', 'begun', 'start', 'it started', 'from'],
  startDays: ['yesterday', 'today', 'this morning', 'last night', 'this afternoon', 'this evening', 'earlier today',
    // a weekday said with "last" is the one before today; a start hours ago is today
    'last monday', 'last tuesday', 'last wednesday', 'last thursday', 'last friday', 'last saturday', 'last sunday',
    'hour ago', 'hours ago', 'an hour ago', 'a few hours ago', 'couple hours ago', 'couple of hours ago'],
  today: 'today',
  partOfDay: { parts: ['morning', 'afternoon', 'evening', 'night', 'hour'], yesterday: ['last night'], yesterdayWord: 'yesterday' },
  holidays: { 'christmas eve': '12-24', christmas: '12-25', xmas: '12-25', "new year's eve": '12-31', 'new years eve': '12-31', "new year's": '01-01', 'new years': '01-01', 'new year': '01-01', halloween: '10-31', "valentine's": '02-14', 'valentines': '02-14', 'independence day': '07-04', 'the 4th of july': '07-04' },
  dayUnits: ['day', 'days', 'd'],
  // not "half a day" (half of one, not one)
  one: /(?<![\p{L}\p{N}])(?<!half\s)(a|an|one)\s+(?=(?:day|week|fortnight|hour|month|year)s?(?![\p{L}]))/giu,
  asksAge: /(?:^|[^\p{L}])(?:age|ages|how old|aged)(?:$|[^\p{L}])/iu,
  person: /(?:^|[^\p{L}])(?:you|your|patient|patients|child|kid|son|daughter|baby|he|she|his|her|person|player|member|guest|attendee)(?:$|[^\p{L}])/iu,
  ageUnits: { month: 12, months: 12, mo: 12, mos: 12, mth: 12, mths: 12, week: 52, weeks: 52, wk: 52, wks: 52, day: 365, days: 365, year: 1, years: 1, yr: 1, yrs: 1, yo: 1, 'y/o': 1 },
  comingAge: [
    /(?<![\p{L}])(?:almost|nearly|not quite|soon to be|about to turn|about to be|going on)\s+(?<n>\d{1,3}|[a-z]+(?:[ -][a-z]+)?)(?![\p{L}\p{N}])/iu,
    /(?:(?<![\p{L}])(?:turning|turns|will turn|will be|gonna be|going to be)|['’]ll (?:turn|be))\s+(?<n>\d{1,3}|[a-z]+(?:[ -][a-z]+)?)(?![\p{L}\p{N}])(?!\s+today)(?:\s+(?:next|this coming|this|last|in|on|come)\s+(?:week|month|year|weekend|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*|(?:mon|tues|wednes|thurs|fri|satur|sun)day|a (?:week|month|few (?:days|weeks))|(?:two|three|four|a few|\d+) (?:days|weeks|months)))?/iu,
    /(?<![\p{L}\p{N}])(?<n>\d{1,3})\s+(?:next|this coming|in|on|come)\s+(?:week|month|year|weekend|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*|(?:mon|tues|wednes|thurs|fri|satur|sun)day|a (?:week|month|few)|(?:two|three|four|a few|\d+) (?:days|weeks|months)|the \d)(?![\p{L}])/iu,
  ],
  aboutAge: /(?<![\p{L}])(?:about|around|roughly|approximately|approx|circa|ca\.?|something like|somewhere around|more or less)\s+\d|\d\s*-?\s*ish(?![\p{L}])|\d\s+(?:or so|give or take)(?![\p{L}])/iu,
  nearAge: /(?<![\p{L}])(?:almost|nearly|not quite|going on)\s+\S/iu,
  reachedAge: [/(?<![\p{L}])(?:just turned|turned|has turned|recently turned)\s+(?<n>\d{1,3}|[a-z]+(?:[ -][a-z]+)?)(?![\p{L}\p{N}])(?:\s+(?:next|this coming|this|last|in|on|come)\s+(?:week|month|year|weekend|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*|(?:mon|tues|wednes|thurs|fri|satur|sun)day|a (?:week|month|few (?:days|weeks))|(?:two|three|four|a few|\d+) (?:days|weeks|months)))?/iu],
  months: /(?<![\p{L}\p{N}])(a|an|one|\d{1,2})\s+months?(?![\p{L}])/iu,
};
