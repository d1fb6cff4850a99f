import type { TriggerChoice } from '../extractor.ts';
import { distanced } from './trigger-distance.ts';

// The co-occurrence rule of flow triggers (`words`, `together`, `unless`):
// a trigger fires when every word list of one `together` entry has a hit in
// the same clause that is not negated — "my chest has been hurting" is
// [chest, pain]; "no chest pain" and "not struggling to breathe" are not.
// Matching is on lower-case text with apostrophes dropped, so "can't" and
// "cant" are one word. A negator counts only when it stands before a hit in
// its clause (at most NEGATION_WINDOW words) and is not itself part of a hit
// of the rule: "can't breathe" is [cant] + [breathe], not a negated breath.
// A hit that starts with a negator and is followed by a degree word ("not
// breathing badly") negates the degree, not the event: it does not count.
// `unless` phrases void their clause (a past event, someone else's history),
// but not when they are negated themselves ("hasn't stopped" is no "stopped").
// `together_in_message` entries are the same rule over the whole message: each
// list's hit in a clause of its own that does not negate or void it ("fever,
// headache, and a rash like bruises"). A hit followed by one of the trigger's
// `figurative` objects (after a linking word: "overdosed on netflix", "killing
// myself laughing", "die of embarrassment") is a figure of speech and does not
// count; a laughing marker alone ("lol") is no object and changes nothing. A
// short abbreviation right after a number is a unit ("ran 5 kms"), not a hit.

/** Words that negate what follows them in the same clause (apostrophes dropped). */
const NEGATORS = new Set(['no', 'not', 'never', 'without', 'none', 'neither', 'nor', 'dont', 'doesnt', 'didnt', 'isnt', 'arent', 'wasnt',
  'havent', 'hasnt', 'denies', 'deny', 'free']);
/** How many words before a hit a negator may stand. */
const NEGATION_WINDOW = 4;
/** Words right after a negator that make it a hedge or a self-correction, not a negation: "not sure", "don't know", "no idea", "no sorry, my son". */
const HEDGED = new Set(['sure', 'certain', 'know', 'idea', 'clue', 'sorry', 'wait', 'actually', 'sicher', 'ahnung']);
/** A conjunction that may start a new predicate ("… and one arm is weak"). */
const CONJUNCTION = /(?<![\p{L}\p{N}])(?:and|then|plus|so|&)(?![\p{L}\p{N}])/gu;
/** A verb that makes the words after a conjunction a predicate of their own: a negator before the conjunction does not reach it. */
const PREDICATE = /(?<![\p{L}\p{N}])(?:is|are|was|were|has|have|had|hes|shes|its|im|theyre|keeps|kept|looks|looked|feels|felt|seems|went|goes|gone|turned|turning|started|starting|cant|cannot|wont|can|will|isnt|arent|wasnt|hasnt|doesnt)(?![\p{L}\p{N}])/u;
/** Words after a negated hit that make the negation one of degree ("not breathing badly"). */
const DEGREE = new Set(['badly', 'much', 'too', 'that']);
/**
 * Where a clause ends: punctuation, a contrast, "and now", or an "and" whose clause goes on to say it is now ("heart disease runs
 * in the family and my chest is tight right now": the history's `unless` voids only its own part).
 */
const CLAUSE_END = /[;:!?()\n]|[.,](?!\d)|\b(?:but|although|though|however|except|and now|yet|also)\b|\band\b(?=[^.,;:!?()\n]*\b(?:right now|at the moment|currently|as we speak|as i type)\b)/g;
const WORD = /[\p{L}\p{N}]+(?:[.,]\d+)?/gu;
/**
 * A clause that says, all of itself, that what the clause before it told is over or not now ("I get a tight chest when I'm
 * anxious, not now"; "lip swelling from a bite yesterday, going down now"), or answers it no as a checklist does ("short of
 * breath? no. chest pain? no"): the clause before it is void for every trigger.
 */
const RESOLVED = /^(?:(?:and|but|its|it s|it is|thats|that is|all|now)\s+)*(?:not now|not right now|not at the moment|not currently|not today|none now|none at the moment|(?:fine|gone|better|settled|stopped|resolved|okay|ok|over) now|(?:going|gone) down now|(?:all )?(?:gone|settled|resolved)(?: since)?|no longer|no|nope|nah|none|not really|not at all|negative|never)$/;
/** How many words before an `unless` phrase a negator may stand and still negate it ("hasnt stopped", "has not fully stopped"). */
const UNLESS_NEGATION_WINDOW = 2;
/** Words that may stand between a hit and its figurative object: a linking word, then determiners ("overdosed on all the chocolate"). */
const LINKS = new Set(['on', 'of', 'from', 'with', 'over', 'at', 'about', 'by', 'in', 'to', 'for', 'while', 'when', 'vor', 'an', 'von', 'mit', 'uber', 'auf']);
const DETERMINERS = new Set(['the', 'a', 'an', 'my', 'his', 'her', 'their', 'our', 'your', 'this', 'that', 'these', 'those', 'all', 'some', 'too', 'much', 'so', 'way',
  'der', 'die', 'das', 'den', 'dem', 'ein', 'eine', 'einen', 'zu', 'viel']);
/** At most this many linking words and determiners between a hit and its figurative object. */
const LINK_WINDOW = 3;

interface Pattern { re: RegExp; min?: number; max?: number; ranges?: readonly NumberRange[] }
/** The range a number word of an entry must fall in ("#50-91": 50 to 91; "#38+": 38 or more). */
interface NumberRange { min: number; max?: number }
interface CompiledRule { groups: Pattern[][] }
interface Compiled { rules: CompiledRule[]; anywhere: CompiledRule[]; unless: Pattern[]; figurative: RegExp | undefined }

const cache = new WeakMap<TriggerChoice, Compiled>();

/** Lower case, curly apostrophes straightened then dropped, other punctuation kept (it ends clauses). */
export function plainText(s: string): string {
  return s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[\u2018\u2019\u02bc']/g, '').replace(/[-_/]/g, ' ');
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A count, not a dose: "500 mg" is not 500 of anything. */
const NUMBER = /(?<![\p{L}\p{N}.,])\d+(?:[.,]\d+)?(?![\p{L}\p{N}])(?!\s*(?:mg|mcg|µg|ml|g|iu|units?|milligrams?|micrograms?|millilit(?:re|er)s?)\b)/gu;

/**
 * A word list (or `unless` list) as patterns: its words and phrases as one
 * alternation on word boundaries, longest first (a word ending in * takes any
 * ending), each "#N+" entry as a number of at least N and each "#N-M" entry as a
 * number from N to M ("#1950-2099": a year, "in 1998").
 */
function patterns(entries: readonly string[]): Pattern[] {
  const out: Pattern[] = [];
  const alts: string[] = [];
  for (const entry of entries) {
    const num = /^#(\d+)(?:\+|-(\d+))$/.exec(entry.trim());
    if (num) {
      out.push({ re: NUMBER, min: Number(num[1]), ...(num[2] !== undefined ? { max: Number(num[2]) } : {}) });
      continue;
    }
    // (a number word's dash kept through plainText, which makes dashes spaces)
    const words = plainText(entry.replace(/#(\d+)-(\d+)/g, '#$1to$2')).trim().match(/\{[^}]*\}|[^\s{]+/g) ?? [];
    const ranges = words.map((w) => NUMBER_WORD.exec(w)).filter((r) => r !== null).map((r) => ({ min: Number(r[1]), ...(r[2] !== undefined ? { max: Number(r[2]) } : {}) }));
    // a reading: words with a number in a range ("{sats,spo2} ~3 #50-91": "sats dropped to 88%"), a pattern of its own
    if (ranges.length) out.push({ re: new RegExp(`(?<![\\p{L}\\p{N}])${entryPattern(words)}(?![\\p{L}\\p{N}])`, 'gu'), ranges });
    else if (words.length) alts.push(entryPattern(words));
  }
  if (alts.length) out.unshift({ re: new RegExp(`(?<![\\p{L}\\p{N}])(?:${alts.sort((x, y) => y.length - x.length).join('|')})(?![\\p{L}\\p{N}])`, 'gu') });
  return out;
}

/** One word of an entry: "hurt*" takes any ending; "{face,mouth,twice the size}" is any of its words or phrases. */
const wordPattern = (w: string): string => {
  const alts = /^\{(.+)\}$/.exec(w)?.[1]?.split(',').map((a) => a.trim()).filter((a) => a.length > 0) ?? [w];
  const each = alts.map((a) => a.split(/\s+/).map((x) => (x.endsWith('*') ? `${escape(x.slice(0, -1))}\\p{L}*` : escape(x))).join('\\s+'));
  return each.length === 1 ? each[0]! : `(?:${each.join('|')})`;
};

/** A number word inside an entry: "#50-91" (50 to 91), "#38+" (38 or more). */
const NUMBER_WORD = /^#(\d+)(?:\+|(?:-|to)(\d+))$/;
/** A number in a reading, captured, with a percent sign or word after it allowed ("88%", "88 percent"). */
const READING = '(\\d+(?:[.,]\\d+)?)(?:\\s*(?:%|percent|per cent))?';

/**
 * An entry's words as a pattern: words apart by spaces; "~N" lets up to N other words stand there ("arm ~3 weak*": "arm is so
 * weak"); a number word ("#50-91") is a number, captured for its range, and the gap before it takes words only, not numbers
 * ("sats 96 pulse 88" is no low reading).
 */
function entryPattern(words: readonly string[]): string {
  let out = '';
  words.forEach((w, i) => {
    const gap = /^~(\d)$/.exec(w);
    const beforeNumber = NUMBER_WORD.test(words[i + 1] ?? '');
    if (gap) out += beforeNumber ? `(?:\\p{L}+\\s+){0,${gap[1]}}` : `(?:[\\p{L}\\p{N}]+\\s+){0,${gap[1]}}`;
    else out += (NUMBER_WORD.test(w) ? READING : wordPattern(w)) + (i < words.length - 1 ? '\\s+' : '');
  });
  return out;
}

/** The figurative objects as one pattern anchored at the start of a text (a word ending in * takes any ending). */
function objectsOf(entries: readonly string[]): RegExp | undefined {
  const alts = entries.map((e) => plainText(e).trim().split(/\s+/).filter((w) => w.length > 0)
    .map((w) => (w.endsWith('*') ? `${escape(w.slice(0, -1))}\\p{L}*` : escape(w))).join('\\s+')).filter((a) => a.length > 0);
  return alts.length ? new RegExp(`^(?:${alts.sort((x, y) => y.length - x.length).join('|')})(?![\\p{L}\\p{N}])`, 'u') : undefined;
}

function compile(t: TriggerChoice): Compiled {
  let c = cache.get(t);
  if (!c) {
    const lists = new Map(Object.entries(t.words ?? {}).map(([name, entries]) => [name, patterns(entries)]));
    c = {
      rules: (t.together ?? []).map((names) => ({ groups: names.map((n) => lists.get(n) ?? []) })),
      anywhere: (t.togetherInMessage ?? []).map((names) => ({ groups: names.map((n) => lists.get(n) ?? []) })),
      unless: patterns(t.unless ?? []),
      figurative: objectsOf(t.figurative ?? []),
    };
    if (Object.isFrozen(t)) cache.set(t, c);
  }
  return c;
}

interface Span { start: number; end: number }

/** One message as the rule reads it: its plain text, clauses and the hits of each pattern (found once per message). */
interface Prepared { source: string; text: string; clauses: Span[]; found: Map<Pattern, Span[]> }

let last: Prepared | undefined;

function prepare(source: string): Prepared {
  if (last?.source === source) return last;
  const text = plainText(source);
  last = { source, text, clauses: clauses(text), found: new Map() };
  return last;
}

/** Every hit of a pattern in the message. */
function allHits(m: Prepared, p: Pattern): Span[] {
  let out = m.found.get(p);
  if (!out) {
    out = [];
    const within = (n: number, r: { min?: number; max?: number }) => !((r.min !== undefined && !(n >= r.min)) || (r.max !== undefined && !(n <= r.max)));
    for (const x of m.text.matchAll(p.re)) {
      if (p.ranges) {
        if (!p.ranges.every((r, i) => within(Number(x[i + 1]!.replace(',', '.')), r))) continue;
      } else if (!within(Number(x[0].replace(',', '.')), p)) continue;
      out.push({ start: x.index, end: x.index + x[0].length });
    }
    m.found.set(p, out);
  }
  return out;
}

/** The hits of a list's patterns inside a span. */
function hits(m: Prepared, ps: readonly Pattern[], within: Span): Span[] {
  return ps.flatMap((p) => allHits(m, p).filter((h) => h.start >= within.start && h.end <= within.end));
}

/** A short aside in brackets (at most three words: "my daughter (2) wont stay awake", "my son (age 4) is floppy"): part of its clause. */
const SHORT_ASIDE = /\(([^()\n]{0,30})\)/g;

/** The text with the brackets of short asides blanked (same length), so they do not end a clause. */
const withoutShortAsides = (text: string): string =>
  text.replace(SHORT_ASIDE, (all, inner: string) => ((inner.match(/[\p{L}\p{N}]+/gu) ?? []).length <= 3 ? ` ${inner} ` : all));

/** The clauses of a text, as [start, end) spans. */
function clauses(text: string): Span[] {
  const out: Span[] = [];
  let from = 0;
  for (const m of withoutShortAsides(text).matchAll(CLAUSE_END)) {
    out.push({ start: from, end: m.index });
    from = m.index + m[0].length;
  }
  out.push({ start: from, end: text.length });
  return out.filter((c) => c.end > c.start);
}

const inside = (pos: number, spans: readonly Span[]) => spans.some((s) => pos >= s.start && pos < s.end);

/**
 * Where a negator's reach ends before a hit at `at`, inside the clause `clause`: after the last conjunction
 * before the hit whose words up to the clause's end hold a verb of their own ("hes not making sense and one arm
 * is weak": the "not" does not reach "one arm"); "no chest pain and shortness of breath" stays one negated list.
 */
export function negationScope(text: string, clause: Span, at: number): number {
  let from = clause.start;
  for (const m of text.slice(clause.start, at).matchAll(CONJUNCTION)) {
    const after = clause.start + m.index + m[0].length;
    if (PREDICATE.test(text.slice(after, clause.end).replace(/['\u2019]/g, ''))) from = after;
  }
  return from;
}

/** Whether the word at `index` of `words` is a negator that negates: not a hedge ("not sure", "no idea"). */
export function negatorAt(words: readonly string[], index: number, negators: ReadonlySet<string>): boolean {
  return negators.has(words[index]!) && !HEDGED.has(words[index + 1] ?? '');
}

/** Whether one of the `window` words before the hit in its clause is a negator (negators inside `covered` hits do not count). */
function negatedWithin(text: string, clause: Span, hit: Span, covered: readonly Span[], window: number): boolean {
  const from = negationScope(text, clause, hit.start);
  const words = [...text.slice(from, hit.start).matchAll(WORD)].filter((m) => !inside(from + m.index, covered));
  const plain = words.map((m) => m[0]);
  return plain.some((_, i) => i >= plain.length - window && negatorAt(plain, i, NEGATORS));
}

/** Whether the hit is negated in its clause (negators inside the rule's own hits do not count). */
function negated(text: string, clause: Span, hit: Span, covered: readonly Span[]): boolean {
  if (negatedWithin(text, clause, hit, covered, NEGATION_WINDOW)) return true;
  // "not breathing badly": the negation is of the degree
  const first = /^[\p{L}]+/u.exec(text.slice(hit.start, hit.end))?.[0];
  if (first && NEGATORS.has(first)) {
    const next = new RegExp(WORD.source, 'u').exec(text.slice(hit.end, clause.end));
    if (next && DEGREE.has(next[0])) return true;
  }
  return false;
}

/** A clause of a checklist answered no at its end: "chest pain - no", "bleeding no". */
const ANSWERED_NO = /\s(?:no|nope|nah|none)$/;

/**
 * Whether the clause of `text` right after `clause` says that it is over or not now ("…, not now"; "…, going down now") or
 * answers it no ("short of breath? no."), or the clause itself ends in a lone "no" ("chest pain - no").
 */
export function resolvedNext(text: string, clause: Span): boolean {
  if (ANSWERED_NO.test(plainText(text.slice(clause.start, clause.end)).trim().replace(/\s+/g, ' '))) return true;
  const next = clauses(text).find((s) => s.start > clause.start && text.slice(s.start, s.end).trim().length > 0);
  return next !== undefined && RESOLVED.test(plainText(text.slice(next.start, next.end)).trim().replace(/\s+/g, ' '));
}

/**
 * A clause that asks what the signs of something are, to learn them ("what are the signs of a stroke?", "what symptoms
 * should I look out for with sepsis"): it names the emergency without reporting it. A report in another clause still
 * counts ("what are the signs of a stroke? his face is drooping").
 */
const ASKS_ABOUT_SIGNS: readonly RegExp[] = [
  /^(?:(?:so|and|but|hi|hello|quick question|question)\s+)*(?:what|whats|wat)\s+(?:are|r|is)?\s*(?:the\s+)?(?:main\s+|early\s+|warning\s+|usual\s+|typical\s+|common\s+)*(?:signs|symptoms|sign|symptom)\s+(?:of|for|to)\b/,
  /^(?:how\s+(?:do|can|would|should)\s+(?:i|you|we|one)\s+(?:tell|know|spot|recogni[sz]e)|what\s+(?:signs|symptoms)\s+(?:should|do|would)\s+(?:i|we|you))\b(?!.*\b(?:now|right now|at the moment|currently|today)\b)/,
  // "… so I want to learn the warning signs"
  /\b(?:want|wanted|wanna|would like|like|trying|need|needed|so i can|so we can|in order)\s+(?:to\s+)?(?:learn|know|understand|read up on|read about|find out|be aware of)\s+(?:about\s+|more about\s+)?(?:the\s+|what\s+the\s+)?(?:main\s+|early\s+|warning\s+|usual\s+|typical\s+)*(?:signs|symptoms)\b/,
];

/** Whether the clause holds an `unless` phrase of the trigger that is not itself negated ("stopped", not "hasn't stopped"), or the next clause says it is over. */
function voids(m: Prepared, c: Compiled, clause: Span): boolean {
  if (resolvedNext(m.text, clause)) return true;
  const said = m.text.slice(clause.start, clause.end).trim().replace(/\s+/g, ' ');
  if (ASKS_ABOUT_SIGNS.some((re) => re.test(said))) return true;
  if (!c.unless.length) return false;
  return hits(m, c.unless, clause).some((h) => !negatedWithin(m.text, clause, h, [], UNLESS_NEGATION_WINDOW));
}

/** Whether the text following a hit in its clause starts with a figurative object of the trigger, past at most a few linking words ("on netflix"). */
export function figurativeAfter(following: string, t: TriggerChoice): boolean {
  const re = compile(t).figurative;
  if (!re) return false;
  let rest = plainText(following);
  for (let i = 0; i <= LINK_WINDOW; i++) {
    const after = rest.replace(/^[^\p{L}\p{N}]+/u, '');
    if (re.test(after)) return true;
    const w = /^[\p{L}]+/u.exec(after)?.[0];
    if (!w || !(LINKS.has(w) || DETERMINERS.has(w))) return false;
    rest = after.slice(w.length);
  }
  return false;
}

/**
 * Whether the word (or two) right before a hit in its clause is a figurative object of the trigger used as a modifier: "a
 * chocolate overdose", "a netflix overdose", "heat stroke".
 */
export function figurativeBefore(preceding: string, t: TriggerChoice): boolean {
  const re = compile(t).figurative;
  if (!re) return false;
  const words = plainText(preceding).match(/[\p{L}\p{N}]+/gu) ?? [];
  return [1, 2].some((k) => {
    if (words.length < k) return false;
    const said = words.slice(-k).join(' ');
    return re.exec(said)?.[0].length === said.length;
  });
}

/** Whether the hit is a short abbreviation right after a number: a unit ("5 kms"), not the word. */
export function unitAfterNumber(text: string, hit: Span): boolean {
  const word = text.slice(hit.start, hit.end);
  return /^\p{L}{1,3}$/u.test(word) && /\d\s?$/u.test(text.slice(Math.max(0, hit.start - 2), hit.start));
}

/** The hits of one rule's lists in a clause that count: not negated, not figurative, not a unit, not named at a distance (trigger-distance.ts). */
function liveHits(m: Prepared, rule: CompiledRule, clause: Span, t: TriggerChoice): Span[][] {
  const found = rule.groups.map((g) => hits(m, g, clause).filter((h) => !unitAfterNumber(m.text, h)));
  const covered = found.flat();
  return found.map((f) => f.filter((h) => !negated(m.text, clause, h, covered) && !figurativeAfter(m.text.slice(h.end, clause.end), t)
    && !figurativeBefore(m.text.slice(clause.start, h.start), t)
    && !distanced(m.text, negationScope(m.text, clause, h.start), h, clause.end)));
}

/**
 * The evidence of the first `together` entry of the trigger that holds in a
 * clause of the text, else of the first `together_in_message` entry that
 * holds across the message's clauses; undefined when none does.
 */
export function matchTogether(source: string, t: TriggerChoice): string | undefined {
  if (!(t.together?.length || t.togetherInMessage?.length) || !t.words) return undefined;
  const c = compile(t);
  const m = prepare(source);
  const open = m.clauses.filter((clause) => !voids(m, c, clause));
  for (const clause of open) {
    for (const rule of c.rules) {
      if (liveHits(m, rule, clause, t).every((f) => f.length > 0)) return m.text.slice(clause.start, clause.end).trim();
    }
  }
  for (const rule of c.anywhere) {
    const live = rule.groups.map(() => [] as Span[]);
    for (const clause of open) liveHits(m, rule, clause, t).forEach((f, i) => live[i]!.push(...f));
    if (live.every((f) => f.length > 0)) {
      const all = live.flat();
      const from = Math.min(...all.map((h) => clauseAround(m.text, h.start).start));
      const to = Math.max(...all.map((h) => clauseAround(m.text, h.start).end));
      return m.text.slice(from, to).trim();
    }
  }
  return undefined;
}

/** Whether an `unless` phrase of the trigger stands in this clause's text, not negated itself. */
export function vetoed(clauseText: string, t: TriggerChoice): boolean {
  if (!t.unless?.length) return false;
  const m = prepare(clauseText);
  return voids(m, compile(t), { start: 0, end: m.text.length });
}

/** The clause of `text` around position `at`: [start, end). */
export function clauseAround(text: string, at: number): Span {
  return clauses(text).find((s) => at >= s.start && at <= s.end) ?? { start: 0, end: text.length };
}
