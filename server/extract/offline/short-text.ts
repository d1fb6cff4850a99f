import type { ExtractionRequest, OpenQuestion } from '../extractor.ts';
import type { LanguagePack } from '../../language/pack.ts';
import { say } from '../../language/parser-messages.ts';
import { findEmails, findPhones, fold, foldPhrase, findPhrase, originalSlice, type ParseContext } from '../parse/index.ts';
import { isShort, withoutFiller } from '../parse/text.ts';
import type { RE2JS } from 're2js';
import { lazyRequire } from '../../shared/lazy-require.ts';
import { unexplainedWords } from './commit-rule.ts';
import { keepAbbreviationDots } from './abbreviation-dots.ts';
import { NAME_KEYS } from './name.ts';
import { en } from '../../language/en/index.ts';
import { describesNothing, noneWhereSome, ownStems, questionInstead, topicOnly } from './not-an-answer.ts';
import { spelledDigits } from '../parse/spelled.ts';
import { correctedTail } from '../parse/correction.ts';
import { aboutPeople, currentValue, describes, hasPlaceholder, namesSomething, narrows, saysSite, withoutSource, withoutTownAfter, withoutViaAfter } from './value-parts.ts';

/** re2js, loaded on the first pattern compiled, not by `import('questline')` (server/shared/lazy-require.ts). */
const re2 = lazyRequire<typeof import('re2js')>('re2js');

/*
 * SHORT TEXT AND CODES — what a text answer holds when the reply says more
 * than the answer (docs/understanding.md, "Short text and codes"). The rule of
 * the commit rule holds here too: a value is committed when the reply is
 * accounted for; an unexplained leftover is checked once ("Just to check:
 * Northfield Tennis & Padel?"); a reply that is no answer is asked again.
 *
 *  - A reply that only points elsewhere ("same as I said", "see my email",
 *    "siehe E-Mail") is asked again, for every text answer (long ones too).
 *  - A code question — a `pattern`, an example of the format in the prompt
 *    ("looks like BF-104233", "sieht so aus: BF-104233"), or a key or label
 *    word such as "id", "number", "Nummer" — takes the one code in the reply
 *    ("order BF-100874, the lights on court 2 are flickering" → BF-100874). A
 *    code in another format than the prompt's example is checked, two codes are
 *    asked about, and a reply with no code but a negation or hedge ("don't have
 *    it on me", "nicht zur Hand") gives nothing: a skip (a required question
 *    is asked again).
 *  - A short answer (a `max` of at most 200) loses lead-ins ("it's for X",
 *    "the club is X", "für den X"); a trailing clause about the speaker
 *    (", I'm the facilities manager") or a contact given for another question
 *    is dropped; any other trailing clause makes the head checked; a private
 *    project at an optional question whose prompt offers that way out
 *    ("private", "for my back garden", "ist privat") is a skip; a reference
 *    that names nothing ("my club", "the council", "für unseren Verein") is
 *    asked for the name.
 */

/** What the short-text rules made of a reply: a value (checked first when `confirm`), a skip, a question back, or no opinion (null). */
export type TextReading =
  | { value: string; evidence: string; exact: boolean; confirm?: true }
  | { skip: true }
  | { problem: string };

type TextSpec = Extract<OpenQuestion['answer'], { type: 'text' }>;

/** Reads a text answer's reply by the rules above; null leaves it to the plain text rules (the whole reply, trimmed). */
export function readText(q: OpenQuestion, text: string, pack: LanguagePack, ctx: ParseContext, value: string | null, history?: ExtractionRequest['history']): TextReading | null {
  const spec = q.answer as TextSpec;
  if (pointsElsewhere(text, pack)) return { problem: say(pack, 'pointsElsewhere') };
  // "lots", "a few", "viele": a quantity that lists nothing
  if (onlyQuantity(text, pack)) return { problem: say(pack, 'whichOnes') };
  const nameAsked = spec.kind === 'name' || NAME_KEYS.has(q.key);
  // "stuff", "random stuff lol", "whatever", "Zeug": words that name nothing in particular are no answer
  if (!nameAsked && namesNothing(text, pack)) return { problem: isShort(spec) ? say(pack, 'nameIt', { typed: text.trim() }) : say(pack, 'moreDetail') };
  // "idk they're just weird", "I'll bring the bottles in", "keine Ahnung, die spinnen halt": nothing for the question —
  // a required question is asked again with a hint, an optional one skipped
  if (!nameAsked && noContent(text, pack, q)) return q.required ? { problem: say(pack, 'moreDetail') } : { skip: true };
  // "can't remember the names", "weiß ich nicht mehr genau": nothing given (a required question is asked again)
  if (unsureOnly(text, pack)) return { skip: true };
  if (nameAsked) return null;
  // "the blue one", "the little white one for blood pressure", "idk the card is blue": a look, not a name
  if (toldByLook(text, pack, !isShort(spec))) return { problem: say(pack, 'nameIt', { typed: text.trim().replace(/[.!]+$/u, '') }) };
  // "a few antibiotics, can't remember which", "idk the names, a little blue pill": the very thing asked is not known;
  // "I don't remember, some antibiotic": a kind said vaguely beside not knowing is not the thing asked either
  // "some antibiotic", "some kind of cream" alone: a kind said vaguely names no one thing (not "an inhaler", "nuts")
  if (unknownWhich(text, pack) || unsureVague(text, pack) || vagueAlone(text, pack)) return { problem: say(pack, 'moreDetail') };
  // "none" at "Please list them" (asked after a yes): the reply contradicts the question (not-an-answer.ts)
  if (noneWhereSome(text, q, pack)) return { problem: say(pack, 'whichOnes') };
  const format = codeFormat(q, pack);
  if (format) {
    const view = codeView(text, pack);
    return readCode(q, view, format, pack, view !== text);
  }
  // "can someone call me", "Rückruf bitte", "just browsing": a required answer that describes nothing is asked what it is about
  // "partnership", "eine Kooperation": a topic word alone where the prompt asks what the visitor needs
  if (describesNothing(text, q, pack) || (!isShort(spec) && topicOnly(text, q, pack))) return { problem: say(pack, 'whatAbout') };
  // "is this covered by warranty?", "who do I complain to": a question of the visitor's own, naming nothing, is no answer
  // ("why won't they turn on?" at "which lights …, and what are they doing?" is asked which ones, below)
  if (questionInstead(text, q, pack) && !(!isShort(spec) && asksWhichAndWhat(q, pack) && saysNothing(text, q, pack))) return { problem: say(pack, 'ownQuestion') };
  if (!isShort(spec)) return readFree(q, text, pack, value, history);
  if (value === null) return null;
  // "blue something", "TC irgendwas": a stand-in for a name that could not be recalled is asked for the name
  if (standsIn(value, pack) && value.trim().split(/\s+/).length <= 6) return { problem: say(pack, 'nameIt', { typed: value.trim() }) };
  return readShort(q, value, pack, ctx);
}

/**
 * Whether the reply tells the thing by its look and names nothing (the pack's `looks`): a colour, size or shape word, and
 * besides it only the things such words describe ("one", "card", "pill"), the pack's class words ("blood pressure", "heart"),
 * not-knowing phrases and words that say nothing ("the", "for", "is", "idk"). No digit. "Blue Cross", "lisinopril, the little
 * white one" name something and are kept. German, French and Spanish adjectives are matched with their endings ("blaue", "kleinen").
 */
export function toldByLook(text: string, pack: LanguagePack, free = false): boolean {
  const looks = pack.text.looks;
  if (!looks || /\p{N}/u.test(text)) return false;
  let t = ` ${fold(text).text.replace(/’/g, "'").replace(/[^\p{L}' ]+/gu, ' ').replace(/\s+/g, ' ').trim()} `;
  if (t.trim() === '' || t.trim().split(' ').length > 12) return false;
  for (const p of [...pack.text.unsure, ...pack.lexicon.skip].map(foldPhrase).sort((a, b) => b.length - a.length)) if (p !== '' && t.includes(` ${p} `)) t = t.split(` ${p} `).join(' ');
  const adjectives = looks.adjectives.map(foldPhrase);
  const endings = pack.code === 'en' ? [''] : ['', 'e', 'en', 'er', 'es', 'em', 's'];
  const adjective = (w: string) => adjectives.some((a) => endings.some((e) => w === a + e));
  const things = new Set([...looks.things, ...(pack.text.vagueKind?.classes ?? []), ...pack.text.contentFree, ...pack.lexicon.skipFiller, ...pack.lexicon.filler, ...pack.text.vagueWords].map(foldPhrase));
  const words = t.trim().split(' ').filter((w) => w !== '');
  const kinds = new Set(looks.kinds.map(foldPhrase));
  return words.some(adjective) && words.every((w) => adjective(w) || things.has(w)) && !(free && words.some((w) => kinds.has(w)));
}

/** Whether the reply holds a stand-in for what could not be named ("something", "or whatever", "irgendwas"), and no digit. */
function standsIn(text: string, pack: LanguagePack): boolean {
  if (/\p{N}/u.test(text)) return false;
  const t = fold(text).text.replace(/’/g, "'");
  return (pack.text.placeholder ?? []).some((p) => findPhrase(t, foldPhrase(p)).length > 0);
}

// ---------------------------------------------------------------- pointers

const OPENING = /^(?:(?:um+|uh+|erm?|hmm+|well|so|ok|okay|oh|ah|äh|ähm|also|naja|na|sorry|tja)\b[\s,.!]*)+/u;
const CLAUSE = /[,;:]|\s[—–-]\s|\.\s|\(/u;

/** Whether the reply only refers to something said elsewhere ("same as last time", "see the email I sent monday", "wie gesagt"). */
export function pointsElsewhere(text: string, pack: LanguagePack): boolean {
  const t = fold(text).text.replace(OPENING, '').replace(/[\s.!?…]+$/u, '').trim();
  if (t === '') return false;
  // "his normal ones" as "my normal ones": a possessive or article before it does not matter
  const det = new Set(pack.text.vagueWords.map(foldPhrase));
  const bare = (x: string) => x.split(' ').filter((w, i, all) => i > 0 || all.length === 1 || !det.has(w)).join(' ');
  const alone = pack.text.pointersAlone.some((p) => t === foldPhrase(p) || bare(t) === bare(foldPhrase(p)));
  if (alone) return true;
  const starts = pack.text.pointers.some((p) => {
    const f = foldPhrase(p);
    return t === f || (t.startsWith(f) && !/[\p{L}\p{N}]/u.test(t[f.length] ?? ''));
  });
  // "same as last time" points elsewhere; "see attached photo, the lights on court 2 flicker" says what it is
  return starts && !CLAUSE.test(text.trim().replace(/[.!?…]+$/u, '')) && t.split(' ').length <= 8;
}

/** Whether the reply is only quantity words and filler ("lots", "quite a few really", "ganz viele"). */
function onlyQuantity(text: string, pack: LanguagePack): boolean {
  let t = ` ${fold(text).text.replace(/[^\p{L}\p{N}' ]+/gu, ' ').replace(/\s+/g, ' ').trim()} `;
  if (t.trim() === '' || t.split(' ').length > 7) return false;
  let hit = false;
  for (const q of [...pack.text.quantityOnly].map(foldPhrase).sort((a, b) => b.length - a.length)) {
    if (t.includes(` ${q} `)) {
      t = t.split(` ${q} `).join(' ');
      hit = true;
    }
  }
  const filler = new Set([...pack.lexicon.skipFiller, 'of', 'them', 'really', 'honestly', 'things', 'stuff', 'davon', 'sachen', 'dinge'].map(foldPhrase));
  return hit && t.trim().split(' ').filter((w) => w !== '' && !filler.has(w)).length === 0;
}

/**
 * Whether the reply is only words that name nothing in particular (the pack's `general`: "stuff", "things", "whatever",
 * "Zeug"), with quantity words and filler beside them ("just stuff", "random stuff lol", "a bunch of things", "stuff and
 * things"): nothing is named. A word of any other kind names something ("dust and stuff like that" is kept). No digit.
 */
function namesNothing(text: string, pack: LanguagePack): boolean {
  const general = pack.text.general;
  if (!general || /\p{N}/u.test(text)) return false;
  let t = ` ${fold(text).text.replace(/’/g, "'").replace(/[^\p{L}' ]+/gu, ' ').replace(/\s+/g, ' ').trim()} `;
  if (t.trim() === '' || t.trim().split(' ').length > 8) return false;
  let hit = false;
  for (const p of general.map(foldPhrase).sort((a, b) => b.length - a.length)) {
    if (p !== '' && t.includes(` ${p} `)) {
      t = t.split(` ${p} `).join(' ');
      hit = true;
    }
  }
  if (!hit) return false;
  const plain = new Set([...pack.text.quantityOnly, ...pack.lexicon.skipFiller, ...pack.lexicon.filler, ...pack.lexicon.joiners].flatMap((w) => foldPhrase(w).split(' ')));
  return t.trim().split(' ').every((w) => w === '' || plain.has(w));
}

/** Whether the reply starts unsure and says nothing more than a few lowercase words ("can't remember the names"). */
function unsureOnly(text: string, pack: LanguagePack): boolean {
  const trimmed = text.trim().replace(/[.!…]+$/u, '');
  if (CLAUSE.test(trimmed) || /\p{N}/u.test(trimmed)) return false;
  const t = fold(trimmed).text.replace(OPENING, '').trim();
  const lead = [...pack.text.unsure].map(foldPhrase).sort((a, b) => b.length - a.length).find((u) => t === u || t.startsWith(`${u} `));
  if (lead === undefined) return false;
  const after = t.slice(lead.length).trim().split(' ').filter((w) => w !== '');
  // the words after it as typed: a capital there may be a name ("not sure Aetna") — not a plain hedge
  const typed = after.length === 0 ? [] : trimmed.split(/\s+/).slice(-after.length);
  return after.length <= 3 && typed.every((w) => !/^\p{Lu}/u.test(w) || /^(?:I|I'm|I’m)$/u.test(w));
}

/**
 * Whether a clause of the reply says only that which ones are not known ("can't remember which", "idk the names", "weiß nicht,
 * welche"), beside other clauses without a digit: a kind or a look is given, not the items asked ("a few antibiotics, cant
 * remember which"). "amlodipine, can't remember the dose" says what is not known and is kept.
 */
function unknownWhich(text: string, pack: LanguagePack): boolean {
  const which = pack.text.unknownWhich;
  if (!which || /\p{N}/u.test(text)) return false;
  const unsure = [...pack.text.unsure].map(foldPhrase);
  const filler = new Set([...pack.lexicon.skipFiller, 'exactly', 'genau'].map(foldPhrase));
  const bare = (x: string) => x.split(' ').filter((w) => w !== '' && !filler.has(w)).join(' ');
  const what = new Set(which.map((w) => bare(foldPhrase(w))).filter((w) => w !== ''));
  const clauses = fold(text).text.replace(/’/g, "'").split(/[,;:.!?()]+|\s[—–-]\s|\s(?:but|aber)\s/u).map((c) => c.replace(/[^\p{L}' ]+/gu, ' ').replace(/\s+/g, ' ').trim()).filter((c) => c !== '');
  if (clauses.length < 2) return false;
  return clauses.some((c) => {
    const line = c.replace(OPENING, '').trim();
    const lead = unsure.filter((u) => line === u || line.startsWith(`${u} `)).sort((a, b) => b.length - a.length)[0];
    return lead !== undefined && what.has(bare(line.slice(lead.length).trim()));
  });
}

/**
 * Whether the reply says it does not know (a clause that is only an `unsure` phrase: "I don't remember", "keine Ahnung") and
 * every other clause only names a kind vaguely — an indefinite (`vagueKind.indefinite`: "some", "a", "irgendein") and at
 * most three words of the pack's `vagueKind.classes` ("some antibiotic", "a blood pressure pill", "irgendein Antibiotikum").
 * "I don't remember, penicillin I think" names one and is kept.
 */
/**
 * Whether the whole reply is a kind said with a vague determiner other than a bare article ("some antibiotic", "some kind of
 * cream", "one of those inhalers"; the pack's `vagueKind`): up to three words of its classes after it, nothing else.
 */
function vagueAlone(text: string, pack: LanguagePack): boolean {
  const vk = pack.text.vagueKind;
  if (!vk || /\p{N}/u.test(text)) return false;
  const line = fold(text).text.replace(/’/g, "'").replace(/[^\p{L}' ]+/gu, ' ').replace(/\s+/g, ' ').trim();
  return vagueKindClause(line, vk, new Set(pack.lexicon.filler.filter((w) => !vk.indefinite.includes(w)).map(foldPhrase)), false);
}

/**
 * Whether a folded clause is a kind said with a vague determiner: one of the pack's `vagueKind` indefinites (a bare
 * article "a" / "an" only with `articles`), then one to three of its class words, `filler` words aside.
 */
function vagueKindClause(line: string, vk: NonNullable<LanguagePack['text']['vagueKind']>, filler: ReadonlySet<string>, articles: boolean): boolean {
  const lead = vk.indefinite.map(foldPhrase).filter((i) => articles || i.includes(' ') || i.length > 2).sort((a, b) => b.length - a.length).find((i) => line.startsWith(`${i} `));
  if (lead === undefined) return false;
  const classes = new Set(vk.classes.map(foldPhrase));
  const rest = line.slice(lead.length).trim().split(' ').filter((w) => w !== '' && !filler.has(w));
  return rest.length > 0 && rest.length <= 3 && rest.every((w) => classes.has(w));
}

function unsureVague(text: string, pack: LanguagePack): boolean {
  const vk = pack.text.vagueKind;
  if (!vk || /\p{N}/u.test(text)) return false;
  const unsure = [...pack.text.unsure, ...pack.lexicon.skip].map(foldPhrase);
  const filler = new Set([...pack.lexicon.skipFiller, ...pack.lexicon.filler.filter((w) => !vk.indefinite.includes(w))].map(foldPhrase));
  const clauses = fold(text).text.replace(/’/g, "'").split(/[,;:.!?()]+|\s[—–-]\s/u).map((c) => c.replace(/[^\p{L}' ]+/gu, ' ').replace(/\s+/g, ' ').trim()).filter((c) => c !== '');
  if (clauses.length < 2) return false;
  let doubt = false;
  for (const c of clauses) {
    const line = c.replace(OPENING, '').trim();
    const plain = (x: string) => x.split(' ').filter((w) => w !== '' && !filler.has(w)).join(' ');
    if (unsure.some((u) => line === u || (plain(line) === plain(u) && plain(u) !== ''))) { doubt = true; continue; }
    if (!vagueKindClause(line, vk, filler, true)) return false;
  }
  return doubt;
}

/**
 * Whether the reply only says it does not know, leaves the answer to later or to someone else, or skips, with nothing
 * beside that but words that say nothing the question asks for ("idk my husband handles that", "I'll bring the bottles
 * in", "keine Ahnung, die spinnen halt"). A digit or any other word is content ("not sure, court 3 flickers").
 */
export function noContent(text: string, pack: LanguagePack, q?: OpenQuestion): boolean {
  const trimmed = text.trim();
  if (trimmed.length > 160 || /\p{N}/u.test(trimmed)) return false;
  let t = ` ${fold(trimmed).text.replace(/’/g, "'").replace(/[^\p{L}' ]+/gu, ' ').replace(/\s+/g, ' ').trim()} `;
  // "the breeder said …", "der Hausmeister meinte …": who said it is no content
  const escape = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const det = [...pack.text.vagueWords, ...pack.text.namedAs.articles].map((d) => escape(foldPhrase(d))).join('|');
  for (const v of [...(pack.text.reportedBy ?? [])].map(foldPhrase).sort((a, b) => b.length - a.length)) {
    t = t.replace(new RegExp(` (?:${det})(?: [\\p{L}']+){1,2} (${escape(v)}) `, 'gu'), ' $1 ');
  }
  // "ask our old vet", "fragen Sie unseren alten Tierarzt": whom to ask, at the end, is no content
  for (const v of [...(pack.text.askWhom ?? [])].map(foldPhrase).sort((a, b) => b.length - a.length)) {
    t = t.replace(new RegExp(` (${escape(v)}) (?:${det})(?: [\\p{L}']+){1,2} $`, 'u'), ' $1 ');
  }
  let hit = false;
  for (const p of [...pack.text.unsure, ...pack.text.deferrals, ...pack.lexicon.skip, ...pack.text.pointers].map(foldPhrase).sort((a, b) => b.length - a.length)) {
    if (p !== '' && t.includes(` ${p} `)) {
      t = t.split(` ${p} `).join(' ');
      hit = true;
    }
  }
  if (!hit) return false;
  // where the answer is written says nothing of what it says ("idk, it's on the letter they mailed me": the pack's source nouns)
  const free = new Set([...pack.text.contentFree, ...pack.lexicon.skipFiller, ...(pack.text.valueParts?.sourceNouns ?? [])].map(foldPhrase));
  // the question's own words say nothing new ("idk, I'm allergic to something" at "What are you allergic to?")
  const own = q ? ownStems(q, pack) : new Set<string>();
  const stem = pack.options.meaning?.stem ?? ((w: string) => w);
  return t.split(' ').every((w) => w === '' || free.has(w) || own.has(stem(w)));
}

// ---------------------------------------------------------------- codes

/** How a code question says its format: a pattern, the shape of an example in the prompt, or only that it is a code. */
type Format =
  | { kind: 'pattern'; re: RE2JS; shown: { example: string; upper: boolean } | null; prefix: string }
  | { kind: 'shape'; re: RegExp; example: string; upper: boolean }
  | { kind: 'code' };

const CODE_TOKEN = /[\p{L}\p{N}]+(?:[-/.][\p{L}\p{N}]+)*/gu;
const shapes = new Map<string, { example: string; re: RegExp; upper: boolean } | null>();

/** The format of a code question, or null when the question does not ask for a code. */
function codeFormat(q: OpenQuestion, pack: LanguagePack): Format | null {
  const spec = q.answer as TextSpec;
  if (spec.pattern !== undefined) {
    let re: RE2JS;
    try {
      re = re2().RE2JS.compile(spec.pattern);
    } catch {
      return null;
    }
    // the prompt's example of the format ("looks like BF-104233") says how to write a code the pattern takes in several ways
    const shown = q.prompt ? exampleIn(q.prompt, pack) : null;
    return { kind: 'pattern', re, shown: shown && re.matches(shown.example) ? { example: shown.example, upper: shown.upper } : null, prefix: literalPrefix(spec.pattern) };
  }
  // only a question whose key or label asks for a code ("order_number", "Member ID", "Bestellnummer") is one: "Which product?
  // … (for example BF-AX600)" is answered by "BF-AX600 floodlights" as a whole
  // a key is written in English whatever the visitor's language ("booking_ref"); a label in the flow's
  const isCode = (words: string[], list: readonly string[]) => words.some((w) => list.map(foldPhrase).some((c) => w === c || (c.length >= 5 && w.endsWith(c))));
  if (!isCode(q.key.toLowerCase().split(/[_.\s-]+/), en.text.codeWords) && !isCode(fold(q.label ?? '').text.split(' '), pack.text.codeWords)) return null;
  const shown = q.prompt ? exampleIn(q.prompt, pack) : null;
  return shown ? { kind: 'shape', ...shown } : { kind: 'code' };
}

/** The example of a code's format a prompt shows after "looks like", "for example", "sieht so aus:" (a token with a digit), and its shape. */
function exampleIn(prompt: string, pack: LanguagePack): { example: string; re: RegExp; upper: boolean } | null {
  const key = `${pack.code}\u0000${prompt}`;
  if (shapes.has(key)) return shapes.get(key)!;
  let found: { example: string; re: RegExp; upper: boolean } | null = null;
  const markers = [...pack.text.exampleBefore].sort((a, b) => b.length - a.length).map((m) => m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+'));
  const re = new RegExp(`(?<![\\p{L}])(?:${markers.join('|')})\\s*[:：]?\\s*["“„'‘«]?([\\p{L}\\p{N}]+(?:[-/.][\\p{L}\\p{N}]+)*)`, 'giu');
  for (const m of prompt.matchAll(re)) {
    const example = m[1]!.replace(/[.]+$/u, '');
    if (example.length >= 4 && /\p{N}/u.test(example)) {
      found = { example, re: shapeOf(example), upper: /\p{Lu}/u.test(example) && !/\p{Ll}/u.test(example) };
      break;
    }
  }
  if (shapes.size > 512) shapes.clear();
  shapes.set(key, found);
  return found;
}

/** "BF-104233" → letters{2}, an optional separator, digits{6}: what a code of the same format looks like. */
function shapeOf(example: string): RegExp {
  const runs = example.match(/\p{L}+|\p{N}+|[^\p{L}\p{N}]+/gu) ?? [];
  let out = '';
  for (let i = 0; i < runs.length; i++) {
    const r = runs[i]!;
    if (/^\p{L}/u.test(r)) out += `\\p{L}{${r.length}}`;
    else if (/^\p{N}/u.test(r)) out += `\\p{N}{${r.length}}`;
    else {
      out += '[-/. ]?';
      continue;
    }
    const next = runs[i + 1];
    if (next !== undefined && /^[\p{L}\p{N}]/u.test(next)) out += '[-/. ]?';
  }
  return new RegExp(`^${out}$`, 'u');
}

/** A code's candidates in a reply: tokens with a digit, at least 4 characters long, with where they stand. */
function codeTokens(text: string): Array<{ token: string; start: number }> {
  const out: Array<{ token: string; start: number }> = [];
  for (const m of text.matchAll(CODE_TOKEN)) {
    const token = m[0].replace(/[.]+$/u, '');
    if (token.length >= 4 && /\p{N}/u.test(token)) out.push({ token, start: m.index });
  }
  return out;
}

/**
 * A code question's reply as the code readers see it: a dash of any kind is a hyphen ("BF–118 020", "BF—109876"), and
 * digits said in words are digits ("zero zero four five seven seven one two", "B F one zero four two three three": a
 * run of four digits or more holding three digit words, the pack's `spoken` words).
 */
function codeView(text: string, pack: LanguagePack): string {
  let out = text.replace(/[‐‑‒–—―]/gu, '-');
  const spelled = pack.spoken ? spelledDigits(out, pack.spoken, 4) : null;
  if (spelled) out = `${out.slice(0, spelled.start)}${spelled.value}${out.slice(spelled.end)}`;
  return out;
}

/** Reads a code question's reply: the one code in the format, a check, a question back, a skip, or null (the plain rules). */
function readCode(q: OpenQuestion, text: string, format: Format, pack: LanguagePack, viewed = false): TextReading | null {
  const whole = text.trim().replace(/[.!]+$/u, '');
  const tokens = codeTokens(text);
  const fits = (t: string) => (format.kind === 'pattern' ? format.re.matches(t) : format.kind === 'shape' ? format.re.test(t) : true);
  // the whole reply is the code ("BF-104233", "SW1A 1AA" for a postcode): the plain rules take it, written like the prompt's example
  if (format.kind === 'pattern' && format.re.matches(whole)) {
    const like = format.shown ? likeExample(whole, format.shown.example, format.shown.upper) : whole;
    if (like !== whole && format.re.matches(like)) return { value: like, evidence: whole, exact: true };
    // the reply as the code readers see it ("BF—109876", "zero zero four five …") is not what the plain rules read
    return viewed ? { value: whole, evidence: whole, exact: false } : null;
  }
  if (format.kind === 'pattern') return readPatterned(q, text, format, pack);
  if (tokens.length === 0 && format.kind !== 'shape' && !hasSentence(whole)) return null;
  // "xjh 1234 5678 9": a reply of code parts only is the code as typed (the plain rules); "Its MBI 1EG4-TE5-MK73" holds a word
  if (format.kind === 'code' && tokens.length > 0 && /^[\p{L}\p{N}\s\-/.]{4,30}$/u.test(whole) && whole.split(/\s+/).every((p) => /\p{N}/u.test(p) || p.length <= 4)
    && codeRuns(whole, pack).length === 1 && codeRuns(whole, pack)[0]!.span === whole) {
    return viewed ? { value: whole, evidence: whole, exact: false } : null;
  }
  let matching = tokens.filter((t) => fits(t.token));
  // "bf 104877", "BF 109 221": a code typed in parts is one code when its parts together have the example's shape
  if (matching.length === 0 && format.kind === 'shape') matching = spacedCodes(text, format.re, pack);
  // "W123456789, group 98765": a code labelled as something else is not the answer when another one is
  const fixedToken = matching.length > 1 ? afterCorrection(text, matching.map((t) => ({ ...t, value: t.token })), pack) : null;
  if (fixedToken) matching = [{ token: fixedToken.token, start: fixedToken.start }];
  if (matching.length > 1) {
    const mine = matching.filter((t) => !labelledElsewhere(text, t.start, q, pack));
    if (mine.length > 0) matching = mine;
  }
  const distinct = [...new Set(matching.map((t) => t.token.toUpperCase().replace(/[-/. ]/g, '')))];
  if (distinct.length > 1) return { problem: say(pack, 'whichCode') };
  // "group number 44871", "PO 4471-22": a code of another kind is no answer
  const label = matching.length > 0 ? otherLabel(text, matching[0]!.start, q, pack) : null;
  if (label !== null) return { problem: say(pack, 'otherCode', { typed: label }) };
  if (matching.length > 0) {
    const token = matching[0]!.token;
    const value = format.kind === 'shape' ? likeExample(token, format.example, format.upper) : token;
    if (format.kind !== 'code') return { value, evidence: token, exact: token === whole, ...(token !== whole && doubted(text, token, pack) ? { confirm: true as const } : {}) };
    // without a format to go by, words nothing accounts for ("W123456789 (she's on my plan)") mean a check
    // a type label in capitals just before a code with letters, digits and separators of its own ("MBI 1EG4-TE5-MK73") is explained
    const typeLabel = /(?:^|\s)(\p{Lu}{2,5})\s+$/u.exec(text.slice(0, matching[0]!.start));
    const typed = typeLabel && /\p{L}/u.test(token) && /[\p{L}\p{N}][-/.][\p{L}\p{N}]/u.test(token) ? foldPhrase(typeLabel[1]!) : null;
    const left = unexplainedWords(text, [token], q, pack).filter((w) => !pack.text.codeWords.map(foldPhrase).includes(w) && w !== typed);
    return left.length === 0 ? { value, evidence: token, exact: token === whole } : { value, evidence: token, exact: false, confirm: true };
  }
  // no code in the format: "don't have it on me", "weiß ich nicht, das hat die Stadt bestellt" — nothing given; a code of
  // another kind given beside it ("PO 4471-22 is our purchase order, don't know yours") is asked about, never a skip
  if (declines(text, pack) && !codeRuns(text, pack).some((r) => looksLikeCode(r.span))) return { skip: true };
  if (tokens.length === 1 && format.kind === 'shape') return { value: tokens[0]!.token, evidence: tokens[0]!.token, exact: false, confirm: true };
  if (format.kind === 'shape') return { problem: say(pack, 'codeLike', { example: format.example }) };
  if (format.kind === 'code' && tokens.length === 0 && hasSentence(whole)) return { problem: say(pack, 'codeItself') };
  return null;
}

/**
 * A code question with a pattern: each run of code parts in the reply ("W 1234 5678 9", "bf 104512", "ZGP 884 22 1093",
 * "lic 20931"; parts with a digit, or short letter groups that are no common word) is written the one way the pattern
 * takes (`toPattern`); one code is the value, two are asked about, none is left to the plain rules (the pattern's
 * invalid prompt) unless the reply declines.
 */
function readPatterned(q: OpenQuestion, text: string, format: Extract<Format, { kind: 'pattern' }>, pack: LanguagePack): TextReading | null {
  let found = codeRuns(text, pack)
    // "BF-121003 / PO 7781": a run that fits no way is tried again in its parts set apart by a spaced slash
    .flatMap((r) => (toPattern(r, format) === null && /\s\/\s/u.test(r.span) ? splitRun(r) : [r]))
    .map((r) => ({ ...r, value: toPattern(r, format) }))
    .filter((r): r is typeof r & { value: string } => r.value !== null);
  // "ABC-55501-22 wait no ABC-55510-22", "BF-104233, nein, BF-104332": the code after a self-correction replaces the one before
  const fixed = found.length > 1 ? afterCorrection(text, found, pack) : null;
  // a hedge anywhere doubts a correction ("BF-104233 sorry, maybe BF-104332")
  if (fixed) return { value: fixed.value, evidence: fixed.span, exact: false, ...(text.includes('?') || doubted(text, '', pack) ? { confirm: true as const } : {}) };
  if (found.length > 1) {
    const mine = found.filter((r) => !labelledElsewhere(text, r.start, q, pack));
    if (mine.length > 0) found = mine;
  }
  const distinct = [...new Set(found.map((r) => r.value.toUpperCase().replace(/[-/. ]/g, '')))];
  if (distinct.length > 1) return { problem: say(pack, 'whichCode') };
  // "group number 44871" at a member ID, "Angebotsnummer 44120" at an order number: a code of another kind is no answer
  const label = found.length > 0 ? otherLabel(text, found[0]!.start, q, pack) : null;
  if (label !== null) return { problem: say(pack, 'otherCode', { typed: label }) };
  // "Its MBI 1EG4-TE5-MK73": a capitalised type label before a code that has letters, digits and separators of its own
  if (found.length === 1) {
    const own = labelledType(found[0]!, format);
    if (own !== null) found = [own];
  }
  if (found.length > 0) {
    const exact = found[0]!.span === text.trim().replace(/[.!]+$/u, '');
    return { value: found[0]!.value, evidence: found[0]!.span, exact, ...(!exact && doubted(text, found[0]!.span, pack) ? { confirm: true as const } : {}) };
  }
  // "PO 4471-22 is our purchase order, don't know yours": a code was given, only not the one asked — asked again, never a skip
  if (declines(text, pack) && !codeRuns(text, pack).some((r) => looksLikeCode(r.span))) return { skip: true };
  return null;
}

/** Whether a run of code parts looks like a code of some kind: letters and digits, a separator between digits, or five digits or more. */
function looksLikeCode(span: string): boolean {
  return (/\p{L}/u.test(span) && /\p{N}/u.test(span)) || /\p{N}[-/.]\p{N}/u.test(span) || /\p{N}{5,}/u.test(span.replace(/\s+/gu, ''));
}

/**
 * The code without a type label said before it ("MBI 1EG4-TE5-MK73" → "1EG4-TE5-MK73"): the run's first part is capital letters
 * only and the rest has letters, digits and a separator of its own and fits the pattern. "AET 5512 X", "XGP 449182" keep theirs
 * (the rest is no code of its own).
 */
function labelledType(run: CodeRun & { value: string }, format: Extract<Format, { kind: 'pattern' }>): (CodeRun & { value: string }) | null {
  const m = /^(\p{Lu}{2,5})\s+(?=\S)/u.exec(run.span);
  if (!m) return null;
  const rest = run.span.slice(m[0].length);
  if (!/\p{L}/u.test(rest) || !/\p{N}/u.test(rest) || !/[\p{L}\p{N}][-/.][\p{L}\p{N}]/u.test(rest)) return null;
  const value = toPattern({ span: rest, parts: run.parts.slice(1) }, format);
  return value === null ? null : { span: rest, start: run.start + m[0].length, parts: run.parts.slice(1), value };
}

/**
 * The label before a code when it names a kind of code the question does not ask for (the pack's `otherCodes`: "group number",
 * "policy number", "rx bin", "Angebotsnummer", "Kundennummer"), or null: the nearest words before the code, past filler; a
 * label of the question's own words ("member number", "Bestellnummer" at the order number) is the code asked.
 */
function otherLabel(text: string, start: number, q: OpenQuestion, pack: LanguagePack): string | null {
  const others = (pack.text.otherCodes ?? []).map(foldPhrase);
  if (others.length === 0) return null;
  const before = text.slice(Math.max(0, start - 60), start).split(/[,;.()!?]/u).at(-1) ?? '';
  const words = [...before.matchAll(/[\p{L}]+/gu)].map((m) => m[0]);
  const codeWords = [...new Set([...pack.text.codeWords, ...en.text.codeWords].map(foldPhrase))];
  const filler = new Set([...pack.lexicon.filler, ...pack.text.clauseWords, ...pack.text.vagueWords, ...pack.text.namedAs.articles, ...(pack.text.valueParts?.possessive ?? [])].map(foldPhrase));
  const own = ownStems(q, pack);
  const stem = pack.options.meaning?.stem ?? ((w: string) => w);
  const ownWord = (w: string) => w.split(' ').every((x) => own.has(stem(x)) || own.has(x));
  let i = words.length - 1;
  while (i >= 0 && filler.has(fold(words[i]!).text) && !codeWords.includes(fold(words[i]!).text)) i--;
  if (i < 0) return null;
  const w = fold(words[i]!).text;
  const other = (x: string) => others.includes(x) || others.includes(x.replace(/s$/u, '')) ;
  // "Kundennummer", "Angebotsnummer": a compound ending in a code word
  const tail = codeWords.find((c) => c.length >= 3 && w.length > c.length + 2 && w.endsWith(c));
  if (tail !== undefined) {
    const head = w.slice(0, -tail.length);
    return !ownWord(w) && !ownWord(head) && other(head) ? words[i]! : null;
  }
  const prev = i > 0 ? fold(words[i - 1]!).text : '';
  if (codeWords.includes(w)) return prev !== '' && other(prev) && !ownWord(prev) ? `${words[i - 1]} ${words[i]}` : null;
  // "rx bin 610014", "PO 5520-31", "purchase order 4471"
  if (prev !== '' && others.includes(`${prev} ${w}`) && !ownWord(`${prev} ${w}`)) return `${words[i - 1]} ${words[i]}`;
  return others.includes(w) && !ownWord(w) ? words[i]! : null;
}

const wordsOf = new WeakMap<LanguagePack, ReadonlySet<string>>();

/** Every word in the pack's lexicon and text lists ("is", "it", "on", "the", "ist", "die"), folded: words of the language, not code parts. */
function packWords(pack: LanguagePack): ReadonlySet<string> {
  let set = wordsOf.get(pack);
  if (!set) {
    const out = new Set<string>([...en.text.codeWords].map(foldPhrase));
    const walk = (v: unknown): void => {
      if (typeof v === 'string') {
        for (const w of foldPhrase(v).split(/[^\p{L}']+/u)) if (w !== '') out.add(w);
      } else if (Array.isArray(v)) v.forEach(walk);
      else if (v instanceof Set) [...v].forEach(walk);
      else if (v !== null && typeof v === 'object' && !(v instanceof RegExp)) Object.values(v).forEach(walk);
    };
    walk(pack.lexicon);
    walk(pack.text);
    set = out;
    wordsOf.set(pack, set);
  }
  return set;
}

/** A run of code parts in a reply: its text as typed, where it starts, and its letter and digit parts. */
type CodeRun = { span: string; start: number; parts: string[] };

/** The runs of code parts in a reply, split at words of the language ("is", "the", "order", "Nummer") and at commas. */
export function codeRuns(text: string, pack: LanguagePack): CodeRun[] {
  const common = pack.names.reply.common();
  const known = packWords(pack);
  // a short letter group is a code part unless it is a word of the pack's own lists ("is", "on", "the", "ist"); one of three
  // letters or more also unless it is a common word (stopwords-iso lists country codes such as "bf" among its short words)
  const part = (w: string) => {
    if (/\p{N}/u.test(w)) return true;
    const f = foldPhrase(w);
    // a capital letter alone ("W 1234 5678 9", "A 1234 5678 90") is a code's prefix, save English "I"
    if (/^\p{Lu}$/u.test(w) && !(pack.code === 'en' && w === 'I')) return true;
    if (w.length > 4 || known.has(f)) return false;
    return w.length <= 2 || !common.has(f) || (/^\p{Lu}+$/u.test(w) && w.length <= 3);
  };
  const runs: CodeRun[] = [];
  let cur: { start: number; end: number; parts: string[] } | null = null;
  const close = () => {
    if (cur && cur.parts.some((p) => /\p{N}/u.test(p)) && cur.parts.join('').length >= 4) runs.push({ span: text.slice(cur.start, cur.end), start: cur.start, parts: cur.parts });
    cur = null;
  };
  for (const m of text.matchAll(/[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu)) {
    const w = m[0];
    if (!part(w)) {
      close();
      continue;
    }
    if (cur && /^[\s\-/.]+$/u.test(text.slice(cur.end, m.index))) {
      cur.parts.push(w);
      cur.end = m.index + w.length;
    } else {
      close();
      cur = { start: m.index, end: m.index + w.length, parts: [w] };
    }
  }
  close();
  return runs;
}

/** A run of code parts cut at each spaced slash ("BF-121003 / PO 7781" → "BF-121003", "PO 7781"). */
function splitRun(run: CodeRun): CodeRun[] {
  const out: CodeRun[] = [];
  let at = 0;
  for (const piece of run.span.split(/\s\/\s/u)) {
    const start = run.span.indexOf(piece, at);
    at = start + piece.length;
    const parts = piece.match(/[\p{L}\p{N}]+/gu) ?? [];
    if (parts.length > 0) out.push({ span: piece, start: run.start + start, parts });
  }
  return out;
}

/**
 * The one way a run of code parts is written that the pattern takes, or null: as typed or like the prompt's example;
 * joined, in capitals or as typed; with the separator the pattern puts between its parts; with the prefix the pattern
 * fixes ("20931" → "LIC-20931"); with one separator inserted — only when exactly one place fits ("4182290" → "418-2290").
 */
export function toPattern(run: { span: string; parts: string[] }, format: { re: RE2JS; shown: { example: string; upper: boolean } | null; prefix: string }): string | null {
  // a separator the visitor typed between two digits ("PO 4471-22") is part of the code: a way that drops it is another code
  const kept = run.span.match(/\p{N}[-/.]\p{N}/gu) ?? [];
  const fits = (c: string) => format.re.matches(c) && kept.every((k) => c.includes(k));
  const compact = run.parts.join('');
  const tries: string[] = [];
  if (format.shown) tries.push(likeExample(run.span, format.shown.example, format.shown.upper));
  tries.push(run.span);
  for (const sep of ['', '-', ' ', '/', '.']) {
    const joined = run.parts.join(sep);
    tries.push(joined.toUpperCase(), joined, joined.toLowerCase());
  }
  const head = format.prefix.replace(/[^\p{L}\p{N}]/gu, '');
  if (format.prefix !== '') {
    for (const c of [compact.toUpperCase(), compact]) {
      const rest = head !== '' && c.toUpperCase().startsWith(head.toUpperCase()) ? c.slice(head.length) : c;
      tries.push(format.prefix + rest);
    }
  }
  // "104233" for "looks like BF-104233": the digits alone, with the letters the example starts with
  const lead = format.shown ? /^(\p{L}+)[^\p{L}\p{N}]?\p{N}/u.exec(format.shown.example) : null;
  if (lead && /^\p{N}+$/u.test(compact)) tries.push(likeExample(lead[1]! + compact, format.shown!.example, format.shown!.upper));
  const hit = tries.find(fits);
  if (hit !== undefined) return hit;
  // "BF-1O4233": a letter O or l typed among digits is the digit it looks like
  const looks = run.parts.map((p) => (/\p{N}/u.test(p) && /^[\p{N}OoIl]+$/u.test(p) ? p.replace(/[Oo]/gu, '0').replace(/[Il]/gu, '1') : p));
  if (looks.some((p, i) => p !== run.parts[i])) {
    const span = run.parts.reduce((acc, p, i) => acc.replace(p, looks[i]!), run.span);
    const again = toPattern({ span, parts: looks }, format);
    if (again !== null) return again;
  }
  // one separator the pattern names, put in the one place where it fits
  const seps = ['-', '/', '.', ' '].filter((x) => format.re.toString().includes(x));
  const placed = new Set<string>();
  for (const base of [compact.toUpperCase(), compact]) {
    for (const sep of seps) for (let i = 1; i < base.length; i++) if (fits(base.slice(0, i) + sep + base.slice(i))) placed.add(base.slice(0, i) + sep + base.slice(i));
  }
  const ways = [...new Set([...placed].map((x) => x.toUpperCase()))];
  return ways.length === 1 ? [...placed][0]! : null;
}

/** The literal characters a pattern starts with ("^LIC-[0-9]{5}$" → "LIC-"; "^BF-?…" → "BF"), or "". */
function literalPrefix(pattern: string): string {
  const m = /^\^((?:[A-Za-z0-9]|\\-|-)*)/.exec(pattern);
  if (!m) return '';
  let lit = m[1]!.replace(/\\-/g, '-');
  // a quantifier after the last literal makes it optional
  if (/^[?*{]/.test(pattern.slice(m[0].length))) lit = lit.slice(0, -1);
  return lit;
}

/** Codes typed in parts ("bf 104877", "BF 109 221"): runs of up to four words whose letters and digits together have the shape. */
function spacedCodes(text: string, shape: RegExp, pack: LanguagePack): Array<{ token: string; start: number }> {
  const parts = [...text.matchAll(/[\p{L}\p{N}]+/gu)];
  const out: Array<{ token: string; start: number }> = [];
  // a word of the language is no part of a code ("the number is 104-233" is not IS-104233)
  const common = new Set([...pack.lexicon.filler, ...pack.lexicon.skipFiller, ...pack.text.codeWords, ...en.text.codeWords].map(foldPhrase));
  for (let i = 0; i < parts.length; i++) {
    if (/^\p{L}+$/u.test(parts[i]![0]) && common.has(foldPhrase(parts[i]![0]))) continue;
    for (let j = i + 1; j < Math.min(parts.length, i + 4); j++) {
      const span = text.slice(parts[i]!.index, parts[j]!.index + parts[j]![0].length);
      if (!/^[\p{L}\p{N}]+(?:[\s\-/.][\p{L}\p{N}]+)*$/u.test(span)) break;
      // "PO 4471-22": a separator typed between two digits is part of the code; joined without it, it is another code
      if (/\p{N}[-/.]\p{N}/u.test(span)) continue;
      if (shape.test(span.replace(/[\s\-/.]/gu, ''))) out.push({ token: span, start: parts[i]!.index });
    }
  }
  return out;
}

/** A code written the way the example is: "bf 104877" → "BF-104877" for "BF-104233" (its separators, capitals when it has only capitals). */
function likeExample(token: string, example: string, upper: boolean): string {
  const chars = [...token.replace(/[^\p{L}\p{N}]/gu, '')];
  const slots = [...example].filter((c) => /[\p{L}\p{N}]/u.test(c)).length;
  if (chars.length !== slots) return upper ? token.toUpperCase() : token;
  let k = 0;
  const out = [...example].map((c) => (/[\p{L}\p{N}]/u.test(c) ? chars[k++]! : c)).join('');
  return upper ? out.toUpperCase() : out;
}

/**
 * Whether a reply doubts the code it holds: a question mark in its clause ("ZGP12345678 9 01?? not sure where it ends"), a guess
 * anywhere ("not sure", "keine Ahnung": the pack's `unsure`), or in a clause of its own an alternative or a hedge ("BF-104233
 * I think, or maybe that's the quote number": `compete` phrases that are also ballpark guesses, and "or"). "i think its
 * 103322" hedges in the code's own clause only, as a manner of speaking: committed.
 */
function doubted(text: string, span: string, pack: LanguagePack): boolean {
  // no span (a code after a self-correction): every clause is judged as an aside would be
  const at = span === '' ? -1 : text.indexOf(span);
  const blanked = at === -1 ? text : text.slice(0, at) + '\u0000' + text.slice(at + span.length);
  const clauses = keepAbbreviationDots(blanked, pack).split(/[,;:!.()[\]{}—–…]+|\s-\s|\n/u);
  // a question mark in the code's own clause doubts it; one in an aside asks about something else ("(does caps matter?)")
  if (clauses.some((c) => c.includes('\u0000') && c.includes('?'))) return true;
  const w = pack.leftovers;
  if (!w) return false;
  const t = fold(text).text.replace(/[’]/g, "'");
  if (w.unsure.some((p) => findPhrase(t, foldPhrase(p)).length > 0)) return true;
  const guesses = new Set((w.estimate?.guesses ?? []).map(foldPhrase));
  const doubt = [...w.compete.map(foldPhrase).filter((c) => guesses.has(c)), ...pack.lexicon.conjunctions.or.map(foldPhrase)];
  return clauses.filter((c) => !c.includes('\u0000')).some((c) => { const f = fold(c).text; return doubt.some((d) => findPhrase(f, d).length > 0); });
}

/** Whether a reply reads as words rather than a code: three words or more. */
function hasSentence(text: string): boolean {
  return (text.match(/[\p{L}]{2,}/gu) ?? []).length >= 3;
}

/**
 * Whether the words before a code name something other than the question ("group 98765", "the group number is 12345" at a
 * member ID question): the last word before it that is no filler ("is", "the", "my") and no code word ("number", "id").
 */
function labelledElsewhere(text: string, start: number, q: OpenQuestion, pack: LanguagePack): boolean {
  const codeWords = pack.text.codeWords.map(foldPhrase);
  const before = (text.slice(Math.max(0, start - 40), start).split(/[,;.()]/u).at(-1) ?? '').match(/[\p{L}]+/gu) ?? [];
  for (const w of before.slice(-4).reverse()) {
    const left = unexplainedWords(w, [], q, pack).filter((x) => !codeWords.includes(x));
    if (left.length > 0) return true;
    if (unexplainedWords(w, [], q, pack).length > 0) return false;
  }
  return false;
}

/** The one code said after a self-correction marker ("wait no", "sorry", "nein") when codes stand on both sides of it; null otherwise. */
function afterCorrection<T extends { start: number; value: string }>(text: string, found: T[], pack: LanguagePack): T | null {
  const tail = correctedTail(text, pack);
  // a no word between two codes corrects too ("BF-104233, nein, BF-104332", "ABC-1234 no ABC-1243")
  const noes = pack.lexicon.no.map(foldPhrase).filter((n) => /^[\p{L}]+$/u.test(n));
  const lastNo = [...fold(text).text.matchAll(/[\p{L}]+/gu)].filter((m) => noes.includes(m[0])).at(-1);
  const from = tail !== null ? text.length - tail.length : lastNo !== undefined && fold(text).text.length === text.length ? lastNo.index + lastNo[0].length : -1;
  if (from === -1) return null;
  const after = found.filter((f) => f.start >= from);
  if (after.length === 0 || after.length === found.length) return null;
  return new Set(after.map((f) => f.value.toUpperCase().replace(/[-/. ]/g, ''))).size === 1 ? after[0]! : null;
}

/** Whether a reply without the asked-for value says it is not given: a negation or a hedge ("don't have it", "no idea", "nicht zur Hand"). */
function declines(text: string, pack: LanguagePack): boolean {
  const t = fold(text).text.replace(/[’]/g, "'");
  return [...pack.lexicon.negators, ...pack.lexicon.skip, ...pack.text.notGiven].some((p) => findPhrase(t, foldPhrase(p)).length > 0);
}

// ---------------------------------------------------------------- free text

/**
 * Free text (a description, a list of medicines, a note): a description that says nothing checkable ("they don't work",
 * "geht nicht", "broken") at a question asking which thing and what about it is asked about ("… which ones, and what exactly
 * is happening?"), never stored; greetings and discourse words before it ("hi yes hello, so basically …", "ok found it: …",
 * "anyway …") are dropped (the raw reply stays in the provenance); anything else is the plain rules' (the text as typed).
 */
function readFree(q: OpenQuestion, text: string, pack: LanguagePack, value: string | null, history?: ExtractionRequest['history']): TextReading | null {
  if (asksWhichAndWhat(q, pack) && (saysNothing(text, q, pack) || somethingWith(text, q, pack))) return { problem: say(pack, 'whichAndWhat') };
  if (value === null) return null;
  let body = withoutDiscourse(value, pack);
  // the answer to "… which ones, and what exactly is happening?": the reply asked about goes with it ("flickering. the 4 lights …")
  const before = askedAbout(history, pack);
  if (before !== null && !fold(body).text.includes(fold(before).text) && !addsNothing(before, body, pack)) body = `${before}${/[.!?]$/u.test(before) ? '' : '.'} ${body}`;
  const spec = q.answer as TextSpec;
  if (body === value.trim() || body.length < (spec.min ?? 1)) return null;
  return { value: body, evidence: body, exact: false };
}

/**
 * Whether the reply asked about says nothing the description after it does not: each of its words only says something is wrong
 * ("broken", "not working", "kaputt", "geht nicht") or is said again ("flickering" beside "the 4 lights flicker"). The new
 * description is then the record alone; "flickering" before "the 4 lights on court 2, since monday" still goes with it.
 */
function addsNothing(before: string, body: string, pack: LanguagePack): boolean {
  const stem = pack.options.meaning?.stem ?? ((w: string) => w);
  const words = (t: string) => fold(t).text.replace(/’/g, "'").replace(/[^\p{L}\p{N}' ]+/gu, ' ').split(/\s+/).filter((w) => w !== '');
  const free = new Set([...(pack.text.vagueProblem ?? []), ...pack.text.contentFree, ...pack.lexicon.skipFiller, ...(pack.text.discourse ?? [])].map(foldPhrase));
  const said = new Set(words(body).map(stem));
  return words(before).every((w) => free.has(w) || said.has(stem(w)));
}

/** The visitor's last reply when the bot's last line asked about it for naming nothing ("flickering" → "… which ones, and what exactly …?"), or null. */
function askedAbout(history: ExtractionRequest['history'], pack: LanguagePack): string | null {
  if (!history || history.length < 2) return null;
  const bot = history.at(-1)!;
  const user = history.at(-2)!;
  if (bot.role !== 'bot' || user.role !== 'user' || user.pii || user.text.trim() === '') return null;
  return bot.text.startsWith(say(pack, 'whichAndWhat')) ? withoutDiscourse(user.text.trim(), pack).replace(/[\s.!]+$/u, '') : null;
}

/** Whether the prompt asks which thing and what about it ("which lights …, and what are they doing?", "Welche Leuchten … und was passiert?"). */
function asksWhichAndWhat(q: OpenQuestion, pack: LanguagePack): boolean {
  const words = pack.text.asksWhich;
  if (!words || q.prompt === undefined) return false;
  const p = ` ${fold(q.prompt).text.replace(/[^\p{L}' ]+/gu, ' ')} `;
  const has = (list: readonly string[]) => list.some((w) => p.includes(` ${foldPhrase(w)} `));
  return has(words.which) && has(words.what);
}

/** Whether a description names nothing: no digit, at most six words, each a complaint word, a word saying nothing, or one of the question's own. */
function saysNothing(text: string, q: OpenQuestion, pack: LanguagePack): boolean {
  if (/\p{N}/u.test(text) || !pack.text.vagueProblem) return false;
  const words = fold(text).text.replace(/’/g, "'").replace(/[^\p{L}' ]+/gu, ' ').split(/\s+/).filter((w) => w !== '');
  if (words.length === 0 || words.length > 6) return false;
  const free = new Set([...pack.text.vagueProblem, ...pack.text.contentFree, ...pack.lexicon.skipFiller, ...pack.lexicon.negators, ...(pack.text.discourse ?? [])].map(foldPhrase));
  // the question's own words in any form ("flackert" for "Flackern", "buzzes" for "buzzing")
  const stem = pack.options.meaning?.stem ?? ((w: string) => w);
  const nouns = [...ownNouns(q, pack)];
  const own = new Set(nouns.map(stem));
  // a stemmer leaves some forms apart ("flackert", "Flackern"): a shared start of five letters or more, the rest at most three
  const near = (w: string) => nouns.some((o) => {
    let k = 0;
    while (k < w.length && k < o.length && w[k] === o[k]) k++;
    return k >= 5 && Math.max(w.length, o.length) - k <= 3;
  });
  return words.every((w) => free.has(w) || own.has(stem(w)) || near(w));
}

/**
 * Whether a description opens with a stand-in ("something with the lights", "irgendwas mit dem Licht halt") and names at most
 * two things beside words that say nothing, no digit: neither which nor what is said.
 */
function somethingWith(text: string, q: OpenQuestion, pack: LanguagePack): boolean {
  if (/\p{N}/u.test(text)) return false;
  const t = withoutDiscourse(fold(text).text.replace(/’/g, "'").replace(/[^\p{L}' ]+/gu, ' ').replace(/\s+/g, ' ').trim(), pack);
  const lead = [...(pack.text.placeholderWith ?? [])].map(foldPhrase).sort((a, b) => b.length - a.length).find((p) => t.startsWith(`${p} `));
  if (lead === undefined) return false;
  const free = new Set([...(pack.text.vagueProblem ?? []), ...pack.text.contentFree, ...pack.lexicon.skipFiller, ...pack.lexicon.negators].map(foldPhrase));
  const rest = t.slice(lead.length).trim().split(' ').filter((w) => w !== '' && !free.has(w));
  return rest.length <= 2 && t.split(' ').length <= 8;
}

/** Free text without the greetings and discourse words before it ("hi yes hello, so basically the lights …" → "the lights …"). */
function withoutDiscourse(value: string, pack: LanguagePack): string {
  const list = [...(pack.text.discourse ?? [])].map(foldPhrase).sort((a, b) => b.length - a.length);
  let out = value.trim();
  for (let pass = 0; pass < 8 && list.length > 0; pass++) {
    const f = fold(out);
    const lead = list.find((p) => f.text.startsWith(p) && !/[\p{L}\p{N}']/u.test(f.text[p.length] ?? ''));
    if (lead === undefined) break;
    const gap = /^[\s,.!:;—–-]*/u.exec(f.text.slice(lead.length))![0].length;
    const next = originalSlice(out, f, lead.length + gap, f.text.length).trim();
    // what is left must still say something: three words at least
    if ((next.match(/[\p{L}\p{N}]+/gu) ?? []).length < 3) break;
    out = next;
  }
  // "ok its amlodipine 5mg and omeprazole": a sentence of the visitor's own follows ("it's", "es ist"); cutting only the
  // discourse would leave half a sentence, so the reply is kept as typed
  const f = fold(out).text.replace(/’/g, "'");
  const own = [...(pack.text.valueParts?.weAre ?? []), ...SENTENCE_OPENERS].map(foldPhrase);
  if (out !== value.trim() && own.some((x) => f === x || f.startsWith(`${x} `))) return value.trim();
  return out;
}

/** A pronoun and a copula in the packs' languages that open a sentence of the visitor's own ("its", "that's", "das sind"). */
const SENTENCE_OPENERS = ['its', "it's", 'it is', "that's", 'thats', 'that is', 'this is', 'these are', "they're", 'theyre', 'es ist', 'das ist', 'das sind', 'es sind', "c'est", 'ce sont', 'es', 'son'];

// ---------------------------------------------------------------- short answers

/** Reads a short answer: a private project skipped, a vague reference asked about, lead-ins and trailing clauses set apart. */
function readShort(q: OpenQuestion, value: string, pack: LanguagePack, ctx: ParseContext): TextReading | null {
  const w = pack.text;
  // "Cigna apparently", "Humana, probably", "die AOK, glaube ich": the hedge goes, and the value is confirmed once
  const hedged = withoutHedgeAfter(value, pack);
  if (hedged !== null) {
    const read = readShort(q, hedged, pack, ctx);
    return read === null ? { value: hedged, evidence: hedged, exact: false, confirm: true } : 'value' in read ? { ...read, confirm: true } : read;
  }
  if (!q.required && q.prompt !== undefined && isPrivate(value, q.prompt, q, pack)) return { skip: true };
  // "no club", "keine Schule": none of what is asked, at an optional question
  if (!q.required && noneOfIt(value, q, pack)) return { skip: true };
  if (vague(value, q, pack)) return { problem: say(pack, 'nameIt', { typed: value }) };
  let head = withoutLeadIn(value, q, pack);
  // "the card says Meridian", "laut Karte die TK": the source said before the value is no part of it (value-parts.ts)
  const sourced = withoutSource(head, pack);
  if (sourced !== head) head = withoutArticle(withoutLeadIn(withoutFiller(q.answer as TextSpec, sourced), q, pack), pack);
  // "we switched to Humana in January", "used to be Aetna, now Cigna": the value now; a change to come is asked which
  const now = currentValue(head, pack);
  if (now !== null && 'ask' in now) return { problem: say(pack, 'whichNow') };
  if (now !== null) head = withoutArticle(withoutLeadIn(now.value, q, pack), pack);
  // "UnitedHealthcare via my wife's job": how it is had, said without a comma; "die Grundschule Am Wall in Bremen": the town
  head = withoutViaAfter(head, pack);
  if (!CLAUSE.test(head)) head = withoutTownAfter(pack.code === 'de' ? withoutArticle(head, pack) : head, pack);
  // "Joan Ferris (sister), 0161 496 0321": a phone or email at the end answers its own question, not this one
  for (const c of [...findEmails(head), ...findPhones(head, ctx)].sort((a, b) => b.start - a.start)) {
    if (/^[\s.!)]*$/u.test(head.slice(c.end)) && /[\p{L}]/u.test(head.slice(0, c.start))) head = head.slice(0, c.start).replace(/[\s,;:—–-]+$/u, '');
  }
  if (vague(head, q, pack)) return { problem: say(pack, 'nameIt', { typed: head }) };
  // "blue something", "irgendwas mit Sport": a stand-in for what the visitor does not know; "church", "Verein": a kind alone
  if (hasPlaceholder(head, pack) || kindAlone(head, q, pack)) return { problem: say(pack, 'nameIt', { typed: head }) };
  // "a small pickleball club", "a small club, mostly juniors": a description that names nothing is asked for the name
  if (describes(head.split(/[,;:(]|\s[—–-]\s/u)[0]!, pack) && !namesSomething(head, pack)) return { problem: say(pack, 'nameIt', { typed: head }) };
  // "St. Mary's Catholic School, the gym": a dot after a known abbreviation ends no clause
  const clauseIn = (t: string) => CLAUSE.exec(keepAbbreviationDots(t, pack));
  const brk = clauseIn(head);
  let confirm = false;
  if (brk && brk.index > 0) {
    const first = head.slice(0, brk.index).trim();
    const tail = head.slice(brk.index).replace(/^[\s,;:.(—–-]+/u, '').replace(/[\s).!]+$/u, '');
    // "through my employer, Aetna", "my club — Riverside Padel": a vague start names what follows
    // (before a name, "our HOA", "my PTA" — a kind of organisation, the pack's `kinds` — points at it too; alone it may be the record)
    if (vague(first, q, pack, namesSomething(tail, pack)) && /\p{L}/u.test(tail) && !clauseIn(tail) && !isClause(tail, pack)) return { value: tail, evidence: tail, exact: false };
    // "we're a small pickleball club, Dink Masters", "ein kleiner Verein, der TSV Hohenberg": a description, then the name
    if (describes(first, pack) && !describes(tail, pack)) {
      const name = withoutArticle(withoutLeadIn(tail, q, pack), pack);
      const named = clauseIn(name);
      if (namesSomething(named ? name.slice(0, named.index) : name, pack)) {
        // "we're a contractor, Hernandez Electric LLC, for a client's park": the rest is read as the answer
        const more = named ? readShort(q, name, pack, ctx) : null;
        return more ?? { value: name, evidence: name, exact: false };
      }
    }
    if (/[\p{L}\p{N}]/u.test(first)) {
      const contacts = [...findEmails(tail), ...findPhones(tail, ctx)];
      let rest = tail;
      for (const c of contacts.sort((a, b) => b.start - a.start)) rest = rest.slice(0, c.start) + rest.slice(c.end);
      const restFolded = fold(rest).text;
      // "I'm the facilities manager", "we have 8 courts": about the speaker — unless it hedges or competes ("we're not sure")
      const hedged = [...pack.lexicon.negators, ...w.unsure, ...(w.valueParts?.competes ?? [])].some((p) => findPhrase(restFolded, foldPhrase(p)).length > 0);
      const aboutSpeaker = w.selfIntro.some((p) => restFolded.startsWith(`${foldPhrase(p)} `)) && !clauseIn(rest) && !hedged;
      if (!/[\p{L}\p{N}]/u.test(rest) || aboutSpeaker) head = first;
      // "the tennis side", "through my husband's job", "a small pickleball club", "member ID is U48812233": the name alone
      // "Springfield district", "Columbus diocese": the body the organisation belongs to
      else if (/\p{L}/u.test(first) && (narrows(rest, pack) || codeForAnother(rest, q, pack) || parentBody(rest, pack))) head = first;
      // "Tricare (my husband is active duty)", "Westfield ISD (the project is at Westfield Middle)": a remark about people, where the project is
      else if (/\p{L}/u.test(first) && !clauseIn(first) && (aboutPeople(rest, pack) || saysSite(rest, pack))) head = first;
      else if (isClause(rest, pack)) {
        // an unexplained clause ("Träger ist die Stadt Essen", "through my husband's job"): the head is checked once
        head = first;
        confirm = true;
      }
      // a tail of names only ("Smith, Jones & Co", "Gesamtschule Nord, Stadt Essen") is part of the answer
    }
  }
  head = head.replace(/[\s.!]+$/u, '').trim();
  // "private, for my family's barn …": what is left says the project is private
  if (!q.required && q.prompt !== undefined && head !== value.trim() && isPrivate(head, q.prompt, q, pack)) return { skip: true };
  if (head === '' || head === value.trim()) return head === '' ? null : confirm ? { value: head, evidence: head, exact: false, confirm: true } : null;
  if (!confirm && vague(head, q, pack)) return { problem: say(pack, 'nameIt', { typed: head }) };
  return confirm ? { value: head, evidence: head, exact: false, confirm: true } : { value: head, evidence: head, exact: false };
}

/** A short answer without a hedge after it ("Cigna apparently" → "Cigna"; the pack's `hedgesAfter`), or null when it ends in none. */
function withoutHedgeAfter(value: string, pack: LanguagePack): string | null {
  const f = fold(value.trim().replace(/[\s.!…]+$/u, ''));
  const hedge = [...(pack.text.hedgesAfter ?? [])].map(foldPhrase).sort((a, b) => b.length - a.length).find((h) => f.text.endsWith(` ${h}`) || f.text.endsWith(`,${h}`));
  if (hedge === undefined) return null;
  const head = originalSlice(value.trim(), f, 0, f.text.length - hedge.length).replace(/[\s,;:—–-]+$/u, '').trim();
  return /[\p{L}\p{N}]/u.test(head) ? head : null;
}

/** A short answer without one article before it ("der TSV Hohenberg" → "TSV Hohenberg"; the pack's `namedAs.articles`). */
function withoutArticle(value: string, pack: LanguagePack): string {
  const f = fold(value);
  const article = pack.text.namedAs.articles.map(foldPhrase).find((a) => f.text.startsWith(`${a} `));
  if (article === undefined) return value;
  const rest = originalSlice(value, f, article.length + 1, f.text.length).trim();
  return /^\p{Lu}/u.test(rest) ? rest : value;
}

/**
 * Whether a trailing part names the body the organisation belongs to: at most four words, the first typed with a capital
 * (its name), ending in one of the pack's `parentBodies` ("Springfield district", "Knox County district", "Lakeview school
 * district", "Columbus diocese", "Landkreis Harburg" in German is not read: the body word comes first there). No digit.
 */
function parentBody(rest: string, pack: LanguagePack): boolean {
  const bodies = pack.text.valueParts?.parentBodies;
  const words = rest.trim().replace(/[.!]+$/u, '').split(/\s+/u).filter((x) => x !== '');
  if (!bodies || words.length < 2 || words.length > 4 || /\p{N}/u.test(rest) || !/^\p{Lu}/u.test(words[0]!)) return false;
  const f = ` ${fold(words.join(' ')).text} `;
  return bodies.map(foldPhrase).some((b) => f.endsWith(` ${b} `) || (pack.capitalNouns && b.length >= 5 && f.trimEnd().endsWith(b)));
}

/** Whether a trailing part only gives a code for another question ("member ID is U48812233", "Mitgliedsnummer A123456789"). */
function codeForAnother(rest: string, q: OpenQuestion, pack: LanguagePack): boolean {
  const tokens = codeTokens(rest);
  if (tokens.length !== 1) return false;
  const words = fold(rest.replace(tokens[0]!.token, ' ')).text.replace(/[^\p{L}' ]+/gu, ' ').split(/\s+/).filter((x) => x !== '');
  const code = new Set([...pack.text.codeWords, ...en.text.codeWords].map(foldPhrase));
  const small = new Set([...pack.text.clauseWords, ...pack.text.vagueWords, ...pack.lexicon.filler].map(foldPhrase));
  // a code word says what the code is; every other word a small one or a word of that label ("member", "Mitglieds…")
  return words.some((x) => code.has(x) || [...code].some((c) => c.length >= 4 && x.endsWith(c))) && words.length <= 5
    && words.filter((x) => !code.has(x) && !small.has(x)).length <= 2;
}

/**
 * Whether a trailing part is a clause of its own ("Träger ist die Stadt Essen", "through my husband's job", "member ID is
 * U48812233") rather than part of the answer or an apposition ("Smith, Jones & Co", "John Smith, father", "Stadt Bochum,
 * Sport- und Bäderamt", "Oakwood Academy Trust (the Oakwood Primary site)"): three words or more, and a digit, a clause
 * word ("is", "it's", "ist", "es") or two lowercase words besides joiners and articles.
 */
function isClause(rest: string, pack: LanguagePack): boolean {
  const parts = rest.split(/\s+/).filter((x) => /[\p{L}\p{N}]/u.test(x));
  if (parts.length < 3) return false;
  if (/\p{N}/u.test(rest)) return true;
  const clause = new Set(pack.text.clauseWords.map(foldPhrase));
  const small = new Set([...pack.lexicon.joiners, ...pack.text.namedAs.articles, ...pack.text.namedAs.before].map(foldPhrase));
  const lower = parts.filter((x) => /^\p{Ll}/u.test(x)).map((x) => fold(x).text.replace(/[^\p{L}' ]/gu, ''));
  return lower.some((x) => clause.has(x)) || lower.filter((x) => !small.has(x)).length >= 2;
}

/** The answer without a lead-in ("it's for X", "für den X") or "the club is X" / "der Verein ist der X". */
function withoutLeadIn(value: string, q: OpenQuestion, pack: LanguagePack): string {
  const w = pack.text;
  let out = value.trim();
  for (let pass = 0; pass < 3; pass++) {
    const f = fold(out);
    const lead = [...w.leadIns].map(foldPhrase).sort((a, b) => b.length - a.length).find((p) => f.text.startsWith(`${p} `));
    let cut = lead !== undefined ? lead.length + 1 : -1;
    if (cut === -1) {
      const own = ownNouns(q, pack);
      const parts = f.text.split(' ');
      const before = w.namedAs.before.map(foldPhrase);
      if (parts.length > 3 && before.includes(parts[0]!) && own.has(parts[1]!)) {
        const after = f.text.slice(parts[0]!.length + parts[1]!.length + 2);
        const verb = [...w.namedAs.verbs].map(foldPhrase).sort((a, b) => b.length - a.length).find((v) => after.startsWith(`${v} `));
        if (verb !== undefined) {
          cut = parts[0]!.length + parts[1]!.length + 2 + verb.length + 1;
          const article = w.namedAs.articles.map(foldPhrase).find((a) => f.text.startsWith(`${a} `, cut));
          if (article !== undefined) cut += article.length + 1;
        }
      }
    }
    if (cut === -1 || cut >= f.text.length) break;
    const next = originalSlice(out, f, cut, f.text.length).trim();
    if (!/[\p{L}\p{N}]/u.test(next)) break;
    out = next;
  }
  return out;
}

/** The question's own nouns (its key, label and prompt words without the pack's filler), folded. */
function ownNouns(q: OpenQuestion, pack: LanguagePack): Set<string> {
  const filler = new Set([...pack.lexicon.filler, ...pack.text.vagueWords].map(foldPhrase));
  const words = [...q.key.split(/[_.-]+/), ...fold(q.label ?? '').text.split(' '), ...fold(q.prompt ?? '').text.replace(/[^\p{L}\p{N}' ]+/gu, ' ').split(' ')];
  return new Set(words.map((x) => x.toLowerCase()).filter((x) => x.length > 2 && !filler.has(x)));
}

/** Whether a short answer only names a kind of place through a possessive or article ("my club", "the council", "für unseren Verein"). */
function vague(value: string, q: OpenQuestion, pack: LanguagePack, kinds = false): boolean {
  if (/\p{N}/u.test(value)) return false;
  const words = fold(value).text.replace(/[^\p{L}' ]+/gu, ' ').trim().split(/\s+/).filter((x) => x !== '');
  if (words.length < 2 || words.length > 6) return false;
  const det = new Set(pack.text.vagueWords.map(foldPhrase));
  // the question's key and label count ("my company" at a key `company`); the prompt's words do not (its examples name real ones)
  const nouns = new Set([...pack.text.vagueNouns.map(foldPhrase), ...(kinds ? (pack.text.valueParts?.kinds ?? []).map(foldPhrase) : []), ...ownNouns({ ...q, prompt: '' }, pack)]);
  const stem = (x: string) => (x.length > 3 && x.endsWith('s') ? x.slice(0, -1) : x);
  // a compound ending in a kind of place is one too ("tennisclub", "Grundschule")
  const kind = (x: string) => nouns.has(x) || nouns.has(stem(x)) || [...nouns].some((n) => n.length >= 4 && x.length > n.length + 2 && x.endsWith(n));
  return words.some((x) => det.has(x)) && words.some(kind) && words.every((x) => det.has(x) || kind(x));
}

/** Whether a short answer is one word naming a kind of place, not one place ("church", "school", "Verein"). */
function kindAlone(value: string, q: OpenQuestion, pack: LanguagePack): boolean {
  const words = fold(value).text.replace(/[^\p{L}' ]+/gu, ' ').trim().split(/\s+/).filter((x) => x !== '');
  if (words.length !== 1) return false;
  const nouns = new Set([...pack.text.vagueNouns.map(foldPhrase), ...ownNouns({ ...q, prompt: '' }, pack)]);
  const x = words[0]!;
  return nouns.has(x) || (x.length > 3 && x.endsWith('s') && nouns.has(x.slice(0, -1)));
}

/** Whether a short answer is "no" and what the question asks for ("no club", "not a school", "keine Schule"). */
function noneOfIt(value: string, q: OpenQuestion, pack: LanguagePack): boolean {
  const words = fold(value).text.replace(/[^\p{L}' ]+/gu, ' ').trim().split(/\s+/);
  if (words.length < 2 || words.length > 3) return false;
  const no = new Set(['no', 'none', 'not', 'kein', 'keine', 'keinen', 'keiner', 'pas', 'aucun', 'aucune', 'ningun', 'ninguna', 'sin', ...pack.lexicon.negators.map(foldPhrase)]);
  const nouns = new Set([...pack.text.vagueNouns.map(foldPhrase), ...ownNouns(q, pack)]);
  const det = new Set(pack.text.vagueWords.map(foldPhrase));
  return no.has(words[0]!) && nouns.has(words[words.length - 1]!) && (words.length === 2 || det.has(words[1]!));
}

/** Whether the reply says the project is private, at a question whose prompt offers that way out ("Say skip if it's a private project"). */
function isPrivate(value: string, prompt: string, q: OpenQuestion, pack: LanguagePack): boolean {
  const phrases = pack.text.privateUse.map(foldPhrase);
  const p = fold(prompt).text;
  if (!phrases.some((x) => findPhrase(p, x).length > 0)) return false;
  let t = privateCompounds(fold(value).text, phrases, pack);
  let hit = false;
  for (const x of [...phrases].sort((a, b) => b.length - a.length)) {
    for (const at of findPhrase(t, x).reverse()) {
      t = t.slice(0, at) + ' '.repeat(x.length) + t.slice(at + x.length);
      hit = true;
    }
  }
  if (!hit) return false;
  // what is left is filler, lead-ins, skip words or the question's own words — at most one other word ("court")
  const known = new Set([...pack.text.leadIns, ...pack.text.vagueWords, ...pack.lexicon.skip].flatMap((x) => foldPhrase(x).split(' ')));
  const left = unexplainedWords(t, [], q, pack).filter((x) => !known.has(x));
  return left.length <= 1;
}

/**
 * A German compound opening with a private-use word and ending in a word of the private-use phrases or a part of a site
 * ("Privatprojekt", "Privatanlage") is read as its opening word ("privat"); a kind of organisation
 * after it is a name ("Privatschule Schloss Seefeld", "Privatklinik" stay).
 */
function privateCompounds(folded: string, phrases: readonly string[], pack: LanguagePack): string {
  const heads = phrases.filter((x) => !x.includes(' ') && x.length >= 5);
  const kinds = new Set(pack.text.vagueNouns.map(foldPhrase));
  const tails = new Set([...phrases.flatMap((x) => x.split(' ')), ...(pack.text.valueParts?.siteNouns ?? []).map(foldPhrase)].filter((x) => x.length >= 4 && !kinds.has(x) && !heads.includes(x)));
  return folded.replace(/[\p{L}]+/gu, (word) => {
    const head = heads.find((h) => word.startsWith(h) && tails.has(word.slice(h.length)));
    return head ?? word;
  });
}
