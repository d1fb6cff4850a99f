import type { YesNoWords } from '../yes-no-words.ts';

/** French yes/no by content (server/extract/offline/yes-no-content.ts); matching folds case and accents. */
export const FR_YES_NO: YesNoWords = {
  any: ['des', 'du', 'de la', 'un', 'une', 'quelque chose', 'quelconque', 'quelconques', 'y a-t-il', 'il y a'],
  none: [
    'aucun', 'aucune', 'rien', 'rien du tout', 'aucun du tout', 'pas du tout', 'rien de tout ca', 'rien de tout cela', 'rien de ce genre',
    'rien de la sorte', 'aucun de ceux-la', 'pas que je sache', 'pas a ma connaissance', 'rien a signaler', 'rien de connu', 'aucun connu',
    'plus maintenant', 'plus du tout', 'non aucun', 'non rien', 'pas que je me souvienne', 'rien qui me vienne a l esprit',
  ],
  anyWords: ['rien', 'aucun', 'aucune'],
  listJoiners: ['ou'],
  notItems: ['moment', 'actuellement', 'maintenant', 'important', 'risque', 'pourrait', 'semble'],
  fine: ['bien', 'ok', 'okay', 'normal', 'normale', 'stable', 'solide', 'en ordre', 'en bon etat', 'securise', 'sans danger', 'intact'],
  neutral: ['neuf', 'neuve', 'neufs', 'neuves', 'nouveau', 'nouvelle', 'ancien', 'ancienne', 'remplace', 'remplacee', 'repare', 'reparee', 'installe', 'installee', 'verifie', 'verifiee', 'controle', 'entretenu', 'led', 'ans', "d'habitude", 'normalement'],
  ended: ['plus maintenant', 'ne plus', "n'est plus", 'avant', 'autrefois', 'arrete', 'termine', 'expire', 'fini'],
};
