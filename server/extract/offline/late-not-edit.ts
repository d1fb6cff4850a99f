/* "X not Y": a part of an earlier answer replaced. */
import type { LanguagePack } from '../../language/pack.ts';
import { fold, parseAnswer, type ParseContext } from '../parse/index.ts';
import type { Earlier } from './late-earlier.ts';
import { readValue } from './late-value.ts';
import { namesQuestion } from './late-question-names.ts';
import { monthNamed } from '../parse/date.ts';

const NOT_WORDS = new Set(['not', 'nicht', 'statt', 'anstatt', 'pas']);
/** A word of a text answer, a compound's parts apart ("Lessing-Gymnasium": "Lessing", "Gymnasium"). */
const WORD_TOKEN = /[\p{L}\p{N}](?:[\p{L}\p{N}'’&@_]|\.(?=[\p{L}\p{N}]))*/gu;
/** An article after "not" that is no part of what it names: "not the high school", "nicht das Gymnasium". */
const ARTICLE = /^(?:the|a|an|der|die|das|den|dem|des|le|la|les|el|los|las)$/iu;
const EDIT_TOKEN = /[\p{L}\p{N}](?:[\p{L}\p{N}'’&@_-]|\.(?=[\p{L}\p{N}]))*/gu;
/** Words before the new part that are no part of it: "sorry its", "ist die", "the last four are". */
const EDIT_LEAD = new Set(['sorry', 'oops', 'actually', 'its', "it's", 'it’s', 'it', 'is', 'ist', 'es', 'der', 'die', 'das', 'the', 'and', 'und', 'no', 'nein', 'wait',
  'ach', 'oh', 'entschuldigung', 'i', 'ich', 'meant', 'meinte', 'mean', 'should', 'be', 'sollte', 'sein', 'heißt', 'heisst', 'called', 'my', 'bad', 'well', 'so', 'also', 'ok', 'okay',
  'um', 'hmm', 'correction', 'korrektur', 'a', 'an', 'ein', 'eine', 'that', "that's", 'was', 'war', 'were', 'a', 'typo', 'tippfehler', 'btw', 'übrigens', 'ubrigens']);
/** Words closing the new part before "not" that are no part of it ("natürlich", "obviously", "sorry"). */
const EDIT_CLOSE = new Set(['natürlich', 'naturlich', 'obviously', 'course', 'actually', 'sorry', 'eigentlich', 'lol', 'oops', 'natuerlich', 'bien', 'sûr', 'claro',
  'now', 'nowadays', 'jetzt', 'inzwischen', 'mittlerweile']);
/** A copula after the question's own name ("the school is …", "Budget sind …"): the name and the copula open no part of the new value. */
const COPULA_WORDS = new Set(['is', 'are', 'was', 'were', "'s", 'ist', 'sind', 'war', 'waren', 'beträgt', 'betragt', 'lautet', 'heißt', 'heisst', 'est', 'es']);
/** Words that may stand before the question's name in that head ("my insurer is", "our budget's", "unser Budget ist"). */
const DETERMINERS = new Set(['my', 'our', 'the', 'his', 'her', 'their', 'mein', 'meine', 'unser', 'unsere', 'der', 'die', 'das']);
const HEAD_WORDS = new Set(['my', 'our', 'the', 'his', 'her', 'their', 'mein', 'meine', 'unser', 'unsere', 'der', 'die', 'das', 'also', 'and', 'und', 'oh', 'ach', 'sorry', 'oops', 'so']);
/** Words after the edit that belong to it ("…, my bad", "…, sorry"). */
const EDIT_TAIL = /^[\s,;:—–-]*(?:(?:sorry|my bad|btw|übrigens|entschuldigung|bitte|please|thanks|technically|actually|lol|oops|typo|tippfehler|hab mich vertippt|my mistake|mein fehler)[\s,;:!.—–-]*)+$/iu;
/** Words saying the edit is at the end: "ends in 92", "the last digits", "endet auf 79". */
const AT_END = /(?<![\p{L}])(?:ends?|ending|last|endet|enden|letzten?|hinten)(?![\p{L}])/iu;

/**
 * "Oak Hill Middle not High", "Grundschule Nord, nicht Realschule", "the last digits are 0123 not 0132": a part of the
 * earlier answer said after "not"/"nicht", and what replaces it before. The new value is the words before "not" when
 * they hold the rest of the answer, else the answer with that part replaced; asked again when the part is found but
 * the replacement is not, or the answer is pii (its value unseen) and digits are swapped. Undefined when the sentence
 * names no part of the answer.
 */
export function notEdit(sentence: string, q: Earlier, ctx: ParseContext, pack: LanguagePack): { value: unknown; from: number; to: number } | { reopen: true } | undefined {
  const toks = [...sentence.matchAll(EDIT_TOKEN)].map((m) => ({ t: m[0], at: m.index, end: m.index + m[0].length, f: fold(m[0]).text }));
  const gap = (i: number) => sentence.slice(toks[i]!.end, toks[i + 1]!.at);
  for (let k = 1; k < toks.length - 1; k++) {
    if (!NOT_WORDS.has(toks[k]!.f) || /[,;:—–]/.test(gap(k))) continue;
    // the words before "not", back to the clause's start (a comma right before "not" is allowed), less the lead-in
    let s0 = k - 1;
    while (s0 > 0 && !/[,;:—–(]|\s[-–]\s/.test(gap(s0 - 1))) s0--;
    let p0 = s0;
    pack.corrections.lastIndex = 0;
    while (p0 < k && (EDIT_LEAD.has(toks[p0]!.f) || new RegExp(`^(?:${pack.corrections.source})$`, 'iu').test(toks[p0]!.t))) p0++;
    // "the school is Westfield Middle, not high", "my insurer is Humana now, not Aetna", "Budget sind 35.000 nicht 30":
    // the question's own name and a copula after it open no part of the new value
    for (let c = s0; c < k - 1; c++) {
      const head = toks.slice(s0, c);
      if (!COPULA_WORDS.has(toks[c]!.f.replace(/^\p{L}+(?=['’]s$)/u, '').replace('’', "'")) && !/['’]s$/u.test(toks[c]!.t)) continue;
      const named = [...head, ...(/['’]s$/u.test(toks[c]!.t) ? [{ ...toks[c]!, t: toks[c]!.t.replace(/['’]s$/u, '') }] : [])];
      // the subject: one or two words, naming the question or after a determiner ("my insurer is", "the school is")
      const subject = named.filter((t) => !HEAD_WORDS.has(t.f) && !EDIT_LEAD.has(t.f));
      const determined = named.some((t) => DETERMINERS.has(t.f));
      if (subject.length >= 1 && subject.length <= 2 && (determined || subject.some((t) => namesQuestion(t.t, q, pack)))) {
        p0 = Math.max(p0, c + 1);
        break;
      }
    }
    // "web.de natürlich, nicht .dr": words closing the new part that are no part of it
    let p1 = k;
    while (p1 > p0 + 1 && EDIT_CLOSE.has(toks[p1 - 1]!.f)) p1--;
    const before = toks.slice(p0, p1);
    const y = toks[k + 1]!;
    const finish = (yEnd: number) => {
      const tail = sentence.slice(yEnd);
      const to = EDIT_TAIL.test(tail) || tail.trim() === '' ? sentence.length : (/[,;:—–]/.exec(tail) ? yEnd : yEnd);
      return { from: before.length > 0 ? toks[s0]!.at : toks[s0]!.at, to };
    };
    // a typed answer said both ways: "june 5th not may 6", "8 not 7" — the part after "not" must read as the answer given
    if (!q.pii && q.value !== undefined && !['text', 'phone', 'email', 'url'].includes(q.answer.type)) {
      if (before.length === 0) continue;
      const end = Math.min(y.at + (/[,;:—–]/.exec(sentence.slice(y.at))?.index ?? sentence.length - y.at), sentence.length);
      const said = sentence.slice(before[0]!.at, before.at(-1)!.end);
      let now = readValue(q, said, said, ctx, true)?.value;
      let was = readValue(q, sentence.slice(y.at, end), sentence.slice(y.at, end), ctx, true)?.value;
      // "35.000 nicht 30", "30 not 25" for 25,000: a figure said short stands for thousands, as the answer given did
      if (typeof was === 'number' && typeof q.value === 'number' && q.value >= 1000 && was * 1000 === q.value) {
        was = q.value;
        if (typeof now === 'number' && now < 1000) now = now * 1000;
      }
      if (now !== undefined && was !== undefined && JSON.stringify(was) === JSON.stringify(q.value) && JSON.stringify(now) !== JSON.stringify(q.value)) {
        return { value: now, ...finish(end) };
      }
      // a part of a date said both ways: "born in 87 not 88", "the 13th not the 3rd"
      // ("not the 3rd": the article is no part)
      const yPart = /^(?:the|der|die|das|den|dem|le|la|el)$/iu.test(y.t) && toks[k + 2] ? toks[k + 2]! : y;
      const part = q.answer.type === 'date' && typeof q.value === 'string' ? datePart(q.value, before.at(-1)!.t, yPart.t) : undefined;
      if (part !== undefined) {
        const read = parseAnswer(q.answer, part, ctx);
        if (read.ok && read.value === part) return { value: part, ...finish(yPart.end) };
      }
      continue;
    }
    if (typeof q.value !== 'string' || q.pii) {
      // digits swapped in an answer not seen here (pii): ask it again
      if (q.pii && q.answer.type === 'phone' && /^\d{2,}$/.test(y.t) && before.length > 0 && /^\d{2,}$/.test(before.at(-1)!.t)) return { reopen: true };
      continue;
    }
    const old = q.value;
    if (q.answer.type === 'text') {
      // the answer's words, a compound's parts apart ("Lessing-Gymnasium": Lessing, Gymnasium)
      const oldAt = [...old.matchAll(WORD_TOKEN)];
      const oldToks = oldAt.map((m) => ({ t: m[0], f: fold(m[0]).text }));
      // "nicht das Gymnasium", "not the high school": the article is no part
      const r0 = ARTICLE.test(toks[k + 1]!.t) && toks[k + 2] !== undefined ? k + 2 : k + 1;
      // the longest run after "not" that is a run of the answer's words
      for (let len = Math.min(4, toks.length - r0); len >= 1; len--) {
        const run = toks.slice(r0, r0 + len);
        if (run.some((r, j) => j > 0 && /[^\s]/.test(sentence.slice(run[j - 1]!.end, r.at)))) continue;
        // (a single digit counts against a number before "not": "court 3 not 2")
        if (run.every((r) => r.f.length < 2) && !(len === 1 && /^\d$/.test(run[0]!.f) && /^\d+$/.test(before.at(-1)?.f ?? ''))) continue;
        // the part is the whole rest of its clause ("not high.", "nicht Realschule, sorry"): "not club lights" names no part
        const after = sentence.slice(run.at(-1)!.end);
        if (!(after.trim() === '' || /^\s*[,;:.!?—–)]/.test(after) || EDIT_TAIL.test(after))) continue;
        const parts = run.flatMap((r) => r.f.split(/[-\s]+/).filter((x) => x !== ''));
        const i = oldToks.findIndex((_, j) => parts.every((r, n) => oldToks[j + n]?.f === r));
        if (i < 0) continue;
        const spot = finish(run.at(-1)!.end);
        if (before.length === 0) return { reopen: true };
        const others = oldToks.filter((_, j) => j < i || j >= i + parts.length).map((o) => o.f);
        const said = before.flatMap((b) => b.f.split(/[-\s]+/));
        if (others.length > 0 && others.every((o) => said.includes(o)) && said.some((w) => w !== '' && !oldToks.some((o) => o.f === w))) {
          return { value: sentence.slice(before[0]!.at, before.at(-1)!.end), ...spot };
        }
        // a long clause before "not" is a sentence of its own, not the replacement ("the lights flicker, not the club's")
        if (before.length > len + 2) continue;
        // what the two sides share is no part of the edit: "Middle school, not high school", "St Mark's not St Mary's",
        // "Realschule Nord, nicht Gymnasium" (for "Gymnasium Nord Schule")
        let put = [...before];
        let from = i;
        let to = i + parts.length;
        while (put.length > 1 && to - from > 1 && put.at(-1)!.f === oldToks[to - 1]!.f) { put.pop(); to--; }
        while (put.length > 1 && to - from > 1 && put[0]!.f === oldToks[from]!.f) { put.shift(); from++; }
        for (let j = to; put.length > 1 && j < oldToks.length && put.at(-1)!.f === oldToks[j]!.f; j++) put.pop();
        for (let j = from - 1; put.length > 1 && j >= 0 && put[0]!.f === oldToks[j]!.f; j--) put.shift();
        put = put.slice(-Math.max(to - from, 1) - 1);
        // "started friday not monday", "in May not March", "court 3 not 2": a day, a month or a figure put for one is that word alone
        if (to - from === 1 && put.length > 1 && sameKind(put.at(-1)!.t, oldToks[from]!.t, ctx, pack)) put = put.slice(-1);
        if (put.some((b) => oldToks.some((o) => o.f === b.f))) return { reopen: true };
        // replaced in the answer as written, its punctuation kept ("Tennis court 2, two fixtures …" → "Tennis court 3, two fixtures …")
        const value = old.slice(0, oldAt[from]!.index) + put.map((b) => b.t).join(' ') + old.slice(oldAt[to - 1]!.index + oldAt[to - 1]![0].length);
        return { value, ...spot };
      }
      continue;
    }
    // a typed answer kept as a string (a phone, an email, a web address): the part replaced where it occurs once
    if (!['phone', 'email', 'url'].includes(q.answer.type) || y.f.length < 2) continue;
    const afterY = sentence.slice(y.end);
    if (!(afterY.trim() === '' || /^\s*[,;:.!?—–)]/.test(afterY) || EDIT_TAIL.test(afterY))) continue;
    const hay = fold(old).text;
    const found = [...hay.matchAll(new RegExp(y.f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g'))].map((m) => m.index);
    if (found.length === 0) continue;
    const x = before.at(-1);
    if (x === undefined || (/^\d+$/.test(y.t) && !/^\d+$/.test(x.t))) return { reopen: true };
    // "ist j.mueller@tsv-neuhausen.com, nicht .de": the whole new value said before "not" is the value
    const whole = parseAnswer(q.answer, x.t, ctx);
    if (whole.ok && (q.answer.type !== 'phone' || /\d{6}/.test(x.t.replace(/\D/g, '')))) return whole.value === old ? { reopen: true } : { value: whole.value, ...finish(y.end) };
    const where = found.length === 1 ? found[0]! : AT_END.test(sentence) && hay.endsWith(y.f) ? hay.length - y.f.length : -1;
    if (where < 0) return { reopen: true };
    const read = parseAnswer(q.answer, old.slice(0, where) + x.t + old.slice(where + y.t.length), ctx);
    if (!read.ok || read.value === old) return { reopen: true };
    return { value: read.value, ...finish(y.end) };
  }
  return undefined;
}

/** Whether two words are a day of the week, a month or a figure alike ("friday" and "monday", "May" and "March", "3" and "2"). */
function sameKind(a: string, b: string, ctx: ParseContext, pack: LanguagePack): boolean {
  if (/^\d+$/.test(a) && /^\d+$/.test(b)) return true;
  if (monthNamed(a, pack) !== null && monthNamed(b, pack) !== null) return true;
  const day = (w: string) => /^\p{L}{4,}$/u.test(w) && monthNamed(w, pack) === null && parseAnswer({ type: 'date' }, w, ctx).ok;
  return day(a) && day(b);
}

/**
 * An ISO date with its year or day replaced, when `was` is that part of it as written ("88" or "1988" for 1988; "3" or
 * "3rd" for the 3rd) and `now` is the same kind of part ("87" keeps the century: 1987); undefined when neither.
 */
function datePart(iso: string, now: string, was: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return undefined;
  const [, year, month, day] = m as unknown as [string, string, string, string];
  if ((/^\d{4}$/.test(was) && was === year) || (/^\d{2}$/.test(was) && was === year.slice(2))) {
    if (/^\d{4}$/.test(now)) return `${now}-${month}-${day}`;
    if (/^\d{2}$/.test(now)) return `${year.slice(0, 2)}${now}-${month}-${day}`;
    return undefined;
  }
  const dayOf = (t: string) => /^(\d{1,2})(?:st|nd|rd|th|\.)?$/iu.exec(t)?.[1];
  const w = dayOf(was);
  const n = dayOf(now);
  if (w !== undefined && n !== undefined && Number(w) === Number(day) && Number(n) >= 1 && Number(n) <= 31) return `${year}-${month}-${n.padStart(2, '0')}`;
  return undefined;
}
