import { normalOptions, type AnswerSpec } from '../flow/answer-types.ts';
import type { CompiledFlow, CompiledNode } from '../flow/compiled-flow.ts';
import { emit, type Draft } from './draft.ts';
import { progressAt } from './progress.ts';
import type { Frame } from './session.ts';
import { renderTemplate } from './template.ts';
import { baseLanguage, fillMessage, type Messages } from '../flow/messages/catalogue.ts';
import { localNumber } from '../language/local-number.ts';
import { EN } from '../language/en/messages.ts';

// The `review` node: before a flow submits, the visitor sees what was
// collected, in plain words, and confirms it or names one answer to change.
// A change asks that question again; once it is answered the conversation
// follows its edges as usual — answered questions are skipped — so it comes
// back to the review, and a changed answer that changes the route is honoured.

type ReviewNode = Extract<CompiledNode['node'], { type: 'review' }>;

/** One reviewed answer: its key, the label people see, and the value as words. */
export interface ReviewLine { key: string; label: string; text: string }

/**
 * A committed value in plain words: option labels, Yes/No, "15 January 2026",
 * lists joined; in the catalogue's words and the session locale's digits
 * ("40.000 USD", "7,5 m" in German; English keeps the plain "40000"), never
 * the host's locale, so output is stable.
 */
export function formatAnswer(spec: AnswerSpec | undefined, value: unknown, t: Messages = EN, locale = 'en'): string {
  if (value === null || value === undefined) return t.skipped;
  if (Array.isArray(value)) return value.map((v) => formatAnswer(spec, v, t, locale)).join(', ');
  if (spec?.type === 'enum') return normalOptions(spec).find((o) => o.value === value)?.label ?? String(value);
  if (typeof value === 'boolean') return value ? t.yes : t.no;
  if (spec?.type === 'date' && typeof value === 'string') {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    if (m) return fillMessage(t.date, { day: Number(m[3]), month: t.months[Number(m[2]) - 1]!, year: m[1]! });
  }
  if (typeof value === 'number') {
    const n = baseLanguage(locale) === 'en' ? String(value) : localNumber(locale, value);
    if (spec?.type !== 'number' && spec?.type !== 'integer') return n;
    // money and units after the number; English reviews have always shown a money answer bare
    const after = spec.unit ?? (baseLanguage(locale) === 'en' ? undefined : spec.currency);
    return after ? `${n} ${after}` : n;
  }
  return String(value);
}

/** A question's name for people: its label, else its key in words. */
const labelOf = (c: CompiledNode): string => (c.node.type === 'question' ? c.node.label ?? c.node.key.replace(/[_.-]+/g, ' ') : c.node.id);

/** The answers a review shows: its `keys`, else every answered question in flow order (assessment feedback and `internal` questions left out). */
export function reviewLines(d: Draft, n: ReviewNode): ReviewLine[] {
  const keys = n.keys ?? [...d.idx.questionByKey.keys()].filter((k) => !d.idx.feedbackKeys.has(k));
  return keys.flatMap((key) => {
    const c = d.idx.questionByKey.get(key);
    const rec = d.s.answers.get(key);
    if (!c || c.node.type !== 'question' || !rec || c.node.internal === true) return [];
    return [{ key, label: labelOf(c), text: formatAnswer(c.node.answer, rec.value, d.flow.messages, d.flow.locale) }];
  });
}

/** Shows the review: the answers one per line, then the question; the session waits at the review node. `which` offers one chip per answer. */
export function askReview(d: Draft, c: CompiledNode, problem?: string, which = false): void {
  if (c.node.type !== 'review') return;
  const n = c.node;
  d.s.node = n.id;
  d.s.returning = undefined;
  d.s.attempts = problem === undefined ? 0 : d.s.attempts;
  const lines = reviewLines(d, n);
  const render = (t: string) => renderTemplate(t, d.s.answers, d.s.context).trim();
  const m = d.flow.messages;
  // the summary once per change: a reply that settled nothing gets the question again, not every answer again
  const text = problem !== undefined
    ? [problem, ...(which ? [] : [render(n.confirm_prompt ?? m.review_confirm)])].join('\n')
    : [render(n.prompt ?? m.review_prompt), ...lines.map((l) => `• ${l.label}: ${l.text}`), render(n.confirm_prompt ?? m.review_confirm)].join('\n');
  // "Change something" is a wish, not a mistake: the question which one is a plain question
  d.effects.push({ type: 'ask', nodeId: n.id, text, kind: problem !== undefined && !which ? 'invalid' : 'question',
    // two choices, or, once the visitor wants a change, one per answer
    quickReplies: which ? lines.map((l) => fillMessage(m.review_change_one, { label: l.label.toLowerCase() })) : [m.review_confirm_chip, m.review_change_chip], progress: progressAt(d.flow, d.s.answers, n.id) });
}

const patterns = new WeakMap<Messages, { yes: RegExp; change: RegExp }>();

/** The catalogue's confirm and change words as regular expressions, built once per catalogue. */
function replyPatterns(m: Messages): { yes: RegExp; change: RegExp } {
  let p = patterns.get(m);
  if (!p) {
    p = { yes: new RegExp(`^(${m.review_yes})(?![\\p{L}\\p{N}_])`, 'u'), change: new RegExp(`(?<![\\p{L}\\p{N}_])(${m.review_change})(?![\\p{L}\\p{N}_])`, 'u') };
    patterns.set(m, p);
  }
  return p;
}

/** Whether the word before `index` negates what follows ("not sure", "not correct", "nicht richtig"). */
function negated(said: string, index: number): boolean {
  const before = said.slice(0, index).trim().split(' ').at(-1) ?? '';
  return /^(not|no|never|isnt|isn't|nicht|kein|pas|non|no es)$/u.test(before);
}

/** Whether a reply at a review asks to change something: a change word ("wrong", "no", "edit"), unless it is a confirming word ending the reply ("all correct"). */
export function wantsChange(m: Messages, said: string): boolean {
  const { change } = replyPatterns(m);
  const whole = new RegExp(`^(${m.review_yes})$`, 'u');
  const global = new RegExp(change.source, 'gu');
  // "thats all correct": a confirming word at the end is a confirmation; "I need to correct something" and "not correct" are not
  for (const hit of said.matchAll(global)) {
    if (!whole.test(hit[0]) || hit.index + hit[0].length < said.length || negated(said, hit.index)) return true;
  }
  return false;
}

/**
 * Whether a reply at a review confirms: it starts with a confirming word, or
 * has a confirming phrase of several words anywhere ("looks good to me"), or
 * ends with a confirming word ("thats all correct") — never one negated ("not sure").
 */
export function confirms(m: Messages, said: string): boolean {
  const { yes } = replyPatterns(m);
  if (yes.test(said)) return true;
  const anywhere = new RegExp(`(?<![\\p{L}\\p{N}_])(${m.review_yes})(?![\\p{L}\\p{N}_])`, 'gu');
  for (const hit of said.matchAll(anywhere)) {
    if (negated(said, hit.index)) continue;
    if (hit[0].includes(' ') || (hit.index + hit[0].length === said.length && hit[0].length >= 4)) return true;
  }
  return false;
}

/** A reply as the review reads it: lower case, punctuation dropped (but for email and number marks), spaces single. */
export const words = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}@.+ ]+/gu, ' ').replace(/\s+/g, ' ').trim();

/** The reviewed answer a message names ("change the email", "my phone number is wrong"): the longest label or key it contains. */
export function namedLine(lines: readonly ReviewLine[], text: string): ReviewLine | undefined {
  const said = ` ${words(text)} `;
  let best: { line: ReviewLine; len: number } | undefined;
  for (const line of lines) {
    for (const name of [line.label, line.key.replace(/[_.-]+/g, ' ')]) {
      const w = words(name);
      if (w && said.includes(` ${w} `) && (!best || w.length > best.len)) best = { line, len: w.length };
    }
  }
  return best?.line;
}

/**
 * The subgraph frames that lead from the top level to a node's scope, so a
 * change can jump into a subgraph and come back out along its exit.
 */
function framesTo(flow: CompiledFlow, scope: string | null): Frame[] {
  if (scope === null) return [];
  const caller = [...flow.nodes.values()].find((c) => c.node.type === 'subgraph' && c.node.ref === scope);
  return caller ? [...framesTo(flow, caller.scope), { node: caller.node.id, ref: scope }] : [];
}

/**
 * A message at a review: a confirmation moves on along the review's edges
 * (returns the next node); a named answer is asked again (returns null); a
 * "change" without a name, or anything else, shows the review again with a
 * hint. Every decision is a `review` event (keys only: values may be pii).
 */
export function answerReview(
  d: Draft, c: CompiledNode, text: string, next: (id: string) => string | null, giveUp: (id: string, reason: string) => string | null,
): string | null {
  if (c.node.type !== 'review') return null;
  const lines = reviewLines(d, c.node);
  const said = words(text);
  const named = namedLine(lines, text);
  if (named) {
    const q = d.idx.questionByKey.get(named.key)!;
    emit(d, 'review', { decision: 'change', key: named.key });
    if (!d.s.reask?.includes(named.key)) d.s.reask = [...(d.s.reask ?? []), named.key];
    d.s.stack = framesTo(d.flow, q.scope);
    d.s.route = undefined;
    d.s.detour = undefined;
    d.s.returning = c.node.id;
    return q.node.id;
  }
  const which = wantsChange(d.flow.messages, said);
  if (!which && confirms(d.flow.messages, said)) {
    emit(d, 'review', { decision: 'confirmed', keys: lines.map((l) => l.key) });
    return next(c.node.id);
  }
  d.s.attempts += 1;
  emit(d, 'review', { decision: 'unclear', attempt: d.s.attempts });
  const max = c.node.max_attempts ?? 3;
  // bounded like every prompt: a review never confirmed goes on along `on: "invalid"`, else to a person
  if (d.s.attempts >= max) return giveUp(c.node.id, `the review was not confirmed after ${max} replies`);
  const m = d.flow.messages;
  askReview(d, c, which
    ? fillMessage(m.review_which, { label: lines[0]?.label.toLowerCase() ?? m.review_first_one })
    : m.not_caught, which);
  return null;
}
