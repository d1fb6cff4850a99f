import * as chrono from 'chrono-node';
const ref = { instant: new Date('2026-01-15T10:00:00Z'), timezone: 0 };
for (const [p, t] of [[chrono.en, 'by end of february if possible'], [chrono.en, 'mid next month'], [chrono.en, 'summer break, so june/july'], [chrono.en, 'sometime in 2027'], [chrono.en, 'next fall before basketball season'], [chrono.en, 'in 6 months or so'], [chrono.en, 'after Easter'], [chrono.de, 'bis Ende Februar wäre super'], [chrono.de, 'Mitte nächsten Monats'], [chrono.de, 'bis zum 15.03.'], [chrono.de, 'zum Saisonstart im August'], [chrono.de, 'irgendwann 2027'], [chrono.en, 'next month'], [chrono.de, 'in 6 Monaten'], [chrono.en, 'end of march'], [chrono.en,'this month']] as const) {
  const r = (p as typeof chrono.en).parse(t, ref, { forwardDate: true });
  console.log(t, '=>', r.map((x) => `${x.text} [${x.start.date().toISOString().slice(0,10)} day:${x.start.isCertain('day')} month:${x.start.isCertain('month')} year:${x.start.isCertain('year')}]${x.end ? ' end ' + x.end.date().toISOString().slice(0,10) : ''}`).join(' | '));
}
