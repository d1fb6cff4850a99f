import { commonWords } from '../common-words.ts';
import type { NameReplyWords } from '../pack.ts';

// How Spanish replies at a name question are read (server/extract/offline/name-reply.ts). Lower case.

/** Given names and name parts that stopwords-iso lists as common words; they stay names. */
const GIVEN = ['mia', 'ella', 'van'];

/** Spanish words for reading a reply at a name question. */
export const ES_NAME_REPLY: NameReplyWords = {
  self: /^(?:me llamo|mi nombre (?:es|completo es)|soy|habla|le habla|aquí|aqui|llámame|llamame|es|con)\s+/u,
  third: /^(?:(?:él|el|ella) se llama|se llama|su nombre es|el paciente (?:se llama|es)|la paciente (?:se llama|es))\s+/u,
  signOff: /\s+(?:al habla|aquí|aqui)[\s.!]*$/u,
  trailer: /\s+es (mi|su) nombre[\s.!]*$/u,
  company: /^(?:de|del|de la)\s+\S/u,
  lead: /^(?:eh|em|bueno|pues|sí|si|vale|ok|hola|buenas|buenos días|buenas tardes)(?![\p{L}])[\s,.!]*/u,
  nickname: /^(?:pero\s+)?(?:llámame|llamame|me dicen|le dicen|alias)(?![\p{L}])/u,
  me: new Set(['yo', 'mí']),
  mine: new Set(['mi', 'mis', 'nuestro', 'nuestra']),
  determiners: new Set(['el', 'la', 'los', 'las', 'su', 'sus', 'un', 'una']),
  relations: new Set([
    'madre', 'mamá', 'mama', 'padre', 'papá', 'papa', 'marido', 'esposo', 'esposa', 'mujer', 'pareja', 'hijo', 'hija', 'niño',
    'niña', 'hermano', 'hermana', 'abuela', 'abuelo', 'tía', 'tío', 'primo', 'prima', 'amigo', 'amiga', 'vecino', 'vecina', 'tutor',
    'tutora', 'suegra', 'suegro', 'compañero', 'compañera',
  ]),
  relationAs: { mamá: 'madre', mama: 'madre', papá: 'padre', papa: 'padre' },
  roles: new Set([
    'gerente', 'director', 'directora', 'dueño', 'dueña', 'propietario', 'propietaria', 'encargado', 'encargada', 'presidente',
    'presidenta', 'secretario', 'secretaria', 'entrenador', 'entrenadora', 'conserje', 'responsable', 'club', 'ayuntamiento', 'empresa',
  ]),
  titles: new Set(['sr', 'sra', 'srta', 'dr', 'dra', 'don', 'doña', 'señor', 'señora', 'señorita', 'lic']),
  particles: new Set(['de', 'del', 'la', 'las', 'los', 'y', 'van', 'von', 'da', 'di']),
  given: GIVEN,
  common: () => commonWords('es', GIVEN),
  asks: {
    name: /\bsu nombre\b|\bcómo se llama\b|\bcon quién hablo\b|\bnombre del paciente\b|\bnombre de la paciente\b|\bnombre completo\b/u,
    full: /\bnombre completo\b|\bnombre y apellidos?\b/u,
    subject: /\bnombre del paciente\b|\bnombre de la paciente\b|\bnombre del niño\b|\bnombre de la niña\b/u,
    relation: /\brelación\b|\bparentesco\b/u,
  },
  say: {
    notAName: 'Necesito un nombre aquí.',
    fullName: 'El nombre completo, por favor: nombre y apellido.',
    relation: 'Indique su nombre y su relación, por ejemplo «María López, hermana».',
    someoneElse: 'Debe ser otra persona distinta de usted.',
    notYours: 'Gracias — ese es su propio nombre.',
    otherPerson: 'Gracias — ese es el nombre de otra persona.',
  },
};
