import { commonWords } from '../common-words.ts';
import type { NameReplyWords } from '../pack.ts';

// How German replies at a name question are read (server/extract/offline/name-reply.ts). Lower case.

/** Given names and name parts that stopwords-iso lists as common words; they stay names. */
const GIVEN = ['will', 'lang', 'gross'];

/** German words for reading a reply at a name question. */
export const DE_NAME_REPLY: NameReplyWords = {
  statement: /^(?:ich|wir|sie|er|ich bin|ich habe|ich hab|sie ist|er ist)\s+\S/u,
  born: /^(?:geboren|geb\.|geburtsdatum)(?![\p{L}])/u,
  // also as typed in Bavarian, Austrian and Swiss German: "mei Nam is", "mi Name isch", "des isch"
  self: /^(?:(?:mein|mei|mi) (?:voller |vollständiger )?(?:name|nam|nama|noma) (?:ist|is|isch|lautet|wäre)|des isch?|(?:der )?name (?:ist|lautet)|ich heiße|ich heisse|ich bin|i bin|bin|da isch|das isch|ich bi|i bi|i hoaß|i hoas|i heiß|hier ist?|hier spricht|hier|das ist?|es ist?|am apparat ist|am apparat|sie sprechen mit|sie schreiben mit|mit|nennen sie mich)\s+/u,
  third: /^(?:(?:sein|ihr|der|dessen|deren) (?:voller |vollständiger )?name (?:ist|lautet)|(?:er|sie|es) heißt|(?:er|sie|es) heisst|(?:der patient|die patientin|das kind) (?:heißt|heisst|ist))\s+/u,
  signOff: /\s+(?:hier|am apparat|am telefon)[\s.!]*$/u,
  trailer: /\s+(?:ist|wäre) (mein|sein|ihr) (?:voller |vollständiger )?name[\s.!]*$/u,
  company: /^(?:vom|von der|von|bei|beim|aus der|aus dem|für den|für die|für das)\s+\S/u,
  lead: /^(?:(?:ich|i) (?:nochmal|noch mal|schon wieder|wieder)|nochmal ich|wieder ich|ähm?|äh|hm+|also|ja|jo|ok|okay|gut|klar|na|ach so|achso|ach|ah+|aha|oh|alles klar|na gut|na dann|dann|sorry|hoppla|stimmt|genau|lol|haha+|hallo|hi|moin|servus|griaß di|griaß eich|griaß god|grüß di|grüß dich|grüß euch|grüß gott|grüezi|hoi|sali|salü|guten (?:tag|morgen|abend)|tag|mit freundlichen grüßen|mit freundlichen grüssen|freundliche grüße|viele grüße|liebe grüße|beste grüße|grüße|gruß|mfg|lg|vg)(?![\p{L}])[\s,.!]*/u,
  nickname: /^(?:aber\s+)?(?:nennen sie mich|genannt|rufname|spitzname|alle nennen mich|sagen sie ruhig)(?![\p{L}])/u,
  me: new Set(['ich', 'mich', 'mir', 'selbst', 'selber']),
  mine: new Set(['mein', 'meine', 'meinen', 'meinem', 'meiner', 'unser', 'unsere', 'unseren', 'unserem']),
  // "dr", "d": Swabian and Swiss articles ("I bin dr Karle", "i bin d Vreni"); a title typed with a capital ("Dr") stays a title
  determiners: new Set(['der', 'die', 'das', 'den', 'dem', 'des', 'da', 'de', 'dr', 'd', 'ein', 'eine', 'einen', 'sein', 'seine', 'seinem', 'seiner', 'ihr', 'ihre', 'ihrem', 'ihrer']),
  relations: new Set([
    'mutter', 'mama', 'mutti', 'vater', 'papa', 'vati', 'eltern', 'elternteil', 'ehemann', 'mann', 'ehefrau', 'frau', 'partner',
    'partnerin', 'lebensgefährte', 'lebensgefährtin', 'verlobter', 'verlobte', 'sohn', 'tochter', 'kind', 'bruder', 'schwester',
    'oma', 'großmutter', 'opa', 'großvater', 'tante', 'onkel', 'cousin', 'cousine', 'nichte', 'neffe', 'enkel', 'enkelin',
    'freund', 'freundin', 'nachbar', 'nachbarin', 'betreuer', 'betreuerin', 'vormund', 'pflegemutter', 'pflegevater',
    'stiefmutter', 'stiefvater', 'schwiegermutter', 'schwiegervater', 'kollege', 'kollegin', 'chef', 'chefin', 'erziehungsberechtigte', 'erziehungsberechtigter',
  ]),
  relationAs: { mama: 'mutter', mutti: 'mutter', papa: 'vater', vati: 'vater', oma: 'großmutter', opa: 'großvater', mann: 'ehemann', frau: 'ehefrau' },
  roles: new Set([
    'hausmeister', 'hausmeisterin', 'obmann', 'obfrau', 'geschäftsführer', 'geschäftsführerin', 'inhaber', 'inhaberin', 'leiter', 'leiterin', 'vorstand',
    'vorsitzender', 'vorsitzende', 'trainer', 'trainerin', 'platzwart', 'hallenwart', 'sportwart', 'kassenwart', 'kassierer',
    'sekretär', 'sekretärin', 'mitarbeiter', 'mitarbeiterin', 'abteilungsleiter', 'abteilungsleiterin', 'betreiber', 'betreiberin',
    'verwalter', 'verwalterin', 'verwaltung', 'manager', 'managerin', 'einkauf', 'einkäufer', 'einkäuferin', 'elektriker',
    'architekt', 'architektin', 'bürgermeister', 'bürgermeisterin', 'verein', 'vereins', 'firma', 'gemeinde', 'stadt', 'schule',
    'facility', 'facility-manager', 'hausverwaltung', 'vereinsvorsitzender', 'vereinsvorsitzende', 'beauftragter', 'beauftragte', 'zuständig', 'zuständige', 'zuständiger',
  ]),
  titles: new Set(['dr', 'prof', 'frau', 'herr', 'fr', 'hr', 'dipl', 'ing', 'dipl.-ing', 'mag', 'med', 'dent', 'rer', 'nat', 'phil', 'jur', 'vet']),
  courtesy: new Set(['frau', 'herr', 'fr', 'hr']),
  titleAs: { hr: 'Herr', fr: 'Frau' },
  roleEndings: ['leiter', 'leiterin', 'wart', 'wartin', 'meister', 'meisterin', 'amt', 'verwaltung', 'leitung', 'referent', 'referentin', 'beauftragter', 'beauftragte', 'planer', 'planerin', 'vorsitzender', 'vorsitzende', 'partner', 'partnerin', 'person'],
  nowAfter: /^(?:jetzt|inzwischen|mittlerweile|seit der hochzeit|nach der hochzeit)$/u,
  nameParts: {
    family: /^(?:der )?(?:nachname|familienname) (?:zuerst|vorne)$|^(?:(?:mein|sein|ihr|der) )?(?:nachname|familienname|zuname)(?: ist| lautet|:)?(?: übrigens)?\s+([\p{L}'’-]+)$|^([\p{L}'’-]+) ist (?:der|mein|sein|ihr) (?:nachname|familienname)$/u,
    given: /^(?:(?:mein|sein|ihr|der) )?(?:vorname|rufname)(?: ist| lautet|:)?(?: übrigens)?\s+([\p{L}'’-]+)$|^([\p{L}'’-]+) ist (?:der|mein|sein|ihr) vorname$/u,
  },
  nameTalk: /(?<![\p{L}])(?:name|namen|nachname|vorname|geburtsname|mädchenname|geschrieben|schreibt|buchstabiert|heißt|heisst|heiße|heisse|genannt)(?![\p{L}])/u,
  relationIs: /^(?:(?:er|sie) ist|das ist|das wäre|die ist|der ist)\s+/u,
  legal: /^(?:(?:aber|eigentlich)\s+)?(?:offiziell|amtlich|laut ausweis|im ausweis|im pass|eigentlich)(?:\s+(?:heißt (?:er|sie)|heiße ich|steht))?\s+(.+?)$/u,
  particles: new Set(['von', 'van', 'der', 'den', 'de', 'zu', 'ten', 'ter', 'di', 'da', 'la', 'le', 'del']),
  given: GIVEN,
  common: () => commonWords('de', GIVEN),
  asks: {
    name: /\bwie heißen sie\b|\bwie heissen sie\b|\bmit wem spreche ich\b|\bmit wem schreibe ich\b|\bihr(?:en)? (?:vollständigen |vollen )?namen?\b|\bwer sind sie\b|\bname des (?:patienten|kindes)\b|\bname der patientin\b/u,
    full: /\bvollständige[nr]? namen?\b|\bvor- und nachname|\bvollen namen\b/u,
    subject: /\bname des (?:patienten|kindes)\b|\bname der patientin\b/u,
    relation: /\bbeziehung\b|\bverhältnis\b|\bverwandt/u,
  },
  say: {
    notAName: 'Ich brauche hier einen Namen.',
    fullName: 'Bitte mit Vor- und Nachnamen.',
    relation: 'Bitte nennen Sie Namen und Beziehung, zum Beispiel „Anna Weber, Schwester“.',
    someoneElse: 'Das sollte eine andere Person sein als Sie selbst.',
    notYours: 'Danke — das ist Ihr eigener Name.',
    otherPerson: 'Danke — das ist der Name einer anderen Person.',
  },
};
