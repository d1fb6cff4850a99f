import { parseEnum } from '../server/extract/parse/enum.ts';
import { packOf } from '../server/language/registry.ts';
const opts = (pairs: string[][]) => ({ type: 'enum' as const, options: pairs.map(([value, label]) => ({ value: value!, label: label! })) });
const path = opts([['unwell', 'Feeling unwell or injured'], ['routine', 'Routine visit']]);
const reason = opts([['unwell', 'Feeling unwell'], ['injury', 'An injury'], ['checkup', 'Check-up or physical'], ['vaccination', 'Vaccination'], ['prescription_refill', 'Prescription refill'], ['other', 'Something else'], ['sports_physical', 'Sports physical']]);
const spath = opts([['buy_led', 'Buy LED lighting'], ['support', 'Support']]);
const intent = opts([['buy_led', 'Buy new LED lighting'], ['support', 'Help with existing lights'], ['other', 'Something else']]);
const time = opts([['asap', 'As soon as possible'], ['within_3_months', 'Within 3 months'], ['within_12_months', 'In 3 to 12 months'], ['researching', 'Just researching']]);
const timeDe = opts([['asap', 'So bald wie möglich'], ['within_3_months', 'Innerhalb von 3 Monaten'], ['within_12_months', 'In 3 bis 12 Monaten'], ['researching', 'Nur Recherche']]);
const intentDe = opts([['buy_led', 'Neue LED-Beleuchtung kaufen'], ['support', 'Hilfe mit bestehender Beleuchtung'], ['other', 'Etwas anderes']]);
const now = '2026-01-15T10:00:00Z';
const tries: Array<[any, string, string?]> = [
  [path, 'been sick all week'], [path, 'just his 4 year shots'], [path, 'cut my hand on a tin can'], [path, 'annual physical, nothing wrong'], [path, "both? I'm here for a checkup but my knee's been killing me"], [path, 'feelin rly rough tbh'], [path, 'i need to pick up a form'],
  [reason, 'bad cough for a week'], [reason, 'twisted my ankle playing soccer'], [reason, 'annual physical'], [reason, 'flu shot'], [reason, 'need my inhaler refilled'], [reason, 'checkup and his flu shot'], [reason, 'fell off my bike and my wrist is swollen'], [reason, 'running low on my blood pressure pills'], [reason, "he's been throwing up since last night"], [reason, 'her 12 month jabs'], [reason, 'my knee hurts'], [reason, 'Option 2'], [reason, 'the second one'], [reason, 'vaccines'],
  [spath, 'buying new ones'], [spath, 'the ones we got from you last year keep cutting out'], [spath, 'need a quote for 2 pickleball courts pls'], [spath, 'help'], [spath, "we're looking at replacing our old metal halides with LED"], [spath, 'i actually want to sell you some poles, who do i talk to'], [spath, 'support please, half the gym is dark'],
  [intent, 'new lights for our tennis courts'], [intent, 'our gym lights keep flickering since the storm'], [intent, 'Option 2'], [intent, 'everything works fine, we just want a price for adding two more courts'], [intent, 'both tbh - fix the old ones on court 1 and add new on court 2'], [intent, 'need an invoice copy for the lights we bought in march'], [intent, 'the warranty replacement you sent is the wrong colour temp'], [intent, 'hmm not sure yet'],
  [time, 'asap, season starts soon'], [time, 'just browsing for now'], [time, 'after Easter'], [time, 'next fall before basketball season'], [time, 'by end of february if possible'], [time, 'yesterday lol'], [time, 'sometime in 2027'], [time, 'summer break, so june/july'], [time, 'mid next month'], [time, 'depends on the budget vote in march, then quickly'], [time, 'no rush, just getting prices for the board'], [time, '3'], [time, 'in 6 months or so'], [time, 'in 3 months'], [time, 'next spring'], [time, 'within 2 weeks'],
  [timeDe, 'so schnell wie möglich, die Saison fängt bald an', 'de'], [timeDe, 'ich informier mich erstmal nur', 'de'], [timeDe, 'nach Ostern', 'de'], [timeDe, 'nächstes Frühjahr', 'de'], [timeDe, 'bis Ende Februar wäre super', 'de'], [timeDe, 'sofort!!', 'de'], [timeDe, 'zum Saisonstart im August', 'de'], [timeDe, 'Mitte nächsten Monats', 'de'], [timeDe, 'irgendwann 2027', 'de'], [timeDe, 'in den Sommerferien', 'de'], [timeDe, 'bis zum 15.03.', 'de'], [timeDe, 'weiß noch nicht, hängt von der Förderung ab', 'de'],
  [intentDe, 'Hilfe bitte, unsere Flutlichter gehen seit gestern nicht mehr an', 'de'], [intentDe, 'wir wollen unsere alte Halogenanlage auf LED umrüsten', 'de'], [intentDe, 'Neue Beleuchtung für unseren Tennisplatz', 'de'], [intentDe, 'die Hallenbeleuchtung flackert seit dem Gewitter', 'de'], [intentDe, 'alles funktioniert, wir brauchen nur ein Angebot für zwei weitere Plätze', 'de'], [intentDe, 'Nr. 2', 'de'], [intentDe, 'die zweite', 'de'],
];
for (const [spec, text, lang] of tries) {
  const r = parseEnum(spec, text, packOf(lang), now);
  console.log(JSON.stringify(text).padEnd(60), r.ok ? `${JSON.stringify(r.value)} ${r.exact ? 'COMMIT' : 'confirm'}${r.check ? ' check' : ''}  [${r.evidence}]` : `ASK ${r.reason}`);
}
