import type { OpenQuestion } from '../extractor.ts';
import type { LanguagePack, NameReplyWords } from '../../language/pack.ts';
import { KEPT_DOT, keepAbbreviationDots } from './abbreviation-dots.ts';
import { correctedTail } from '../parse/correction.ts';
import { fold, foldPhrase } from '../parse/index.ts';
import { monthNamed } from '../parse/date.ts';
import { PACKS } from '../../language/registry.ts';

/*
 * A REPLY AT A NAME QUESTION, read clause by clause (the commit rule for names).
 *
 * The reply is cut into clauses at commas, semicolons, colons, brackets, dashes
 * and full stops (not the dot of a title or an initial). Each clause is one of:
 * a name, with or without an introduction ("i'm dave", "my name is …", "Hannah
 * here", "his name is …", "ich bin …", "hier ist …"); a relation, with or
 * without a name ("my husband Dave Ruiz", "his mother", "i'm his dad"); a role or
 * company ("club manager at Riverside", "der Hausmeister"); a nickname aside
 * ("goes by Coco"); "me"; or something else, left unexplained. A name is words
 * that are not common words of the language (stopwords-iso), relations or roles,
 * with titles ("Dr.", "Frau"), particles inside ("van der", "de la"), initials
 * and "Jr." kept. Whose name the question asks (the speaker's, the patient's, an
 * emergency contact's) picks the name; a name of the wrong person, a reply with
 * no name, one word where the full name is asked, or a contact without the
 * relationship the prompt asks for is asked again. A name beside an unexplained
 * clause is proposed for one confirmation ("Just to check: Ava McAllister?").
 */

/** Whose name a question asks: the person typing, the person the intake is about, or a contact. */
export type NameWhose = 'respondent' | 'subject' | 'contact';

/** What a name question asks, declared or inferred from its key and prompt. */
export interface NameAsk {
  whose: NameWhose;
  /** The full name (first and last) is asked. */
  full: boolean;
  /** Only the first name is asked. */
  first: boolean;
  /** The prompt asks for the relationship too ("name and relationship to the patient"). */
  relation: boolean;
}

/** A name read from a reply: the value to propose, whether to confirm it first, and the part it came from. */
export type NameReading = { value: string; confirm: boolean; bare: boolean; evidence: string } | { problem: string };

const QUALIFIERS = new Set(['full', 'first', 'last', 'given', 'family', 'legal', 'preferred', 'sur', 'fore', 'middle']);
const PERSON_KEYS = new Set([
  'patient', 'guardian', 'parent', 'child', 'contact', 'emergency', 'caller', 'visitor', 'customer', 'client', 'respondent', 'your',
  'my', 'kin', 'next', 'of', 'spouse', 'partner', 'student', 'person', 'mother', 'father', 'applicant', 'attendee', 'player', 'carer',
  'caregiver', 'pt',
]);
const SUFFIXES = new Set(['jr', 'sr', 'ii', 'iii', 'iv']);
const commons = new WeakMap<LanguagePack, ReadonlySet<string>>();

/** The pack's words that are no name: its common words and the words that are no name after an introduction ("looking"). */
function commonOf(pack: LanguagePack): ReadonlySet<string> {
  let set = commons.get(pack);
  if (!set) {
    // single words of the yes/no, skip and filler lists too: "nope", "yep", "pass" are no names
    const lex = pack.lexicon;
    const given = new Set(pack.names.reply.given);
    const lists = [...lex.yes, ...lex.no, ...lex.skip, ...lex.neither, ...lex.declines, ...lex.filler, ...lex.negators].filter((x) => !/\s/.test(x) && !given.has(x.toLowerCase()));
    commons.set(pack, (set = new Set([...pack.names.reply.common(), ...pack.names.notNames, ...lists.map((x) => x.toLowerCase())])));
  }
  return set;
}

const meaningWords = new WeakMap<LanguagePack, ReadonlySet<string>>();

/**
 * The single words of the pack's option meaning groups ("routine", "visit", "flu", "shot", "throat", "flackert") that
 * are no given name the pack knows: a "name" made only of them ("routine visit", "Sore Throat") is a reason for coming,
 * not a name.
 */
function meaningOf(pack: LanguagePack): ReadonlySet<string> {
  let set = meaningWords.get(pack);
  if (!set) {
    const given = new Set(pack.names.reply.given.map((g) => g.toLowerCase()));
    const words = (pack.options.meaning?.groups ?? []).flatMap((g) => [...g.words, ...(g.anchors ?? [])]).flatMap((p) => p.toLowerCase().split(/[\s-]+/u));
    meaningWords.set(pack, (set = new Set(words.filter((x) => x.length >= 3 && !given.has(x)))));
  }
  return set;
}

const KEY_ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];

/** Whether a word is keys typed along a keyboard row (the whole word from four keys, "asdf", or five in a row inside it) or four letters or more without a vowel. */
function mashed(word: string): boolean {
  const w = word.toLowerCase().replace(/[^\p{L}]/gu, '');
  if (w.length < 4) return false;
  if (!/[aeiouyäöüéèáàíóú]/u.test(w)) return true;
  const inRow = (run: string) => KEY_ROWS.some((row) => row.includes(run) || row.includes([...run].reverse().join('')));
  if (inRow(w)) return true;
  for (let i = 0; i + 5 <= w.length; i++) {
    const run = w.slice(i, i + 5);
    if (inRow(run)) return true;
  }
  return false;
}

/** The words of a key ("emergencyContactName" → emergency, contact, name). */
function keyWords(key: string): string[] {
  return key.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase().split(/[^a-z]+/).filter(Boolean);
}

/**
 * Whether a question asks for a person's name and how: a declared `kind: name`, or a text question whose key
 * is a person's name (`name`, `full_name`, `patient_name`, `guardian_name`, `emergency_contact_name`) or whose
 * prompt asks one ("your name", "Who am I chatting with?", "Wie heißen Sie?", "Mit wem spreche ich?").
 */
export function nameQuestion(q: OpenQuestion, pack: LanguagePack): NameAsk | null {
  const a = q.answer;
  if (a.type !== 'text') return null;
  const w = pack.names.reply;
  const parts = keyWords(q.key);
  const last = parts.at(-1);
  const byKey = (last === 'name' || last === 'surname' || last === 'forename') && parts.slice(0, -1).every((p) => QUALIFIERS.has(p) || PERSON_KEYS.has(p));
  const prompt = (q.prompt ?? '').toLowerCase();
  if (a.kind !== 'name' && !byKey && !w.asks.name.test(prompt)) return null;
  const relation = w.asks.relation.test(prompt);
  const whose: NameWhose = a.of
    ?? (parts.includes('emergency') || parts.includes('kin') || relation ? 'contact'
      : parts.includes('patient') || parts.includes('child') || parts.includes('student') || w.asks.subject.test(prompt) ? 'subject' : 'respondent');
  return {
    whose,
    full: parts.includes('full') || parts.includes('legal') || w.asks.full.test(prompt),
    first: parts.includes('first') || parts.includes('given') || parts.includes('fore'),
    relation,
  };
}

type Owner = 'speaker' | 'third' | 'mine' | 'other' | 'open';
interface Found { tokens: string[]; words: number; owner: Owner; relation?: string; clause: number }
type Clause =
  | { kind: 'name'; found: Found; rest: boolean }
  | { kind: 'relation'; owner: 'mine' | 'other'; relation: string; intro: boolean }
  | { kind: 'speaker-relation'; relation: string }
  | { kind: 'me' }
  | { kind: 'legal'; tokens: string[]; words: number }
  | { kind: 'part'; part: 'family' | 'given'; word?: string }
  | { kind: 'role'; relation: string }
  | { kind: 'aside' }
  | { kind: 'other' };

type TokenKind = 'title' | 'particle' | 'initial' | 'suffix' | 'name' | 'word';

/**
 * Whether the words read as a name are a sentence in another shipped language: three or more of them, and at least half,
 * are that language's common words or relation words ("mein Sohn hat seit Montag Fieber": mein, hat, seit; "mi hijo tiene fiebre desde el
 * lunes"). Particles never count ("Maria de la Cruz"); the session's own language already made its common words no name.
 */
function sentenceOfAnotherLanguage(tokens: readonly string[], pack: LanguagePack): boolean {
  if (tokens.length < 3) return false;
  return PACKS.some((other) => {
    if (other.code === pack.code) return false;
    const words = other.names.reply;
    const common = commonOf(other);
    const hits = tokens.filter((t) => {
      const lower = t.toLowerCase();
      return !words.particles.has(lower) && !pack.names.reply.particles.has(lower) && (common.has(lower) || words.relations.has(lower));
    }).length;
    return hits >= 3 && hits * 2 >= tokens.length;
  });
}

/** What one token of a name can be. */
function tokenKind(token: string, w: NameReplyWords, common: ReadonlySet<string>): TokenKind {
  if (!/^[\p{L}][\p{L}'’-]*\.?$/u.test(token) && !/^(?:\p{L}\.){2,3}$/u.test(token)) return 'word';
  const bare = token.replace(/\.$/, '');
  const lower = bare.toLowerCase();
  if (w.titles.has(lower)) return 'title';
  if (/^\p{L}$/u.test(bare)) return /^\p{Lu}$/u.test(bare) || token.endsWith('.') ? 'initial' : 'word';
  // "J.R.", "a.j.": initials written together
  if (/^(?:\p{L}\.){2,3}$/u.test(token)) return 'initial';
  if (SUFFIXES.has(lower)) return 'suffix';
  if (token.endsWith('.')) return 'word';
  if (w.particles.has(lower)) return 'particle';
  if (common.has(lower) || w.relations.has(lower) || w.roles.has(lower) || w.me.has(lower) || w.mine.has(lower) || w.determiners.has(lower)) return 'word';
  return 'name';
}

/** The name at the start of `tokens`: titles, then name words with particles and initials inside, then a suffix. */
function readName(tokens: string[], w: NameReplyWords, common: ReadonlySet<string>, surnameFirst = false): { tokens: string[]; words: number } | null {
  const out: string[] = [];
  let words = 0;
  let i = 0;
  while (i < tokens.length && tokenKind(tokens[i]!, w, common) === 'title') out.push(tokens[i++]!);
  // "Hr. Lange", "Mrs. Long": after a title, a word typed with a capital is a name though it is a common word
  const titled = out.length > 0 && i < tokens.length && /^\p{Lu}\p{Ll}/u.test(tokens[i]!) && tokenKind(tokens[i]!, w, common) === 'word' && /^[\p{L}'’-]+$/u.test(tokens[i]!)
    && common.has(tokens[i]!.toLowerCase()) && !w.relations.has(tokens[i]!.toLowerCase()) && !w.roles.has(tokens[i]!.toLowerCase());
  if (titled) { out.push(tokens[i++]!); words++; }
  // "Peter Schulze vom TSV": in a reply not typed in capitals, a word in capitals is an organisation's
  const shouting = !/\p{Ll}/u.test(tokens.join(''));
  while (i < tokens.length) {
    const k = tokenKind(tokens[i]!, w, common);
    if (k === 'name' && !shouting && /^\p{Lu}{2,}$/u.test(tokens[i]!) && !SUFFIXES.has(tokens[i]!.toLowerCase())) break;
    if (k === 'name') words++;
    else if (k === 'initial') { /* "Ann J. Lee", "J. R. Hartley" */ }
    else if (k === 'particle' && out.length > 0 && i + 1 < tokens.length && ['name', 'particle'].includes(tokenKind(tokens[i + 1]!, w, common))) { /* "van der Berg" */ }
    // "van der Merwe, Pieter", "de la Cruz": a surname may start with its particles
    else if (k === 'particle' && surnameFirst && words === 0 && particlesThenName(tokens, i, w, common)) { /* "van der" before "Merwe" */ }
    else if (k === 'suffix' && words > 0) { out.push(tokens[i++]!); break; }
    else break;
    out.push(tokens[i++]!);
  }
  // "Peter von der Firma": particles at the end belong to what follows, not to the name
  while (out.length > 0 && tokenKind(out.at(-1)!, w, common) === 'particle') out.pop();
  // "Frau Schmidt" is a name; "Frau" alone is not
  return words === 0 ? null : { tokens: out, words };
}

/** Whether the particles from `i` on are followed by a name word ("van der Merwe", "de la Cruz"). */
function particlesThenName(tokens: string[], i: number, w: NameReplyWords, common: ReadonlySet<string>): boolean {
  let j = i;
  while (j < tokens.length && tokenKind(tokens[j]!, w, common) === 'particle') j++;
  return j > i && j < tokens.length && tokenKind(tokens[j]!, w, common) === 'name';
}

/** The clauses of a reply, at commas, brackets, dashes, colons and sentence ends (not a title's or an initial's dot). */
function clausesOf(text: string, w: NameReplyWords, pack: LanguagePack): { text: string; question: boolean }[] {
  const out: { text: string; question: boolean }[] = [];
  // "Dr. med. Klaus Berger", "St. Pauli": a dot after one of the pack's abbreviations ends no clause either
  const kept = keepAbbreviationDots(text, pack);
  let start = 0;
  const push = (end: number, question: boolean) => {
    out.push({ text: text.slice(start, end).trim(), question });
  };
  // "denise... denise porter": an ellipsis ends a clause too
  for (const m of text.matchAll(/[,;:()[\]{}!?"“”]|\s[-—–]\s|[—–]|\.{2,}|…|\.(?=\s|$)|\n|\s(?=(?:but|aber|mais|pero)\s)/giu)) {
    if (m[0] === '.') {
      if (kept[m.index] === KEPT_DOT) continue;
      const before = /([\p{L}]+)$/u.exec(text.slice(start, m.index))?.[1] ?? '';
      // "Dr.", "J.", "Jr.", and the German ordinal "3. Mai" end no clause
      if (before.length === 1 || w.titles.has(before.toLowerCase()) || SUFFIXES.has(before.toLowerCase()) || /\d$/u.test(text.slice(start, m.index))) continue;
    }
    push(m.index, m[0] === '?');
    start = m.index + m[0].length;
  }
  push(text.length, false);
  return out.filter((c) => /[\p{L}\p{N}]/u.test(c.text));
}

/** The tokens of a clause. */
function tokensOf(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

/** A relation said at the start of `tokens` ("my husband", "his legal guardian", "foster parent"): its words and the tokens it took. */
function readRelation(tokens: string[], w: NameReplyWords): { owner: 'mine' | 'other'; relation: string; used: number } | null {
  let i = 0;
  const first = tokens[0]?.toLowerCase().replace(/['’]s$/, '');
  let owner: 'mine' | 'other' = 'other';
  if (first !== undefined && w.mine.has(first)) { owner = 'mine'; i = 1; }
  else if (first !== undefined && w.determiners.has(first)) i = 1;
  // "Frau Schmidt" is a title; "meine Frau" a relation
  if (i === 0 && w.titles.has(tokens[0]?.toLowerCase().replace(/\.$/, '') ?? '')) return null;
  const rel: string[] = [];
  while (i < tokens.length && w.relations.has(tokens[i]!.toLowerCase())) rel.push(tokens[i++]!.toLowerCase());
  // "best friend", "legal guardian": only the last word needs to be a relation on its own; "my best" is none
  return rel.length === 0 || ['best', 'close', 'legal', 'step', 'older', 'younger', 'big', 'little', 'ex', 'foster'].includes(rel.at(-1)!) && rel.length === 1
    ? null
    : { owner, relation: rel.join(' '), used: i };
}

/** Whether a token is a role word ("manager", "AD"), or a compound ending in one where the pack lists endings ("Schulleiter", "Sportamt"). */
function roleWord(t: string | undefined, w: NameReplyWords): boolean {
  if (t === undefined) return false;
  const x = t.toLowerCase().replace(/[.,]$/, '');
  return w.roles.has(x) || (w.roleEndings ?? []).some((e) => x.length > e.length + 2 && x.endsWith(e));
}

/** Whether `tokens` start with a role ("the manager", "club manager at X", "der Hausmeister"): a role word first or second after a determiner. */
function isRole(tokens: string[], w: NameReplyWords, common: ReadonlySet<string>): boolean {
  const at = w.determiners.has(tokens[0]?.toLowerCase() ?? '') || w.mine.has(tokens[0]?.toLowerCase() ?? '') ? 1 : 0;
  const role = (t: string | undefined) => t !== undefined && w.roles.has(t.toLowerCase().replace(/[.,]$/, ''));
  // "the bookings secretary": after a determiner, a role within three words
  if (at === 1 && tokens.slice(1, 4).some(role)) return true;
  // "club manager", "head groundsman": a role's own first word; "Rory operations lead" starts with a name
  return role(tokens[at]) || (tokens[at] !== undefined && tokenKind(tokens[at]!, w, common) !== 'name' && role(tokens[at + 1]));
}

/** Reads one clause; `index` is its place in the reply. */
function readClause(raw: string, index: number, w: NameReplyWords, common: ReadonlySet<string>, isWord?: (word: string) => boolean): Clause {
  let text = raw;
  for (let pass = 0; pass < 3; pass++) {
    const lead = w.lead.exec(text.toLowerCase())?.[0].length ?? 0;
    text = text.slice(lead);
  }
  const lower = text.toLowerCase();
  if (text === '') return { kind: 'aside' };
  // "… but call me Bob", "(goes by Coco)": after the name, another name for the same person
  if (index > 0 && w.nickname.test(lower)) return { kind: 'aside' };
  // "(Kim is the family name)", "surname Okafor", "first Piotr", "Vorname Thomas": which word of the name is which
  for (const part of ['family', 'given'] as const) {
    const m = w.nameParts?.[part].exec(lower);
    if (!m) continue;
    const said = m[1] ?? m[2];
    if (said === undefined) return { kind: 'part', part };
    const at = lower.indexOf(said);
    const typed = text.slice(at, at + said.length);
    if (tokenKind(typed, w, common) === 'name') return { kind: 'part', part, word: typed };
  }
  // "Dr. Raj Patel, athletic director", "AD at Lincoln High", "Schulleiter": a role after the name, in lower case before it
  if (index > 0) {
    const toks = tokensOf(text);
    const from = w.determiners.has(toks[0]!.toLowerCase()) || w.mine.has(toks[0]!.toLowerCase()) ? 1 : 0;
    const at = toks.slice(0, from + 3).findIndex((t, i) => i >= from && roleWord(t, w));
    // the words before the role in small letters, or the role written in title case ("Aquatics Director")
    if (at >= 0 && toks.slice(from, at).every((t) => /^\p{Ll}/u.test(t) || /^\p{Lu}/u.test(toks[at]!))) {
      const after = toks.slice(at + 1).join(' ');
      if (after === '' || w.company.test(after.toLowerCase())) return { kind: 'role', relation: toks.slice(from, at + 1).join(' ').toLowerCase() };
    }
  }
  // "Bob Smith, well Robert legally", "(legally Christopher)", "legal name is Elizabeth": the legal name beside the usual one
  const legal = index > 0 ? w.legal?.exec(lower) : null;
  if (legal) {
    const said = legal[1] ?? legal[2] ?? '';
    const at = lower.indexOf(said);
    const name = at < 0 ? null : readName(tokensOf(text.slice(at, at + said.length)), w, common);
    if (name && name.tokens.length === tokensOf(said).length) return { kind: 'legal', tokens: name.tokens, words: name.words };
  }
  // "she's his aunt", "that's her mum", "das ist seine Schwester": how the person named beside it is related
  const relIs = w.relationIs?.exec(lower);
  if (relIs) {
    const toks = tokensOf(text.slice(relIs[0].length));
    const rel = readRelation(toks, w);
    if (rel && rel.used === toks.length) return { kind: 'relation', owner: rel.owner, relation: rel.relation, intro: false };
  }
  const named = (part: string, owner: Owner, relation?: string, whole = false): Clause => {
    let tokens = tokensOf(part);
    // "Jose Rizal Dela Cruz po", "Kevin Walsh btw": politeness or chat words after the name are no part of it
    for (let k = 1; k < tokens.length && w.polite; k++) {
      if (w.polite.test(tokens.slice(k).join(' ').toLowerCase().replace(/[.!,]+$/u, ''))) { tokens = tokens.slice(0, k); break; }
    }
    // a clause that is only a name may be a surname with its particles ("van der Merwe"); a name after a role or an intro may not
    const name = readName(tokens, w, common, whole && index === 0 && tokens.every((t) => tokenKind(t, w, common) !== 'word'));
    if (!name) return { kind: 'other' };
    // "Mike from Riverside Padel", "Peter Schulze vom TSV": a company after the name explains itself
    const after = tokens.slice(name.tokens.length).join(' ');
    // "Sarah Miller-Chen now": the name now is the name
    // "Jose Rizal Dela Cruz po", "Kevin Walsh btw": a politeness or chat word after the name is no part of it
    const unexplained = after !== '' && !w.company.test(after.toLowerCase()) && !(w.nowAfter?.test(after.toLowerCase()) ?? false) && !(w.polite?.test(after.toLowerCase()) ?? false);
    return { kind: 'name', found: { ...name, owner, clause: index, ...(relation ? { relation } : {}) }, rest: unexplained };
  };
  const third = w.third.exec(lower);
  if (third) return named(text.slice(third[0].length), 'third');
  // "Hannah here", "it's Marcus here", "Jörg hier": a sign-off after a name says it is the speaker's
  const sign = w.signOff.exec(lower);
  if (sign && sign.index > 0) {
    const before = text.slice(0, sign.index);
    const intro = w.self.exec(before.toLowerCase());
    const c = named(intro ? before.slice(intro[0].length) : before, 'speaker');
    if (c.kind === 'name' && !c.rest) return c;
  }
  const trailer = w.trailer.exec(lower);
  if (trailer && trailer.index > 0) {
    const c = named(text.slice(0, trailer.index), w.mine.has(trailer[1]!) ? 'speaker' : 'third');
    if (c.kind === 'name' && !c.rest) return c;
  }
  const self = w.self.exec(lower);
  let rest = self ? text.slice(self[0].length) : text;
  let tokens = tokensOf(rest);
  // "this is for my son, Tom Baker", "it's for me"
  if (self && /^(?:for|für|pour|para)$/iu.test(tokens[0] ?? '')) tokens = tokens.slice(1);
  if (tokens.length === 1 && w.me.has(tokens[0]!.toLowerCase())) return { kind: 'me' };
  const relation = readRelation(tokens, w);
  if (relation) {
    const after = tokens.slice(relation.used);
    // "i'm his dad", "ich bin die Mutter": the speaker is the relation; "it's my mum" names the one the intake is about
    const speaker = self !== null && relation.owner === 'other';
    if (after.length === 0) return speaker ? { kind: 'speaker-relation', relation: relation.relation } : { kind: 'relation', owner: relation.owner, relation: relation.relation, intro: self !== null };
    const c = named(after.join(' '), speaker ? 'speaker' : relation.owner, speaker ? undefined : relation.relation);
    return c;
  }
  // "i'm the maintenance guy", "im just a dad from the team", "i'm the one who emailed": who the speaker is, in words of the
  // language's dictionary typed in small letters after an article — no name (beside one, an aside: "…, Dave Kowalski")
  if (self && isWord && describesSpeaker(tokens, w, common, isWord)) return { kind: 'aside' };
  if (isRole(tokens, w, common)) {
    // "Ich bin der Hausmeister, Klaus Becker": a role explains itself
    // "Hausmeister Schmidt", "the manager Dave Lee": the name after the role
    let at = 0;
    for (const [i, t] of tokens.slice(0, 4).entries()) if (w.roles.has(t.toLowerCase())) at = i + 1;
    // "his case worker Angela Ruiz": the role is how a contact is related
    const from = w.determiners.has(tokens[0]!.toLowerCase()) || w.mine.has(tokens[0]!.toLowerCase()) ? 1 : 0;
    const role = at > from ? tokens.slice(from, at).join(' ').toLowerCase() : undefined;
    const after = at > 0 && at < tokens.length ? named(tokens.slice(at).join(' '), self ? 'speaker' : 'open', self ? undefined : role) : null;
    if (after?.kind === 'name') return after;
    // "her social worker, Dana Price": the role said apart from the name
    return !self && role !== undefined && at === tokens.length ? { kind: 'role', relation: role } : { kind: 'aside' };
  }
  // "ich bin die Heike Schmitt", "hier ist der Olaf": an article before a name after an introduction
  // "ich bin die Steffi vom TSV", "i bin da Sepp Huber": one name word typed with a capital after the article will do
  // (an article that is also a title only typed in small letters: "I bin dr Karle", not "Ich bin Dr Vogel")
  if (self && tokens.length >= 2 && w.determiners.has(tokens[0]!.toLowerCase()) && !(w.titles.has(tokens[0]!.toLowerCase()) && /^\p{Lu}/u.test(tokens[0]!)) && tokenKind(tokens[1]!, w, common) === 'name'
    && (tokens.length >= 3 && tokens.slice(1).every((t) => tokenKind(t, w, common) === 'name') || (/^\p{Lu}\p{Ll}/u.test(tokens[1]!) && !roleWord(tokens[1], w)))) tokens = tokens.slice(1);
  rest = tokens.join(' ');
  return named(rest, self ? 'speaker' : 'open', undefined, !self);
}

/**
 * Whether the words after an introduction describe the speaker rather than name them: two words or more, all typed in small
 * letters, each a word of the pack's dictionary, a common word or a determiner, with an article or determiner among the first
 * two ("the maintenance guy", "just a dad from the team", "the one who emailed yesterday"). Names are no dictionary words in
 * small letters ("dave", "sarah"), so "i'm dave kowalski" is still a name.
 */
function describesSpeaker(tokens: readonly string[], w: NameReplyWords, common: ReadonlySet<string>, isWord: (word: string) => boolean): boolean {
  if (tokens.length < 2) return false;
  const bare = tokens.map((t) => t.replace(/^[^\p{L}]+|[^\p{L}'’]+$/gu, ''));
  if (!bare.slice(0, 2).some((t) => w.determiners.has(t.toLowerCase()))) return false;
  return bare.every((t, i) => t === '' || (/^\p{Ll}/u.test(tokens[i]!) && (w.determiners.has(t) || common.has(t) || isWord(t))));
}

/**
 * Whether a clause after the name is a statement that names no one ("she's 6", "I have custody", "i got married in june",
 * "born 12/03/1990", "dob 3/4/1990"): it starts with a personal pronoun or a birth word (the pack's `statement`), has no
 * capitalised word but "I", and no negation, hedge or question — it explains itself.
 */
function statement(text: string, w: NameReplyWords, pack: LanguagePack, common: ReadonlySet<string>): boolean {
  if (!w.statement || !w.statement.test(text.toLowerCase())) return false;
  // "we haven't finalized her name": a statement about the name is no aside
  if (w.nameTalk?.test(text.toLowerCase())) return false;
  if (text.split(/\s+/).slice(1).some((t) => /^\p{Lu}/u.test(t) && !plainWord(t, pack, common))) return false;
  const f = fold(text).text.replace(/’/g, "'");
  const doubt = [...pack.lexicon.negators, ...pack.text.unsure, ...(pack.text.valueParts?.competes ?? [])];
  return !doubt.some((d) => new RegExp(`(?<![\\p{L}'])${foldPhrase(d).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}'])`, 'u').test(f));
}

/** Whether a word typed with a capital names no one: "I", a common word ("Jahr", "The"), a month ("May", "März"). */
function plainWord(t: string, pack: LanguagePack, common: ReadonlySet<string>): boolean {
  const bare = t.toLowerCase().replace(/^[^\p{L}]+|[^\p{L}'’]+$/gu, '');
  return /^I(?:['’]\p{L}+)?$/u.test(t) || common.has(bare) || monthNamed(bare, pack) !== null;
}

/**
 * Whether a clause after the name is a remark that names no one ("the parish runs the school gym", "got married last
 * year"): in a reply typed with capitals, three words or more typed in lower case (the first may open a sentence with
 * a common word), no digit, no relation, no talk of the name (the pack's `nameTalk`), no negation, hedge or doubt.
 */
function remark(text: string, w: NameReplyWords, pack: LanguagePack, common: ReadonlySet<string>): boolean {
  const tokens = tokensOf(text).filter((t) => /\p{L}/u.test(t));
  if (tokens.length < 3 || /\p{N}/u.test(text)) return false;
  const bare = (t: string) => t.toLowerCase().replace(/^[^\p{L}]+|[^\p{L}'’]+$/gu, '');
  if (tokens.some((t) => /^\p{Lu}/u.test(t) && !plainWord(t, pack, common))) return false;
  if (w.nameTalk?.test(text.toLowerCase())) return false;
  if (tokens.some((t) => w.relations.has(bare(t)))) return false;
  const f = fold(text).text.replace(/’/g, "'");
  const doubt = [...pack.lexicon.negators, ...pack.text.unsure, ...(pack.text.valueParts?.competes ?? [])];
  return !doubt.some((d) => new RegExp(`(?<![\\p{L}'])${foldPhrase(d).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}'])`, 'u').test(f));
}

/** `word` with a capital first letter (and after "O'", "D'", "Mc" and each hyphen). */
function capitalised(word: string): string {
  const up = (s: string) => s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();
  if (/^(?:\p{L}\.)+$/u.test(word)) return word.toUpperCase();
  return word
    .split('-')
    .map((part) => {
      const apos = /^([\p{L}])(['’])(\p{L}.*)$/u.exec(part);
      if (apos) return apos[1]!.toUpperCase() + apos[2] + up(apos[3]!);
      if (/^mc\p{L}{2,}/iu.test(part)) return 'Mc' + up(part.slice(2));
      return up(part);
    })
    .join('-');
}

// particles usually written with a capital ("Fatima El Amrani", "Omar Al Farsi", "Ahmed Bin Zayed")
const CAPITAL_PARTICLES = new Set(['el', 'al', 'bin', 'ibn', 'st', 'mac']);

/** The name as it is committed: as typed when the visitor typed mixed case, else capitalised (particles stay small). */
function written(tokens: string[], w: NameReplyWords): string {
  // "Hr. Müller" → "Herr Müller": a courtesy title the pack writes out
  const titleAs = w.titleAs ?? {};
  tokens = tokens.map((t) => titleAs[t.toLowerCase().replace(/\.$/, '')] ?? t);
  const letters = tokens.join('');
  const mixed = /\p{Lu}/u.test(letters) && /\p{Ll}/u.test(letters);
  if (mixed) return tokens.join(' ');
  return tokens.map((t, i) => (i > 0 && w.particles.has(t.toLowerCase()) && !CAPITAL_PARTICLES.has(t.toLowerCase()) ? t.toLowerCase() : capitalised(t))).join(' ');
}

/** Whether a name of `owner` fits the person asked for. */
function fits(owner: Owner, whose: NameWhose, speakerIsRelation: boolean): boolean {
  if (whose === 'respondent') return owner === 'speaker' || owner === 'open' || owner === 'other';
  if (whose === 'subject') return owner === 'third' || owner === 'mine' || owner === 'open' || (owner === 'speaker' && !speakerIsRelation);
  return owner !== 'speaker';
}

/**
 * Reads a reply at a name question: the name of the person asked for, to commit (or to confirm first when
 * part of the reply is unexplained), or the problem to ask again with.
 */
export function readNameReply(reply: string, ask: NameAsk, pack: LanguagePack): NameReading {
  const w = pack.names.reply;
  const common = commonOf(pack);
  // "me and my son, Tom and Ben Baker": two people in one answer — ask whose first
  if (pack.names.whose?.twoPeople.test(reply)) return { problem: pack.names.whose.twoPeopleProblem };
  let text = reply.trim().replace(/[\p{Extended_Pictographic}\uFE0F\u200D]+/gu, ' ').trim();
  // "Jon Smith, sorry, John Smith": the correction is the answer
  const tail = correctedTail(text, pack);
  if (tail !== null && /[\p{L}]/u.test(tail)) text = tail;
  // Robert "Bobby" Thompson: a nickname in quotes inside a name is an aside
  text = text.replace(/(\s)["“'‘(]\p{L}[\p{L}'’-]*["”'’)](?=\s)/gu, '$1');
  // a reply typed with capitals and small letters: a clause in small letters after the name may be a remark
  const capitals = /\p{Lu}/u.test(text) && /\p{Ll}/u.test(text);
  const clauses = clausesOf(text, w, pack).map((c, i) => {
    const read = readClause(c.text, i, w, common, pack.isWord);
    // a birth date is no name ("born 12/03/1990"); a statement is an aside unless a name was read from it ("she's jane")
    const born = w.born?.test(c.text.toLowerCase()) && /\p{N}/u.test(c.text);
    // a clause in small letters read as a "name" ("moved here last spring") in a reply that writes names with capitals may be a remark
    const small = read.kind === 'name' && capitals && !/\p{Lu}/u.test(c.text);
    const aside = (read.kind === 'other' && statement(c.text, w, pack, common)) || ((read.kind === 'other' || small) && capitals && remark(c.text, w, pack, common));
    return { ...c, read: i > 0 && !c.question && (born || aside) ? ({ kind: 'aside' } as Clause) : read };
  });
  // "Marcus Webb, Director of Facilities, Riverside County Parks & Rec": after a role, the organisation
  for (const [i, c] of clauses.entries()) {
    if (i === 0 || clauses[i - 1]!.read.kind !== 'role' || c.question || (c.read.kind !== 'name' && c.read.kind !== 'other')) continue;
    const org = new Set([...w.roles, ...(pack.text.valueParts?.kinds ?? []), ...pack.text.vagueNouns].map((x) => x.toLowerCase()));
    if (/&/u.test(c.text) || tokensOf(c.text).some((t) => org.has(t.toLowerCase().replace(/[.,]$/u, '')))) c.read = { kind: 'aside' };
  }
  const unexplained = clauses.filter((c) => c.read.kind === 'other' || c.question || (c.read.kind === 'name' && c.read.rest));
  const parts = clauses.flatMap((c) => (c.read.kind === 'part' ? [c.read] : []));
  const found: Found[] = [];
  const speakerRelation = clauses.find((c) => c.read.kind === 'speaker-relation')?.read as Extract<Clause, { kind: 'speaker-relation' }> | undefined;
  const speakerIsRelation = speakerRelation !== undefined;
  const me = clauses.some((c) => c.read.kind === 'me');
  for (const [i, c] of clauses.entries()) {
    if (c.read.kind !== 'name') continue;
    const f = { ...c.read.found };
    if (f.owner === 'open') {
      // "Jennifer Walsh-Park, his mother", "foster parent, Tanya Reid-Simmons": the relation beside a name is that person's
      const next = clauses[i + 1]?.read;
      const prev = clauses[i - 1]?.read;
      const beside = next?.kind === 'relation' ? next : prev?.kind === 'relation' ? prev : null;
      if (beside) { f.owner = beside.owner; f.relation = beside.relation; }
      else if (speakerIsRelation || me) f.owner = 'speaker';
    }
    // "Angela Ruiz, case worker": a role beside a contact's name is how the contact is related
    if (!f.relation && ask.whose === 'contact') {
      const role = [clauses[i + 1]?.read, clauses[i - 1]?.read].find((r) => r?.kind === 'role') as Extract<Clause, { kind: 'role' }> | undefined;
      if (role) f.relation = role.relation;
    }
    // "me, I'm his dad. Daniel Kowalczyk": the speaker, related to the patient, is the contact
    if (f.owner === 'speaker' && speakerRelation && !f.relation) f.relation = speakerRelation.relation;
    found.push(f);
  }
  // "last name Kowalski, first Piotr", "Vorname Thomas, Nachname Becker": the name from its labelled parts
  const givenPart = parts.find((p) => p.part === 'given' && p.word);
  const familyPart = parts.find((p) => p.part === 'family' && p.word);
  if (found.length === 0 && (givenPart || familyPart)) {
    const tokens = [givenPart?.word, familyPart?.word].filter((x): x is string => x !== undefined);
    found.push({ tokens, words: tokens.length, owner: 'open', clause: -1 });
  }
  if (found.length === 0) {
    if (ask.whose === 'contact' && me) return { problem: w.say.someoneElse };
    if (ask.whose === 'contact' && clauses.some((c) => c.read.kind === 'relation')) return { problem: w.say.relation };
    return { problem: w.say.notAName };
  }
  // the speaker may be the contact when the speaker says how they are related to the patient ("I'm his dad")
  const fitting = found.filter((f) => fits(f.owner, ask.whose, speakerIsRelation) || (ask.whose === 'contact' && f.owner === 'speaker' && speakerIsRelation));
  if (fitting.length === 0) {
    const f = found[0]!;
    if (ask.whose === 'contact') return { problem: w.say.someoneElse };
    if (ask.whose === 'subject') return { problem: f.owner === 'other' ? w.say.otherPerson : w.say.notYours };
    const whose = pack.names.whose;
    return { problem: whose && f.relation ? whose.otherPersonProblem(f.relation) : w.say.otherPerson };
  }
  // a name said in brackets ("Raj (Rajesh Venkataraman)", "Robert Hale (Bob)")
  const bracketed = (f: Found) => { const c = clauses[f.clause]; return c !== undefined && new RegExp(`\\(\\s*${c.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\)`, 'u').test(text); };
  let chosen = fitting[0]!;
  // "Tom. Tom Becker", "denise... denise porter": a name started again and finished is one name, the longer
  const said = fitting.map((f) => f.tokens.join(' ').toLowerCase());
  const restarted = fitting.length === 2 && said[1]!.startsWith(`${said[0]} `);
  if (restarted) chosen = fitting[1]!;
  // "grandpa joe (joseph miller)": a one-word name, then the full name it is short for (the same first two letters)
  // "Bill (William Harris)": the full name in brackets after a one-word name is taken too, checked once when its first letters
  // differ (a short name for it, or someone else: "grandpa joe (walter miller)")
  const sameStart = fitting.length === 2 && said[1]!.replace(/^\P{L}+/u, '').slice(0, 2) === said[0]!.replace(/^\P{L}+/u, '').slice(0, 2);
  const fuller = !restarted && fitting.length === 2 && fitting[0]!.words === 1 && fitting[1]!.words >= 2 && fitting[1]!.owner === 'open'
    && (sameStart || bracketed(fitting[1]!));
  if (fuller) chosen = { ...fitting[1]!, owner: fitting[0]!.owner, ...(fitting[0]!.relation ? { relation: fitting[0]!.relation } : {}) };
  // "Robert Hale (Bob)", "Name: Theodore Grant (Teddy)": the full name, then one word in brackets — a short name for it
  const shortAfter = !restarted && !fuller && fitting.length === 2 && fitting[0]!.words >= 2 && fitting[1]!.words === 1 && fitting[1]!.owner === 'open' && bracketed(fitting[1]!);
  let confirm = unexplained.length > 0 || (!restarted && !fuller && !shortAfter && new Set(said).size > 1) || (fuller && !sameStart);
  // "Özdemir, Ayşe", "Thompson, Emma R.": the surname, a comma, the given names — committed the usual way round
  const [sur, given] = fitting;
  // "van der Merwe, Pieter": the surname with its particles ("Raj (Rajesh Venkataraman)" is a short name and the full one)
  if (!restarted && !fuller && !shortAfter && fitting.length === 2 && clauses.length === 2 && unexplained.length === 0 && sur!.owner === 'open' && given!.owner === 'open' && sur!.words === 1
    && sur!.tokens.every((t) => ['name', 'particle'].includes(tokenKind(t, w, common))) && tokenKind(sur!.tokens.at(-1)!, w, common) === 'name') {
    chosen = { ...given!, tokens: [...given!.tokens, ...sur!.tokens], words: given!.words + 1, clause: -1 };
    confirm = false;
  }
  // "Bob Smith, well Robert legally": the legal given name with the surname; a legal name in full replaces the name
  const legal = clauses.find((c) => c.read.kind === 'legal')?.read as Extract<Clause, { kind: 'legal' }> | undefined;
  if (legal && fitting.length === 1) {
    if (legal.words >= 2) chosen = { ...chosen, tokens: legal.tokens, words: legal.words };
    else {
      const at = chosen.tokens.findIndex((t) => tokenKind(t, w, common) === 'name');
      if (at >= 0 && chosen.words >= 2) chosen = { ...chosen, tokens: [...chosen.tokens.slice(0, at), ...legal.tokens, ...chosen.tokens.slice(at + 1)] };
      else chosen = { ...chosen, tokens: legal.tokens, words: legal.words };
    }
  }
  // "Kim Min-jun (Kim is the family name)" says which word is which; "my son Ethan, surname Okafor" adds the word not said
  for (const p of parts) {
    if (p.word === undefined || chosen.clause === -1) continue;
    if (chosen.tokens.some((t) => t.toLowerCase() === p.word!.toLowerCase())) continue;
    if (chosen.words === 1 && parts.length === 1) {
      chosen = { ...chosen, tokens: p.part === 'family' ? [...chosen.tokens, p.word] : [p.word, ...chosen.tokens], words: 2 };
    } else confirm = true;
  }
  // "Mr. Joseph O'Connor": a courtesy title before a given name and a surname is no part of the record ("Mrs. Lopez" keeps it)
  if (chosen.words >= 2 && w.courtesy) {
    let at = 0;
    while (at < chosen.tokens.length && w.courtesy.has(chosen.tokens[at]!.toLowerCase().replace(/\.$/, ''))) at++;
    if (at > 0) chosen = { ...chosen, tokens: chosen.tokens.slice(at) };
  }
  if (ask.first) chosen = { ...chosen, tokens: chosen.tokens.slice(0, chosen.tokens.findIndex((t) => tokenKind(t, w, common) === 'name') + 1), words: 1 };
  else if (ask.full && chosen.words < 2) return { problem: w.say.fullName };
  // "routine visit", "Sore Throat", "flu shot": words that say why someone came, not who they are
  const nameTokens = chosen.tokens.filter((t) => tokenKind(t, w, common) === 'name');
  const meaning = meaningOf(pack);
  if (nameTokens.length > 0 && nameTokens.every((t) => meaning.has(fold(t).text))) return { problem: w.say.notAName };
  // "asdfgh", "qwerty", "xkcdfg": keys typed in a row, or no vowel in four letters or more, are no name
  if (nameTokens.some((t) => mashed(fold(t).text))) return { problem: w.say.notAName };
  // "mein Sohn hat seit Montag Fieber" at an English flow: a sentence in another language, no name
  if (sentenceOfAnotherLanguage(nameTokens, pack)) return { problem: w.say.notAName };
  let value = written(chosen.tokens, w);
  if (ask.whose === 'contact' && ask.relation) {
    if (!chosen.relation) return { problem: w.say.relation };
    value = `${value}, ${chosen.relation.split(' ').map((r) => w.relationAs[r] ?? r).join(' ')}`;
  }
  // read exactly as typed: nothing but names and relations ("John Doe, husband"), no introduction or aside
  const bare = !confirm && clauses.every((c) => (c.read.kind === 'name' && c.read.found.owner === 'open' && !c.read.rest) || (c.read.kind === 'relation' && !c.read.intro));
  // the clause the name was read from; the engine keeps the whole reply in the answer's provenance
  const evidence = clauses[chosen.clause]?.text ?? text;
  return { value, confirm, bare, evidence };
}
