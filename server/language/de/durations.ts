import type { DurationWords } from '../duration-words.ts';

/** German counts of days and ages (server/extract/offline/duration-reply.ts); words folded ("früh" as "fruh"). */
export const DE_DURATIONS: DurationWords = {
  since: ['seit', 'seitdem', 'angefangen', 'begonnen', 'fing', 'ab'],
  startDays: ['gestern', 'heute', 'heute morgen', 'heute fruh', 'heute früh', 'vorgestern', 'gestern abend', 'letzte nacht',
    // ein Wochentag mit „letzten“ ist der vor heute; ein Beginn vor Stunden ist heute
    'letzten montag', 'letzten dienstag', 'letzten mittwoch', 'letzten donnerstag', 'letzten freitag', 'letzten samstag', 'letzten sonntag', 'letzten sonnabend',
    'vor einer stunde', 'vor ein paar stunden', 'vor zwei stunden', 'vor drei stunden', 'vor stunden', 'vor einigen stunden'],
  today: 'heute',
  partOfDay: { parts: ['früh', 'fruh', 'morgen', 'abend', 'nacht', 'stunde'], yesterday: ['gestern', 'letzte nacht'], yesterdayWord: 'gestern' },
  holidays: { heiligabend: '12-24', weihnachten: '12-25', silvester: '12-31', neujahr: '01-01', 'neues jahr': '01-01', 'tag der deutschen einheit': '10-03', 'valentinstag': '02-14' },
  dayUnits: ['tag', 'tage', 'tagen', 'd', 'day', 'days'],
  one: /(?<![\p{L}\p{N}])(ein|eine|einen|einem|einer)\s+(?=(?:tag|tage|woche|wochen|stunde|stunden|monat|monate|jahr|jahre)(?![\p{L}]))/giu,
  asksAge: /(?:^|[^\p{L}])(?:alter|wie alt|age)(?:$|[^\p{L}])/iu,
  person: /(?:^|[^\p{L}])(?:sie|ihr|ihre|du|dein|deine|patient|patientin|patienten|kind|kindes|sohn|tochter|baby|er|person|spieler|spielerin|mitglied|gast)(?:$|[^\p{L}])/iu,
  ageUnits: { monat: 12, monate: 12, monaten: 12, woche: 52, wochen: 52, tag: 365, tage: 365, tagen: 365, jahr: 1, jahre: 1, jahren: 1, j: 1 },
  comingAge: [
    /(?<![\p{L}])(?:fast|beinahe|knapp|bald|demnächst|demnaechst)\s+(?<n>\d{1,3}|[\p{L}]+)(?![\p{L}\p{N}])/iu,
    /(?<![\p{L}])wird\s+(?:[\p{L}.]+\s+){0,3}?(?<n>\d{1,3}|[\p{L}]+)(?![\p{L}\p{N}])/iu,
    /(?<![\p{L}])(?:im|am|nächste[nr]?|naechste[nr]?|in)\s+(?:januar|februar|märz|maerz|april|mai|juni|juli|august|september|oktober|november|dezember|woche|monat|jahr|wochenende|[\p{L}]+tag)\s+(?:wird\s+(?:sie|er)\s+)?(?<n>\d{1,3})(?![\p{L}\p{N}])/iu,
    /(?<![\p{L}\p{N}])(?<n>\d{1,3})\s+(?:im|am|nächste[nr]?|naechste[nr]?|in)\s+(?:januar|februar|märz|maerz|april|mai|juni|juli|august|september|oktober|november|dezember|woche|monat|jahr|wochenende|[\p{L}]+tag)(?![\p{L}])/iu,
  ],
  aboutAge: /(?<![\p{L}])(?:etwa|ungefähr|ungefaehr|circa|ca\.?|rund|so um die|um die|so)\s+\d/iu,
  nearAge: /(?<![\p{L}])(?:fast|beinahe|knapp)\s+\S/iu,
  reachedAge: [/(?<![\p{L}])(?<n>\d{1,3}|[\p{L}]+)\s+geworden(?![\p{L}])/iu],
  months: /(?<![\p{L}\p{N}])(ein|einen|einem|\d{1,2})\s+monat(?:e|en)?(?![\p{L}])/iu,
};
