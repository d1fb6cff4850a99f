import type { YesNoWords } from '../yes-no-words.ts';

/** Spanish yes/no by content (server/extract/offline/yes-no-content.ts); matching folds case and accents. */
export const ES_YES_NO: YesNoWords = {
  any: ['algun', 'alguno', 'alguna', 'algunos', 'algunas', 'algo', 'hay'],
  none: [
    'ninguno', 'ninguna', 'nada', 'nada de nada', 'ninguno en absoluto', 'nada en absoluto', 'nada de eso', 'nada parecido',
    'nada por el estilo', 'ninguno de esos', 'que yo sepa no', 'no que yo sepa', 'no que sepamos', 'ninguno conocido', 'nada conocido',
    'ya no', 'no ninguno', 'no nada', 'no que yo recuerde', 'que yo recuerde no',
  ],
  anyWords: ['nada', 'ninguno', 'ninguna'],
  listJoiners: ['o', 'u'],
  notItems: ['momento', 'actualmente', 'ahora', 'importante', 'posibilidad', 'podria', 'parece'],
  fine: ['bien', 'ok', 'okay', 'normal', 'estable', 'solido', 'firme', 'en orden', 'en buen estado', 'seguro', 'intacto'],
  neutral: ['nuevo', 'nueva', 'nuevos', 'nuevas', 'viejo', 'vieja', 'antiguo', 'antigua', 'reemplazado', 'cambiado', 'reparado', 'instalado', 'revisado', 'led', 'anos', 'normalmente', 'por lo general'],
  ended: ['ya no', 'antes', 'dejo de', 'deje de', 'termino', 'vencio', 'caduco', 'se acabo'],
};
