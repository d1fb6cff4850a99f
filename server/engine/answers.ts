import type { RE2JS } from 're2js';
import { lazyRequire } from '../shared/lazy-require.ts';
import { normalOptions } from '../flow/answer-types.ts';
import type { CompiledConstraint, CompiledNode } from '../flow/compiled-flow.ts';
import { fillMessage, type Messages } from '../flow/messages/catalogue.ts';
import { changed, emit, holds, isPii, noteChange, recordOf, type Draft } from './draft.ts';
import { carryRank, certainlyUnanswered } from './route-memo.ts';
import { acceptsWith } from './node-record.ts';
import type { AnswerRecord } from './session.ts';
import { derivedFrom, derivedValue, hasDerived } from './derive.ts';

/** re2js, loaded on the first pattern compiled, not by `import('questline')` (server/shared/lazy-require.ts). */
const re2 = lazyRequire<typeof import('re2js')>('re2js');

export type Check = { ok: true; value: unknown } | { ok: false; reason: string };

const patterns = new WeakMap<CompiledNode, RE2JS | null>();

/** The node's text pattern, compiled once with RE2 (linear time). */
function patternOf(c: CompiledNode): RE2JS | null {
  const spec = c.node.type === 'question' ? c.node.answer : undefined;
  if (spec?.type !== 'text' || spec.pattern === undefined) return null; // most questions: no lookup
  let re = patterns.get(c);
  if (re === undefined) patterns.set(c, (re = re2().RE2JS.compile(spec.pattern)));
  return re;
}

/** A plain-language reason for a value that does not fit the question's type, in the catalogue's words. */
function typeReason(c: CompiledNode, m: Messages): string {
  const spec = c.node.type === 'question' ? c.node.answer ?? { type: 'text' as const } : { type: 'text' as const };
  switch (spec.type) {
    case 'number':
    case 'integer': {
      const range = spec.min !== undefined && spec.max !== undefined ? fillMessage(m.range_between, { min: spec.min, max: spec.max })
        : spec.min !== undefined ? fillMessage(m.range_min, { min: spec.min }) : spec.max !== undefined ? fillMessage(m.range_max, { max: spec.max }) : '';
      const unit = spec.unit ? fillMessage(m.unit, { unit: spec.unit }) : '';
      return fillMessage(spec.type === 'integer' ? m.reask_integer : m.reask_number, { range, unit });
    }
    case 'enum': return fillMessage(spec.multiple ? m.reask_choose_from : m.reask_choose_one, { options: normalOptions(spec).map((o) => o.label).join(', ') });
    case 'boolean': return m.reask_boolean;
    case 'email': return m.reask_email;
    case 'phone': return m.reask_phone;
    case 'url': return m.reask_url;
    case 'date': return m.reask_date;
    case 'text': {
      if (spec.min !== undefined && spec.max !== undefined) return fillMessage(m.reask_text_between, { min: spec.min, max: spec.max });
      if (spec.min !== undefined) return fillMessage(m.reask_text_min, { min: spec.min });
      if (spec.max !== undefined) return fillMessage(m.reask_text_max, { max: spec.max });
      return m.reask_text;
    }
  }
}

/**
 * Whether a key may be answered now: a question of the flow, not answered yet
 * (unless it is the question being asked), and not switched off by its `when`.
 * `current` is the session's node, when the caller has it at hand.
 */
export function openQuestion(
  d: Draft, key: string, current: CompiledNode['node'] | undefined = d.flow.nodes.get(d.s.node ?? '')?.node,
): { ok: true; node: CompiledNode } | { ok: false; reason: string } {
  // the question at the session's node, when it is the first to ask its key, is the one the lookup would find
  const c = d.at !== undefined && d.at.key === key && d.at.asksFirst ? d.at.c : d.idx.questionByKey.get(key);
  if (!c || c.node.type !== 'question') return { ok: false, reason: `'${key}' is not a question of this flow` };
  const isCurrent = current?.type === 'question' && current.key === key;
  if (!isCurrent && d.s.answers.has(key) && !d.s.reask?.includes(key)) return { ok: false, reason: `'${key}' is already answered` };
  if (!isCurrent && c.when && !holds(d, c.when)) return { ok: false, reason: `'${key}' does not apply` };
  return { ok: true, node: c };
}

/**
 * Validates a proposed value for a question before anything is committed:
 * the type and constraints (zod), the RE2 pattern, then `validate` rules in
 * order. The value must already be normalised by the extractor.
 */
export function checkValue(d: Draft, c: CompiledNode, value: unknown): Check {
  const rec = recordOf(d, c);
  // the record answers "a question with a schema?" without reading the node (cold on a long flow)
  if (rec !== undefined ? !rec.facts.hasSchema : c.node.type !== 'question' || !c.valueSchema) return { ok: false, reason: 'not a question' };
  const given = typeof value === 'string' ? value.trim() : value;
  // a plain value that certainly passes the schema (node-record.ts) skips zod, which would return it unchanged
  let v: unknown = given;
  const f = rec?.facts;
  if (f === undefined || !acceptsWith(f.acceptKind, f.acceptMin, f.acceptMax, f.acceptValues, given)) {
    const typed = c.valueSchema!.safeParse(given);
    if (!typed.success) return { ok: false, reason: typeReason(c, d.flow.messages) };
    v = typed.data;
  }
  const re = f === undefined || f.hasPattern ? patternOf(c) : null;
  if (re && typeof v === 'string' && !re.matches(v)) return { ok: false, reason: d.flow.messages.reask_pattern };
  const validators = rec?.validators ?? c.validators;
  if (validators.length === 0) return { ok: true, value: v };
  // rules that read other answers see them as they would be with this value committed
  const needsAnswers = validators.some((r) => r.kind === 'named' || r.guard.reads.length > 0);
  const answers = needsAnswers ? d.s.answers.set(rec?.key ?? (c.node as { key: string }).key, { value: v, turn: d.s.turn, source: 'user', validation: 'passed' }) : d.s.answers;
  for (const rule of validators) {
    if (rule.kind === 'expr') {
      if (!holds(d, rule.guard, { value: v, answers })) return { ok: false, reason: rule.message ?? d.flow.messages.reask_rule };
    } else {
      const fn = d.opts.validators?.[rule.name];
      if (!fn) return { ok: false, reason: `validator '${rule.name}' is not registered` };
      const plain: Record<string, unknown> = {};
      for (const [k, r] of answers) plain[k] = r.value;
      const problem = fn(v, rule.args, plain);
      if (problem !== null) return { ok: false, reason: rule.message ?? problem };
    }
  }
  return { ok: true, value: v };
}

/** Truthy-by-`has` check used by constraints: missing, null, '' and [] are not answered. */
const present = (v: unknown) => !(v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0));

/**
 * Checks the flow's constraints against answers as they would be after this
 * turn. A constraint is judged once every key it names has been decided
 * (answered or skipped) and one of them is being decided now, so a oneOf over
 * email and phone fails only when the second of them is left blank.
 */
export function violatedConstraint(d: Draft, next: Map<string, unknown>): string | null {
  if (d.flow.constraints.length === 0 || next.size === 0) return null;
  for (const c of d.flow.constraints) {
    const keys = keysOf(c);
    if (keys.length === 0 || !keys.some((k) => next.has(k)) || !keys.every((k) => next.has(k) || d.s.answers.has(k))) continue;
    const ok = c.kind === 'oneOf'
      ? c.groups.some((group) => group.every((k) => present(after(d, next, k))))
      : c.guard.test({ answers: Object.fromEntries(keys.map((k) => [k, after(d, next, k) ?? null])), context: d.s.context, today: d.s.now.slice(0, 10) });
    const m = d.flow.messages;
    if (!ok) return c.message ?? (c.kind === 'oneOf' ? fillMessage(m.constraint_one_of, { groups: c.groups.map((g) => g.join(m.constraint_group_and)).join(m.constraint_group_or) }) : fillMessage(m.constraint_expr, { name: c.name }));
  }
  return null;
}

/** A key's value as it would be after this turn. */
function after(d: Draft, next: Map<string, unknown>, k: string): unknown {
  return next.has(k) ? next.get(k) : d.s.answers.get(k)?.value;
}

const constrained = new WeakMap<Draft['flow'], ReadonlySet<string>>();

/** Whether a constraint of the flow names `key` (violatedConstraint judges only constraints naming a key decided this turn). */
export function constrainedKey(d: Draft, key: string): boolean {
  let keys = constrained.get(d.flow);
  if (keys === undefined) constrained.set(d.flow, (keys = new Set(d.flow.constraints.flatMap((c) => keysOf(c)))));
  return keys.has(key);
}

const constraintKeys = new WeakMap<CompiledConstraint, readonly string[]>();

/** The keys a constraint names (a pure function of the compiled flow, so computed once). */
function keysOf(c: CompiledConstraint): readonly string[] {
  let keys = constraintKeys.get(c);
  if (!keys) {
    keys = c.kind === 'oneOf' ? c.groups.flat() : c.guard.reads;
    constraintKeys.set(c, keys);
  }
  return keys;
}

/** Removes a committed answer (a path switch with `carry: drop`), remembering it for `back`; answers derived from it go too. */
export function uncommit(d: Draft, key: string): void {
  if (!changed(d, key)) noteChange(d, key, d.s.answers.get(key));
  d.s.answers = d.s.answers.delete(key);
  if (hasDerived(d)) rederive(d, key);
}

/**
 * Brings the questions derived from `key` (flow-ir.md "Derived answers") up to date after it changed: the value
 * their expression gives is committed (`source: 'derived'`), replacing any earlier one; one derived before is taken
 * back when the expression gives nothing now. A mismatch with a value the visitor gives is asked about before
 * anything is committed (engine.ts), so the derived value wins here.
 */
function rederive(d: Draft, key: string): void {
  for (const c of derivedFrom(d, key)) {
    if (c.node.type !== 'question') continue;
    const k = c.node.key;
    const stored = d.s.answers.get(k);
    const value = derivedValue(d, c);
    if (value === undefined) {
      if (stored?.source === 'derived') uncommit(d, k);
    } else if (!stored || JSON.stringify(stored.value) !== JSON.stringify(value)) {
      commit(d, k, { value, turn: d.s.turn, source: 'derived', validation: 'passed' });
    }
  }
}

/** Commits a value with its provenance, and remembers the old record for `back`. */
export function commit(d: Draft, key: string, record: AnswerRecord): void {
  const here = d.at !== undefined && d.at.key === key;
  const keyRank = here ? d.at!.keyRank : d.idx.keyRank.get(key);
  const before = d.s.answers;
  // the record's slot when the answers use its flow's slots (draftOf moves them there)
  const slot = here && before.slots === d.idx.answerSlots ? d.at!.keySlot : before.slots.slotOf.get(key);
  if (!changed(d, key)) noteChange(d, key, certainlyUnanswered(d.s, before, keyRank) ? undefined : slot !== undefined ? before.getAt(slot) : before.get(key));
  d.s.answers = before.set(key, record, slot);
  carryRank(d.s, before, keyRank);
  if (d.s.assessing?.key === key) d.s.assessing = undefined;
  if (d.s.reask?.includes(key)) {
    const rest = d.s.reask.filter((k) => k !== key);
    d.s.reask = rest.length > 0 ? rest : undefined;
  }
  const shown = isPii(d, key) ? '[pii]' : record.value;
  const type = record.validation === 'skipped' ? 'answer_skipped' : 'answer_set';
  // the usual detail as one literal (same fields, same order)
  if (record.extractor && record.confidence === undefined && !record.conversion) {
    d.events.push({ type, turn: d.s.turn, node: d.s.node, key, value: shown, source: record.source, extractor: record.extractor });
  } else {
    emit(d, type, {
      key, value: shown, source: record.source,
      ...(record.extractor ? { extractor: record.extractor } : {}),
      ...(record.confidence !== undefined ? { confidence: record.confidence } : {}),
      ...(record.conversion && !isPii(d, key) ? { conversion: record.conversion } : {}),
    });
  }
  if (record.source !== 'derived' && hasDerived(d)) rederive(d, key);
}
