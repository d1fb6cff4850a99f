import type { OpenQuestion } from '../extractor.ts';
import type { LanguagePack } from '../../language/pack.ts';
import { fold, foldPhrase, findPhrase } from '../parse/index.ts';

/*
 * REPLIES THAT ARE NO ANSWER AT A TEXT QUESTION — where any reply reads as text, two kinds of reply are asked about rather
 * than stored (docs/understanding.md, "Short text and codes"):
 *
 *  - A question of the visitor's own instead of the answer: every sentence of the reply is a question (a question mark, or
 *    the pack's `questionForm`: "is this …", "can someone …", "who do I …", "kann mich jemand …") and it names nothing
 *    concrete — its words say nothing on their own (the pack's filler and `contentFree`), are the question's own words, or words
 *    about the service (`aboutService`: "warranty", "cost", "complain", "Garantie"): "is this covered by warranty?", "how
 *    much does a callout cost", "wer ist dafür zuständig?". Not where the prompt asks what the visitor needs (`asksNeed`:
 *    "what you need", "anything else", "worum es geht"): there a question is the answer. "the lights flicker, is that
 *    covered?" and "why does my laptop restart every hour?" name something and are kept.
 *  - A request or a non-description at a required text question: a reply made only of words asking to be contacted,
 *    looking around or saying where it found us (`nonDescription`: "can someone call me", "Rückruf bitte", "just browsing",
 *    "your ad on facebook") and words that say nothing on their own — at least one of the first kind, no digit — is asked what it is
 *    about. "call me about pricing for 3 courts" says what.
 */

const SENTENCE = /(?<=[.!?…])\s+|\n+/u;
const commons = new WeakMap<LanguagePack, ReadonlySet<string>>();

/**
 * The pack's words that say nothing on their own (`contentFree`, filler, discourse words, joiners, negators and the words a
 * question is asked with), folded. Not the language's whole list of common words: stopwords-iso holds "order", "computer",
 * "fire", "room" — "can someone call me about my order" says what.
 */
function sayNothing(pack: LanguagePack): ReadonlySet<string> {
  let set = commons.get(pack);
  if (!set) {
    const t = pack.text;
    const lex = pack.lexicon;
    const form = t.questionForm;
    const asking = form ? [...form.aux, ...form.wh, ...form.subjects] : [];
    const words = [...t.contentFree, ...lex.skipFiller, ...lex.filler, ...(t.discourse ?? []), ...lex.joiners, ...lex.negators, ...asking];
    commons.set(pack, (set = new Set(words.flatMap((w) => foldPhrase(w).split(' ')))));
  }
  return set;
}

/** The words of a reply, folded, apostrophes straightened, without punctuation. */
function wordsOf(text: string): string[] {
  return fold(text).text.replace(/’/g, "'").replace(/[^\p{L}\p{N}' -]+/gu, ' ').replace(/(?<!\p{L})-|-(?!\p{L})/gu, ' ').split(/\s+/).filter((w) => w !== '' && w !== "'");
}

/** The question's own words (key, label, the prompt without its examples), stemmed: "allergic" for "allergies". */
export function ownStems(q: OpenQuestion, pack: LanguagePack): ReadonlySet<string> {
  const stem = pack.options.meaning?.stem ?? ((w: string) => w);
  let prompt = fold(q.prompt ?? '').text;
  // an example the prompt gives ("for example \"penicillin — hives\"") is no word of the question's own
  for (const m of [...pack.text.exampleBefore].map(foldPhrase)) {
    for (let at = findPhrase(prompt, m)[0]; at !== undefined; at = findPhrase(prompt, m)[0]) prompt = `${prompt.slice(0, at)} ${prompt.slice(at + m.length).replace(/^[^.?!)]*/u, '')}`;
  }
  prompt = prompt.replace(/["“„«][^"”“»]*["”“»]/gu, ' ');
  const words = [...q.key.split(/[_.\s-]+/), ...wordsOf(q.label ?? ''), ...wordsOf(prompt)].map((w) => w.toLowerCase()).filter((w) => w.length > 2);
  return new Set(words.map(stem));
}

/** Whether the prompt asks what the visitor needs or wants to ask ("what you need", "how can we help", "worum es geht"). */
export function asksNeed(q: OpenQuestion, pack: LanguagePack): boolean {
  const p = fold(q.prompt ?? '').text.replace(/’/g, "'");
  return (pack.text.asksNeed ?? []).some((w) => findPhrase(p, foldPhrase(w)).length > 0);
}

/** Whether one sentence asks: a question mark, or the pack's question form ("is this …", "who do I …"). */
function isQuestion(sentence: string, pack: LanguagePack): boolean {
  if (/\?[\s!?.…)]*$/u.test(sentence)) return true;
  return questionForm(sentence, pack);
}

/** Whether one sentence has the form of a question, whatever its punctuation ("does that count", "is this covered"); "the pole is leaning?" has not. */
export function questionForm(sentence: string, pack: LanguagePack): boolean {
  const form = pack.text.questionForm;
  if (!form) return false;
  const ws = wordsOf(sentence);
  const discourse = new Set((pack.text.discourse ?? []).map(foldPhrase));
  while (ws.length > 2 && discourse.has(ws[0]!)) ws.shift();
  const aux = new Set(form.aux.map(foldPhrase));
  const subjects = new Set(form.subjects.map(foldPhrase));
  if (aux.has(ws[0] ?? '') && subjects.has(ws[1] ?? '')) return true;
  // "does weed count", "zählt Gras auch": whether something counts
  const scope = new Set((form.scope ?? []).map(foldPhrase));
  if (aux.has(ws[0] ?? '') && (scope.has(ws.at(-1) ?? '') || scope.has(ws[0]!))) return true;
  const line = ws.join(' ');
  const wh = [...form.wh].map(foldPhrase).sort((a, b) => b.length - a.length).find((w) => line === w || line.startsWith(`${w} `));
  if (wh === undefined) return false;
  const next = ws[wh.split(' ').length] ?? '';
  return aux.has(next) || subjects.has(next);
}

/**
 * A question of the visitor's own in place of the answer: every sentence asks, and no word names anything — each is a
 * word that says nothing on its own, a word of the question's own or of the pack's `aboutService` ("is this covered by
 * warranty?", "who do I complain to"). Never where the prompt asks what the visitor needs.
 */
export function questionInstead(text: string, q: OpenQuestion, pack: LanguagePack): boolean {
  if (/\p{N}/u.test(text) || asksNeed(q, pack)) return false;
  const sentences = text.trim().split(SENTENCE).filter((s) => /[\p{L}]/u.test(s));
  if (sentences.length === 0 || sentences.length > 3 || !sentences.every((s) => isQuestion(s, pack))) return false;
  const free = sayNothing(pack);
  const service = new Set([...(pack.text.aboutService ?? []), ...(pack.text.nonDescription ?? [])].flatMap((w) => foldPhrase(w).split(' ')));
  const own = ownStems(q, pack);
  const stem = pack.options.meaning?.stem ?? ((w: string) => w);
  // a compound opening with a service word ("Technikerbesuch", "Kostenvoranschlag", "Garantiefall") is one
  const heads = [...service].filter((w) => w.length >= 6);
  const compound = (w: string) => w.length >= 10 && heads.some((h) => w.startsWith(h) && w.length - h.length >= 4);
  const words = wordsOf(text);
  return words.length > 0 && words.length <= 16 && words.every((w) => free.has(w) || service.has(w) || own.has(stem(w)) || compound(w));
}

/**
 * A topic word alone where the prompt asks what the visitor needs ("tell me a little about what you need", "worum es
 * geht"), at a required free-text question: one word, with no digit, besides the pack's filler and articles ("partnership",
 * "a sponsorship", "Kooperation", "eine Beratung", "Vertriebspartnerschaft") names a kind of matter, not what is needed,
 * and is asked about in a sentence. Two words or more ("solar carports", "sponsorship for our league") are kept.
 */
export function topicOnly(text: string, q: OpenQuestion, pack: LanguagePack): boolean {
  if (!q.required || /\p{N}/u.test(text) || !asksNeed(q, pack)) return false;
  const filler = new Set(pack.lexicon.filler.flatMap((w) => foldPhrase(w).split(' ')));
  const words = wordsOf(text).filter((w) => !filler.has(w));
  // "nothing", "nothing more", "keine": a none or a decline is no topic (read by the rules for those)
  const none = new Set([...pack.lexicon.declines, ...pack.lexicon.no, ...pack.lexicon.skip, ...(pack.yesNo?.none ?? [])].map((w) => foldPhrase(w)));
  return words.length === 1 && /^\p{L}[\p{L}-]*$/u.test(words[0]!) && !none.has(words[0]!);
}

/**
 * A reply that describes nothing at a required text question: it asks to be contacted, is only looking or says where it
 * found us (the pack's `nonDescription`), with nothing beside that but words that say nothing on their own ("can
 * someone call me", "Rückruf bitte", "just browsing", "your ad on facebook"). A digit or any other word is a description.
 */
export function describesNothing(text: string, q: OpenQuestion, pack: LanguagePack): boolean {
  const list = pack.text.nonDescription;
  if (!list || !q.required || /\p{N}/u.test(text)) return false;
  let t = ` ${wordsOf(text).join(' ')} `;
  if (t.trim() === '' || t.trim().split(' ').length > 12) return false;
  let hit = false;
  for (const p of [...list].map(foldPhrase).sort((a, b) => b.length - a.length)) {
    if (t.includes(` ${p} `)) {
      t = t.split(` ${p} `).join(' ');
      hit = true;
    }
  }
  if (!hit) return false;
  // the question's own words do not count here: "can someone call me about the flickering lights" says what
  const free = sayNothing(pack);
  return t.split(' ').every((w) => w === '' || free.has(w));
}

/**
 * Whether every clause of a reply asks (cut at commas, full stops, question marks and dashes): "does weed count", "is that bad?",
 * "was meinen Sie mit unsicher?" — a reply to a yes/no that says neither. "the pole is leaning, is that bad?" says something.
 */
export function asksOnly(text: string, pack: LanguagePack): boolean {
  const clauses = text.trim().split(/(?<=[?])|[,;.!:…]+|\s[—–-]\s/u).map((c) => c.trim()).filter((c) => /[\p{L}]/u.test(c));
  return clauses.length > 0 && clauses.every((c) => isQuestion(c, pack));
}

/**
 * "none", "nothing", "keine" where a required text question takes for granted there is something to give — its prompt asks
 * which ones or to list them, not whether there are any (no `any` word of the pack's yes/no words, no way out offered:
 * "Please list them", "What are you allergic to …?", after a yes to "Do you take any medications?"): the reply contradicts
 * the question and is asked about, never stored as the list. Where the prompt asks "any …?" or offers a way out, "none" is
 * the answer, as before.
 */
export function noneWhereSome(text: string, q: OpenQuestion, pack: LanguagePack): boolean {
  const words = pack.yesNo;
  if (!words || !q.required || q.answer.type !== 'text' || /\p{N}/u.test(text)) return false;
  const prompt = fold(q.prompt ?? '').text.replace(/’/g, "'");
  if ([...words.any, ...pack.lexicon.invitesSkip].some((w) => findPhrase(prompt, foldPhrase(w)).length > 0)) return false;
  const filler = new Set([...pack.lexicon.skipFiller, ...(pack.text.discourse ?? [])].map(foldPhrase));
  const t = wordsOf(text).filter((w) => !filler.has(w)).join(' ');
  const none = new Set([...words.none, 'n/a', 'na', 'nil', 'nada'].map(foldPhrase));
  return t !== '' && none.has(t);
}
