import type { OpenQuestion } from '../extractor.ts';
import type { LanguagePack } from '../../language/pack.ts';
import { normalOptions } from '../../flow/answer-types.ts';
import { fold } from '../parse/index.ts';
import { correctedTail } from '../parse/correction.ts';

/*
 * THE COMMIT RULE: the offline rules commit a value only when the whole reply
 * is accounted for — the value (its span, unit and currency included), known
 * filler (the pack's `filler`, `skipFiller` and `joinFiller` words: "about",
 * "please", "we have", "I think"), the question's own words (its key, label,
 * prompt and option words), and what the reply answers elsewhere (another
 * question's value, a contact). A word left over — an unexplained clause, a
 * second candidate, a per-item qualifier ("each"), a correction marker — means
 * the reading may be wrong: the update is marked `confirm`, and the engine asks
 * one short question ("Just to check: 15 January 2027?") before committing it.
 * One mechanism, in this one place, for every typed answer.
 */

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’]*/gu;

const cache = new WeakMap<LanguagePack, ReadonlySet<string>>();

/** The pack's known filler words, folded. */
function fillerOf(pack: LanguagePack): ReadonlySet<string> {
  let set = cache.get(pack);
  if (!set) {
    const lex = pack.lexicon;
    // a negator ("not", "kein") is accounted for: the parsers already read what it denies ("not red, green");
    // what it stands beside is not ("yes to treatment but not the privacy thing": "thing" is left over)
    set = new Set([...lex.filler, ...lex.skipFiller, ...lex.joinFiller, ...lex.joiners, ...lex.negators].flatMap((w) => words(w)).map(stem));
    cache.set(pack, set);
  }
  return set;
}

/** A word without a plural ending, so "courts" is accounted for by a question about a "court". */
function stem(w: string): string {
  return w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, w.endsWith('ies') ? -3 : -1) : w;
}

/** The folded words of a text ("It's" → "it's"; accents and case folded). */
function words(text: string): string[] {
  // "he's", "something's": the 's is a verb or a possessive, not a word of its own
  return (fold(text).text.replace(/’/g, "'").replace(/'s(?![\p{L}])/gu, '').match(WORD) ?? []);
}

/**
 * The question's own words: its key, label, prompt and option words ("budget", "courts", "deadline"). For a multiple
 * choice read as `chosen`, only the chosen options' words: a word of an option left out ("head" of "Headache" in "my head
 * hurts and I feel like throwing up" read as nausea alone) names something the reading lost.
 */
function ownWords(q: OpenQuestion, chosen?: readonly unknown[]): Set<string> {
  const own = new Set<string>([...q.key.split(/[_.-]+/), ...words(q.label ?? ''), ...words(q.prompt ?? '')].map(stem));
  const a = q.answer;
  if ((a.type === 'number' || a.type === 'integer') && a.unit) for (const w of words(a.unit)) own.add(stem(w));
  if (a.type === 'enum') {
    for (const o of normalOptions(a)) {
      if (a.multiple && chosen && !chosen.includes(o.value)) continue;
      for (const w of words([o.label, o.value, ...o.synonyms].join(' '))) own.add(stem(w));
    }
  }
  return own;
}

/**
 * The words of a reply that nothing accounts for, once the spans of what was
 * read (the value, other answers, contacts) are set aside; empty when the whole
 * reply is explained and the value may be committed as it is.
 */
export function unexplainedWords(text: string, read: readonly string[], q: OpenQuestion, pack: LanguagePack, value?: unknown): string[] {
  // "3 courts — sorry, 4": a value read after a self-correction replaces what came before it; the rest of the tail is judged
  const tail = correctedTail(text, pack);
  let rest = tail !== null && read.some((r) => r && tail.toLowerCase().includes(r.toLowerCase())) ? tail : text;
  for (const span of read) {
    if (!span) continue;
    const at = rest.toLowerCase().indexOf(span.toLowerCase());
    if (at !== -1) rest = rest.slice(0, at) + ' '.repeat(span.length) + rest.slice(at + span.length);
  }
  const filler = fillerOf(pack);
  const chosen = Array.isArray(value) ? value : undefined;
  const own = ownWords(q, chosen);
  // a word of an option left out that the reply denies ("no fever, just a cough", "Fieber nicht") is accounted for
  if (chosen) {
    const all = ownWords(q);
    const folded = words(text);
    const negators = new Set(pack.lexicon.negators.flatMap((n) => words(n)));
    folded.forEach((w, i) => {
      if (own.has(stem(w)) || !all.has(stem(w))) return;
      if (folded.slice(Math.max(0, i - 3), i).some((x) => negators.has(x)) || negators.has(folded[i + 1] ?? '')) own.add(stem(w));
    });
  }
  // a part of a compound is the question's own word too: "Masten" at a question about "Lichtmasten"
  const part = (w: string) => w.length >= 4 && [...own].some((o) => o.length > w.length && (o.endsWith(w) || o.startsWith(w)));
  return words(rest).map(stem).filter((w) => !filler.has(w) && !own.has(w) && !part(w));
}
