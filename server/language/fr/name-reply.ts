import { commonWords } from '../common-words.ts';
import type { NameReplyWords } from '../pack.ts';

// How French replies at a name question are read (server/extract/offline/name-reply.ts). Lower case.

/** Given names that stopwords-iso lists as common words; they stay names. */
const GIVEN = ['bon', 'juste'];

/** French words for reading a reply at a name question. */
export const FR_NAME_REPLY: NameReplyWords = {
  self: /^(?:je m['’]appelle|mon nom (?:est|c['’]est)|moi c['’]est|c['’]est|ici|je suis|appelez-moi|vous parlez (?:à|avec))\s+/u,
  third: /^(?:(?:il|elle) s['’]appelle|son nom (?:est|c['’]est)|le patient (?:s['’]appelle|est)|la patiente (?:s['’]appelle|est))\s+/u,
  signOff: /\s+(?:à l['’]appareil|ici)[\s.!]*$/u,
  trailer: /\s+(?:c['’]est|est) (mon|son|leur) nom[\s.!]*$/u,
  company: /^(?:de|du|de la|chez)\s+\S/u,
  lead: /^(?:euh|ben|bon|alors|oui|ok|d['’]accord|bonjour|bonsoir|salut|coucou)(?![\p{L}])[\s,.!]*/u,
  nickname: /^(?:mais\s+)?(?:appelez-moi|dit|dite|surnommée?|alias)(?![\p{L}])/u,
  me: new Set(['moi', 'moi-même', 'je']),
  mine: new Set(['mon', 'ma', 'mes', 'notre', 'nos']),
  determiners: new Set(['le', 'la', 'les', 'son', 'sa', 'ses', 'leur', 'un', 'une', "l'"]),
  relations: new Set([
    'mère', 'maman', 'père', 'papa', 'parent', 'parents', 'mari', 'époux', 'épouse', 'femme', 'conjoint', 'conjointe', 'compagnon',
    'compagne', 'fils', 'fille', 'enfant', 'frère', 'sœur', 'soeur', 'grand-mère', 'grand-père', 'mamie', 'papi', 'tante', 'oncle',
    'cousin', 'cousine', 'ami', 'amie', 'voisin', 'voisine', 'tuteur', 'tutrice', 'belle-mère', 'beau-père', 'collègue',
  ]),
  relationAs: { maman: 'mère', papa: 'père', mamie: 'grand-mère', papi: 'grand-père' },
  roles: new Set([
    'gérant', 'gérante', 'directeur', 'directrice', 'responsable', 'propriétaire', 'gardien', 'gardienne', 'président', 'présidente',
    'secrétaire', 'trésorier', 'trésorière', 'entraîneur', 'entraîneuse', 'manager', 'employé', 'employée', 'club', 'mairie', 'société',
  ]),
  titles: new Set(['m', 'mme', 'mlle', 'dr', 'pr', 'prof', 'monsieur', 'madame', 'mademoiselle', 'me']),
  particles: new Set(['de', 'du', 'des', 'la', 'le', "d'", 'van', 'von', 'di', 'da']),
  given: GIVEN,
  common: () => commonWords('fr', GIVEN),
  asks: {
    name: /\bvotre nom\b|\bcomment vous appelez-vous\b|\bà qui (?:ai-je|je parle)\b|\bnom du patient\b|\bnom de la patiente\b|\bnom complet\b/u,
    full: /\bnom complet\b|\bnom et prénom\b|\bprénom et nom\b/u,
    subject: /\bnom du patient\b|\bnom de la patiente\b|\bnom de l['’]enfant\b/u,
    relation: /\blien\b|\brelation\b/u,
  },
  say: {
    notAName: "Il me faut un nom ici.",
    fullName: 'Le nom complet, s’il vous plaît : prénom et nom.',
    relation: 'Merci d’indiquer son nom et votre lien, par exemple « Marie Dupont, sœur ».',
    someoneElse: 'Il faut une autre personne que vous.',
    notYours: 'Merci — c’est votre propre nom.',
    otherPerson: 'Merci — c’est le nom d’une autre personne.',
  },
};
