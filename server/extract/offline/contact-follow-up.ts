/* A reply at a phone or email question the bot asked back about, read together with the reply before it. */
import type { OpenQuestion } from '../extractor.ts';
import { findEmails, findPhones, parseAnswer, type FoundEmail, type FoundPhone, type ParseContext } from '../parse/index.ts';
import { ok, type ParseResult } from '../parse/parse-result.ts';
import { phoneInCountryNamed } from '../parse/phone.ts';
import { say } from '../../language/parser-messages.ts';
import type { LanguagePack } from '../../language/pack.ts';
import type { Earlier } from './late-earlier.ts';
import { notEdit } from './late-not-edit.ts';
import { phoneEnding } from './late-phone-parts.ts';
import { wordEdit } from './late-word-edit.ts';

/**
 * The contact the visitor's last two replies give together at a phone or email question whose first reply the bot asked
 * back about: a country named for the number ("ja, Zürich, Schweiz"); one of two numbers or addresses picked by a word
 * its reply put beside it or by its place ("cell", "die geschäftliche", "use the yahoo", "the first one"); the area code
 * of a number given without it ("area code 312", "Vorwahl 0351"); an edit of the digits ("da fehlt eine 8 am Ende", "die
 * letzte Ziffer ist eine 9, nicht 8"); the end of an address typed without it (".ch natürlich", "gmail.com"). Never
 * exact (the commit rule judges the words around it); null when the reply holds a contact of its own or says none of these.
 */
export function contactFollowUp(cur: OpenQuestion, text: string, before: string, ctx: ParseContext, pack: LanguagePack): ParseResult | null {
  if (cur.answer.type === 'phone') return phoneFollowUp(cur, text, before, ctx, pack);
  if (cur.answer.type === 'email') return emailFollowUp(text, before, ctx, pack);
  return null;
}

function phoneFollowUp(cur: OpenQuestion, text: string, before: string, ctx: ParseContext, pack: LanguagePack): ParseResult | null {
  const named = phoneInCountryNamed(text, before, ctx);
  if (named !== null || findPhones(text, ctx).length > 0 || findEmails(text).length > 0) return named;
  const said = text.trim();
  const several = findPhones(before, ctx);
  if (several.length >= 2) {
    const i = pickOne(text, before, several, [], pack, ctx);
    return i === null ? null : ok(several[i]!.value, said, false);
  }
  if (several.length === 1) return null;
  // the number typed the turn before, as its digits (it was no valid number, or the bot would not have asked back)
  const typed = [...before.matchAll(/\+?\d[\d\s().\/-]*\d/gu)].map((m) => m[0]).filter((m) => m.replace(/\D/g, '').length >= 4);
  if (typed.length !== 1) return null;
  const digits = typed[0]!.replace(/[^\d+]/g, '');
  // "da fehlt eine 8 am Ende", "the last digit is a 9, not 8", "it ends 0148": the digits as the late-correction rules edit them
  const earlier: Earlier = { ...cur, value: digits };
  const edit = notEdit(text, earlier, ctx, pack) ?? phoneEnding(text, earlier, ctx) ?? wordEdit(text, earlier, ctx, pack, true);
  if (edit !== undefined && 'value' in edit) {
    const read = parseAnswer(cur.answer, String(edit.value), ctx);
    return read.ok ? ok(read.value, said, false) : null;
  }
  // "area code 312", "sorry, 312", "Vorwahl ist 089": the one short run of digits said goes in front of the number
  const runs = [...text.matchAll(/\d+/gu)].map((m) => m[0]);
  if (runs.length !== 1 || runs[0]!.length < 2 || runs[0]!.length > 5 || digits.startsWith('+')) return null;
  const whole = findPhones(`${runs[0]} ${digits}`, ctx);
  return whole.length === 1 ? ok(whole[0]!.value, said, false) : null;
}

function emailFollowUp(text: string, before: string, ctx: ParseContext, pack: LanguagePack): ParseResult | null {
  if (findEmails(text).length > 0) return null;
  const said = text.trim();
  const several = findEmails(before);
  if (several.length >= 2) {
    // an address's own words name it too: "use the yahoo", "the gmail one"
    const own = several.map((e) => e.value.split(/[^\p{L}]+/u));
    const i = pickOne(text, before, several, own, pack, ctx);
    return i === null ? null : ok(several[i]!.value, said, false);
  }
  if (several.length === 1) return null;
  // "b.zuercher@bluewin" then ".ch natürlich"; "sepp.huber@gmx,at" then "ja, .at mit Punkt"; "dreynolds@gmail" then "gmail.com"
  const partial = [...before.matchAll(/[\p{L}\p{N}._%+'-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*/gu)].map((m) => m[0].toLowerCase());
  if (partial.length !== 1) return null;
  const address = partial[0]!;
  const domain = address.slice(address.indexOf('@') + 1);
  // a domain or its end as typed (".ch", ".co.uk", "gmail.com"), a full stop closing the sentence aside
  const ends = [...text.toLowerCase().replace(/[.!?]+(?=\s|$)/gu, ' ').matchAll(/(?<![\p{L}\p{N}@.-])[\p{L}\p{N}-]*(?:\.[\p{L}\p{N}-]+)+(?![\p{L}\p{N}.-])/gu)]
    .map((m) => m[0]).filter((m) => /\.\p{L}{2,}$/u.test(m));
  if (ends.length !== 1) return null;
  const end = ends[0]!;
  const whole = end.startsWith('.') ? address + end : end.startsWith(`${domain}.`) ? `${address.slice(0, address.indexOf('@') + 1)}${end}` : null;
  if (whole === null) return null;
  const found = findEmails(whole);
  return found.length === 1 && found[0]!.value === whole ? ok(whole, said, false) : null;
}

/**
 * Which of several contacts found in the reply before a reply picks: by its place ("the first one", "die zweite", "the
 * last") or by a word of four letters or more that stands beside exactly one of them there ("office 317-555-0110 or cell
 * 317-555-0188" → "the cell"), a word of its own too (an address's provider). The words before a contact and after the
 * last one are its own; between two, the words before "or" (the pack's) or a comma go with the first, the rest with the
 * second, and without such a break with both (they tell neither). Null when nothing or more than one contact is picked.
 */
function pickOne(text: string, before: string, found: readonly (FoundPhone | FoundEmail)[], own: readonly string[][], pack: LanguagePack, ctx: ParseContext): number | null {
  const stem = pack.options.meaning?.stem ?? ((w: string) => w);
  const words = (s: string) => (s.toLowerCase().match(/\p{L}{4,}/gu) ?? []).map(stem);
  const labels: Set<string>[] = found.map((_, i) => new Set((own[i] ?? []).filter((w) => w.length >= 4).map((w) => stem(w.toLowerCase()))));
  const add = (i: number, s: string) => words(s).forEach((w) => labels[i]!.add(w));
  add(0, before.slice(0, found[0]!.start));
  add(found.length - 1, before.slice(found.at(-1)!.end));
  const or = say(pack, 'or').trim().toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (let i = 0; i + 1 < found.length; i++) {
    const between = before.slice(found[i]!.end, found[i + 1]!.start);
    const cut = new RegExp(`(?<![\\p{L}])${or}(?![\\p{L}])|[,;/]`, 'iu').exec(between);
    if (cut === null) {
      add(i, between);
      add(i + 1, between);
    } else {
      add(i, between.slice(0, cut.index));
      add(i + 1, between.slice(cut.index + cut[0].length));
    }
  }
  const picked = new Set<number>();
  for (const w of words(text)) {
    const hits = labels.flatMap((l, i) => (l.has(w) ? [i] : []));
    if (hits.length === 1) picked.add(hits[0]!);
  }
  // "the first one", "die zweite", "the last": a place among them (a cardinal, "one", says none)
  const positions = pack.options.meaning?.positions;
  for (const w of text.toLowerCase().match(/\p{L}+/gu) ?? []) {
    const n = positions?.ordinals[w];
    const cardinal = n !== undefined && parseAnswer({ type: 'integer' }, w, ctx).ok;
    if (n !== undefined && !cardinal && n <= found.length) picked.add(n - 1);
    if (positions?.last.includes(w)) picked.add(found.length - 1);
  }
  return picked.size === 1 ? [...picked][0]! : null;
}
