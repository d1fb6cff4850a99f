import { normalOptions, type AnswerSpec } from '../flow/answer-types.ts';
import type { CompiledFlow, CompiledNode } from '../flow/compiled-flow.ts';
import { emit, type Draft } from './draft.ts';
import { progressAt } from './progress.ts';
import type { Frame } from './session.ts';
import { renderTemplate } from './template.ts';

// The `review` node: before a flow submits, the visitor sees what was
// collected, in plain words, and confirms it or names one answer to change.
// A change asks that question again; once it is answered the conversation
// follows its edges as usual — answered questions are skipped — so it comes
// back to the review, and a changed answer that changes the route is honoured.

type ReviewNode = Extract<CompiledNode['node'], { type: 'review' }>;

/** One reviewed answer: its key, the label people see, and the value as words. */
export interface ReviewLine { key: string; label: string; text: string }

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** A committed value in plain words: option labels, Yes/No, "15 January 2026", lists joined; locale-free so output is stable. */
export function formatAnswer(spec: AnswerSpec | undefined, value: unknown): string {
  if (value === null || value === undefined) return 'skipped';
  if (Array.isArray(value)) return value.map((v) => formatAnswer(spec, v)).join(', ');
  if (spec?.type === 'enum') return normalOptions(spec).find((o) => o.value === value)?.label ?? String(value);
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (spec?.type === 'date' && typeof value === 'string') {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    if (m) return `${Number(m[3])} ${MONTHS[Number(m[2]) - 1]} ${m[1]}`;
  }
  if ((spec?.type === 'number' || spec?.type === 'integer') && spec.unit) return `${String(value)} ${spec.unit}`;
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
    return [{ key, label: labelOf(c), text: formatAnswer(c.node.answer, rec.value) }];
  });
}

const DEFAULT_PROMPT = 'Before I send this, please check what I have:';
const DEFAULT_CONFIRM = 'Is everything right? Say "yes" to send it, or tell me what to change (for example "change the email").';
const CONFIRM_REPLY = "Yes, that's right";
const CHANGE_REPLY = 'Change something';

/** Shows the review: the answers one per line, then the question; the session waits at the review node. `which` offers one chip per answer. */
export function askReview(d: Draft, c: CompiledNode, problem?: string, which = false): void {
  if (c.node.type !== 'review') return;
  const n = c.node;
  d.s.node = n.id;
  d.s.attempts = problem === undefined ? 0 : d.s.attempts;
  const lines = reviewLines(d, n);
  const render = (t: string) => renderTemplate(t, d.s.answers, d.s.context).trim();
  const text = [
    ...(problem ? [problem] : []),
    render(n.prompt ?? DEFAULT_PROMPT),
    ...lines.map((l) => `• ${l.label}: ${l.text}`),
    render(n.confirm_prompt ?? DEFAULT_CONFIRM),
  ].join('\n');
  d.effects.push({ type: 'ask', nodeId: n.id, text, kind: problem ? 'invalid' : 'question',
    // two choices, or, once the visitor wants a change, one per answer
    quickReplies: which ? lines.map((l) => `Change ${l.label.toLowerCase()}`) : [CONFIRM_REPLY, CHANGE_REPLY], progress: progressAt(d.flow, d.s.answers, n.id) });
}

const YES = /^(yes|yeah|yep|yup|y|ok|okay|sure|correct|confirm(ed)?|right|all good|looks good|that'?s right|that'?s correct|send( it)?|submit|perfect|fine|go ahead)\b/;
const CHANGE = /\b(change|edit|fix|correct|update|wrong|not right|incorrect|no)\b/;

const words = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}@.+ ]+/gu, ' ').replace(/\s+/g, ' ').trim();

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
export function answerReview(d: Draft, c: CompiledNode, text: string, next: (id: string) => string | null): string | null {
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
    return q.node.id;
  }
  if (YES.test(said) && !CHANGE.test(said)) {
    emit(d, 'review', { decision: 'confirmed', keys: lines.map((l) => l.key) });
    return next(c.node.id);
  }
  d.s.attempts += 1;
  emit(d, 'review', { decision: 'unclear' });
  const which = CHANGE.test(said);
  askReview(d, c, which
    ? `Which one would you like to change? Say its name, for example "change ${lines[0]?.label.toLowerCase() ?? 'the first one'}".`
    : "Sorry, I didn't catch that.", which);
  return null;
}
