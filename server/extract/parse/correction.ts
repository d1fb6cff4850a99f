import type { Lang } from '../../shared/lexicon/index.ts';

/**
 * Self-corrections inside one reply: "3 courts — sorry, 4", "3, no wait, 4",
 * "3 actually 4", "yes, I mean no". The words after the last marker are the
 * answer when they hold one; otherwise (a trailing "sorry", "actually" as a
 * lead-in) the whole reply is read as usual.
 */
const MARKER = /(?<![\p{L}\p{N}'’])(?:sorry|no wait|wait|actually|i mean|i meant|correction|make that|make it|scratch that|oops|or rather|no(?=[\s,]+(?:\d|zero|one|two|three|four|five|six|seven|eight|nine|ten)(?![\p{L}])))(?![\p{L}\p{N}'’])/giu;

// The same in German, French and Spanish: "vier — sorry, fünf", "vier, nein, fünf", "quatre, pardon, cinq", "cuatro, perdón, cinco".
// "nein"/"non"/"no" is a marker only before a number (elsewhere it answers or negates).
const MARKERS: Readonly<Record<Exclude<Lang, 'en'>, RegExp>> = {
  de: /(?<![\p{L}\p{N}'’])(?:sorry|entschuldigung|pardon|äh|ich meine|ich meinte|moment|warte|korrektur|besser gesagt|nein(?=[\s,]+(?:\d|null|ein|zwei|drei|vier|fünf|fuenf|sechs|sieben|acht|neun|zehn|elf|zwölf|zwoelf|zwanzig|dreißig|dreissig|vierzig|fünfzig|sechzig|siebzig|achtzig|neunzig|hundert|tausend)))(?![\p{L}\p{N}'’])/giu,
  fr: /(?<![\p{L}\p{N}'’])(?:pardon|désolé|désolée|je veux dire|je voulais dire|attendez|attends|correction|plutôt|non(?=[\s,]+(?:\d|zéro|un|une|deux|trois|quatre|cinq|six|sept|huit|neuf|dix|onze|douze|treize|quatorze|quinze|seize|vingt|trente|quarante|cinquante|soixante|cent|mille)(?![\p{L}])))(?![\p{L}\p{N}'’])/giu,
  es: /(?<![\p{L}\p{N}'’])(?:perdón|perdon|perdona|lo siento|quiero decir|quise decir|digo|mejor dicho|espera|corrijo|no(?=[\s,]+(?:\d|cero|uno|una|un|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|once|doce|veinte|veinti\p{L}*|treinta|cuarenta|cincuenta|sesenta|setenta|ochenta|noventa|cien|ciento|mil)(?![\p{L}])))(?![\p{L}\p{N}'’])/giu,
};

/** The part of the reply after its last self-correction marker, when something came before it; null when there is none. */
export function correctedTail(text: string, lang: Lang = 'en'): string | null {
  let last: RegExpExecArray | null = null;
  const marker = lang === 'en' ? MARKER : MARKERS[lang];
  marker.lastIndex = 0;
  for (let m = marker.exec(text); m; m = marker.exec(text)) last = m;
  if (!last) return null;
  const head = text.slice(0, last.index);
  const tail = text.slice(last.index + last[0].length);
  if (!/[\p{L}\p{N}]/u.test(head) || !/[\p{L}\p{N}]/u.test(tail)) return null;
  return tail.replace(/^[\s,;:.!—–-]+/u, '');
}
