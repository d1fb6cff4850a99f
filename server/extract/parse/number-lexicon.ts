import type { Lang } from '../../shared/lexicon/index.ts';

// The words around a number that change what it means, per language: a
// negation before it ("not 4", "nicht 4", "pas 4", "no 4"), an open end after
// it ("10 or more"), a hedge, "none", a count of things where a measure is
// asked ("2 tennis courts", "2 Tennisplätze"), a minus. English is what the
// rules were written with (moved here unchanged from number.ts); the others
// follow it where the language allows. `few` ("a couple") has no counterpart:
// "ein paar", "quelques", "unos cuantos" mean a few, not two.

/** The patterns parseNumber reads around numbers, and the clarifications it writes with them. */
export interface NumberWords {
  negated: RegExp;
  openEnded: RegExp;
  hedge: RegExp;
  counted: RegExp;
  none: RegExp;
  few: RegExp | null;
  minusBefore: RegExp;
  belowZero: RegExp;
  outOf: RegExp;
  half: RegExp;
  /** "old" after "18 months": an age, so a unit after the number is not a problem. */
  old: RegExp;
  /** Words after two numbers that are not labels of different things ("2 or 3"). */
  joiners: readonly string[];
  bestEstimate: string;
  giveIn: (unit: string) => string;
  plainNumber: (unit: string) => string;
  /** An amount in another currency (`typed`, or '$' for a dollar of no stated country), asked again in the question's. */
  otherCurrency: (typed: string, wanted: string) => string;
}

const EN: NumberWords = {
  negated: /(?<![\p{L}])(?:(?:not|isn['’]?t)\s+(?:(?:more|less|fewer|over|under|above|below|bigger|smaller|higher|lower|much|many)\s+(?:than\s+)?)?|no\s+(?:more|less|fewer|bigger|smaller|higher|lower)\s+than\s+)(?:about\s+|around\s+|even\s+)?[$€£¥₹]?\s?$/iu,
  openEnded: /^(?:\+(?!\s*\d)|\s*(?:or|and)\s+(?:more|over|above|up)\b)/iu,
  hedge: /(?<![\p{L}])(?:not sure|no idea|don['’]?t know|dunno|idk|can['’]?t remember|no clue)(?![\p{L}])/iu,
  counted: /^\s*(?:[\p{L}]+\s+)?(?:courts?|poles?|people|persons?|pieces?|units?|items?|rooms?|fields?|pitches?|lights?|players?|teams?)\b/iu,
  none: /^[\s,.!]*(?:none|nothing|no one|nobody|zero|not a single one)[\s,.!]*$/iu,
  few: /(?<![\p{L}])(?:(just me|only me|just myself|only myself|me alone|just one of us)|a (?:couple|pair)(?: of)?)(?![\p{L}])/iu,
  minusBefore: /(?<![\p{L}])(?:minus|negative)\s*$/iu,
  belowZero: /^\s*(?:degrees?\s+|°\s*c?\s+)?below(?:\s+zero)(?![\p{L}])/iu,
  outOf: /(?:\/|\bout of|\bof)\s*$/iu,
  half: /^\s*(?:-?and-?\s*a\s+half|and\s+half|½)(?![\p{L}])/iu,
  old: /^\s*old\b/i,
  joiners: ['and', 'or', 'but', 'not', 'sorry', 'maybe'],
  bestEstimate: "If you're not sure, your best estimate is fine — what number should I note?",
  giveIn: (unit) => `Please give that in ${unit}.`,
  plainNumber: (unit) => `Please give that as a plain number (without "${unit}").`,
  otherCurrency: (typed, wanted) => `That amount is in ${typed} — please give it in ${wanted}; we don't convert currencies.`,
};

const DE: NumberWords = {
  negated: /(?<![\p{L}])(?:nicht|kein(?:e|en)?)\s+(?:(?:mehr|weniger|über|ueber|unter|größer|groesser|kleiner|höher|hoeher|niedriger)\s+(?:als\s+)?)?(?:ungefähr\s+|etwa\s+|mal\s+)?[$€£¥₹]?\s?$/iu,
  openEnded: /^(?:\+(?!\s*\d)|\s*(?:oder|und)\s+(?:mehr|darüber|drüber)(?![\p{L}]))/iu,
  hedge: /(?<![\p{L}])(?:nicht sicher|keine ahnung|weiß nicht|weiss nicht|kann mich nicht erinnern)(?![\p{L}])/iu,
  counted: /^\s*(?:[\p{L}]+\s+)?[\p{L}]*(?:plätze|platz|felder|feld|courts?|masten|mast|personen|leute|stück|räume|raum|spieler|teams?|leuchten|lampen)(?![\p{L}])/iu,
  none: /^[\s,.!]*(?:keine|keiner|keins|niemand|gar keine|nichts)[\s,.!]*$/iu,
  few: null,
  minusBefore: /(?<![\p{L}])(?:minus)\s*$/iu,
  belowZero: /^\s*(?:grad\s+|°\s*c?\s+)?unter\s+null(?![\p{L}])/iu,
  outOf: /(?:\/|\bvon)\s*$/iu,
  half: /^\s*(?:und\s+ein\s+halb|einhalb|½)(?![\p{L}])/iu,
  old: /^\s*alt(?![\p{L}])/iu,
  joiners: ['und', 'oder', 'aber', 'nicht', 'sorry', 'vielleicht', 'bzw'],
  bestEstimate: 'Wenn Sie es nicht genau wissen, reicht eine Schätzung — welche Zahl soll ich notieren?',
  giveIn: (unit) => `Bitte geben Sie das in ${unit} an.`,
  plainNumber: (unit) => `Bitte geben Sie das als reine Zahl an (ohne „${unit}“).`,
  otherCurrency: (typed, wanted) => `Dieser Betrag ist in ${typed === '$' ? 'Dollar' : typed} — bitte geben Sie ihn in ${wanted} an; wir rechnen keine Währungen um.`,
};

const FR: NumberWords = {
  negated: /(?<![\p{L}])(?:pas|non)\s+(?:(?:plus|moins)\s+(?:de|que)\s+)?(?:environ\s+|à peu près\s+)?[$€£¥₹]?\s?$/iu,
  openEnded: /^(?:\+(?!\s*\d)|\s*(?:ou|et)\s+(?:plus|davantage)(?![\p{L}]))/iu,
  hedge: /(?<![\p{L}])(?:pas sûr|pas sure|aucune idée|je ne sais pas|je sais pas)(?![\p{L}])/iu,
  counted: /^\s*(?:[\p{L}]+\s+)?(?:terrains?|courts?|poteaux?|mâts?|personnes?|gens|pièces?|salles?|joueurs?|équipes?|lampes?)(?![\p{L}])/iu,
  none: /^[\s,.!]*(?:aucun|aucune|personne|rien|pas un seul|pas une seule)[\s,.!]*$/iu,
  few: null,
  minusBefore: /(?<![\p{L}])(?:moins)\s*$/iu,
  belowZero: /^\s*(?:degrés?\s+|°\s*c?\s+)?(?:au-dessous|en dessous)\s+de\s+zéro(?![\p{L}])/iu,
  outOf: /(?:\/|\bsur)\s*$/iu,
  half: /^\s*(?:et\s+demi(?:e)?|½)(?![\p{L}])/iu,
  old: /^\s*(?:ans|d'âge)(?![\p{L}])/iu,
  joiners: ['et', 'ou', 'mais', 'pas', 'pardon', 'peut'],
  bestEstimate: "Si vous n'êtes pas sûr, une estimation suffit — quel nombre dois-je noter ?",
  giveIn: (unit) => `Veuillez l'indiquer en ${unit}.`,
  plainNumber: (unit) => `Veuillez donner un nombre seul (sans « ${unit} »).`,
  otherCurrency: (typed, wanted) => `Ce montant est en ${typed === '$' ? 'dollars' : typed} — veuillez l'indiquer en ${wanted} ; nous ne convertissons pas les devises.`,
};

const ES: NumberWords = {
  negated: /(?<![\p{L}])no\s+(?:(?:más|mas|menos)\s+(?:de|que)\s+)?(?:unos\s+|unas\s+|aproximadamente\s+)?[$€£¥₹]?\s?$/iu,
  openEnded: /^(?:\+(?!\s*\d)|\s*(?:o|y)\s+(?:más|mas)(?![\p{L}]))/iu,
  hedge: /(?<![\p{L}])(?:no estoy segur[oa]|ni idea|no sé|no se|no lo sé|no me acuerdo)(?![\p{L}])/iu,
  counted: /^\s*(?:[\p{L}]+\s+)?(?:canchas?|pistas?|campos?|postes?|personas?|gente|piezas?|salas?|jugador(?:es)?|equipos?|lámparas?)(?![\p{L}])/iu,
  none: /^[\s,.!]*(?:ninguno|ninguna|nadie|nada|ni uno|ni una)[\s,.!]*$/iu,
  few: null,
  minusBefore: /(?<![\p{L}])(?:menos)\s*$/iu,
  belowZero: /^\s*(?:grados?\s+|°\s*c?\s+)?bajo\s+cero(?![\p{L}])/iu,
  outOf: /(?:\/|\bde)\s*$/iu,
  half: /^\s*(?:y\s+medio|y\s+media|½)(?![\p{L}])/iu,
  old: /^\s*(?:años|de edad)(?![\p{L}])/iu,
  joiners: ['y', 'o', 'pero', 'no', 'perdón', 'quizás', 'quizas'],
  bestEstimate: 'Si no está seguro, basta con una estimación: ¿qué número anoto?',
  giveIn: (unit) => `Indíquelo en ${unit}, por favor.`,
  plainNumber: (unit) => `Indique solo el número (sin «${unit}»), por favor.`,
  otherCurrency: (typed, wanted) => `Ese importe está en ${typed === '$' ? 'dólares' : typed}: indíquelo en ${wanted}, por favor; no convertimos divisas.`,
};

/** The number words of each language. */
export const NUMBER_WORDS: Readonly<Record<Lang, NumberWords>> = { en: EN, de: DE, fr: FR, es: ES };

