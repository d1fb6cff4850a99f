import { fillMessage } from '../fill-message.ts';
import type { ParserMessages } from '../parser-messages.ts';
import { ES as MESSAGES } from './messages.ts';

/** The clarifications the typed parsers write, in Spanish. */
export const ES_PARSER: ParserMessages = {
  typeAnswer: () => 'Por favor, escriba una respuesta.',
  notNumber: () => 'Eso no parece un número.',
  notWhole: () => 'Eso no parece un número entero.',
  wholeNumber: () => 'Por favor, indique un número entero.',
  tooLarge: () => 'Ese número es demasiado grande.',
  between: (p) => `Por favor, indique un número entre ${p.min} y ${p.max}${p.unit}.`,
  atLeast: (p) => `Por favor, indique un número de al menos ${p.min}${p.unit}.`,
  atMost: (p) => `Por favor, indique un número de como máximo ${p.max}${p.unit}.`,
  negatedNumber: (p) => `No ${p.typed}: ¿cuál es el número, entonces?`,
  total: () => '¿Cuántos son en total?',
  notPercent: () => '¿Es un porcentaje? Indique el número en sí, por favor.',
  exactly: () => '¿Cuántos, más o menos exactamente?',
  moreThanOneNumber: () => 'He encontrado más de un número: indique solo uno, por favor.',
  dotOrComma: (p) => `¿Quería decir ${p.a} o ${p.b}? Escríbalo sin el punto, por favor.`,
  commaOrThousands: (p) => `¿Quería decir ${p.a} o ${p.b}? Escríbalo sin la coma, por favor.`,
  yesOrNo: () => fillMessage(MESSAGES.reask_boolean),
  chooseFrom: (p) => fillMessage(MESSAGES.reask_choose_one, { options: p.list! }),
  whichThen: (p) => `¿Cuál, entonces? ${p.choose}`,
  pickOne: (p) => `Por favor, elija solo una: ${p.list}.`,
  or: () => ' o ',
  pickJustOne: (p) => `Por favor, elija solo una: ¿es ${p.label}?`,
  pickNumber: (p) => `Por favor, elija un número del 1 al ${p.n}.`,
  notDate: () => 'Eso no parece una fecha.',
  singleDate: () => 'Por favor, indique una sola fecha.',
  noSuchDate: () => 'Esa fecha no existe: revise el día y el mes, por favor.',
  moreThanOneDate: () => 'He encontrado más de una fecha: indique solo una, por favor.',
  datePassed: () => 'Esa fecha ya ha pasado: indique la de hoy o una posterior, por favor.',
  dateFuture: () => 'Esa fecha es futura: indique la de hoy o una anterior, por favor.',
  whichDay: () => '¿Qué día? Indique la fecha exacta, por favor.',
  looseDay: (p) => `¿Qué día exactamente? «${p.typed}» puede ser más de un día: indique la fecha, por favor.`,
  onOrAfter: (p) => `Indique una fecha a partir del ${p.date}, por favor.`,
  onOrBefore: (p) => `Indique una fecha hasta el ${p.date}, por favor.`,
  noSuchDay: () => "There's no such date — please check the day.", // English until translated (moved unchanged from parse/date.ts)
  whichMonth: () => 'Which month? Please give the full date.', // English until translated (moved unchanged from parse/date.ts)
  pointsElsewhere: () => 'Desde aquí no veo mensajes ni correos anteriores — ¿podría escribirlo aquí?',
  nameIt: (p) => `¿Podría darme el nombre exacto? «${p.typed}» puede ser más de uno.`,
  codeLike: (p) => `Eso no se parece a ${p.example} — ¿podría comprobarlo y escribirlo de nuevo?`,
  codeItself: () => '¿Podría escribir el número tal como aparece?',
  whichCode: () => 'Encontré más de un número — ¿cuál es?',
  whichOnes: () => '¿Cuáles? Por favor, enumérelos.',
  moreDetail: () => 'Incluso una respuesta aproximada ayuda — ¿podría decir aquí lo que sepa, con sus palabras?',
  askedBack: () => 'Perdón si no quedó claro — aquí va de nuevo la pregunta.',
};
