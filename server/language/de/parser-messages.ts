import { fillMessage } from '../fill-message.ts';
import type { ParserMessages } from '../parser-messages.ts';
import { DE as MESSAGES } from './messages.ts';

/** The clarifications the typed parsers write, in German. */
export const DE_PARSER: ParserMessages = {
  typeAnswer: () => 'Bitte geben Sie eine Antwort ein.',
  notNumber: () => 'Das sieht nicht nach einer Zahl aus.',
  notWhole: () => 'Das sieht nicht nach einer ganzen Zahl aus.',
  wholeNumber: () => 'Bitte geben Sie eine ganze Zahl an.',
  tooLarge: () => 'Diese Zahl ist zu groß.',
  between: (p) => `Bitte geben Sie eine Zahl zwischen ${p.min} und ${p.max}${p.unit} an.`,
  atLeast: (p) => `Bitte geben Sie eine Zahl von mindestens ${p.min}${p.unit} an.`,
  atMost: (p) => `Bitte geben Sie eine Zahl von höchstens ${p.max}${p.unit} an.`,
  negatedNumber: (p) => `Nicht ${p.typed} — welche Zahl ist es dann?`,
  total: () => 'Wie viele sind das insgesamt?',
  notPercent: () => 'Ist das ein Prozentsatz? Bitte nennen Sie die Zahl selbst.',
  exactly: () => 'Wie viele ungefähr genau?',
  moreThanOneNumber: () => 'Ich habe mehr als eine Zahl gefunden — bitte nennen Sie nur eine.',
  dotOrComma: (p) => `Meinten Sie ${p.a} oder ${p.b}? Bitte schreiben Sie die Zahl ohne Punkt.`,
  commaOrThousands: (p) => `Meinten Sie ${p.a} oder ${p.b}? Bitte schreiben Sie die Zahl ohne Komma.`,
  yesOrNo: () => fillMessage(MESSAGES.reask_boolean),
  chooseFrom: (p) => fillMessage(MESSAGES.reask_choose_one, { options: p.list! }),
  whichThen: (p) => `Welche dann? ${p.choose}`,
  pickOne: (p) => `Bitte wählen Sie nur eine: ${p.list}.`,
  or: () => ' oder ',
  pickJustOne: (p) => `Bitte wählen Sie nur eine — ist es ${p.label}?`,
  pickNumber: (p) => `Bitte wählen Sie eine Zahl von 1 bis ${p.n}.`,
  notDate: () => 'Das sieht nicht nach einem Datum aus.',
  singleDate: () => 'Bitte nennen Sie ein einzelnes Datum.',
  noSuchDate: () => 'Dieses Datum gibt es nicht — bitte prüfen Sie Tag und Monat.',
  moreThanOneDate: () => 'Ich habe mehr als ein Datum gefunden — bitte nennen Sie nur eines.',
  datePassed: () => 'Dieses Datum liegt in der Vergangenheit — bitte nennen Sie heute oder ein späteres Datum.',
  dateFuture: () => 'Dieses Datum liegt in der Zukunft — bitte nennen Sie heute oder ein früheres Datum.',
  whichDay: () => 'Welcher Tag? Bitte nennen Sie das genaue Datum.',
  looseDay: (p) => `Welcher Tag genau? „${p.typed}“ kann mehrere Tage meinen — bitte nennen Sie das Datum.`,
  onOrAfter: (p) => `Bitte nennen Sie ein Datum ab dem ${p.date}.`,
  onOrBefore: (p) => `Bitte nennen Sie ein Datum bis spätestens ${p.date}.`,
  noSuchDay: () => "There's no such date — please check the day.", // English until translated (moved unchanged from parse/date.ts)
  whichMonth: () => 'Which month? Please give the full date.', // English until translated (moved unchanged from parse/date.ts)
  pointsElsewhere: () => 'Frühere Nachrichten oder E-Mails sehe ich hier nicht — könnten Sie es bitte hier eingeben?',
  nameIt: (p) => `Könnten Sie mir den Namen selbst nennen? „${p.typed}“ kann vieles sein.`,
  codeLike: (p) => `Das sieht nicht aus wie ${p.example} — könnten Sie es prüfen und noch einmal eingeben?`,
  codeItself: () => 'Könnten Sie bitte die Nummer selbst eingeben, so wie sie dasteht?',
  whichCode: () => 'Da stehen mehrere Nummern — welche ist es?',
  whichOnes: () => 'Welche genau? Bitte zählen Sie sie auf.',
  moreDetail: () => 'Schon eine grobe Antwort hilft — können Sie hier in eigenen Worten sagen, was Sie wissen?',
  askedBack: () => 'Entschuldigung, wenn das unklar war — hier noch einmal die Frage.',
};
