import type { CompiledFlow, CompiledNode } from '../flow/compiled-flow.ts';
import { fillMessage } from '../language/fill-message.ts';
import { renderTemplate } from './template.ts';
import { formatAnswer } from './review.ts';
import { scopeFor, type Draft } from './draft.ts';
import type { Session } from './session.ts';

// Derived answers (flow-ir.md "Derived answers"): a question with `derive`
// takes its answer from other answers once they are given — the age from the
// date of birth at the session clock (`years_since(answers.date_of_birth)`) —
// and is then not asked. The value is committed with `source: 'derived'` when
// an answer it reads is committed (answers.ts `commit`), and taken back when
// that answer is. A value the visitor gives for it that disagrees with what
// its expression gives ("born March 2010 … she's 35") is a mismatch: neither
// value of the message is stored, and the question it is derived from is
// asked again after one line saying why. Pure: the clock is the session's.

/** A value given for a derived question that disagrees with the value derived from the answers. */
export interface Mismatch {
  /** The derived question. */
  node: CompiledNode;
  key: string;
  given: unknown;
  derived: unknown;
  /** The answer it is derived from that is given in this message or stored (the first its expression reads). */
  from: string;
  /** That answer's value (as given in this message, else stored). */
  fromValue: unknown;
}

const byFlow = new WeakMap<CompiledFlow, { all: CompiledNode[]; bySource: Map<string, CompiledNode[]> }>();

/** The flow's derived questions, and by each key their expressions read (computed once per flow). */
function derivedQuestions(flow: CompiledFlow): { all: CompiledNode[]; bySource: Map<string, CompiledNode[]> } {
  let v = byFlow.get(flow);
  if (!v) {
    const all = [...flow.nodes.values()].filter((c) => c.derive !== undefined && c.node.type === 'question');
    const bySource = new Map<string, CompiledNode[]>();
    for (const c of all) for (const k of c.derive!.reads) bySource.set(k, [...(bySource.get(k) ?? []), c]);
    byFlow.set(flow, (v = { all, bySource }));
  }
  return v;
}

/** Whether the flow has a derived question. */
export function hasDerived(d: Draft): boolean {
  return derivedQuestions(d.flow).all.length > 0;
}

/** The derived questions whose expression reads `key`. */
export function derivedFrom(d: Draft, key: string): readonly CompiledNode[] {
  return derivedQuestions(d.flow).bySource.get(key) ?? [];
}

/** The value a derived question's expression gives over `answers` (default: the session's), when its answer spec takes it; undefined otherwise. */
export function derivedValue(d: Draft, c: CompiledNode, answers?: Session['answers']): unknown {
  const g = c.derive;
  if (!g) return undefined;
  const v = g.evaluate(scopeFor(d, g, answers ? { answers } : {}));
  if (v === null || v === undefined) return undefined;
  const parsed = c.valueSchema ? c.valueSchema.safeParse(v) : { success: true as const, data: v };
  return parsed.success ? parsed.data : undefined;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The first derived question for which this message gives a value (or a value
 * it reads) such that the visitor's value — given now, or given before — and
 * the value derived from the answers as they would be after this turn
 * disagree; undefined when none does.
 */
export function derivedMismatch(d: Draft, decided: ReadonlyMap<string, unknown>): Mismatch | undefined {
  for (const c of derivedQuestions(d.flow).all) {
    if (c.node.type !== 'question') continue;
    const key = c.node.key;
    const reads = c.derive!.reads;
    if (!decided.has(key) && !reads.some((k) => decided.has(k))) continue;
    const stored = d.s.answers.get(key);
    const given = decided.has(key) ? decided.get(key) : stored?.source === 'derived' ? undefined : stored?.value;
    if (given === undefined || given === null) continue;
    let answers = d.s.answers;
    for (const k of reads) if (decided.has(k)) answers = answers.set(k, { value: decided.get(k), turn: d.s.turn, source: 'user', validation: 'passed' });
    const derived = derivedValue(d, c, answers);
    if (derived === undefined || same(derived, given)) continue;
    const from = reads.find((k) => decided.has(k)) ?? reads.find((k) => d.s.answers.has(k)) ?? reads[0]!;
    return { node: c, key, given, derived, from, fromValue: answers.get(from)?.value };
  }
  return undefined;
}

/** The line said before the question a mismatch is derived from is asked again. */
export function mismatchText(d: Draft, m: Mismatch): string {
  const q = m.node.node as Extract<CompiledNode['node'], { type: 'question' }>;
  const source = d.idx.questionByKey.get(m.from)?.node;
  const labelOf = (n: CompiledNode['node'] | undefined, key: string) => (n && 'label' in n && typeof n.label === 'string' ? n.label : key.replace(/[_.-]+/g, ' '));
  const value = source?.type === 'question' && m.fromValue !== undefined ? formatAnswer(source.answer, m.fromValue, d.flow.messages, d.flow.locale) : String(m.fromValue ?? '');
  const values = { derived: String(m.derived), given: String(m.given), label: labelOf(q, m.key), from: labelOf(source, m.from), value };
  return q.derive?.message !== undefined ? fillMessage(renderTemplate(String(q.derive.message), d.s.answers, d.s.context), values) : fillMessage(d.flow.messages.derive_mismatch, values);
}
