import type { TextWords } from '../text-words.ts';

/** German: the short-text words (server/language/text-words.ts). */
export const DE_TEXT: TextWords = {
  exampleBefore: ['sieht so aus', 'sieht aus wie', 'sehen so aus', 'zum beispiel', 'z. b.', 'z.b.', 'zb', 'beispielsweise', 'etwa', 'format', 'im format', 'wie'],
  pointers: [
    'siehe', 'wie oben', 'wie vorher', 'wie zuvor', 'wie letztes mal', 'wie beim letzten mal', 'gleiche wie', 'das gleiche wie', 'dasselbe wie',
    'genauso wie', 'genau wie', 'steht in der e-mail', 'steht in meiner e-mail', 'steht in der mail', 'steht in meiner mail', 'in meiner e-mail',
    'in meiner mail', 'in der e-mail', 'in der mail', 'habe ich schon gesagt', 'hab ich schon gesagt', 'hab ich doch gesagt', 'habe ich doch gesagt', 'hab ich doch schon gesagt', 'habe ich doch schon gesagt', 'hab ich ja schon gesagt', 'habe ich bereits gesagt',
    'gleiches problem wie', 'das gleiche problem wie', 'dasselbe problem wie', 'selbes problem wie', 'das selbe problem wie', 'gleicher fehler wie',
    'schon gesagt', 'hatte ich schon geschrieben', 'habe ich schon geschrieben', 'hab ich schon geschrieben', 'dito', 'das gleiche', 'dasselbe',
  ],
  pointersAlone: ['gleiches problem', 'das gleiche problem', 'dasselbe problem', 'wieder das gleiche problem', 'wieder dasselbe problem', 'wie immer', 'das übliche', 'das gleiche wie immer', 'die üblichen', 'meine üblichen', 'wie üblich', 'wie gesagt', 'wie schon gesagt', 'wie bereits gesagt', 'wie erwähnt', 'wie bereits erwähnt', 'wie geschrieben', 'siehe oben', 'oben'],
  privateUse: [
    'privat', 'privates', 'privater', 'privates projekt', 'privatperson', 'als privatperson', 'privatgebrauch', 'eigenbedarf', 'mein garten',
    'meinen garten', 'meinem garten', 'unser garten', 'unseren garten', 'unserem garten', 'garten', 'zuhause', 'zu hause', 'für mich',
    'für mich selbst', 'mein haus', 'unser haus', 'eigener platz', 'eigenen platz', 'keine organisation', 'kein verein', 'hinterm haus', 'hinter dem haus', 'hinter unserem haus', 'am haus', 'ums haus',
  ],
  leadIns: [
    'es ist für den', 'es ist für die', 'es ist für das', 'es ist für', 'das ist für den', 'das ist für die', 'das ist für das', 'das ist für',
    'ist für den', 'ist für die', 'ist für das', 'ist für', 'das projekt ist für den', 'das projekt ist für die', 'das projekt ist für',
    'für den', 'für die', 'für das', 'für', 'wir sind der', 'wir sind die', 'wir sind das', 'wir sind', 'vom', 'von der', 'von',
  ],
  namedAs: { before: ['der', 'die', 'das', 'unser', 'unsere', 'mein', 'meine'], verbs: ['ist', 'heißt', 'nennt sich', 'wäre'], articles: ['der', 'die', 'das'] },
  selfIntro: ['ich bin', 'ich bin der', 'ich bin die', 'bin der', 'bin die', 'ich arbeite', 'ich leite', 'ich bin dort', 'ich bin da'],
  vagueWords: [
    'mein', 'meine', 'meinen', 'meinem', 'meiner', 'unser', 'unsere', 'unseren', 'unserem', 'unserer', 'der', 'die', 'das', 'den', 'dem',
    'ein', 'eine', 'einen', 'einem', 'für', 'von', 'vom', 'über', 'bei', 'beim', 'im', 'am', 'mit', 'dem', 'ist', 'es', 'hiesigen', 'örtlichen',
    'eigenen', 'lokalen',
  ],
  vagueNouns: [
    'verein', 'stadt', 'gemeinde', 'schule', 'firma', 'club', 'klub', 'team', 'halle', 'kirche', 'universität', 'hochschule', 'arbeitgeber',
    'arbeit', 'betrieb', 'verband', 'sporthalle', 'turnhalle', 'kommune', 'landkreis', 'kreis', 'unternehmen', 'organisation', 'mannschaft',
    'fitnessstudio', 'versicherung', 'krankenkasse', 'stadtverwaltung', 'verwaltung', 'chef', 'gruppe',
  ],
  clauseWords: ['ist', 'sind', 'war', 'es', 'wir', 'ich', 'er', 'sie', 'hat', 'haben', 'geht', 'gehört', 'liegt'],
  notGiven: ['nicht zur hand', 'verloren', 'weiß nicht', 'kann nicht', 'nicht da'],
  quantityOnly: ['viele', 'einige', 'mehrere', 'jede menge', 'ein paar', 'etliche', 'zu viele', 'verschiedene', 'diverse', 'eine menge', 'ganz viele', 'sehr viele'],
  unsure: ['weiß ich nicht mehr', 'weiß nicht mehr', 'kann mich nicht erinnern', 'erinnere mich nicht', 'hab ich vergessen', 'habe ich vergessen', 'vergessen', 'fällt mir nicht ein', 'weiß ich nicht', 'keine ahnung', 'kein plan', 'keinen plan', 'weiß nicht', 'k.a.', 'null ahnung'],
  deferrals: [
    'bringe ich mit', 'bring ich mit', 'bringe ich', 'bring ich', 'bringe sie mit', 'bringe die mit', 'ich bringe', 'sage ich später', 'sag ich später',
    'sage ich ihnen', 'sag ich ihnen', 'reiche ich nach', 'schicke ich', 'schick ich', 'muss ich nachschauen', 'muss ich nachsehen', 'muss ich fragen',
    'schaue ich nach', 'schau ich nach', 'kümmert sich darum', 'kümmert sich drum', 'kümmert sich', 'macht das', 'macht mein', 'macht meine',
    'weiß mein', 'weiß meine', 'müssen sie', 'fragen sie', 'regelt das', 'erledigt das', 'hat die unterlagen', 'hat das', 'nachschauen', 'nachsehen', 'nachgucken', 'nachreichen', 'melde mich', 'melde ich mich',
    // jemand anderes hat die Antwort („meine Frau hat die Liste“): ohne etwas anderes daneben
    'hat', 'führt die liste', 'hat den überblick', 'weiß das', 'weiß es',
  ],
  contentFree: [
    'ich', 'du', 'er', 'sie', 'es', 'wir', 'ihr', 'die', 'der', 'das', 'den', 'dem', 'des', 'ein', 'eine', 'einen', 'mein', 'meine', 'meinen', 'meinem',
    'unser', 'unsere', 'ist', 'sind', 'war', 'halt', 'eben', 'einfach', 'irgendwie', 'mal', 'so', 'ja', 'doch', 'auch', 'nur', 'wohl', 'schon', 'echt',
    'spinnen', 'spinnt', 'zicken', 'zickt', 'komisch', 'seltsam', 'merkwürdig', 'sonderbar', 'rum', 'herum', 'machen', 'macht', 'mucken', 'was',
    'sowas', 'irgendwas', 'alles', 'und', 'oder', 'aber', 'mit', 'dann', 'später', 'nachher', 'morgen', 'beim', 'termin', 'vor', 'ort', 'vorbei',
    'mann', 'frau', 'partner', 'partnerin', 'mutter', 'vater', 'eltern', 'sohn', 'tochter', 'chef', 'chefin', 'kollege', 'kollegin', 'arzt', 'ärztin',
    'hausarzt', 'apotheke', 'jemand', 'anderes', 'packungen', 'packung', 'schachteln', 'liste', 'unterlagen', 'karte', 'sachen', 'zeug', 'hier', 'da',
    'darum', 'drum', 'sich', 'mir', 'mich', 'ihnen', 'lol', 'haha', 'zum', 'zur', 'zu', 'hause', 'zuhause', 'muss', 'müsste', 'steht', 'auf', 'drauf', 'drin', 'namen', 'name', 'dosis', 'genau', 'gerade', 'regelt', 'erledigt', 'weiß', 'hat', 'kümmert', 'irgendwas',
    // wer es gesagt oder geschickt hat, ohne was („keine Ahnung, der Hausmeister hat gesagt, ich soll mich melden“, „meine Mutter meinte, ich sei als
    // Kind gegen irgendwas allergisch“)
    'gesagt', 'sagt', 'sagte', 'meinte', 'meint', 'gemeint', 'gebeten', 'geschickt', 'geschrieben', 'soll', 'sollte', 'sollen', 'dass', 'sei', 'wäre',
    'melden', 'kontaktieren', 'anrufen', 'an', 'euch', 'bei', 'als', 'kind', 'baby', 'klein', 'früher', 'damals', 'etwas', 'gegen', 'über', 'von',
    'vom', 'wegen', 'hausmeister', 'verwalter', 'vermieter', 'trainer', 'lehrer', 'lehrerin', 'schwester', 'bruder', 'freund', 'freundin', 'nachbar',
    'nachbarin', 'oma', 'opa', 'leitung', 'abteilung', 'wissen', 'ahnung', 'sicher', 'welche', 'welches', 'jahren', 'führt', 'überblick', 'angeblich', 'gewesen', 'sein', 'bin', 'wurde',
    'dafür', 'dazu', 'damit', 'hab', 'habe', 'ihre', 'ihren', 'ihrer', 'selbst', 'selber', 'kann', 'können', 'könnte', 'möchte', 'will', 'würde',
    'gern', 'gerne', 'noch', 'nicht', 'einer', 'einem', 'brauche', 'brauchen', 'benötige', 'welpe', 'alte', 'alten', 'alter', 'früheren', 'meide', 'vermeide', 'vermeiden', 'weg',
  ],
  abbreviations: ['st', 'dr', 'med', 'dent', 'rer', 'nat', 'phil', 'jur', 'vet', 'prof', 'dipl', 'ing', 'hr', 'fr', 'nr', 'bzw', 'ca', 'evtl', 'ggf', 'str', 'geb', 'hl', 'sog', 'inkl', 'zzgl', 'vgl', 'z.b', 'u.a', 'd.h', 'abt', 'tel', 'bspw'],
  codeWords: ['id', 'nummer', 'nr', 'code', 'kennung', 'referenz', 'number', 'no'],
  discourse: [
    'hallo', 'hi', 'moin', 'servus', 'ja', 'jo', 'ok', 'okay', 'also', 'ähm', 'äh', 'hm', 'naja', 'na', 'ach', 'ach so', 'achso', 'gut', 'jedenfalls',
    'egal', 'sorry', 'gefunden', 'hab sie gefunden', 'habs gefunden', "hab's gefunden", 'hier ist sie', 'guten morgen', 'guten tag', 'ja hallo',
  ],
  vagueProblem: [
    'geht', 'gehen', 'ging', 'nicht', 'nich', 'mehr', 'kaputt', 'defekt', 'funktioniert', 'funktionieren', 'problem', 'probleme', 'fehler', 'richtig',
    'los', 'irgendwas', 'etwas', 'kein', 'keine', 'immer', 'noch', 'wieder', 'hilfe', 'reparieren', 'gut', 'schlecht', 'tut', 'tun',
  ],
  asksWhich: { which: ['welche', 'welcher', 'welches', 'wo'], what: ['was', 'wie'] },
  reportedBy: ['sagte', 'sagt', 'meinte', 'meint', 'hat gesagt', 'hat gemeint', 'hat geschrieben', 'schrieb', 'hat mich geschickt', 'hat gebeten', 'glaubt', 'denkt'],
  askWhom: ['fragen sie', 'frag', 'fragen', 'wenden sie sich an', 'rufen sie'],
  unknownWhich: ['welche', 'welches', 'welcher', 'was genau', 'wie sie heißen', 'wie es heißt', 'wie das heißt', 'wie die heißen', 'den namen', 'die namen', 'die genauen namen', 'namen'],
  asksNeed: [
    'worum es geht', 'worum geht es', 'was sie brauchen', 'was brauchen sie', 'was sie suchen', 'wie können wir helfen', 'wie kann ich helfen',
    'wie wir helfen können', 'was können wir für sie tun', 'was kann ich für sie tun', 'ihr anliegen', 'ihre frage', 'ihre fragen', 'ihre anfrage',
    'sonst noch', 'noch etwas', 'was möchten sie wissen',
  ],
  nonDescription: [
    'rückruf', 'zurückrufen', 'zurückruf', 'anrufen', 'anruf', 'ruft', 'ruf', 'melden', 'meldet', 'kontakt', 'kontaktieren', 'erreichen', 'sprechen',
    'reden', 'jemand', 'jemanden', 'person', 'schaue mich nur um', 'schau mich nur um', 'nur mal schauen', 'nur mal gucken', 'schaue nur', 'schau nur', 'gucke nur', 'quatschen', 'plaudern', 'chatten', 'nur quatschen', 'langeweile', 'mitarbeiter', 'vertrieb', 'verkauf', 'hilfe', 'frage', 'fragen', 'anfrage', 'info', 'infos',
    'information', 'informationen', 'umschauen', 'umsehen', 'schaue mich um', 'schau mich um', 'stöbern', 'nur gucken', 'nur schauen',
    'nichts bestimmtes', 'neugierig', 'werbung', 'anzeige', 'facebook', 'instagram', 'google', 'tiktok', 'youtube', 'linkedin', 'webseite',
    'website', 'internet', 'flyer', 'prospekt', 'empfehlung', 'empfohlen', 'gesehen', 'gefunden', 'gehört', 'e-mail', 'mail', 'telefon',
  ],
  aboutService: [
    'garantie', 'gewährleistung', 'abgedeckt', 'übernommen', 'kostet', 'kosten', 'preis', 'preise', 'gebühr', 'kostenlos', 'gratis', 'umsonst',
    'zahlen', 'bezahlen', 'erstattung', 'rückerstattung', 'geld', 'rechnung', 'rabatt', 'beschweren', 'beschwerde', 'zuständig', 'verantwortlich',
    'geöffnet', 'öffnungszeiten', 'lange', 'dauert', 'dauern', 'warten', 'techniker', 'monteur', 'vorbeikommen', 'schicken', 'kommen',
    'reparieren', 'repariert', 'reparatur', 'service', 'marke', 'marken', 'modell', 'normal', 'schlimm', 'sicher', 'dringend', 'zählt', 'zählen',
    'wichtig', 'nötig', 'notwendig', 'firma', 'heute', 'morgen', 'schnell', 'bald', 'wenden',
  ],
  questionForm: {
    aux: [
      'ist', 'sind', 'war', 'kann', 'können', 'könnte', 'könnten', 'kannst', 'gibt', 'gäbe', 'hat', 'haben', 'habt', 'hätte', 'hätten', 'muss',
      'müssen', 'soll', 'sollte', 'sollen', 'wird', 'werden', 'würde', 'würden', 'darf', 'dürfen', 'macht', 'machen', 'bekomme', 'bekommt',
      'bekommen', 'kommt', 'kostet', 'kosten', 'dauert', 'deckt', 'zahlt', 'übernimmt', 'übernehmen', 'gilt', 'fällt', 'wende', 'melde', 'zählt',
      'zählen', 'gelten',
    ],
    scope: ['zählt', 'zählen', 'gilt', 'gelten'],
    wh: ['wer', 'was', 'wo', 'wann', 'warum', 'wieso', 'weshalb', 'wie', 'welche', 'welcher', 'welches', 'wen', 'wem', 'wie viel', 'wieviel', 'wie lange', 'an wen', 'bei wem', 'wohin', 'woher', 'für wen'],
    subjects: ['das', 'es', 'ich', 'man', 'jemand', 'sie', 'ihr', 'wir', 'er', 'der', 'die', 'mich', 'mir', 'uns', 'dies', 'dieses', 'diese', 'dieser', 'da', 'ein', 'eine', 'mein', 'meine', 'unser', 'unsere'],
  },
};
