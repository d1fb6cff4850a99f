import { LANGS, type Lang } from '../../shared/lexicon/index.ts';
import { CATALOGUES, fillMessage } from '../../flow/messages/catalogue.ts';
import { localNumber } from '../../shared/local-number.ts';

// The clarifications the typed parsers write, per language. English is the
// text the rules were written with (goldens and the eval set pin it); the
// others say the same in the visitor's language, with numbers formatted the
// local way. A reason not listed here is still written in English.

type Params = Record<string, string | number>;
type Text = (p: Params) => string;

/** A re-ask the engine writes too: the shipped message catalogue's text in each language (server/flow/messages), not a copy. */
function fromCatalogue(key: 'reask_boolean' | 'reask_choose_one', vars: (p: Params) => Params = () => ({})): Record<Lang, Text> {
  return Object.fromEntries(LANGS.map((l) => [l, (p: Params) => fillMessage(CATALOGUES[l]![key], vars(p))])) as Record<Lang, Text>;
}

const MESSAGES = {
  typeAnswer: {
    en: () => 'Please type an answer.', de: () => 'Bitte geben Sie eine Antwort ein.',
    fr: () => 'Veuillez saisir une réponse.', es: () => 'Por favor, escriba una respuesta.',
  },
  notNumber: {
    en: () => "That doesn't look like a number.", de: () => 'Das sieht nicht nach einer Zahl aus.',
    fr: () => 'Cela ne ressemble pas à un nombre.', es: () => 'Eso no parece un número.',
  },
  notWhole: {
    en: () => "That doesn't look like a whole number.", de: () => 'Das sieht nicht nach einer ganzen Zahl aus.',
    fr: () => 'Cela ne ressemble pas à un nombre entier.', es: () => 'Eso no parece un número entero.',
  },
  wholeNumber: {
    en: () => 'Please give a whole number.', de: () => 'Bitte geben Sie eine ganze Zahl an.',
    fr: () => 'Veuillez donner un nombre entier.', es: () => 'Por favor, indique un número entero.',
  },
  tooLarge: {
    en: () => 'That number is too large.', de: () => 'Diese Zahl ist zu groß.',
    fr: () => 'Ce nombre est trop grand.', es: () => 'Ese número es demasiado grande.',
  },
  between: {
    en: (p) => `Please give a number between ${p.min} and ${p.max}${p.unit}.`, de: (p) => `Bitte geben Sie eine Zahl zwischen ${p.min} und ${p.max}${p.unit} an.`,
    fr: (p) => `Veuillez donner un nombre entre ${p.min} et ${p.max}${p.unit}.`, es: (p) => `Por favor, indique un número entre ${p.min} y ${p.max}${p.unit}.`,
  },
  atLeast: {
    en: (p) => `Please give a number of at least ${p.min}${p.unit}.`, de: (p) => `Bitte geben Sie eine Zahl von mindestens ${p.min}${p.unit} an.`,
    fr: (p) => `Veuillez donner un nombre d'au moins ${p.min}${p.unit}.`, es: (p) => `Por favor, indique un número de al menos ${p.min}${p.unit}.`,
  },
  atMost: {
    en: (p) => `Please give a number no more than ${p.max}${p.unit}.`, de: (p) => `Bitte geben Sie eine Zahl von höchstens ${p.max}${p.unit} an.`,
    fr: (p) => `Veuillez donner un nombre d'au plus ${p.max}${p.unit}.`, es: (p) => `Por favor, indique un número de como máximo ${p.max}${p.unit}.`,
  },
  negatedNumber: {
    en: (p) => `Not ${p.typed} — so what is the number?`, de: (p) => `Nicht ${p.typed} — welche Zahl ist es dann?`,
    fr: (p) => `Pas ${p.typed} — quel est le nombre, alors ?`, es: (p) => `No ${p.typed}: ¿cuál es el número, entonces?`,
  },
  total: {
    en: () => 'How many is that in total?', de: () => 'Wie viele sind das insgesamt?',
    fr: () => 'Cela fait combien au total ?', es: () => '¿Cuántos son en total?',
  },
  notPercent: {
    en: () => 'Is that a percentage? Please give the number itself.', de: () => 'Ist das ein Prozentsatz? Bitte nennen Sie die Zahl selbst.',
    fr: () => "Est-ce un pourcentage ? Veuillez donner le nombre lui-même.", es: () => '¿Es un porcentaje? Indique el número en sí, por favor.',
  },
  exactly: {
    en: () => 'About how many exactly?', de: () => 'Wie viele ungefähr genau?',
    fr: () => 'Combien environ, exactement ?', es: () => '¿Cuántos, más o menos exactamente?',
  },
  moreThanOneNumber: {
    en: () => 'I found more than one number there — please give just one.', de: () => 'Ich habe mehr als eine Zahl gefunden — bitte nennen Sie nur eine.',
    fr: () => "J'ai trouvé plus d'un nombre — veuillez n'en donner qu'un.", es: () => 'He encontrado más de un número: indique solo uno, por favor.',
  },
  dotOrComma: {
    en: (p) => `Did you mean ${p.a} or ${p.b}? Please write it without the dot.`, de: (p) => `Meinten Sie ${p.a} oder ${p.b}? Bitte schreiben Sie die Zahl ohne Punkt.`,
    fr: (p) => `Vouliez-vous dire ${p.a} ou ${p.b} ? Veuillez l'écrire sans le point.`, es: (p) => `¿Quería decir ${p.a} o ${p.b}? Escríbalo sin el punto, por favor.`,
  },
  commaOrThousands: {
    en: (p) => `Did you mean ${p.a} or ${p.b}? Please write it without the comma.`, de: (p) => `Meinten Sie ${p.a} oder ${p.b}? Bitte schreiben Sie die Zahl ohne Komma.`,
    fr: (p) => `Vouliez-vous dire ${p.a} ou ${p.b} ? Veuillez l'écrire sans la virgule.`, es: (p) => `¿Quería decir ${p.a} o ${p.b}? Escríbalo sin la coma, por favor.`,
  },
  yesOrNo: fromCatalogue('reask_boolean'),
  chooseFrom: fromCatalogue('reask_choose_one', (p) => ({ options: p.list! })),
  whichThen: {
    en: (p) => `Which one, then? ${p.choose}`, de: (p) => `Welche dann? ${p.choose}`,
    fr: (p) => `Lequel, alors ? ${p.choose}`, es: (p) => `¿Cuál, entonces? ${p.choose}`,
  },
  pickOne: {
    en: (p) => `Please pick just one: ${p.list}.`, de: (p) => `Bitte wählen Sie nur eine: ${p.list}.`,
    fr: (p) => `Veuillez n'en choisir qu'un : ${p.list}.`, es: (p) => `Por favor, elija solo una: ${p.list}.`,
  },
  or: { en: () => ' or ', de: () => ' oder ', fr: () => ' ou ', es: () => ' o ' },
  pickJustOne: {
    en: (p) => `Please pick just one — is it ${p.label}?`, de: (p) => `Bitte wählen Sie nur eine — ist es ${p.label}?`,
    fr: (p) => `Veuillez n'en choisir qu'un — est-ce ${p.label} ?`, es: (p) => `Por favor, elija solo una: ¿es ${p.label}?`,
  },
  pickNumber: {
    en: (p) => `Please pick a number from 1 to ${p.n}.`, de: (p) => `Bitte wählen Sie eine Zahl von 1 bis ${p.n}.`,
    fr: (p) => `Veuillez choisir un nombre de 1 à ${p.n}.`, es: (p) => `Por favor, elija un número del 1 al ${p.n}.`,
  },
  notDate: {
    en: () => "That doesn't look like a date.", de: () => 'Das sieht nicht nach einem Datum aus.',
    fr: () => 'Cela ne ressemble pas à une date.', es: () => 'Eso no parece una fecha.',
  },
  singleDate: {
    en: () => 'Please give a single date.', de: () => 'Bitte nennen Sie ein einzelnes Datum.',
    fr: () => 'Veuillez donner une seule date.', es: () => 'Por favor, indique una sola fecha.',
  },
  noSuchDate: {
    en: () => "There's no such date — please check the day and month.", de: () => 'Dieses Datum gibt es nicht — bitte prüfen Sie Tag und Monat.',
    fr: () => "Cette date n'existe pas — veuillez vérifier le jour et le mois.", es: () => 'Esa fecha no existe: revise el día y el mes, por favor.',
  },
  moreThanOneDate: {
    en: () => 'I found more than one date there — please give just one.', de: () => 'Ich habe mehr als ein Datum gefunden — bitte nennen Sie nur eines.',
    fr: () => "J'ai trouvé plus d'une date — veuillez n'en donner qu'une.", es: () => 'He encontrado más de una fecha: indique solo una, por favor.',
  },
  datePassed: {
    en: () => "That date has passed — please give today's date or a later one.", de: () => 'Dieses Datum liegt in der Vergangenheit — bitte nennen Sie heute oder ein späteres Datum.',
    fr: () => "Cette date est passée — veuillez donner la date d'aujourd'hui ou une date ultérieure.", es: () => 'Esa fecha ya ha pasado: indique la de hoy o una posterior, por favor.',
  },
  dateFuture: {
    en: () => "That date is in the future — please give today's date or an earlier one.", de: () => 'Dieses Datum liegt in der Zukunft — bitte nennen Sie heute oder ein früheres Datum.',
    fr: () => "Cette date est dans le futur — veuillez donner la date d'aujourd'hui ou une date antérieure.", es: () => 'Esa fecha es futura: indique la de hoy o una anterior, por favor.',
  },
  whichDay: {
    en: () => 'Which day? Please give the exact date.', de: () => 'Welcher Tag? Bitte nennen Sie das genaue Datum.',
    fr: () => 'Quel jour ? Veuillez donner la date exacte.', es: () => '¿Qué día? Indique la fecha exacta, por favor.',
  },
  looseDay: {
    en: (p) => `Which day exactly? "${p.typed}" could be a few — please give the date.`, de: (p) => `Welcher Tag genau? „${p.typed}“ kann mehrere Tage meinen — bitte nennen Sie das Datum.`,
    fr: (p) => `Quel jour exactement ? « ${p.typed} » peut désigner plusieurs jours — veuillez donner la date.`, es: (p) => `¿Qué día exactamente? «${p.typed}» puede ser más de un día: indique la fecha, por favor.`,
  },
  onOrAfter: {
    en: (p) => `Please give a date on or after ${p.date}.`, de: (p) => `Bitte nennen Sie ein Datum ab dem ${p.date}.`,
    fr: (p) => `Veuillez donner une date à partir du ${p.date}.`, es: (p) => `Indique una fecha a partir del ${p.date}, por favor.`,
  },
  onOrBefore: {
    en: (p) => `Please give a date on or before ${p.date}.`, de: (p) => `Bitte nennen Sie ein Datum bis spätestens ${p.date}.`,
    fr: (p) => `Veuillez donner une date jusqu'au ${p.date}.`, es: (p) => `Indique una fecha hasta el ${p.date}, por favor.`,
  },
} satisfies Record<string, Record<Lang, Text>>;

/** A message the parsers can say. */
export type MessageKey = keyof typeof MESSAGES;

/** The message in the language, its parameters filled in (numbers already formatted by the caller). */
export function say(lang: Lang, key: MessageKey, params: Params = {}): string {
  // a list cut short ends in "…": no full stop after it ("…, Etwas anderes, …." read as a typo)
  return (MESSAGES[key][lang] as Text)(params).replace(/…\./g, '…');
}

/** A number written the language's way ("1.234,5" in German); English keeps the plain form the rules always wrote. */
export function formatNumber(lang: Lang, value: number): string {
  return lang === 'en' ? String(value) : localNumber(lang, value, 6);
}
