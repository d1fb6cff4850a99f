import type { CompiledFlow } from '../flow/compiled-flow.ts';
import { EXIT } from '../flow/desugar.ts';
import type { Frame } from './session.ts';
import type { EngineEvent } from './types.ts';

// Audits replay a trace against the compiled flow, the way seed 000 audits a
// workflow trace: every move must be one the graph allows, every answer must
// belong to the flow, and a run that says it completed must have collected
// what it asked for. They read events only, so they check any engine (or a
// stored trace) without trusting the session it produced.

/** What an audit can find wrong with a trace. */
export type AuditCode =
  | 'illegal_transition'
  | 'answer_without_node'
  | 'required_not_answered'
  | 'enter_after_end'
  | 'required_node_not_executed';

/** One problem in a trace, at the event that shows it. */
export interface AuditIssue {
  code: AuditCode;
  message: string;
  turn?: number;
  node?: string;
}

/** Extra checks a caller asks for. */
export interface AuditOptions {
  /** Nodes every completed run must have entered. */
  requiredNodes?: readonly string[];
}

/** Where one run of the conversation stands, rebuilt from its events. */
interface RunState {
  /** The node whose edges may be followed next. */
  active: string | null;
  /** The node that must be entered next (an exit's target, a subgraph's entry, the flow's entry). */
  pending: string | null;
  /** The subgraph left through `__exit__`, awaiting its `subgraph_exit`. */
  exiting: string | null;
  stack: Frame[];
  /** Question nodes entered and asked (not skipped), not given up through an `invalid` edge, by event index. */
  asked: Map<string, number>;
  /** The question just entered, when this entry added it to `asked` (a skip right after takes it back). */
  askedNow: string | null;
  answered: Set<string>;
  entered: Set<string>;
  /** The latest call stack each node was entered with: a re-route returns to a decision with it. */
  stackAt: Map<string, Frame[]>;
  waiting: { node: string; when: unknown } | null;
}

const freshRun = (flow: CompiledFlow): RunState => ({
  active: null, pending: flow.entry, exiting: null, stack: [], asked: new Map(), askedNow: null,
  answered: new Set(), entered: new Set(), stackAt: new Map(), waiting: null,
});

const copyRun = (s: RunState): RunState => ({
  ...s, stack: [...s.stack], asked: new Map(s.asked), answered: new Set(s.answered), entered: new Set(s.entered), stackAt: new Map(s.stackAt),
});

/**
 * Whether an event ends the run. The engine also emits `error` for runner
 * inputs it refuses (a stale action result, an operator decision with nothing
 * waiting) and leaves the session as it was; only the fatal kind, from a node
 * with no matching edge or a runaway turn, carries a state snapshot.
 */
const endsRun = (e: EngineEvent) =>
  e.type === 'completed' || e.type === 'escalated' || e.type === 'abandoned' || (e.type === 'error' && 'snapshot' in e);

const q = (id: unknown) => `'${String(id)}'`;

/** Index of the last `node_enter` of `node` before `before`, or -1. */
function lastEntry(events: readonly EngineEvent[], node: string, before: number): number {
  for (let i = before - 1; i >= 0; i--) if (events[i]!.type === 'node_enter' && events[i]!.node === node) return i;
  return -1;
}

/**
 * Checks a trace (from session start, restarts included) against the flow:
 * illegal transitions, answers for keys the flow does not define, completions
 * with required answers missing, events after the end, and `requiredNodes`.
 */
export function auditTrace(flow: CompiledFlow, events: readonly EngineEvent[], opts: AuditOptions = {}): AuditIssue[] {
  const issues: AuditIssue[] = [];
  const report = (code: AuditCode, message: string, e: EngineEvent) =>
    issues.push({ code, message, turn: e.turn, ...(e.node !== null ? { node: e.node } : {}) });

  let st = freshRun(flow);
  // The state at the end of each turn: `back` returns to one of them.
  let waits: RunState[] = [];
  let lastTurn: number | undefined;
  let ended: EngineEvent | null = null;
  let late: EngineEvent[] = [];
  const closeRun = () => {
    if (ended && late.length > 0) {
      report('enter_after_end', `${late.length} event${late.length > 1 ? 's' : ''} (first: ${late[0]!.type}) after the conversation ended (${ended.type} at turn ${ended.turn})`, late[0]!);
    }
  };

  const transition = (message: string, e: EngineEvent) => report('illegal_transition', message, e);

  for (const [seq, e] of events.entries()) {
    if (e.type === 'command' && e.command === 'restart') {
      closeRun();
      st = freshRun(flow);
      waits = [];
      lastTurn = undefined;
      ended = null;
      late = [];
      continue;
    }
    // a session picked up again (a returning visitor, a hand-back) goes on: its events are a run again
    if (ended && e.type === 'resumed') {
      ended = null;
      late = [];
    }
    if (ended) {
      // a message to an escalated session waiting for a person, and the contact details it gave, are not a run going on
      if (e.type !== 'handover' && e.handover !== true) late.push(e);
      continue;
    }
    if (lastTurn !== undefined && e.turn !== lastTurn) waits.push(copyRun(st));
    lastTurn = e.turn;
    const node = e.node ?? '';
    const c = flow.nodes.get(node);

    switch (e.type) {
      case 'node_enter': {
        if (!c) transition(`entered ${q(node)}, which is not a node of the flow`, e);
        else if (st.pending !== node) {
          transition(st.pending !== null ? `entered ${q(node)}, but the previous step led to ${q(st.pending)}`
            : `entered ${q(node)} with no exit leading to it${st.active ? ` (the conversation was at ${q(st.active)})` : ''}`, e);
        }
        st.pending = null;
        st.active = node;
        st.entered.add(node);
        st.stackAt.set(node, st.stack);
        st.askedNow = null;
        if (c?.node.type === 'question' && !st.asked.has(node)) {
          st.asked.set(node, seq);
          st.askedNow = node;
        }
        break;
      }
      case 'node_exit': {
        if (st.active !== node) {
          transition(`left ${q(node)}, where the conversation was not${st.active ? ` (it was at ${q(st.active)})` : st.pending ? ` (it was on its way to ${q(st.pending)})` : ''}`, e);
        }
        if (e.skipped !== undefined) {
          if (st.askedNow === node) st.asked.delete(node);
          st.active = node;
          st.askedNow = null;
          break;
        }
        st.askedNow = null;
        st.active = null;
        const to = String(e.to);
        const edge = c?.out.find((x) => x.id === e.edge) ?? (e.edge === undefined ? c?.out.find((x) => x.to === to) : undefined);
        if (!c) transition(`left ${q(node)}, which is not a node of the flow`, e);
        else if (!edge) transition(`${q(node)} → ${q(to)}${e.edge !== undefined ? ` by ${q(e.edge)}` : ''} is not an edge of ${q(node)}`, e);
        else if (edge.to !== to) transition(`edge ${q(edge.id)} of ${q(node)} leads to ${q(edge.to)}, not ${q(to)}`, e);
        else if ((edge.on ?? null) !== (e.on ?? null)) {
          transition(`edge ${q(edge.id)} is ${edge.on ? `for on: "${edge.on}"` : 'a normal edge'} but was taken ${e.on ? `on "${String(e.on)}"` : 'as a normal edge'}`, e);
        }
        // a question the flow gives up on through its `invalid` edge is unanswered by design
        if (e.on === 'invalid') st.asked.delete(node);
        if (to === EXIT) {
          if (!c || c.scope === null) transition(`${q(node)} took __exit__ outside a subgraph`, e);
          st.exiting = c?.scope ?? null;
          st.pending = null;
        } else st.pending = to;
        break;
      }
      case 'subgraph_enter': {
        const ref = String(e.subgraph);
        if (st.active !== node) transition(`subgraph ${q(ref)} entered from ${q(node)}, where the conversation was not`, e);
        if (c?.node.type !== 'subgraph' || c.node.ref !== ref) transition(`${q(node)} does not call subgraph ${q(ref)}`, e);
        st.stack = [...st.stack, { node, ref }];
        st.pending = flow.subgraphs.get(ref)?.entry ?? null;
        st.active = null;
        st.askedNow = null;
        break;
      }
      case 'subgraph_exit': {
        const ref = String(e.subgraph);
        const from = st.active !== null ? flow.nodes.get(st.active) : undefined;
        // a subgraph node without outgoing edges returns to the caller without a node_exit
        const implicit = from !== undefined && from.scope === ref && from.out.every((x) => x.on);
        if (st.exiting !== ref && !implicit) transition(`returned from subgraph ${q(ref)} without reaching its __exit__`, e);
        const top = st.stack[st.stack.length - 1];
        if (!top) transition(`returned from subgraph ${q(ref)} to ${q(node)} with no subgraph call open`, e);
        else if (top.node !== node || top.ref !== ref) {
          transition(`returned from subgraph ${q(ref)} to ${q(node)}, but the open call is ${q(top.ref)} from ${q(top.node)}`, e);
        }
        st.stack = st.stack.slice(0, -1);
        st.exiting = null;
        st.pending = null;
        st.active = node;
        st.askedNow = null;
        break;
      }
      case 'answer_set':
      case 'answer_skipped': {
        const key = String(e.key);
        if (!flow.keys.has(key)) report('answer_without_node', `${e.type} for ${q(key)}, which no question or action of the flow defines`, e);
        st.answered.add(key);
        break;
      }
      case 'back': {
        const undone = Array.isArray(e.undone) ? e.undone.map(String) : [];
        const to = String(e.to);
        // the newest wait is where the user typed "back"; the checkpoint is an earlier one
        let i = waits.length - 2;
        while (i >= 0 && waits[i]!.active !== to) i--;
        if (i >= 0) {
          const answered = st.answered;
          st = copyRun(waits[i]!);
          st.answered = answered;
          waits = waits.slice(0, i + 1);
        } else {
          st.active = to;
          st.pending = null;
          st.exiting = null;
        }
        for (const k of undone) st.answered.delete(k);
        break;
      }
      case 'review': {
        // a change or a correction at a review goes to that answer's question, from where the edges lead back
        if (e.decision !== 'change' && e.decision !== 'corrected') break;
        const target = [...flow.nodes.values()].find((x) => x.node.type === 'question' && x.node.key === e.key);
        if (!target) break;
        st.active = null;
        st.pending = target.node.id;
        st.stack = [];
        st.exiting = null;
        st.askedNow = null;
        break;
      }
      case 'path_switch': {
        // a switch before the lock may send the conversation back to the decision that routed on the old path
        const moved = e.moved as { to?: unknown } | undefined;
        if (!moved || typeof moved.to !== 'string') break;
        const to = moved.to;
        if (!flow.nodes.has(to) || !st.stackAt.has(to)) transition(`re-routed to ${q(to)}, which this run has not passed through`, e);
        const cut = lastEntry(events, to, seq);
        for (const [id, at] of st.asked) if (at > cut) st.asked.delete(id);
        const carry = e.carry as { dropped?: unknown } | undefined;
        if (Array.isArray(carry?.dropped)) for (const k of carry.dropped) st.answered.delete(String(k));
        st.stack = st.stackAt.get(to) ?? st.stack;
        st.active = to;
        st.pending = null;
        st.exiting = null;
        st.askedNow = null;
        break;
      }
      case 'interrupt':
        st.waiting = { node, when: e.when };
        break;
      case 'operator':
        // approving a `before` interrupt enters the node again
        if (e.decision === 'approve' && st.waiting?.node === node && st.waiting.when === 'before') {
          st.pending = node;
          st.active = null;
        }
        st.waiting = null;
        break;
      case 'completed': {
        for (const id of st.asked.keys()) {
          const n = flow.nodes.get(id)?.node;
          if (n?.type === 'question' && n.required !== false && !st.answered.has(n.key)) {
            report('required_not_answered', `completed, but required question ${q(id)} was asked and ${q(n.key)} has no answer`, e);
          }
        }
        for (const id of opts.requiredNodes ?? []) {
          if (!st.entered.has(id)) {
            report('required_node_not_executed', `completed without entering ${q(id)}${flow.nodes.has(id) ? '' : ' (not a node of the flow)'}`, e);
          }
        }
        break;
      }
      default:
        break;
    }
    if (endsRun(e)) ended = e;
  }
  closeRun();
  return issues;
}
