import type { Lexicon } from '../lexicon.ts';

/** German. "weiss"/"weiß" and "ue"/"ü" spellings are folded alike by the matchers. */
export const DE: Lexicon = {
  skip: [
    'ka', 'k.a.', 'k. a.', 'anonym', 'lieber anonym', 'bleibe lieber anonym', 'ich bleibe anonym', 'möchte anonym bleiben', 'anonym bleiben', 'überspringen', 'weiter', 'nächste frage', 'weiß nicht', 'weiß ich nicht', 'das weiß ich nicht', 'ich weiß nicht',
    'ich weiß es nicht', 'weiß es nicht', 'keine ahnung', 'hab keine ahnung', 'habe keine ahnung', 'nicht sicher',
    'bin mir nicht sicher', 'bin nicht sicher', 'unsicher', 'kann ich nicht sagen', 'kann ich nicht genau sagen',
    'möchte ich nicht sagen', 'sage ich lieber nicht', 'lieber nicht sagen', 'möchte ich nicht angeben', 'keine angabe',
    'kann ich noch nicht sagen', 'darf ich noch nicht sagen', 'vertraulich', 'ist vertraulich', 'das ist vertraulich',
    'keine angaben', 'nicht zutreffend', 'trifft nicht zu', 'entfällt', 'k.a.', 'weiß nich', 'kp', 'null ahnung', 'kein plan',
    'keinen plan', 'null plan', 'möchte ich noch nicht sagen', 'will ich noch nicht sagen', 'will ich nicht sagen', 'sage ich noch nicht',
    'sag ich noch nicht', 'sage ich lieber noch nicht', 'sag ich lieber nicht', 'möchte ich lieber nicht sagen', 'möchte ich noch nicht verraten',
    'möchte ich nicht verraten', 'verrate ich noch nicht', 'lieber noch nicht', 'noch nicht sagen', 'möchte ich nicht nennen', 'will ich nicht nennen', 'nenne ich nicht',
    'nenne ich lieber nicht', 'lieber nicht nennen', 'möchte ich noch nicht nennen',
  ],
  refuse: ['nicht sagen', 'lieber nicht', 'keine angabe', 'keine angaben', 'nicht angeben', 'nicht verraten', 'nicht nennen', 'sage ich nicht', 'überspringen',
    'möchte ich nicht', 'mag ich nicht', 'will ich nicht', 'geht sie nichts an', 'geht dich nichts an', 'geht euch nichts an', 'behalte ich für mich', 'für mich behalten'],
  refuseWith: ['möchte', 'mag', 'will', 'würde', 'lieber', 'gern', 'gerne', 'eigentlich', 'sagen', 'angeben', 'nennen', 'verraten', 'sag', 'das', 'ich', 'es', 'ihnen', 'dir', 'hier', 'lol'],
  askBack: [
    'wie meinen sie das', 'was meinen sie', 'wie meinst du das', 'was meinst du', 'was heißt das', 'was bedeutet das', 'wie bitte',
    // ein Wort der Frage erfragt („was heißt unsicher?“, „definieren Sie gefährlich“): die Frage noch einmal
    'was meinen sie mit', 'was meinst du mit', 'was heißt', 'was zählt als', 'definieren sie', 'definiere', 'inwiefern', 'in welcher hinsicht', 'in welchem sinne', 'was genau heißt',
    'verstehe die frage nicht', 'versteh die frage nicht', 'verstehe ich nicht', 'versteh ich nicht', 'was ist damit gemeint', 'zum beispiel',
    // warum gefragt wird („warum wollen Sie das wissen?“): die Frage noch einmal
    'warum wollen sie das wissen', 'wieso wollen sie das wissen', 'warum brauchen sie das', 'wozu brauchen sie das', 'wofür brauchen sie das',
    'warum fragen sie', 'wieso fragen sie', 'was geht sie das an',
    // wo das Gefragte steht („weiß nicht, wo finde ich die?“): die Frage noch einmal (ihr Text sagt, wo), kein Überspringen
    'wo finde ich', 'wo find ich', 'wo steht', 'wo sehe ich', 'wo seh ich', 'wo soll die stehen', 'wo soll das stehen', 'wo ist die', 'wo ist das',
    // ob die Frage beantwortet werden muss („muss ich das angeben?“, „ist das Pflicht?“): die Frage noch einmal, kein Überspringen
    'muss ich das angeben', 'muss ich das sagen', 'muss ich das beantworten', 'muss ich das ausfüllen', 'muss ich darauf antworten', 'muss ich das wirklich',
    'muss das sein', 'ist das pflicht', 'ist das ein pflichtfeld', 'ist das eine pflichtangabe', 'ist das nötig', 'ist das notwendig', 'ist das wichtig',
    'brauchen sie das wirklich', 'braucht ihr das',
  ],
  skipFiller: [
    'sorry', 'leider', 'ehrlich', 'ehrlich gesagt', 'gesagt', 'hmm', 'äh', 'ähm', 'öh', 'also', 'na', 'naja', 'ja', 'nein', 'nee',
    'bitte', 'danke', 'wirklich', 'echt', 'tut', 'mir', 'leid', 'ich', 'es', 'das', 'im', 'moment', 'gerade', 'momentan',
    'noch', 'jetzt', 'grad', 'gar', 'so', 'genau', 'die', 'frage', 'dazu', 'hier', 'da', 'wir', 'uns', 'ok', 'okay',
    'zahl', 'nummer', 'datum', 'exakt', 'der', 'den', 'nicht',
  ],
  human: [
    'mit einem menschen', 'mit einem mitarbeiter', 'mit einer mitarbeiterin', 'mit einem berater', 'mit einer beraterin',
    'mit jemandem sprechen', 'mit jemandem reden', 'mit einer person sprechen', 'mit einer echten person', 'echten menschen',
    'echte person', 'echter mensch', 'realen person', 'menschen sprechen', 'mensch bitte', 'mitarbeiter bitte',
    'einen mitarbeiter bitte', 'einen menschen bitte', 'kundenservice bitte', 'bitte einen menschen', 'bitte einen mitarbeiter',
    'verbinden sie mich', 'persönlich sprechen', 'menschlichen ansprechpartner', 'ansprechpartner bitte',
  ],
  yes: [
    'ja', 'jawohl', 'jo', 'jep', 'jup', 'jap', 'genau', 'klar', 'na klar', 'natürlich', 'sicher', 'gerne', 'gern',
    'richtig', 'stimmt', 'korrekt', 'auf jeden fall', 'selbstverständlich', 'ja bitte', 'ja gerne', 'passt', 'ok', 'okay',
    'in ordnung', 'freilich', 'doch', 'sehr gerne', 'unbedingt', 'allerdings', 'zutreffend', 'das stimmt', 'haben wir',
    'habe ich', '👍', '✅',
  ],
  no: [
    'nein', 'nö', 'nee', 'nope', 'auf keinen fall', 'keinesfalls', 'gar nicht', 'überhaupt nicht', 'nicht wirklich',
    'noch nicht', 'niemals', 'nie', 'falsch', 'nein danke', 'eher nicht', 'lieber nicht', 'natürlich nicht', 'sicher nicht',
    'bestimmt nicht', 'eigentlich nicht', 'stimmt nicht', 'nicht richtig', 'haben wir nicht', 'habe ich nicht', 'ne danke',
    // ein weiches Nein
    'glaub nicht', 'glaube nicht', 'ich glaube nicht', 'ich glaub nicht', 'denke nicht', 'ich denke nicht', 'glaube ich nicht', 'denke ich nicht',
    '👎', '❌',
  ],
  neither: [
    'weiß nicht', 'weiß ich nicht', 'weiß es nicht', 'keine ahnung', 'vielleicht', 'unsicher', 'nicht sicher', 'bin mir nicht sicher', 'kommt darauf an',
    'kommt drauf an', 'ja und nein', 'ja oder nein', 'mal sehen', 'eventuell', 'möglicherweise', 'jein', 'kann sein', 'könnte sein', 'mag sein',
    // a half yes ("ja, aber nur einmal im Monat"), as English's "but only"
    'aber nur', 'nur teilweise', 'teilweise', 'zum teil', 'so halb',
  ],
  declines: [
    'nein', 'nö', 'nee', 'nein danke', 'ne danke', 'nichts', 'nichts weiter', 'nichts mehr', 'sonst nichts', 'das wars', "das war's",
    'das war es', 'das ist alles', 'das wäre alles', 'mehr nicht', 'passt so', 'alles gut', 'nicht wirklich', 'eigentlich nicht', 'danke',
    // „passt schon“, „alles bestens“: nichts mehr nötig
    'passt schon', 'passt', 'alles bestens', 'alles klar', 'nichts hinzuzufügen', 'brauche ich nicht', 'brauch ich nicht', 'nicht nötig',
  ],
  invitesSkip: ['überspringen', 'falls nicht', 'wenn nicht', 'falls vorhanden', 'wenn vorhanden', 'optional', 'freiwillig', 'leer lassen', 'falls zutreffend', 'falls ja', 'falls es', 'wenn es'],
  negators: [
    'nicht', 'kein', 'keine', 'keinen', 'keiner', 'keinem', 'keines', 'ohne', 'außer', 'statt', 'anstatt', 'anstelle von',
    'weder', 'nie', 'niemals', 'bloß nicht', 'alles außer',
  ],
  joiners: ['und', 'oder', 'plus', 'sowie', 'und auch', 'oder vielleicht', 'und vielleicht', 'oder auch'],
  conjunctions: { and: ['und'], or: ['oder'], but: ['aber'] },
  both: ['beide', 'beides', 'beiden'],
  alsoAfter: ['auch', 'ebenfalls'],
  joinFiller: ['das', 'es', 'ich', 'wir', 'sie', 'der', 'die', 'den', 'ein', 'eine', 'einen', 'also', 'dann', 'so', 'bitte', 'danke', 'ja', 'ok', 'okay', 'nicht', 'nein', 'nichts', 'äh', 'ähm', 'hm'],
  filler: ['ein', 'eine', 'einen', 'der', 'die', 'das', 'den', 'dem', 'und', 'oder', 'also', 'ok', 'okay', 'ja', 'jo', 'äh', 'ähm', 'hm', 'hmm', 'na', 'naja', 'nun', 'hallo', 'hi', 'moin',
    'bitte', 'danke', 'ich', 'wir', 'mein', 'meine', 'unser', 'unsere', 'es', 'ist', 'sind', 'war', 'wäre', 'wird', 'würde', 'sein', 'das', 'dies', 'etwa', 'ungefähr', 'ca', 'ca.', 'circa',
    'rund', 'so', 'vielleicht', 'wahrscheinlich', 'glaube', 'denke', 'schätze', 'sagen', 'wir', 'mal', 'nur', 'genau', 'mindestens', 'höchstens', 'maximal', 'von', 'im', 'in', 'am',
    'an', 'für', 'zu', 'mit', 'bei', 'insgesamt', 'gesamt', 'alles', 'haben', 'hat', 'habe', 'brauchen', 'möchten', 'wollen', 'budget', 'nummer', 'soll', 'sollte', 'jetzt', 'derzeit',
    'aktuell', 'hier', 'gut', 'prima', 'super', 'eigentlich', 'halt', 'eben', 'doch', 'schon', 'dann',
    'um', 'so', 'die', 'gerne', 'gern', 'wenn', 'möglich', 'wirklich', 'auf', 'jeden', 'fall', 'sicher', 'bestimmt', 'sie', 'er', 'ihr', 'sein', 'geboren', 'jahre', 'jahr', 'jahren', 'alt', 'grad', 'minus', 'euro', 'eur', 'dollar', 'prozent', 'uns', 'wir', 'nehmen', 'guten', 'tag', 'morgen', 'abend', 'hätten', 'gern', 'unserem', 'unserer', 'unseren', 'unseres', 'euer', 'eure', 'fühle', 'fühlt'],
};
