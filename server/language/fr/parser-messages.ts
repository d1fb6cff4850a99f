import { fillMessage } from '../fill-message.ts';
import type { ParserMessages } from '../parser-messages.ts';
import { FR as MESSAGES } from './messages.ts';

/** The clarifications the typed parsers write, in French. */
export const FR_PARSER: ParserMessages = {
  typeAnswer: () => 'Veuillez saisir une réponse.',
  notNumber: () => 'Cela ne ressemble pas à un nombre.',
  notWhole: () => 'Cela ne ressemble pas à un nombre entier.',
  wholeNumber: () => 'Veuillez donner un nombre entier.',
  tooLarge: () => 'Ce nombre est trop grand.',
  between: (p) => `Veuillez donner un nombre entre ${p.min} et ${p.max}${p.unit}.`,
  atLeast: (p) => `Veuillez donner un nombre d'au moins ${p.min}${p.unit}.`,
  atMost: (p) => `Veuillez donner un nombre d'au plus ${p.max}${p.unit}.`,
  negatedNumber: (p) => `Pas ${p.typed} — quel est le nombre, alors ?`,
  total: () => 'Cela fait combien au total ?',
  notPercent: () => "Est-ce un pourcentage ? Veuillez donner le nombre lui-même.",
  exactly: () => 'Combien environ, exactement ?',
  moreThanOneNumber: () => "J'ai trouvé plus d'un nombre — veuillez n'en donner qu'un.",
  dotOrComma: (p) => `Vouliez-vous dire ${p.a} ou ${p.b} ? Veuillez l'écrire sans le point.`,
  commaOrThousands: (p) => `Vouliez-vous dire ${p.a} ou ${p.b} ? Veuillez l'écrire sans la virgule.`,
  yesOrNo: () => fillMessage(MESSAGES.reask_boolean),
  chooseFrom: (p) => fillMessage(MESSAGES.reask_choose_one, { options: p.list! }),
  whichThen: (p) => `Lequel, alors ? ${p.choose}`,
  pickOne: (p) => `Veuillez n'en choisir qu'un : ${p.list}.`,
  or: () => ' ou ',
  pickJustOne: (p) => `Veuillez n'en choisir qu'un — est-ce ${p.label} ?`,
  pickNumber: (p) => `Veuillez choisir un nombre de 1 à ${p.n}.`,
  notDate: () => 'Cela ne ressemble pas à une date.',
  singleDate: () => 'Veuillez donner une seule date.',
  noSuchDate: () => "Cette date n'existe pas — veuillez vérifier le jour et le mois.",
  moreThanOneDate: () => "J'ai trouvé plus d'une date — veuillez n'en donner qu'une.",
  datePassed: () => "Cette date est passée — veuillez donner la date d'aujourd'hui ou une date ultérieure.",
  dateFuture: () => "Cette date est dans le futur — veuillez donner la date d'aujourd'hui ou une date antérieure.",
  whichDay: () => 'Quel jour ? Veuillez donner la date exacte.',
  looseDay: (p) => `Quel jour exactement ? « ${p.typed} » peut désigner plusieurs jours — veuillez donner la date.`,
  onOrAfter: (p) => `Veuillez donner une date à partir du ${p.date}.`,
  onOrBefore: (p) => `Veuillez donner une date jusqu'au ${p.date}.`,
  noSuchDay: () => "There's no such date — please check the day.", // English until translated (moved unchanged from parse/date.ts)
  whichMonth: () => 'Which month? Please give the full date.', // English until translated (moved unchanged from parse/date.ts)
  pointsElsewhere: () => "Je ne vois pas les messages ou e-mails précédents d'ici — pourriez-vous l'écrire ici ?",
  nameIt: (p) => `Pourriez-vous me donner le nom exact ? « ${p.typed} » peut désigner plusieurs choses.`,
  codeLike: (p) => `Cela ne ressemble pas à ${p.example} — pourriez-vous vérifier et le saisir à nouveau ?`,
  codeItself: () => 'Pourriez-vous saisir le numéro lui-même, tel qu’il est écrit ?',
  whichCode: () => "J'ai trouvé plusieurs numéros — lequel est-ce ?",
  whichOnes: () => 'Lesquels ? Merci de les énumérer.',
  moreDetail: () => "Même une réponse approximative aide — pourriez-vous dire ici ce que vous savez, avec vos mots ?",
  askedBack: () => "Désolé si ce n'était pas clair — voici de nouveau la question.",
};
