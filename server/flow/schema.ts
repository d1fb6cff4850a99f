import { z } from 'zod';
import { lazy } from '../shared/lazy.ts';
import { AnswerSpec } from './answer-types.ts';
import { BuiltInMessages } from './messages/catalogue.ts';
import { byLocale, LocaleTag, Text, Texts, type Plain } from './text.ts';

// The zod schemas of flow IR v1 (and the v0 checklist): the single source of
// truth for flow types, the JSON Schema in flows/flow.schema.json, and the
// structural half of validation. Objects are strict so that a misspelt field
// is reported instead of silently ignored.

const Id = lazy(() => z.string().min(1).max(200));
const Guard = lazy(() => z.string().describe('an expression in the guard language, or "else" on an edge'));
/** Free text the bot sends (may use {{answers.KEY}} and {{context.KEY}}): one string for every locale, or one per locale. */
const Message = Text;

/** Pause for an operator before or after the node (seeds 002/003). */
export const Interrupt = lazy(() => z
  .object({
    when: z.enum(['before', 'after']),
    role: z.string().optional().describe('who must approve, e.g. "manager"'),
    prompt: z.string().optional().describe('what the operator is asked'),
    timeout_s: z.number().int().positive().optional(),
  })
  .strict());

/** Judge a free-text answer and re-ask with feedback until it passes (seed 003). */
export const Assess = lazy(() => z
  .object({
    criteria: z.string(),
    threshold: z.number().min(0).max(1).optional(),
    max_refinements: z.number().int().nonnegative().optional(),
    feedback_key: z.string().optional(),
    min_words: z.number().int().positive().optional().describe('offline rule'),
    must_mention: z.union([z.array(z.string()), byLocale(z.array(z.string()))]).optional().describe('offline rule: words the answer must contain (a list, or a map by locale of lists)'),
  })
  .strict());

/** A validation rule: a guard over `value` and `answers`, or a registered validator. */
export const ValidateRule = lazy(() => z.union([
  z.object({ expr: Guard(), message: Message().optional() }).strict(),
  z.object({ name: Id(), args: z.unknown().optional(), message: Message().optional() }).strict(),
]));
export type ValidateRule = Plain<z.infer<ReturnType<typeof ValidateRule>>>;

const common = lazy(() => ({
  id: Id(),
  label: Text().optional().describe('a short name; review lines show a question\'s label'),
  ui: z.record(z.string(), z.unknown()).optional().describe('free-form hints: position, group, colour'),
  tags: z.array(z.string()).optional(),
  say: Message().optional().describe('sent when the bot enters the node'),
  say_offline: Message().optional().describe('sent instead of `say` when nobody from the team is online (an escalation\'s honest words: "connecting you" only when someone is)'),
  when: Guard().optional().describe('when false the node is skipped'),
  interrupt: Interrupt().optional(),
  pii: z.boolean().optional().describe('keep the answer out of logs, metrics and LLM prompts'),
}));

export const QuestionNode = lazy(() => z
  .object({
    ...common(),
    type: z.literal('question'),
    key: Id().describe('answer key'),
    prompt: z.union([Message(), z.array(Message()).min(1), byLocale(z.array(z.string()).min(1))]).optional(),
    answer: AnswerSpec().optional(),
    required: z.boolean().optional(),
    validate: z.union([Guard(), z.array(z.union([Guard(), ValidateRule()]))]).optional(),
    invalid_prompt: Message().optional(),
    max_attempts: z.number().int().positive().optional(),
    dependencies: z.array(Id()).optional(),
    priority: z.number().optional(),
    always_ask: z.boolean().optional(),
    never_ask: z.boolean().optional()
      .describe('never asked: the answer is only taken when the visitor gives it while answering another question (v0\'s optional questions); needs required: false'),
    carry: z.enum(['keep', 'reask', 'drop']).optional(),
    assess: Assess().optional(),
    internal: z.boolean().optional().describe('keep the answer from the visitor: left out of the visitor API and of reviews; exports and webhooks carry it'),
    derive: z.object({
      expr: Guard().describe('the value from other answers: "years_since(answers.date_of_birth)"; null while they are not answered'),
      message: Message().optional().describe('said when a value given disagrees with the derived one, before the question it is derived from is asked again; {derived}, {given}, {label}, {from}'),
    }).strict().optional()
      .describe('the answer is computed from other answers once they are given, and the question is then not asked; a value given that disagrees is asked about'),
  })
  .strict());

/** Router sugar: `{ on, cases, default }` compiles to guarded edges. */
export const Routes = lazy(() => z
  .object({
    on: z.string().describe('an expression, usually answers.KEY'),
    cases: z.record(z.string(), Id()),
    default: Id().optional(),
  })
  .strict());

export const DecisionNode = lazy(() => z.object({ ...common(), type: z.literal('decision'), routes: Routes().optional() }).strict());

export const ActionNode = lazy(() => z
  .object({
    ...common(),
    type: z.literal('action'),
    call: Id().describe('registered handler name'),
    input_map: z.record(z.string(), z.string()).optional().describe('argument ← answers.KEY or context.KEY'),
    output_map: z.record(z.string(), z.string()).optional().describe('result field → answer key'),
    requires: z.array(Id()).optional(),
    provides: z.array(Id()).optional(),
    retry: z
      .object({ max: z.number().int().nonnegative(), backoff_ms: z.number().int().nonnegative().optional() })
      .strict()
      .optional(),
    timeout_ms: z.number().int().positive().optional(),
    internal: z.boolean().optional().describe('whether its outputs are kept from the visitor (default true); false shows them in the visitor API'),
  })
  .strict());

export const SubgraphNode = lazy(() => z.object({ ...common(), type: z.literal('subgraph'), ref: Id() }).strict());

export const TerminalNode = lazy(() => z
  .object({
    ...common(),
    type: z.literal('terminal'),
    outcome: z.string().min(1).optional().describe('completed (default), escalated, abandoned, or a custom string'),
  })
  .strict());

/**
 * Shows the visitor the answers collected so far, in plain words, and waits
 * for a confirmation or the name of one answer to change (which is asked
 * again; the conversation then comes back here along its edges).
 */
export const ReviewNode = lazy(() => z
  .object({
    ...common(),
    type: z.literal('review'),
    keys: z.array(Id()).optional().describe('answer keys to show, in order; default every answered question in flow order'),
    prompt: Message().optional().describe('the line before the answers, e.g. "Before I send this, please check:"'),
    confirm_prompt: Message().optional().describe('the line after the answers, asking to confirm or change one'),
    max_attempts: z.number().int().positive().optional().describe('replies that neither confirm nor name an answer before the `on: "invalid"` edge (else an escalation to a person); default 3'),
  })
  .strict());
export type ReviewNode = Plain<z.infer<ReturnType<typeof ReviewNode>>>;

export const Node = lazy(() => z.discriminatedUnion('type', [QuestionNode(), DecisionNode(), ActionNode(), SubgraphNode(), TerminalNode(), ReviewNode()]));
export type Node = Plain<z.infer<ReturnType<typeof Node>>>;
export type QuestionNode = Plain<z.infer<ReturnType<typeof QuestionNode>>>;
export type NodeType = Node['type'];

export const Edge = lazy(() => z
  .object({
    id: Id().optional(),
    from: Id(),
    to: Id(),
    guard: Guard().optional(),
    on: z.enum(['failure', 'invalid', 'rejected', 'no_path']).optional()
      .describe('failure (action), invalid (no valid answer, or the path prompt exhausted), rejected (an operator said no), no_path (a decision routing on path, while no path is voted: taken instead of asking the path prompt)'),
    label: z.string().optional(),
  })
  .strict());
export type Edge = z.infer<ReturnType<typeof Edge>>;

export const Subgraph = lazy(() => z
  .object({
    label: z.string().optional(),
    entry: Id().optional().describe('defaults to the first node'),
    nodes: z.array(Node()),
    edges: z.array(Edge()).optional().describe('omit for a sequence that ends at __exit__'),
  })
  .strict());
export type Subgraph = Plain<z.infer<ReturnType<typeof Subgraph>>>;

export const PathPolicy = lazy(() => z
  .object({
    lock_threshold: z.number().positive().optional(),
    allow_switch_before_lock: z.boolean().optional(),
    decay: z.number().min(0).max(1).optional(),
    min_confidence: z.number().min(0).max(1).optional(),
  })
  .strict());

export const PathOption = lazy(() => z
  .object({ label: Text().optional(), description: Text().optional(), examples: Texts().optional() })
  .strict());

export const Paths = lazy(() => z
  .object({
    policy: PathPolicy().optional(),
    prompt: Text().optional().describe('asked when a node routes on path and none is locked'),
    max_attempts: z.number().int().positive().optional().describe('times the path prompt is asked before `default` (or an escalation); default 3'),
    default: Id().optional().describe('the path taken when the prompt is exhausted; without it the session escalates'),
    options: z.record(Id(), PathOption()),
  })
  .strict());

export const Constraint = lazy(() => z.union([
  z.object({ oneOf: z.array(z.array(Id()).min(1)).min(2), message: Message().optional() }).strict(),
  z.object({ name: Id(), expr: Guard(), message: Message().optional() }).strict(),
]));
export type Constraint = Plain<z.infer<ReturnType<typeof Constraint>>>;

export const Commands = lazy(() => z
  .object({
    back: Texts().optional(),
    restart: Texts().optional(),
    human: Texts().optional(),
    cancel: Texts().optional(),
    skip: Texts().optional(),
    cancel_confirm: Text().optional().describe('asked before cancelling; "yes" cancels, anything else carries on'),
    cancel_yes: Texts().optional().describe('replies that confirm the cancel (default yes, yes please, stop…)'),
  })
  .strict());

/**
 * A flow-level trigger: checked on every message at every node (but `off_at`),
 * before answer extraction; when it matches, the engine goes to `goto` or runs
 * `command` (the role of Dialogflow CX route groups, Rasa's conversation patterns).
 */
export const Trigger = lazy(() => z
  .object({
    id: Id(),
    phrases: z.union([z.array(z.string().min(1)), byLocale(z.array(z.string().min(1)))]).optional().describe('offline rule: any of these phrases (word boundaries, case-insensitive, not negated: "no chest pain" does not match)'),
    examples: Texts().optional().describe('sample messages that should match (shown to the model; also matched like phrases)'),
    words: z.record(z.string().regex(/^[a-z][a-z0-9_]*$/, 'a word-list name: lowercase letters, digits, _'), Texts()).optional()
      .describe('offline rule: named word lists for `together` (a trailing * matches any ending: "hurt*"; "#10+" is a number of at least 10; "#1950-2099" one from 1950 to 2099; "{arm,leg}" any of its words; "~3" up to three other words: "{arm,leg} ~3 weak*")'),
    together: z.array(z.array(z.string()).min(1)).optional()
      .describe('offline rule: each entry names word lists that must all occur, not negated, in one clause: [chest, pain] fires on "my chest has been hurting"'),
    together_in_message: z.array(z.array(z.string()).min(1)).optional()
      .describe('offline rule: like `together`, but the lists may be in different clauses of the message (each hit not negated in its own clause): [rash, look, fever] fires on "fever, and a rash like bruises"'),
    unless: Texts().optional().describe('offline rule: phrases that keep the trigger from firing in their clause (a past event, someone else\'s history: "years ago", "died of"); not when negated ("hasn\'t stopped")'),
    figurative: Texts().optional().describe('offline rule: objects that make a hit a figure of speech when they follow it ("overdosed on netflix", "killing myself laughing", "die of embarrassment")'),
    description: z.string().optional().describe('when it applies, for the model'),
    goto: Id().optional().describe('node to go to when it matches'),
    command: z.enum(['back', 'restart', 'human', 'cancel', 'skip']).optional().describe('command to run when it matches'),
    off_at: z.array(Id()).optional().describe('nodes where the trigger is not checked'),
    urgent: z.boolean().optional().describe('mark the session urgent for operators'),
    reason: z.string().optional().describe('shown to operators with an urgent session; defaults to the id'),
  })
  .strict()
  .refine((t) => (t.goto === undefined) !== (t.command === undefined), { message: 'a trigger has either goto or command' }));
export type Trigger = Plain<z.infer<ReturnType<typeof Trigger>>>;

export const FlowInterface = lazy(() => z
  .object({ context: z.record(z.string(), z.unknown()).optional().describe('JSON Schema of the session context') })
  .strict());

export const FlowV1 = lazy(() => z
  .object({
    $schema: z.string().optional(),
    version: z.literal('v1'),
    id: Id(),
    label: z.string().optional(),
    description: z.string().optional(),
    entry: Id().optional().describe('defaults to the first node'),
    default_country: z.string().length(2).optional().describe('ISO 3166 country for phone numbers'),
    locales: z.array(LocaleTag()).min(1).optional().describe('the languages the flow speaks, e.g. ["en", "de"]; a text may then be a map by locale'),
    default_locale: LocaleTag().optional().describe('the locale when the visitor\'s matches none of `locales`; defaults to the first'),
    messages: z.record(LocaleTag(), BuiltInMessages()).optional().describe('the built-in texts (re-asks, commands, endings) changed for this flow, by locale'),
    commands: Commands().optional(),
    interface: FlowInterface().optional(),
    paths: Paths().optional(),
    triggers: z.array(Trigger()).optional().describe('checked on every message, before answers'),
    contact: z.array(Id()).min(1).optional().describe('the question keys a person can reach the visitor by (e.g. ["email", "phone"]): an escalation without any of them asks for one, once'),
    nodes: z.array(Node()),
    edges: z.array(Edge()).optional().describe('omit for a sequence: each node to the next'),
    subgraphs: z.record(Id(), Subgraph()).optional(),
    constraints: z.array(Constraint()).optional(),
  })
  .strict());
/** A flow as the compiler and engine see it: projected to one locale, every text a plain string. */
export type FlowV1 = Plain<z.infer<ReturnType<typeof FlowV1>>>;
/** A flow as written: texts may be maps by locale (what packs merge and the archive keeps). */
export type FlowSource = z.infer<ReturnType<typeof FlowV1>>;

/** Merge strategy of one field in an overlay. */
export const MergeStrategy = lazy(() => z.enum(['override', 'deep', 'concat', 'error']));
export type MergeStrategy = z.infer<ReturnType<typeof MergeStrategy>>;

/**
 * A node in an overlay: an id that is already in the flow changes the fields
 * given (null deletes one); a new id adds a whole node. Loose on purpose: the
 * merged node is checked against the node schema, with positions in the overlay.
 */
export const OverlayNode = lazy(() => z
  .object({
    id: Id(),
    $after: Id().optional().describe('for a new node: insert it after this node, in that node\'s scope (top level or subgraph)'),
  })
  .loose());
export type OverlayNode = z.infer<ReturnType<typeof OverlayNode>>;

/** Changes to one subgraph, or a new subgraph; nodes listed here that are new are added to it. */
export const OverlaySubgraph = lazy(() => z
  .object({
    label: z.string().optional(),
    entry: Id().optional(),
    nodes: z.array(OverlayNode()).optional(),
    edges: z.array(Edge()).optional(),
  })
  .strict());

/** An edge to remove: by its id, or every edge from `from` to `to`. */
export const EdgeRef = lazy(() => z.union([z.object({ from: Id(), to: Id() }).strict(), z.object({ id: Id() }).strict()]));

/** A pack layer: names what it changes in a base flow (see flows/packs/README.md). */
export const Overlay = lazy(() => z
  .object({
    $schema: z.string().optional(),
    version: z.literal('v1'),
    layer: z.enum(['industry', 'tenant', 'instance']),
    extends: Id().describe('id of the flow this overlay changes'),
    id: Id().optional().describe('the overlay\'s own id; orders overlays of the same layer'),
    label: z.string().optional().describe('describes the overlay (not the flow)'),
    nodes: z.array(OverlayNode()).optional().describe('new nodes, or fields to change by id (anywhere in the flow)'),
    edges: z.array(Edge()).optional().describe('new edges; one with the id, or the from and to, of an existing edge replaces it'),
    subgraphs: z.record(Id(), OverlaySubgraph()).optional(),
    paths: Paths().partial().optional(),
    constraints: z.array(Constraint()).optional(),
    commands: Commands().optional(),
    messages: z.record(LocaleTag(), BuiltInMessages()).optional().describe('built-in texts to change, by locale'),
    remove: z
      .object({ nodes: z.array(Id()).optional().describe('also removes their edges'), edges: z.array(EdgeRef()).optional() })
      .strict()
      .optional(),
    merge: z
      .record(z.string(), MergeStrategy())
      .optional()
      .describe('strategy per field path, e.g. "nodes.*.answer.options": "concat"; applies to this layer and later ones'),
  })
  .strict());
export type Overlay = z.infer<ReturnType<typeof Overlay>>;
export type { Plain } from './text.ts';

const V0Question = lazy(() => z
  .object({
    key: Id(),
    prompt: z.union([z.string(), z.array(z.string()).min(1)]).optional(),
    label: z.string().optional(),
    required: z.boolean().optional(),
    priority: z.number().optional(),
    dependencies: z.array(Id()).optional(),
    when: Guard().optional(),
    answer: AnswerSpec().optional(),
    validate: z.union([Guard(), z.array(z.union([Guard(), ValidateRule()]))]).optional(),
    invalid_prompt: z.string().optional(),
    pii: z.boolean().optional(),
  })
  .strict());
export type V0Question = Plain<z.infer<ReturnType<typeof V0Question>>>;

/** The legacy checklist format, loaded through the migrator. */
export const FlowV0 = lazy(() => z
  .object({
    $schema: z.string().optional(),
    version: z.literal('v0'),
    id: Id(),
    label: z.string().optional(),
    questions: z.array(V0Question()),
    paths: z
      .record(
        Id(),
        z
          .object({
            label: z.string().optional(),
            examples: z.array(z.string()).optional(),
            questions: z.array(V0Question().partial().required({ key: true })).optional(),
          })
          .strict(),
      )
      .optional(),
    policy: PathPolicy().optional(),
    prompt: z.string().optional().describe('the question that asks for the path'),
  })
  .strict());
export type FlowV0 = Plain<z.infer<ReturnType<typeof FlowV0>>>;

/** Any flow document: a v1 flow, a v1 overlay (has `layer`), or a v0 checklist. */
export const FlowDocument = lazy(() => z.union([FlowV1(), Overlay(), FlowV0()]));
