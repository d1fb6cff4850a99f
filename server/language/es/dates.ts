import { chronoOf } from '../chrono.ts';

/** chrono's parsers for this language, loaded on the first date read in it. */
const chrono = () => chronoOf('es');
import type { DateWords } from '../date-words.ts';

/** What parseDate reads in Spanish besides chrono (its parser reads day first, as Spanish writes dates). */
export const ES_DATES: DateWords = {
  parser: () => chrono().casual,
  strictMatches: true,
  loose: /(?<![\p{L}])(?:(?:sobre|alrededor de|más o menos|mas o menos|aproximadamente|hacia)\s+(?:el|la|los|\d+|una|un|dos|tres)(?![\p{L}])|(?:finales|principios|mediados|fin|final|principio)\s+de(?:l)?\s+(?:este\s+|próximo\s+|proximo\s+)?(?:mes|semana|año|ano)(?![\p{L}])|la\s+semana\s+que\s+viene|(?:la\s+)?próxima\s+semana|(?:la\s+)?proxima\s+semana|el\s+mes\s+que\s+viene|(?:el\s+)?próximo\s+mes|(?:el\s+)?proximo\s+mes|dentro\s+de\s+(?:\d+|una|dos|tres|unas)\s+(?:semanas?|mes(?:es)?)|o así|o asi|(?:primavera|verano|otoño|invierno)(?![\p{L}])|lo antes posible|cuanto antes|asap)/iu,
  past: /(?<![\p{L}])(?:pasado|pasada|ayer|anteayer|hace)(?![\p{L}])/iu,
  dayAlone: /^(?:el |para el |el día |el dia |día |dia )(\d{1,2})(?: por favor)?[.!]?$/i,
  week: null,
  whichDayIn: null,
  spokenYears: null,
  holidays: null,
  noFixedDay: null,
  hedge: null,
};
