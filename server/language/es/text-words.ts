import type { TextWords } from '../text-words.ts';

/** Spanish: the short-text words (server/language/text-words.ts). */
export const ES_TEXT: TextWords = {
  exampleBefore: ['se parece a', 'parece', 'por ejemplo', 'p. ej.', 'como', 'formato', 'del tipo'],
  pointers: ['igual que', 'lo mismo que', 'el mismo que', 'la misma que', 'ver mi', 'ver el', 'ver la', 'ver correo', 'ver arriba', 'como antes', 'como la última vez', 'en mi correo', 'en el correo', 'ya lo dije', 'ya te lo dije', 'ya se lo dije', 'ídem'],
  pointersAlone: ['como dije', 'como ya dije', 'como mencioné', 'como he dicho', 'arriba'],
  privateUse: ['privado', 'privada', 'proyecto privado', 'particular', 'mi jardín', 'nuestro jardín', 'jardín', 'en casa', 'mi casa', 'nuestra casa', 'para mí', 'uso personal'],
  leadIns: ['es para el', 'es para la', 'es para', 'para el', 'para la', 'para', 'somos el', 'somos la', 'somos'],
  namedAs: { before: ['el', 'la', 'nuestro', 'nuestra', 'mi'], verbs: ['es', 'se llama'], articles: ['el', 'la'] },
  selfIntro: ['soy', 'yo soy', 'trabajo', 'llevo'],
  vagueWords: ['mi', 'mis', 'nuestro', 'nuestra', 'el', 'la', 'los', 'las', 'un', 'una', 'del', 'de', 'para', 'por', 'con', 'en', 'al', 'local'],
  vagueNouns: ['club', 'ayuntamiento', 'municipio', 'ciudad', 'colegio', 'escuela', 'empresa', 'compañía', 'asociación', 'equipo', 'gimnasio', 'iglesia', 'universidad', 'trabajo', 'empleador', 'seguro', 'aseguradora', 'organización'],
  clauseWords: ['es', 'son', 'está', 'somos', 'soy', 'tiene', 'tienen', 'él', 'ella'],
  notGiven: ['no lo tengo', 'perdí', 'no sé', 'no encuentro', 'a mano'],
  quantityOnly: ['muchos', 'muchas', 'varios', 'varias', 'algunos', 'algunas', 'bastantes', 'demasiados'],
  deferrals: ['los traigo', 'lo traigo', 'las traigo', 'le digo después', 'se encarga', 'lo lleva mi', 'tengo que mirar', 'tengo que preguntar'],
  contentFree: ['yo', 'él', 'ella', 'ellos', 'eso', 'esto', 'los', 'las', 'lo', 'la', 'el', 'mi', 'mis', 'son', 'es', 'están', 'raros', 'raro', 'rara', 'raras', 'solo', 'marido', 'esposa', 'mujer', 'de', 'eso', 'después', 'luego'],
  unsure: ['no me acuerdo', 'no recuerdo', 'olvidé', 'ni idea', 'no sé'],
  abbreviations: ['sr', 'sra', 'srta', 'dr', 'dra', 'av', 'avda', 'sto', 'sta', 'aprox', 'no+digit', 'núm', 'num'],
  codeWords: ['id', 'número', 'no', 'nº', 'código', 'referencia', 'ref'],
  asksNeed: ['qué necesita', 'lo que necesita', 'en qué podemos ayudar', 'cómo podemos ayudar', 'su consulta', 'su pregunta', 'su solicitud', 'de qué se trata', 'algo más'],
  nonDescription: [
    'llamar', 'llámenme', 'llámeme', 'llamada', 'llamen', 'contactar', 'contacto', 'hablar', 'alguien', 'persona', 'ayuda', 'pregunta', 'consulta',
    'información', 'info', 'solo mirando', 'mirando', 'curiosidad', 'anuncio', 'publicidad', 'facebook', 'instagram', 'google', 'web', 'vi', 'encontré',
    'recomendó', 'recomendación',
  ],
  aboutService: [
    'garantía', 'cubre', 'cubierto', 'cuesta', 'costo', 'coste', 'precio', 'precios', 'gratis', 'pagar', 'reembolso', 'factura', 'queja', 'quejarme',
    'responsable', 'cuánto', 'técnico', 'reparar', 'reparación', 'normal', 'grave', 'urgente',
  ],
};
