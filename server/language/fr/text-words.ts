import type { TextWords } from '../text-words.ts';

/** French: the short-text words (server/language/text-words.ts). */
export const FR_TEXT: TextWords = {
  exampleBefore: ['ressemble à', 'par exemple', 'p. ex.', 'comme', 'format', 'du type'],
  pointers: ['pareil que', 'même chose que', 'le même que', 'la même que', 'voir mon', 'voir ma', 'voir le', 'voir la', 'voir mail', 'voir e-mail', 'voir ci-dessus', 'comme avant', 'comme la dernière fois', 'dans mon mail', 'dans mon e-mail', 'je vous l\'ai déjà dit', 'déjà dit', 'idem'],
  pointersAlone: ['comme je disais', 'comme je l\'ai dit', 'comme dit', 'comme mentionné', 'ci-dessus'],
  privateUse: ['privé', 'privée', 'projet privé', 'particulier', 'à titre privé', 'mon jardin', 'notre jardin', 'jardin', 'chez moi', 'à la maison', 'pour moi', 'ma maison', 'notre maison'],
  leadIns: ["c'est pour le", "c'est pour la", "c'est pour l'", "c'est pour", 'pour le', 'pour la', "pour l'", 'pour', 'nous sommes le', 'nous sommes la', 'nous sommes'],
  namedAs: { before: ['le', 'la', 'notre', 'mon', 'ma', "l'"], verbs: ['est', "s'appelle"], articles: ['le', 'la', "l'"] },
  selfIntro: ['je suis', 'je travaille', 'je gère', "j'y suis"],
  vagueWords: ['mon', 'ma', 'mes', 'notre', 'nos', 'le', 'la', 'les', "l'", 'un', 'une', 'du', 'de', 'des', 'pour', 'par', 'avec', 'chez', 'au', 'à', 'local', 'locale'],
  vagueNouns: ['club', 'mairie', 'commune', 'ville', 'école', 'entreprise', 'société', 'association', 'équipe', 'salle', 'église', 'université', 'travail', 'employeur', 'boulot', 'assurance', 'mutuelle', 'organisation'],
  clauseWords: ['est', 'sont', "c'est", 'il', 'elle', 'nous', 'je', 'ils', 'a', 'ont'],
  notGiven: ['pas sous la main', 'perdu', 'sais pas', 'sais plus', 'trouve pas'],
  quantityOnly: ['beaucoup', 'plusieurs', 'quelques-uns', 'quelques uns', 'certains', 'pas mal', 'trop'],
  deferrals: ["j'apporterai", 'je les apporterai', 'je vous dirai', "c'est mon mari qui", "c'est ma femme qui", 's’en occupe', "s'en occupe", 'je dois vérifier'],
  contentFree: ['je', 'il', 'elle', 'ils', 'elles', 'ça', 'ca', 'les', 'le', 'la', 'mon', 'ma', 'mes', 'sont', 'est', 'juste', 'bizarre', 'bizarres', 'bref', 'mari', 'femme', 'qui', 'plus', 'tard'],
  unsure: ['je ne sais plus', 'je ne me souviens pas', 'oublié', "j'ai oublié", 'aucune idée'],
  abbreviations: ['st', 'ste', 'dr', 'm', 'mme', 'mlle', 'pr', 'av', 'bd', 'env', 'no+digit', 'n+digit'],
  codeWords: ['id', 'numéro', 'no', 'n°', 'code', 'référence', 'ref'],
  asksNeed: [
    'de quoi vous avez besoin', 'ce dont vous avez besoin', 'en quoi pouvons-nous', 'comment pouvons-nous vous aider', 'comment puis-je vous aider',
    'votre demande', 'votre question', "de quoi il s'agit", 'autre chose',
  ],
  nonDescription: [
    'rappeler', 'rappel', 'rappelez', 'rappelez-moi', 'appeler', 'appelez', 'appelez-moi', 'appel', 'contacter', 'contactez', 'contactez-moi', 'joindre',
    'parler', "quelqu'un", 'personne', 'aide', 'question', 'renseignement', 'renseignements', 'info', 'infos', 'information', 'informations',
    'je regarde', 'juste regarder', 'curieux', 'curieuse', 'pub', 'publicité', 'annonce', 'facebook', 'instagram', 'google', 'site', 'vu', 'trouvé',
    'recommandé',
  ],
  aboutService: [
    'garantie', 'couvert', 'coûte', 'coût', 'prix', 'tarif', 'tarifs', 'gratuit', 'payer', 'remboursement', 'rembourser', 'facture', 'plainte',
    'plaindre', 'responsable', 'combien', 'technicien', 'réparer', 'réparation', 'normal', 'grave', 'urgent',
  ],
};
