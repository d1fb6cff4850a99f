import type { CompiledFlow, CompiledNode } from '../flow/compiled-flow.ts';
import { fillMessage } from '../flow/messages/catalogue.ts';
import { canonicalJson } from '../shared/canonical-json.ts';
import { packOf } from '../language/registry.ts';
import { checkValue, commit } from './answers.ts';
import { emit, isPii, type Draft } from './draft.ts';
import type { Proposal, ProposedUpdate } from './input.ts';
import { confirms, formatAnswer, namedLine, reviewLines, wantsChange, words, type ReviewLine } from './review.ts';
import type { Frame } from './session.ts';

// A correction typed at a review ("the poles are 8 metres not 6", "actually
// my email is ann@club.example", "the budget is 30k"): the runner reads the
// reply against each reviewed question (offline rules, no model call), and
// the engine picks the one answer it corrects — the question the reply names
// (its label, else words of its prompt), a value read without doubt — applies
// it, says so, and goes on from that question along the edges, so only what
// depends on it is asked again (a route its guards now take, an answer its new
// value makes invalid); the summary follows once, on the way back.

/** Words too common to name a question. */
const STOP = new Set(['about', 'actually', 'also', 'does', 'from', 'have', 'into', 'just', 'like', 'make', 'many', 'much', 'need', 'please',
  'rather', 'rough', 'roughly', 'should', 'skip', 'some', 'sorry', 'than', 'that', 'then', 'there', 'they', 'this', 'want', 'what', 'when',
  'will', 'with', 'would', 'your', 'ihre', 'eine', 'einen', 'oder', 'nicht', 'sind', 'wird', 'haben', 'bitte']);

/** The words of a text that can name a question: 4 letters or more, not common, a plural's `s` dropped. */
function stems(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (w.length < 4 || STOP.has(w) || /^\d/.test(w)) continue;
    out.add(w.endsWith('s') && w.length > 4 ? w.slice(0, -1) : w);
  }
  return out;
}

const overlaps = (a: Set<string>, b: Set<string>): boolean => [...a].some((w) => b.has(w));

/** Whether a reply names a question: its label or key, or words of its prompt. */
function named(c: CompiledNode, line: ReviewLine, said: Set<string>): boolean {
  if (c.node.type !== 'question') return false;
  const prompt = typeof c.node.prompt === 'string' ? c.node.prompt : c.node.prompt?.[0] ?? '';
  return overlaps(stems(`${line.label} ${c.node.key.replace(/[_.-]+/g, ' ')} ${prompt}`), said);
}

/** How surely a proposed value corrects its question: named by its label (2), by its prompt (1), read without doubt (1). */
function score(c: CompiledNode, line: ReviewLine, said: Set<string>, u: ProposedUpdate): number {
  if (c.node.type !== 'question') return 0;
  const prompt = typeof c.node.prompt === 'string' ? c.node.prompt : c.node.prompt?.[0] ?? '';
  return (overlaps(stems(`${line.label} ${c.node.key.replace(/[_.-]+/g, ' ')}`), said) ? 2 : 0)
    + (overlaps(stems(prompt), said) ? 1 : 0) + (u.confirm ? 0 : 1);
}

/** The subgraph frames that lead from the top level to a node's scope. */
function framesTo(flow: CompiledFlow, scope: string | null): Frame[] {
  if (scope === null) return [];
  const caller = [...flow.nodes.values()].find((c) => c.node.type === 'subgraph' && c.node.ref === scope);
  return caller ? [...framesTo(flow, caller.scope), { node: caller.node.id, ref: scope }] : [];
}

/**
 * A correction at the review `c`, if the reply holds one: the answer is
 * replaced and said back, other answers the new value makes invalid are
 * marked to be asked again, and the session leaves the review for the
 * corrected question's place (returning to the review). Returns that
 * question's node, to go on from along its edges; undefined when the reply
 * corrects nothing (or it is unclear which answer it corrects).
 */
export function correctAtReview(d: Draft, c: CompiledNode, text: string, proposal: Proposal): CompiledNode | undefined {
  if (c.node.type !== 'review' || proposal.updates.length === 0) return undefined;
  // "yes, that's right" confirms: it is not a yes to a yes/no question on the list
  const reply = words(text);
  if (!wantsChange(d.flow.messages, reply) && confirms(d.flow.messages, reply)) return undefined;
  const all = reviewLines(d, c.node);
  // a reply that names an answer by its label ("change the mounting height", "my email is …") can correct only that one
  const only = namedLine(all, text);
  const lines = new Map((only ? [only] : all).map((l) => [l.key, l]));
  const said = stems(text);
  let best: { q: CompiledNode; line: ReviewLine; update: ProposedUpdate; value: unknown; score: number } | undefined;
  let tie = false;
  for (const u of proposal.updates) {
    const line = lines.get(u.key);
    const q = d.idx.questionByKey.get(u.key);
    if (!line || !q) continue;
    const checked = checkValue(d, q, u.value);
    if (!checked.ok || canonicalJson(checked.value) === canonicalJson(d.s.answers.get(u.key)?.value ?? null)) continue;
    const s = score(q, line, said, u);
    // a value no word of the reply ties to its question is taken only when the reply says little else: "the mobile
    // ends in 0192 not 0129" corrects no area size
    if (!named(q, line, said) && [...said].some((w) => !stems(u.evidence ?? '').has(w))) continue;
    // a yes or a no corrects a yes/no answer only when the reply names its question
    if (q.node.type === 'question' && q.node.answer?.type === 'boolean' && !named(q, line, said)) continue;
    if (best && s === best.score) tie = true;
    if (!best || s > best.score) {
      best = { q, line, update: u, value: checked.value, score: s };
      tie = false;
    }
  }
  if (!best || tie) return undefined;
  const { q, line, update, value } = best;
  if (q.node.type !== 'question') return undefined;
  const pii = isPii(d, line.key);
  commit(d, line.key, { value, turn: d.s.turn, source: 'user', extractor: proposal.extractor, validation: 'passed',
    ...(update.confidence !== undefined ? { confidence: update.confidence } : {}), ...(update.conversion ? { conversion: update.conversion } : {}),
    ...(pii ? {} : { text: text.trim().slice(0, 500) }) });
  emit(d, 'review', { decision: 'corrected', key: line.key });
  d.effects.push({ type: 'say', nodeId: c.node.id, kind: 'info', text: fillMessage(d.flow.messages.corrected, {
    // a language that capitalises nouns (German) names the question as written; the others in lower case mid-sentence
    label: packOf(d.flow.locale).capitalNouns ? line.label : line.label.toLowerCase(), value: formatAnswer(q.node.answer, value, d.flow.messages, d.flow.locale) }) });
  // an answer the new value makes invalid (a rule across answers) is asked again on the way back
  for (const [key, rec] of d.s.answers) {
    if (key === line.key || rec.value === null || rec.value === undefined) continue;
    const other = d.idx.questionByKey.get(key);
    if (other && !checkValue(d, other, rec.value).ok && !d.s.reask?.includes(key)) d.s.reask = [...(d.s.reask ?? []), key];
  }
  d.s.stack = framesTo(d.flow, q.scope);
  d.s.node = q.node.id;
  d.s.route = undefined;
  d.s.detour = undefined;
  d.s.returning = c.node.id;
  return q;
}
