import type { Lexicon } from '../lexicon.ts';

/** French. Accents and apostrophes (’ or ') are folded alike by the matchers. */
export const FR: Lexicon = {
  skip: [
    'anonyme', 'rester anonyme', 'je préfère rester anonyme', 'passer', 'je passe', 'sauter', 'question suivante', 'je ne sais pas', 'je sais pas', 'sais pas', 'chais pas',
    "j'sais pas", 'je ne sais', "aucune idée", "pas d'idée", 'pas sûr', 'pas sûre', 'je ne suis pas sûr',
    'je ne suis pas sûre', 'je suis pas sûr', 'je suis pas sûre', 'pas certain', 'pas certaine', 'je ne préfère pas dire',
    'je préfère ne pas dire', 'je préfère ne pas répondre', 'préfère ne pas dire', 'préfère ne pas répondre',
    'je préfère ne pas le dire', 'sans réponse', 'sans objet', 'non applicable', 'non concerné', 'non concernée', 'je ne saurais dire',
    'aucune idee', 'ne sais pas', 'je ne sais vraiment pas',
  ],
  askBack: [
    "qu'est-ce que vous voulez dire", 'que voulez-vous dire', 'comment ça', 'je ne comprends pas la question', "c'est-à-dire", 'pardon',
    "c'est obligatoire", 'est-ce obligatoire', 'est-ce nécessaire', "c'est nécessaire", 'je dois répondre', 'je dois le dire', 'faut-il répondre',
  ],
  skipFiller: [
    'désolé', 'désolée', 'franchement', 'honnêtement', 'euh', 'heu', 'bah', 'ben', 'bon', 'alors', 'merci', 'pour',
    "l'instant", 'le', 'la', 'les', 'moment', 'vraiment', 'non', 'oui', 'je', 'ça', 'ca', 'question', 'cette', 'en',
    'fait', 'du', 'encore', 'pas', 'pour', 'maintenant', 'ok', 'okay', "d'accord", 'hmm', 'sincèrement', 'nous', 'on',
    'nombre', 'numéro', 'date', 'exactement', 'exacte', 'exact',
  ],
  human: [
    "parler à quelqu'un", "parler a quelqu'un", "parler avec quelqu'un", 'parler à un humain', 'parler avec un humain',
    'parler à une personne', 'parler avec une personne', 'parler à un conseiller', 'parler à une conseillère',
    'parler avec un conseiller', 'parler à un agent', 'un vrai humain', 'une vraie personne', 'une personne réelle',
    'conseiller svp', "conseiller s'il vous plaît", 'un humain svp', "un humain s'il vous plaît", 'un conseiller svp',
    'être rappelé', 'mettez-moi en relation',
  ],
  yes: [
    'oui', 'ouais', 'ouaip', 'oui oui', 'bien sûr', 'évidemment', 'absolument', 'exactement', 'exact', 'tout à fait',
    "d'accord", "d'ac", 'ok', 'okay', 'volontiers', 'certainement', 'carrément', 'affirmatif', 'c\'est ça', "c'est exact",
    'correct', 'vrai', 'oui merci', "oui s'il vous plaît", 'oui svp', 'avec plaisir', 'bien entendu', 'en effet', '👍', '✅',
  ],
  no: [
    'non', 'nan', 'nope', 'pas du tout', 'absolument pas', 'certainement pas', 'bien sûr que non', 'jamais', 'non merci',
    'pas vraiment', 'pas encore', 'pas question', 'hors de question', 'faux', 'incorrect', 'pas exactement', 'aucunement',
    'nullement', 'surtout pas', 'plutôt pas', 'pas pour le moment', '👎', '❌',
  ],
  neither: [
    'je ne sais pas', 'je sais pas', 'aucune idée', 'peut-être', 'peut être', 'pas sûr', 'pas sûre', 'ça dépend', 'ca depend',
    'oui et non', 'oui ou non', 'pas certain', 'pas certaine', 'on verra', 'éventuellement',
  ],
  declines: [
    'non', 'nan', 'non merci', 'rien', 'rien de plus', 'rien d\'autre', 'rien à ajouter', "c'est tout", 'ça ira', 'pas vraiment', 'merci',
    'non rien', 'tout est bon',
  ],
  invitesSkip: ['passer', 'sinon', 'si aucun', 'si aucune', 'le cas échéant', 'facultatif', 'facultative', 'optionnel', 'optionnelle', 'si vous en avez', 'laisser vide', 's\'il y en a'],
  negators: [
    'pas', 'pas de', 'pas le', 'pas la', 'pas les', 'pas du', 'sans', 'sauf', 'ni', 'aucun', 'aucune', 'jamais',
    'au lieu de', 'au lieu du', 'plutôt que', 'excepté', 'hormis', 'à part', 'tout sauf', 'non pas',
  ],
  joiners: ['et', 'ou', 'plus', 'ainsi que', 'et aussi', 'ou bien', 'ou peut-être', 'et peut-être'],
  conjunctions: { and: ['et'], or: ['ou'], but: ['mais'] },
  both: ['les deux', 'tous les deux', 'toutes les deux'],
  alsoAfter: ['aussi', 'également'],
  joinFiller: ['ça', 'ca', 'ce', "c'est", 'cest', 'je', "j'ai", 'nous', 'on', 'le', 'la', 'les', 'un', 'une', 'alors', 'donc', 'puis', 'svp', 'merci', 'oui', 'ok', 'non', 'pas', 'rien', 'euh'],
  filler: ['un', 'une', 'le', 'la', 'les', "l'", 'de', 'des', 'du', "d'", 'et', 'ou', 'donc', 'ok', 'oui', 'ouais', 'euh', 'bah', 'ben', 'bonjour', 'salut', 's\'il', 'vous', 'plaît', 'plait',
    'svp', 'merci', 'je', "j'ai", 'nous', 'on', 'mon', 'ma', 'mes', 'notre', 'nos', "c'est", 'ce', 'est', 'sont', 'serait', 'sera', 'environ', 'à', 'peu', 'près', 'vers', 'peut-être',
    'probablement', 'pense', 'crois', 'dirais', 'juste', 'seulement', 'exactement', 'au', 'moins', 'plus', 'maximum', 'minimum', 'en', 'dans', 'pour', 'avec', 'par', 'total', 'tout',
    'avons', 'a', 'ai', 'faut', 'voulons', 'veux', 'budget', 'numéro', 'actuellement', 'maintenant', 'ici', 'bien', 'bon', 'parfait',
    "j'en", 'en', "j'aimerais", 'voudrais', 'si', 'possible', 'vraiment', 'certainement', 'absolument', 'elle', 'il', 'ils', 'né', 'née', 'ans', 'an', 'âge', 'degrés', 'degré', 'moins', 'euro', 'euros', "d'euros", 'dollars', 'pour', 'cent', 'nous', 'prendre'],
};
