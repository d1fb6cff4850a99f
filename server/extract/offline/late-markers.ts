/* The words and boundaries a late correction is found by: its markers, sentences and clauses. */

/** A sentence of a reply: it ends at . ! ? ; before a space or the end ("25.000 $" and "k.mueller@gmx.de" are one). */
export const SENTENCE = /(?:[^.!?;\n]|[.!?;](?![\s]|$))+[.!?;]*/gu;
/** Markers that a reply goes back to something said before (stronger than "sorry" or "actually", which also open a plain answer). */
export const LATE = /(?<![\p{L}])(?:wrong|typo|forgot|forgotten|mistake|hang on|hold on|oops|should be|should have said|i meant|meant to say|found it|missing|missed|left (?:off|out)|tippfehler|fehlt|fehlte|fehlten|falsch|falsche|falscher|falschen|falsches|vergessen|gefunden|versehentlich|korrigiere|nachtrag|doch|after all|moment|erreur|faute|oublié|error|equivoqué|olvidé|now (?:that )?i think about it|come to think of it|on second thought|wenn ich(?:['’]s| es) mir recht überlege|jetzt wo ich drüber nachdenke|machen sie(?: doch| lieber| bitte)* (?:\p{L}+ ){0,6}(?:draus|daraus)|mach(?: doch| lieber| bitte)* (?:\p{L}+ ){0,6}(?:draus|daraus))(?![\p{L}])/iu;
/** Words that put an answer another way ("more like 4 days", "ex-husband technically", "eher 25.000 $"): a correction when a new value is read, never a reason to ask again. */
export const APPROX = /(?<![\p{L}])(?:more like|closer to|technically|strictly speaking|eher|genau genommen|streng genommen|plutôt|más bien)(?![\p{L}])/iu;
/** A year said in a date: "1987", "'87". */
export const YEAR = /(?<![\p{N}])(?:\d{4}|'\d{2})(?![\p{N}])/u;
/** Words that add to a multiple choice rather than replace it. */
export const ADDS = /(?<![\p{L}])(?:also|too|as well|plus|forgot|forgotten|auch|außerdem|ausserdem|noch|zusätzlich|vergessen|aussi|también)(?![\p{L}])/iu;
/** "30k total", "in total 30k", "insgesamt 30.000": the total said beside a per-item figure. */
export const TOTAL = /(?<![\p{L}\p{N}])([$€£]?\d[\d.,]*\s?(?:k|m|tsd\.?|mio\.?)?\s?(?:[$€£]|dollars?|dollar|euros?)?)\s+(?:in\s+)?(?:total|altogether|overall|all in|insgesamt|gesamt)(?![\p{L}])|(?:total(?:\s+of)?|in total|insgesamt|gesamt)\s+([$€£]?\d[\d.,]*\s?(?:k|m|tsd\.?|mio\.?)?\s?(?:[$€£]|dollars?|dollar|euros?)?)/giu;
/** A head made only of interjections: "oh no", "ach nein", "ok so". */
export const INTERJECTIONS = /^[\s,;:—–-]*(?:(?:oh|ah|ach|ok|okay|no|nope|nein|nee|hmm|well|so|also|and|und|och|oje|oops|argh|hm|right)[\s,;:!—–-]*)+$/iu;
/** A clause boundary inside a sentence: a comma, semicolon, colon or dash. */
export const BOUNDARY = /[,;:]\s+|\s+[—–-]\s+|[—–]/gu;

/** "oh and a cough", "ach und Husten": an afterthought opening a clause. */
export const OH_AND = /(?<![\p{L}])(?:oh|ah|ach|oh,)\s+(?:and|und)(?![\p{L}])/iu;

/** The reply with `from`..`to` blanked and a joiner left at its start dropped. */
export function cut(text: string, from: number, to: number): string {
  return (text.slice(0, from) + ' '.repeat(to - from) + text.slice(to)).replace(/^[\s,.;:!—–-]*(?:(?:and|und|et|y|anyway|anyhow|anyways|jedenfalls|egal|wie auch immer)(?![\p{L}])[\s,]*)?\s*/iu, '').replace(/[\s,;:.!—–-]+$/u, '');
}

/** Where the clause holding the marker at `markerAt` starts: after the last boundary before it, else the sentence's start. */
export function clauseStart(sentence: string, markerAt: number): number {
  let start = 0;
  for (const b of sentence.matchAll(BOUNDARY)) if (b.index + b[0].length <= markerAt) start = b.index + b[0].length;
  return start;
}

/**
 * Words that put a value in place of one given: "use that one", "instead", "the other one bounces", "stattdessen",
 * "nehmen Sie lieber": beside a value of an earlier answer's type (an email, a phone), it replaces that answer.
 */
export const REPLACES = /(?<![\p{L}])(?:instead|rather than|use (?:that|this|the new|the other) (?:one|number|address|email|mail)|use that|use this|the other one|the old one|stattdessen|statt dessen|lieber (?:die|diese|an|unter)|nehmen sie (?:lieber |bitte )?(?:die|diese)|die andere|die alte|à la place|plutôt celle|en su lugar|mejor (?:este|esta|el|la))(?![\p{L}])/iu;
