import type { Lexicon } from '../lexicon.ts';

/** Spanish. "si"/"sí" and other accents are folded alike by the matchers. */
export const ES: Lexicon = {
  skip: [
    'anónimo', 'anónima', 'prefiero quedarme en el anonimato', 'prefiero ser anónimo', 'prefiero ser anónima', 'saltar', 'omitir', 'paso', 'siguiente pregunta', 'no sé', 'no lo sé', 'yo no sé', 'no sabría decir', 'no sabría decirte',
    'ni idea', 'no tengo idea', 'no tengo ni idea', 'ninguna idea', 'no estoy seguro', 'no estoy segura', 'no lo tengo claro',
    'prefiero no decirlo', 'prefiero no decir', 'prefiero no contestar', 'prefiero no responder', 'prefiero no darlo',
    'no aplica', 'no corresponde', 'quién sabe', 'ni puta idea', 'nose',
  ],
  askBack: [
    'qué quiere decir', 'que quiere decir', 'a qué se refiere', 'a que se refiere', 'no entiendo la pregunta', 'cómo', 'perdón',
    'es obligatorio', 'es necesario', 'tengo que responder', 'tengo que decirlo', 'hace falta',
  ],
  skipFiller: [
    'lo', 'siento', 'la', 'verdad', 'sinceramente', 'pues', 'eh', 'em', 'mmm', 'bueno', 'ahora', 'mismo', 'por', 'de',
    'momento', 'perdón', 'perdona', 'gracias', 'no', 'sí', 'ya', 'eso', 'esto', 'pregunta', 'yo', 'todavía', 'aún',
    'realmente', 'la verdad', 'ok', 'vale', 'nosotros', 'me', 'temo', 'que', 'esa', 'esta', 'el', 'dato', 'número', 'fecha',
    'exacto', 'exactamente', 'seguro',
  ],
  human: [
    'hablar con una persona', 'hablar con alguien', 'hablar con un humano', 'hablar con un agente', 'hablar con un asesor',
    'hablar con una asesora', 'hablar con un operador', 'persona real', 'una persona de verdad', 'un humano por favor',
    'agente por favor', 'asesor por favor', 'atención humana', 'atención al cliente por favor',
    'pásame con alguien', 'pásame con una persona', 'quiero un humano', 'necesito un humano',
  ],
  yes: [
    'sí', 'si', 'sip', 'claro', 'claro que sí', 'por supuesto', 'desde luego', 'vale', 'ok', 'okay', 'de acuerdo', 'correcto',
    'exacto', 'exactamente', 'cierto', 'efectivamente', 'sí por favor', 'sí gracias', 'afirmativo', 'así es', 'eso es',
    'seguro', 'perfecto', 'dale', 'obvio', 'venga', 'sin duda', '👍', '✅',
  ],
  no: [
    'no', 'nop', 'nope', 'para nada', 'de ninguna manera', 'de ningún modo', 'claro que no', 'por supuesto que no',
    'nunca', 'jamás', 'no gracias', 'no, gracias', 'todavía no', 'aún no', 'en absoluto', 'falso', 'incorrecto',
    'no realmente', 'realmente no', 'tampoco', 'ni hablar', 'nada', '👎', '❌',
  ],
  neither: [
    'no sé', 'no lo sé', 'ni idea', 'quizás', 'quizá', 'tal vez', 'a lo mejor', 'no estoy seguro', 'no estoy segura',
    'depende', 'sí y no', 'sí o no', 'puede ser', 'no sabría decir',
  ],
  declines: [
    'no', 'nop', 'no gracias', 'nada', 'nada más', 'nada mas', 'eso es todo', 'es todo', 'ya está', 'todo bien', 'no realmente', 'gracias',
    'no nada', 'nada que añadir',
  ],
  invitesSkip: ['saltar', 'omitir', 'si no', 'si tiene', 'si hay', 'opcional', 'en su caso', 'dejar en blanco', 'si procede', 'si corresponde'],
  negators: [
    'no', 'sin', 'ni', 'nunca', 'jamás', 'excepto', 'salvo', 'en vez de', 'en lugar de', 'ningún', 'ninguno',
    'ninguna', 'todo menos', 'no quiero', 'nada de',
  ],
  joiners: ['y', 'e', 'o', 'u', 'más', 'así como', 'y también', 'o tal vez', 'o quizás', 'y quizás'],
  conjunctions: { and: ['y'], or: ['o'], but: ['pero'] },
  both: ['ambos', 'ambas', 'los dos', 'las dos'],
  alsoAfter: ['también'],
  joinFiller: ['eso', 'esto', 'es', 'yo', 'nosotros', 'el', 'la', 'los', 'las', 'un', 'una', 'entonces', 'pues', 'luego', 'gracias', 'sí', 'si', 'ok', 'no', 'nada', 'eh', 'em'],
  filler: ['un', 'una', 'unos', 'unas', 'el', 'la', 'los', 'las', 'de', 'del', 'y', 'o', 'pues', 'ok', 'vale', 'sí', 'si', 'eh', 'em', 'bueno', 'hola', 'por', 'favor', 'gracias', 'yo',
    'nosotros', 'mi', 'mis', 'nuestro', 'nuestra', 'es', 'son', 'sería', 'será', 'eso', 'esto', 'unos', 'aproximadamente', 'alrededor', 'más', 'menos', 'quizás', 'quizas', 'tal', 'vez',
    'probablemente', 'creo', 'diría', 'solo', 'sólo', 'exactamente', 'al', 'como', 'máximo', 'mínimo', 'en', 'para', 'con', 'total', 'todo', 'tenemos', 'tengo', 'hay', 'necesitamos',
    'queremos', 'presupuesto', 'número', 'ahora', 'actualmente', 'aquí', 'bien', 'perfecto',
    'que', 'viene', 'gustaría', 'me', 'si', 'posible', 'realmente', 'claro', 'seguro', 'ella', 'él', 'nació', 'años', 'año', 'edad', 'grados', 'grado', 'menos', 'euro', 'euros', 'dólares', 'por', 'ciento', 'nos', 'nosotros', 'tomar'],
};
