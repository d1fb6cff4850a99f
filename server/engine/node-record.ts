import { normalOptions } from '../flow/answer-types.ts';
import type { CompiledEdge, CompiledFlow, CompiledNode } from '../flow/compiled-flow.ts';

// What a turn needs about one node, worked out once per compiled flow
// (flow-index.ts builds one record per node) instead of on every visit: the
// edges `next` chooses among, the quick replies of its question, and a
// quick acceptance test for its answer type. Each field is a pure function of
// the compiled node and the flow's messages; test/unit/engine-node-record.test.ts
// compares every field with the straightforward computation.

/**
 * What a question's answer spec and the flow's messages say about asking and
 * checking it: the same for every question with the same spec, so a flow
 * holds one object per distinct content, shared by its records (a long flow's
 * turns then read it from cache, not a cold line per node).
 */
export interface AnswerFacts {
  /** Quick replies of a closed question (option labels, or yes/no), undefined for other nodes. */
  quickReplies: readonly string[] | undefined;
  /** A multiple-choice enum question. */
  multiple: boolean;
  /** A question with a value schema (`c.valueSchema`): what checkValue checks first. */
  hasSchema: boolean;
  /** A text question with a `pattern` (answers.ts compiles it on first use, per node). */
  hasPattern: boolean;
  /**
   * A quick test that a (trimmed) value certainly passes the question's zod
   * schema and parses to itself (`acceptsWith` with these parameters, held
   * here so the test reads nothing else); false means "ask zod", never
   * "invalid". Kind NONE where zod is always asked.
   */
  acceptKind: Accept;
  acceptMin: number;
  acceptMax: number;
  acceptValues: readonly string[] | undefined;
}

/**
 * The precomputed facts about one node. The fields a turn reads come first,
 * in about the order it reads them, and the ones only guarded edges and
 * dependencies need last: a record is read whole by the two turns around its
 * question, so fewer fields means fewer cache lines fetched on a long flow.
 */
export interface NodeRecord {
  c: CompiledNode;
  /** The node's id and type, and for a question its key (copied here: every record has one shape, nodes many). */
  id: string;
  type: CompiledNode['node']['type'];
  key: string | undefined;
  /**
   * A question with nothing but its asking to do when entered: no `when`, `say`,
   * interrupt, `always_ask`, dependencies or assessment (visit and ask read
   * nothing more of the node then).
   */
  plain: boolean;
  /** For a question, its key's rank (flow-index.ts `keyRank`), set when the index is built. */
  keyRank: number | undefined;
  /** A question's prompt as asked when it is one string without placeholders (trimmed), else undefined (rendered per ask). */
  prompt: string | undefined;
  /** The answer spec's facts (shared by the flow's questions with the same spec; NO_FACTS for other nodes). */
  facts: AnswerFacts;
  /** The node's rank (flow-index.ts `rank`), set when the index is built. */
  rank: number | undefined;
  /**
   * Every step a progress walk from this node can take (into a subgraph, out
   * of one to any caller's next node, past a subgraph node whose `when` is
   * false) leads to a node ranked at most the one it leaves, set when the
   * index is built (flow-index.ts `rankedWalks`): route-memo.ts remembers walks
   * only from such nodes.
   */
  walkRanked: boolean;
  /**
   * The progress walk remembered from this node (route-memo.ts owns these: the
   * path, the keys read with their slot, -1 for none, and value then, as
   * key, slot, value triples in one list, and the count; -1 when none).
   */
  walkRemaining: number;
  walkPath: string | null;
  walkReads: readonly unknown[];
  /**
   * When the remembered walk read exactly one key (walkReads is then
   * route-memo.ts ONE_READ): that key, its slot and its value, held here so
   * the memo check reads no list (a list of its own is two more cold lines).
   */
  walkKey: string | undefined;
  walkSlot: number;
  walkValue: unknown;
  /** The subgraph frames the remembered walk started with (a copy; one shared empty list at the top level). */
  walkStack: readonly { node: string; ref: string }[];
  /** `prompt` as the session's recent lines keep it, worked out on first use (engine.ts `botLine`; a flow without pii keys only). */
  promptLine: string | undefined;
  /** The record's position in its flow's list of records (flow-index.ts `recordList`). */
  ordinal: number;
  /** A question that is the first to ask its key (flow-index.ts `questionByKey` holds it), set when the index is built. */
  asksFirst: boolean;
  /** For a question, its key's slot in the flow's answer maps (flow-index.ts `answerSlots`), set when the index is built. */
  keySlot: number | undefined;
  /** The node's `validate` rules (the compiled node's list; one shared empty list when it has none). */
  validators: CompiledNode['validators'];
  /** When the first normal edge has no guard (so `next` always takes it): that edge's id, its target and the target's record. */
  directTo: string | undefined;
  directEdge: string | undefined;
  directTarget: NodeRecord | undefined;
  /** A `back` checkpoint's changes for a turn that answered this question for the first time: one frozen list, shared. */
  firstChange: readonly { key: string }[] | undefined;
  /** The node's normal edges (no `on:` kind), in file order: the ones `next` and the progress walk choose among. */
  edges: readonly CompiledEdge[];
  /**
   * For each of `edges` with a guard, the slots (flow-index.ts `answerSlots`) of
   * the keys it reads in `reads` order (-1 for a key without one), set when the
   * index is built: the guard's scope reads the answers by slot.
   */
  edgeSlots: readonly (readonly number[] | undefined)[];
  /** The records `edges` lead to (undefined for `__exit__`), in the same order, set when the index is built. */
  targets: readonly (NodeRecord | undefined)[];
  /** For a question with `dependencies`, the keys it waits for in asking order (flow-index.ts `dependencyOrder`), set with the index. */
  dependencies: readonly string[] | undefined;
}

/**
 * A session carries the position (`ordinal`) of the record of the node it is
 * at under this symbol: a derived number, never stored (JSON and
 * sessionToJson skip symbol keys), set when a turn is packed and trusted only
 * when the record at that position in the turn's flow has the session's node
 * id (draft.ts `sessionRecord`). A number, not the record: a caller may
 * freeze a session deeply, and the records must stay writable.
 */
export const AT_RECORD = Symbol('node record');

/** One record per node of the flow, each linked to the records its edges lead to. */
export function nodeRecords(flow: CompiledFlow): Map<string, NodeRecord> {
  const out = new Map<string, NodeRecord>();
  const lists = new Map<string, readonly string[]>();
  const facts = new Map<string, AnswerFacts>();
  const rules = new Map<string, CompiledNode['validators']>();
  for (const [id, c] of flow.nodes) out.set(id, recordOf(flow, c, lists, facts, rules));
  let ordinal = 0;
  for (const r of out.values()) r.ordinal = ordinal++;
  for (const r of out.values()) {
    r.targets = Object.freeze(r.edges.map((e) => out.get(e.to)));
    r.directTarget = r.directTo === undefined ? undefined : r.targets[0];
  }
  return out;
}

/** One frozen list per distinct content, shared by the records of a flow (a long flow's yes/no and option lists stay in cache). */
function shared(lists: Map<string, readonly string[]>, list: readonly string[] | undefined): readonly string[] | undefined {
  if (list === undefined) return undefined;
  const id = JSON.stringify(list);
  let one = lists.get(id);
  if (one === undefined) lists.set(id, (one = Object.freeze([...list])));
  return one;
}

function recordOf(
  flow: CompiledFlow, c: CompiledNode, lists: Map<string, readonly string[]>, facts: Map<string, AnswerFacts>, rules: Map<string, CompiledNode['validators']>,
): NodeRecord {
  const edges = Object.freeze(c.out.filter((e) => !e.on));
  const key = c.node.type === 'question' ? c.node.key : undefined;
  // every field in one literal, in one order: records share one hidden class, so reading them stays monomorphic
  return {
    c, id: c.node.id, type: c.node.type, key,
    plain: c.node.type === 'question' && !c.when && !c.node.say && !c.node.interrupt && !c.node.always_ask && !c.node.never_ask
      && !c.node.dependencies?.length && !c.node.assess,
    keyRank: undefined, prompt: plainPrompt(c), facts: factsOf(flow, c, lists, facts), rank: undefined, walkRanked: false,
    walkRemaining: -1, walkPath: null, walkReads: NO_STRINGS, walkKey: undefined, walkSlot: -1, walkValue: undefined, walkStack: NO_FRAMES, promptLine: undefined, ordinal: -1, asksFirst: false, keySlot: undefined,
    validators: sharedRules(rules, c.validators),
    directTo: edges[0]?.guard === null ? edges[0].to : undefined, directEdge: edges[0]?.guard === null ? edges[0].id : undefined, directTarget: undefined,
    firstChange: key === undefined ? undefined : Object.freeze([Object.freeze({ key })]),
    edges, edgeSlots: NO_EDGE_SLOTS, targets: NO_TARGETS, dependencies: undefined,
  };
}

/**
 * A node's `validate` rules: one list per distinct content in a flow when every
 * rule is an expression (a compiled guard does what its source says, whatever
 * node it was compiled for), so "value >= 0" on many questions is one list and
 * one guard, read from cache; the node's own list when a rule is named.
 */
function sharedRules(rules: Map<string, CompiledNode['validators']>, list: CompiledNode['validators']): CompiledNode['validators'] {
  if (list.length === 0) return NO_VALIDATORS;
  if (list.some((r) => r.kind !== 'expr')) return list;
  const id = JSON.stringify(list.map((r) => (r.kind === 'expr' ? [r.guard.source, r.message ?? null] : null)));
  let one = rules.get(id);
  if (one === undefined) rules.set(id, (one = list));
  return one;
}

/** The answer facts of a node, one object per distinct content in a flow. */
function factsOf(flow: CompiledFlow, c: CompiledNode, lists: Map<string, readonly string[]>, facts: Map<string, AnswerFacts>): AnswerFacts {
  const spec = c.node.type === 'question' ? c.node.answer : undefined;
  const check = c.node.type === 'question' && c.valueSchema ? acceptParams(spec ?? { type: 'text' }) : NO_CHECK;
  const quickReplies = shared(lists, spec?.type === 'enum' ? normalOptions(spec).map((o) => o.label)
    : spec?.type === 'boolean' ? [flow.messages.yes, flow.messages.no] : undefined);
  const made: AnswerFacts = {
    quickReplies, multiple: spec?.type === 'enum' && spec.multiple === true,
    hasSchema: c.node.type === 'question' && c.valueSchema !== undefined,
    hasPattern: spec?.type === 'text' && spec.pattern !== undefined,
    acceptKind: check.kind, acceptMin: check.min, acceptMax: check.max, acceptValues: shared(lists, check.values),
  };
  // String(), not JSON: the bounds may be ±Infinity
  const id = [made.quickReplies === undefined ? '-' : JSON.stringify(made.quickReplies), made.multiple, made.hasSchema, made.hasPattern,
    made.acceptKind, String(made.acceptMin), String(made.acceptMax), made.acceptValues === undefined ? '-' : JSON.stringify(made.acceptValues)].join('|');
  let one = facts.get(id);
  if (one === undefined) facts.set(id, (one = made));
  return one;
}

const NO_VALIDATORS: CompiledNode['validators'] = Object.freeze([]) as unknown as CompiledNode['validators'];
const NO_STRINGS: readonly string[] = Object.freeze([]);
/** The empty frame list: a walk remembered at the top level. */
export const NO_FRAMES: readonly { node: string; ref: string }[] = Object.freeze([]);
const NO_TARGETS: readonly (NodeRecord | undefined)[] = Object.freeze([]);
const NO_EDGE_SLOTS: readonly (readonly number[] | undefined)[] = Object.freeze([]);

/** The text a question asks on a given attempt, before its placeholders are filled: its prompt (a list rotates on re-asks), else its label, else its key. */
export function promptText(c: CompiledNode, attempts: number): string {
  if (c.node.type !== 'question') return '';
  const p = c.node.prompt;
  return Array.isArray(p) ? p[attempts % p.length]! : p ?? c.node.label ?? c.node.key;
}

/** A question's one prompt without `{{placeholders}}`, trimmed as `ask` would render it; undefined when it must be rendered per ask. */
function plainPrompt(c: CompiledNode): string | undefined {
  if (c.node.type !== 'question' || (Array.isArray(c.node.prompt) && c.node.prompt.length !== 1)) return undefined;
  const text = promptText(c, 0);
  return text.includes('{{') ? undefined : text.trim();
}

type Spec = NonNullable<Extract<CompiledNode['node'], { type: 'question' }>['answer']>;

/** What kind of quick check a question's answer gets (`acceptsWith`): NONE leaves the value to zod. */
export const Accept = { NONE: 0, TEXT: 1, NUMBER: 2, INTEGER: 3, BOOLEAN: 4, ENUM: 5 } as const;
export type Accept = (typeof Accept)[keyof typeof Accept];

/** The parameters of a quick check: kind, bounds (length for text, value for numbers), and the values of a single choice. */
export interface AcceptParams { kind: Accept; min: number; max: number; values: readonly string[] | undefined }

/**
 * The plain checks `valueSchema` (answer-types.ts) makes for text, number,
 * integer, boolean and single-choice enum answers, as parameters of a quick
 * acceptance test (zod returns such a value unchanged). Other types (email,
 * url, phone, date, multiple choice) are left to zod: kind NONE.
 */
export function acceptParams(spec: Spec): AcceptParams {
  switch (spec.type) {
    case 'text':
      return { kind: Accept.TEXT, min: Math.max(1, spec.min ?? 0), max: spec.max ?? Infinity, values: undefined };
    case 'number':
    case 'integer':
      return { kind: spec.type === 'integer' ? Accept.INTEGER : Accept.NUMBER, min: spec.min ?? -Infinity, max: spec.max ?? Infinity, values: undefined };
    case 'boolean':
      return { kind: Accept.BOOLEAN, min: 0, max: 0, values: undefined };
    case 'enum':
      return spec.multiple ? NO_CHECK : { kind: Accept.ENUM, min: 0, max: 0, values: Object.freeze(normalOptions(spec).map((o) => o.value)) };
    default:
      return NO_CHECK;
  }
}

const NO_CHECK: AcceptParams = Object.freeze({ kind: Accept.NONE, min: 0, max: 0, values: undefined });

/** Whether a (trimmed) value certainly passes the schema the parameters describe; false means "ask zod", never "invalid". */
export function acceptsWith(kind: Accept, min: number, max: number, values: readonly string[] | undefined, v: unknown): boolean {
  switch (kind) {
    case Accept.TEXT: return typeof v === 'string' && v.length >= min && v.length <= max;
    case Accept.NUMBER: return typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max;
    case Accept.INTEGER: return typeof v === 'number' && Number.isSafeInteger(v) && v >= min && v <= max;
    case Accept.BOOLEAN: return typeof v === 'boolean';
    case Accept.ENUM: return typeof v === 'string' && values!.includes(v);
    default: return false;
  }
}

/** The quick acceptance test of a spec as a function (undefined where zod is always asked). */
export function acceptsOf(spec: Spec): ((value: unknown) => boolean) | undefined {
  const { kind, min, max, values } = acceptParams(spec);
  return kind === Accept.NONE ? undefined : (v) => acceptsWith(kind, min, max, values, v);
}
