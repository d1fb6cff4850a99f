/* A name corrected a turn late: respelled, completed, or said instead of another. */
import type { LanguagePack } from '../../language/pack.ts';
import { fold } from '../parse/index.ts';
import { monthNamed } from '../parse/date.ts';
import { type Earlier } from './late-earlier.ts';
import type { OpenQuestion } from '../extractor.ts';
import { nameQuestion, readNameReply } from './name-reply.ts';
import { APPROX, BOUNDARY, LATE, clauseStart } from './late-markers.ts';

/** A run of capitalised words: a name as written. */
const NAME_RUN = /\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*)*/gu;
/** "first name is Klaus", "surname is Becker", "Vorname ist Klaus". */
const FIRST_NAME = /(?<![\p{L}])(?:[Ff]irst name|[Ff]orename|[Gg]iven name|[Vv]orname)(?:['’]s|\s+(?:is|ist|'s))?(?:\s+(?:übrigens|actually|by the way))?\s+(\p{Lu}[\p{L}'’-]+)/u;
const LAST_NAME = /(?<![\p{L}])(?:[Ss]urname|[Ll]ast name|[Ff]amily name|[Nn]achname)(?:['’]s|\s+(?:is|ist|'s))?(?:\s+(?:übrigens|actually|by the way))?\s+(\p{Lu}[\p{L}'’-]+)/u;
/** "Emily, not Emma": a name said instead of one given. */
const INSTEAD = /(\p{Lu}[\p{L}'’-]+),?\s+(?:not|nicht)\s+(\p{Lu}[\p{L}'’-]+)/u;
/** Words that say a name is given in full: "Sam Whitfield, full name", "Klaus Müller, vollständig". */
const FULL = /(?<![\p{L}])(?:full name|full|whole name|vollständig|vollständiger name|ganzer name)(?![\p{L}])/iu;

/** Whether words say which name is meant ("full name", "the legal one", "if you want it formal", "heiße ich eigentlich"). */
export function saysWhichName(text: string): boolean {
  return FULL.test(text) || NAME_WORDS.test(text);
}

/** Whether words say how a name is spelled before it ("Spelling is", "Schreibweise:", "it's spelled"). */
export function saysSpelling(text: string): boolean {
  return SPELLED_BEFORE.test(text);
}

/** Where the clause holding a corrected name starts. */
export function nameClause(sentence: string, value: string): number {
  const last = value.split(/\s+/).at(-1) ?? value;
  const at = sentence.indexOf(last);
  return at <= 0 ? 0 : clauseStart(sentence, at);
}

/**
 * A name corrected in the sentence: a word of it respelled ("O'Connor with an apostrophe" for "OConnor"), one said
 * instead of another ("Emily, not Emma"), a first or last name added ("Vorname ist Klaus"), or — when the sentence
 * marks or names it — the name completed ("Sam Whitfield, full name" for "Sam"). Undefined when none.
 */
export function nameFix(sentence: string, q: Earlier, marked: boolean, nameAsked: boolean, pack: LanguagePack, besideOther = false): string | undefined {
  if (typeof q.value !== 'string' || q.value.trim() === '') return undefined;
  // a title is no part of the name to correct ("Hr. Müller", then "Vorname Thomas" → "Thomas Müller")
  const given = q.value.trim().split(/\s+/);
  const words = given.length >= 2 && TITLE.test(given[0]!) ? given.slice(1) : given;
  const letters = (w: string) => fold(w).text.replace(/[^\p{L}]/gu, '');
  const runs = [...sentence.matchAll(NAME_RUN)].map((r) => r[0]);
  const swap = (i: number, w: string) => words.map((x, j) => (j === i ? x.replace(/^[\p{L}'’-]+/u, w) : x)).join(' ');
  // a word like one of the name's, respelled in words ("John with an h", "Meyer mit ey") or said alone or as the legal name
  // ("Jonathan actually, legal name"); at a name question only a spelling said in words counts
  const fullSaid = FULL.test(sentence) || NAME_WORDS.test(sentence);
  for (const m of sentence.matchAll(/\p{L}[\p{L}'’-]+/gu)) {
    const lw = letters(m[0]);
    if (lw.length < 3 || words.some((x) => letters(x) === lw) || notAName(m[0], pack)) continue;
    // a word beside a figure is part of a date or an amount, no name ("sorry, it's 4 March 1990" is no respelling of "Maria")
    if (/\d[\s.,/-]*$/u.test(sentence.slice(0, m.index)) || /^[\s.,/-]*\d/u.test(sentence.slice(m.index + m[0].length)) || monthNamed(m[0], pack) !== null) continue;
    const spelled = new RegExp(`^\\s*,?\\s*(?:${SPELL.source})`, 'iu').test(sentence.slice(m.index + m[0].length)) || SPELLED_BEFORE.test(sentence.slice(0, m.index));
    // a name typed in lower case counts only where its spelling is said ("oh its john with an h"); it is recorded capitalised
    if (/^\p{Ll}/u.test(m[0]) && !spelled) continue;
    const w = m[0].charAt(0).toUpperCase() + m[0].slice(1);
    // "Catherine with a C" for "Katherine": said how it is spelled, the first letter may differ
    const i = words.findIndex((x) => similar(letters(x), lw) || (spelled && lw.length >= 4 && distance(letters(x), lw) <= 2));
    if (i < 0) continue;
    // "Jonathan Reyes, full name" for "Jon": the word opens a run that completes the name — the run is the name
    const whole = !spelled && !nameAsked && i === 0 && fullSaid ? completedRun(sentence, m.index, words, pack) : undefined;
    if (whole !== undefined) return withName(q.value, whole);
    if (spelled || (!nameAsked && marked && (fullSaid || aloneIn(sentence, m.index, w, pack)))) return swap(i, w);
  }
  // "Thomas, sorry, that's his full name" for "Tom Baker": the one name said beside "full name" is the first name
  if (!nameAsked && marked && fullSaid && words.length >= 2) {
    const said = [...sentence.matchAll(/\p{Lu}[\p{L}'’-]+/gu)].filter((m) => letters(m[0]).length >= 3 && !notAName(m[0], pack) && !words.some((x) => letters(x) === letters(m[0])));
    if (said.length === 1 && aloneIn(sentence, said[0]!.index, said[0]![0], pack)) return swap(0, said[0]![0]);
  }
  // "ex-husband technically" for "Paul, husband": the relation said anew
  if (marked) {
    // the relation as the name reading records it ("stepdad" → "stepfather", "dad" → "father")
    const as = (r: string) => pack.names.reply.relationAs[r] ?? r;
    for (const m of sentence.matchAll(/(?<![\p{L}-])(ex-?|step-?|half-?|great-?|stief)(\p{L}{3,})(?![\p{L}])/giu)) {
      const word = fold(m[2]!).text;
      const i = words.findIndex((x) => /^\p{Ll}/u.test(x) && [word, as(word)].includes(letters(x)));
      const whole = m[0].toLowerCase();
      if (i >= 0) return swap(i, as(whole) !== whole ? as(whole) : `${m[1]!.toLowerCase()}${as(word)}`);
    }
  }
  // a respelling: the same letters, written otherwise
  for (const run of runs) {
    for (const w of run.split(/\s+/)) {
      const i = words.findIndex((x) => letters(x) === letters(w) && x !== w && letters(w).length >= 3);
      if (i >= 0 && /['’-]/.test(w) !== /['’-]/.test(words[i]!)) return words.map((x, j) => (j === i ? w : x)).join(' ');
    }
  }
  const instead = INSTEAD.exec(sentence);
  if (instead) {
    const i = words.findIndex((x) => letters(x) === letters(instead[2]!));
    if (i >= 0 && letters(instead[1]!) !== letters(instead[2]!)) return words.map((x, j) => (j === i ? instead[1]! : x)).join(' ');
  }
  const first = FIRST_NAME.exec(sentence);
  if (first && words.length === 1 && letters(first[1]!) !== letters(words[0]!)) return `${first[1]} ${words[0]}`;
  const last = LAST_NAME.exec(sentence);
  if (last && words.length === 1 && letters(last[1]!) !== letters(words[0]!)) return `${words[0]} ${last[1]}`;
  // completed: a name that starts with the first name given and adds to it — marked, said in full, or a sentence of its own
  // beside the answer to the current question ("Mike Johnson btw. Lincoln HS", "Jürgen Bauer übrigens. SV Grün-Weiß Essen")
  if (!marked && !fullSaid && !(besideOther && runs.length === 1 && runs[0]!.split(/\s+/).length <= 3 && onlyName(sentence, runs[0]!))) return undefined;
  for (const run of runs) {
    const parts = run.split(/\s+/);
    if (parts.length < 2 || letters(parts[0]!) !== letters(words[0]!) || run === q.value.trim()) continue;
    // "sorry, Sam Houston High School" for "Sam": an organisation's name is no name completed
    if (parts.some((p) => orgNoun(p, pack))) continue;
    return withName(q.value, run);
  }
  // "Samantha Greene if you want it formal" for "Sam", "Elizabeth Rose Taylor, the legal one" for "Liz Taylor", "Katharina Wolf heiße
  // ich eigentlich" for "Kathi": said as the full or legal name, a run of two to four name words whose first word the given one
  // shortens (the same first three letters, or held in it) or whose last word is the surname given
  if (!fullSaid || nameAsked) return undefined;
  // (from any capitalised word: "laut Ausweis Antonia Berger")
  for (const r of sentence.matchAll(/(?<![\p{L}'’-])\p{Lu}/gu)) {
    const whole = completedRun(sentence, r.index, words, pack, true);
    if (whole !== undefined) return withName(q.value, whole);
  }
  return undefined;
}

/** Words that put one person in place of another: "make it my sister Grace Kim", "change that to …", "put my dad … instead", "lieber meine Schwester …". */
const PUT_PERSON = /(?<![\p{L}])(?:make (?:it|that|this)|change (?:it|that|this)(?: name)? to|switch (?:it|that|this) to|put(?: down)?|use|list|rather|machen sie(?: das| es)?|nehmen sie|tragen sie|schreiben sie|ändern sie (?:das|es) (?:auf|in|zu)|nehmt|nimm)(?![\p{L}])/iu;
/** A word that says the person replaces the one given: "instead", "rather", "stattdessen", "lieber". */
const INSTEAD_WORD = /(?<![\p{L}])(?:instead|rather|stattdessen|statt dessen|lieber|besser|à la place|en su lugar)(?![\p{L}])/iu;

/**
 * Another person put in place of the name given ("708 555 0166. Oh, make it my sister Grace Kim instead, same number works",
 * "sorry, change that to my neighbor Ann Hill"): a clause with a word putting a person ("make it", "change that to", "put",
 * "nehmen Sie") and a replacing word ("instead", "stattdessen", "lieber") or a correction marker, whose words after the
 * putting word read as a name answer to the question (with its relation when the question asks for one) of a name other than
 * the one given. The name as the name reading records it and where its clause starts; undefined when none.
 */
export function replacedName(sentence: string, q: Earlier, marked: boolean, pack: LanguagePack): { value: string; from: number } | undefined {
  if (typeof q.value !== 'string' || q.value.trim() === '' || q.answer.type !== 'text') return undefined;
  const ask = nameQuestion(q as OpenQuestion, pack);
  if (ask === null) return undefined;
  const letters = (w: string) => fold(w).text.replace(/[^\p{L}]/gu, '');
  const given = new Set((q.value.match(/\p{Lu}[\p{L}'’-]+/gu) ?? []).map(letters));
  let start = 0;
  for (const b of [...sentence.matchAll(BOUNDARY), { index: sentence.length, 0: '' } as unknown as RegExpMatchArray]) {
    const clause = sentence.slice(start, b.index);
    const put = PUT_PERSON.exec(clause);
    const from = start;
    start = b.index! + b[0].length;
    if (put === null || !(INSTEAD_WORD.test(clause) || marked)) continue;
    const said = clause.slice(put.index + put[0].length).replace(new RegExp(INSTEAD_WORD.source, 'giu'), ' ').replace(/\s+(?:please|bitte|then|dann|down)\s*$/iu, '').trim();
    const read = readNameReply(said, ask, pack);
    if ('problem' in read || read.confirm) continue;
    const names = (read.value.match(/\p{Lu}[\p{L}'’-]+/gu) ?? []).map(letters);
    // a person other than the one given: a first name not given before
    if (names.length < 2 || given.has(names[0]!)) continue;
    return { value: read.value, from };
  }
  return undefined;
}

/** Whether a word names a kind of organisation ("School", "Club", "Verein"): no part of a person's name. */
function orgNoun(word: string, pack: LanguagePack): boolean {
  const w = fold(word).text.replace(/[^\p{L}]/gu, '');
  return pack.text.vagueNouns.some((n) => fold(n).text === w);
}

/** The name given with its name words replaced by `run`, what follows them (", wife") kept. */
function withName(value: string, run: string): string {
  const first = [...value.matchAll(NAME_RUN)][0];
  if (first === undefined || first.index > 0) return run;
  return run + value.slice(first[0].length);
}

/**
 * The run of capitalised words starting at `at` when it completes the name given (`words`): two to four words that are no
 * common words nor an organisation's ("Sam's Gym" is no name), other than the name given, its first word the given first
 * name (or, `loose`, one it shortens: "Kathi" for "Katharina", "Liz" for "Elizabeth") or its last word the given surname.
 */
function completedRun(sentence: string, at: number, words: readonly string[], pack: LanguagePack, loose = false): string | undefined {
  const m = /^\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*)*/u.exec(sentence.slice(at));
  if (m === null) return undefined;
  const letters = (w: string) => fold(w).text.replace(/[^\p{L}]/gu, '');
  const parts = m[0].split(/\s+/);
  while (parts.length > 0 && notAName(parts[0]!, pack)) parts.shift();
  while (parts.length > 0 && notAName(parts.at(-1)!, pack)) parts.pop();
  if (parts.length < 2 || parts.length > 4 || parts.some((p) => orgNoun(p, pack) || /['’]s$/u.test(p) || fold(p).text.replace(/[^\p{L}]/gu, '').length < 2)) return undefined;
  const given = words.filter((w) => /^\p{Lu}/u.test(w)).map(letters);
  if (given.length === 0 || parts.length < given.length || parts.map(letters).join(' ') === given.join(' ')) return undefined;
  // a surname given stays: "John Lewis Partnership" completes no "Jon Baker"
  if (given.length >= 2) return letters(parts.at(-1)!) === given.at(-1) ? parts.join(' ') : undefined;
  const first = letters(parts[0]!);
  const g = given[0]!;
  const opens = parts.length > given.length && (first === g || similar(g, first) || (loose && g.length >= 3 && shortens(g, first)));
  return opens ? parts.join(' ') : undefined;
}

/** A title before a name: "Hr.", "Frau", "Mr", "Dr.". */
const TITLE = /^(?:hr|herr|frau|fr|mr|mrs|ms|miss|mx|dr|prof)\.?$/iu;

/** Whether the sentence says nothing but the name and words beside a name ("Mike Johnson btw.", "Jürgen Bauer übrigens"). */
function onlyName(sentence: string, run: string): boolean {
  const rest = sentence.replace(run, ' ');
  return (rest.match(/[\p{L}'’]+/gu) ?? []).every((x) => BESIDE_NAME.has(fold(x).text));
}

/** Saying how a name is spelled: "with an h", "with two l's", "spelled", "mit ey", "mit zwei p", "geschrieben". */
const SPELL = /(?:with (?:an?|one|two|double|a double)\s+\p{L}{1,2}(?:['’]?s)?|(?:one|two|double|no|without(?: the| an?)?|ohne(?: das| ein)?)\s+\p{L}{1,2}(?:['’]?s)?(?![\p{L}])|spel(?:led|t)\b|mit (?:einem |zwei |doppel-?)?(?!(?:es|um|so|da|im|am|zu|ihm|ihr|uns|dem|der|den|die|das)(?![\p{L}]))\p{L}{1,2}(?![\p{L}])|geschrieben|avec (?:un |deux )?\p{L}{1,2}(?![\p{L}])|con (?:una? |dos )?\p{L}{1,2}(?![\p{L}]))/iu;
/** "spelled Scott", "it's spelt: Scott", "geschrieben: Schmitt", "schreibt sich Meyer": the spelling said before the name. */
const SPELLED_BEFORE = /(?:spel(?:led|t)|spelling(?: is)?|written|geschrieben|schreibt sich|schreibweise(?: ist)?|buchstabiert)(?:\s+(?:with|like|as|wie|mit))?\s*[:,]?\s*$/iu;
/** Words that say which name is meant: "legal name", "first name", "richtiger Name". */
const NAME_WORDS = /(?<![\p{L}])(?:(?:legal|proper|real|official|first|given|birth|formal)\s+name|(?:the\s+)?(?:legal|official|formal|full|proper)\s+(?:one|version)|if you want it (?:formal|official|in full)|formally|officially|on (?:paper|my id|my passport)|as on (?:my|the) (?:id|passport)|(?:richtige|offizielle|vollständige)[rn]?\s+name|eigentlich heißt|heißt eigentlich|heiße ich eigentlich|ich heiße eigentlich|eigentlich heiße ich|richtig heiße ich|offiziell|laut ausweis|im ausweis|mit vollem namen|ausgeschrieben)(?![\p{L}])/iu;
/** Words beside a name said alone: "Jonathan actually", "sorry, Jonathan". */
const BESIDE_NAME = new Set(['it', "it's", 'its', 'is', 'the', 'his', 'her', 'my', 'their', 'legal', 'full', 'name', "that's", 'thats', 'ist', 'es', 'der', 'die', 'das',
  'übrigens', 'ubrigens', 'eigentlich', 'natürlich', 'naturlich', 'richtig', 'btw', 'by', 'way', 'correct', 'right', 'lol', 'oh', 'ah', 'and', 'und', 'no', 'nein', 'not', 'but']);

/** Whether a capitalised word is no name (a marker or a common word opening the sentence: "Sorry", "Oops", "It's"). */
export function notAName(w: string, pack: LanguagePack): boolean {
  const f = fold(w).text;
  pack.corrections.lastIndex = 0;
  return pack.names.notNames.has(f) || pack.names.stop.has(f) || BESIDE_NAME.has(f) || pack.corrections.test(w) || LATE.test(w) || APPROX.test(w);
}

/** Whether the clause holding the word says nothing else but markers and a few words about it ("Jonathan actually", "Thomas, sorry"). */
function aloneIn(sentence: string, at: number, w: string, pack: LanguagePack): boolean {
  let start = 0;
  let end = sentence.length;
  for (const b of sentence.matchAll(BOUNDARY)) {
    if (b.index + b[0].length <= at) start = b.index + b[0].length;
    else if (b.index >= at + w.length) { end = b.index; break; }
  }
  const rest = sentence.slice(start, at) + ' ' + sentence.slice(at + w.length, end);
  pack.corrections.lastIndex = 0;
  const stripped = rest.replace(pack.corrections, ' ').replace(new RegExp(LATE.source, 'giu'), ' ').replace(new RegExp(APPROX.source, 'giu'), ' ');
  return (stripped.match(/[\p{L}'’]+/gu) ?? []).every((x) => BESIDE_NAME.has(fold(x).text));
}

/** Whether a short name may shorten a long one: the same first three letters ("Dave", "David"), held in it ("Liz", "Elizabeth"), or its letters in order from the same first letter ("Tom", "Thomas"; "Kathi", "Katharina"). */
function shortens(short: string, long: string): boolean {
  if (long.length <= short.length) return false;
  if (long.startsWith(short.slice(0, 3)) || long.includes(short)) return true;
  if (short[0] !== long[0]) return false;
  let k = 0;
  for (const ch of long) if (ch === short[k]) k++;
  return k === short.length;
}

/** Two spellings of one name: the same first letter, and one starts the other ("Jon", "Jonathan") or they differ by a letter or two ("Maier", "Meyer"). */
function similar(a: string, b: string): boolean {
  if (a === b || a[0] !== b[0]) return false;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length >= 3 && long.startsWith(short)) return true;
  return distance(a, b) <= (short.length >= 4 ? 2 : 1);
}

/** The Levenshtein distance of two short words. */
export function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}
