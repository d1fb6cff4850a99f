import type { CompiledFlow, CompiledNode } from '../flow/compiled-flow.ts';
import { END, flatSuccessors, reachableFrom } from '../flow/graph-analysis.ts';
import { EXIT } from '../flow/desugar.ts';
import type { Command } from './types.ts';
import { EN } from '../language/en/messages.ts';
import { answerSlots, type AnswerSlots } from './answer-map.ts';
import { nodeRecords, type NodeRecord } from './node-record.ts';

/** Lookups the engine needs on every turn, computed once per compiled flow. */
export interface FlowIndex {
  /** The first question node that asks each key. */
  questionByKey: ReadonlyMap<string, CompiledNode>;
  /** Required questions still ahead on the longest route from a node (the node included): the progress estimate. */
  remaining: ReadonlyMap<string, number>;
  /** Command words (lowercased) → command. */
  commands: ReadonlyMap<string, Command>;
  /** Questions per flow, for progress when nothing else is known. */
  questionCount: number;
  /** Each assessed question's `feedback_key` → the question's key. */
  feedbackKeys: ReadonlyMap<string, string>;
  /** Answer keys of `pii: true` questions. */
  piiKeys: readonly string[];
  /**
   * For each question node with `dependencies`: every key it depends on,
   * directly or through their own dependencies, each after its own
   * (depth-first, in declared order). The first unanswered one is asked first.
   */
  dependencyOrder: ReadonlyMap<string, readonly string[]>;
  /** Keys answers can hold that no question asks (assessment feedback, action outputs): not counted as answered questions in progress. */
  notQuestions: readonly string[];
  /**
   * Each node's strongly connected component, numbered so that an edge goes to
   * a lower or equal number: every node a walk from `n` reaches ranks at most
   * rank(n) (server/engine/route-memo.ts relies on it).
   */
  rank: ReadonlyMap<string, number>;
  /** Each question key's lowest rank among the nodes that ask it. */
  keyRank: ReadonlyMap<string, number>;
  /**
   * The slot of each key answers can hold (answer-map.ts): question keys in
   * flow order (highest rank first, then by key), then the other keys sorted.
   */
  answerSlots: AnswerSlots;
  /** Per node id: what a turn needs about the node, precomputed (node-record.ts). */
  records: ReadonlyMap<string, NodeRecord>;
  /** The same records in order, each at its `ordinal`. */
  recordList: readonly NodeRecord[];
}

const COMMANDS: readonly Command[] = ['back', 'restart', 'human', 'cancel', 'skip'];

/** A command's words unless the flow lists its own: the catalogue's, and in another language the English ones too. */
function defaultWords(flow: CompiledFlow, name: Command): readonly string[] {
  const own = flow.messages[`commands_${name}`];
  return flow.locale === 'en' ? own : [...own, ...EN[`commands_${name}`]];
}

const cache = new WeakMap<CompiledFlow, FlowIndex>();

/** The index of a flow, built on first use (a pure function of the flow, memoised). */
export function flowIndex(flow: CompiledFlow): FlowIndex {
  let index = cache.get(flow);
  if (!index) {
    index = buildIndex(flow);
    cache.set(flow, index);
  }
  return index;
}

function buildIndex(flow: CompiledFlow): FlowIndex {
  const questionByKey = new Map<string, CompiledNode>();
  const feedbackKeys = new Map<string, string>();
  for (const c of flow.nodes.values()) {
    if (c.node.type === 'question' && !questionByKey.has(c.node.key)) questionByKey.set(c.node.key, c);
    if (c.node.type === 'question' && c.node.assess?.feedback_key) feedbackKeys.set(c.node.assess.feedback_key, c.node.key);
  }
  const commands = new Map<string, Command>();
  const custom = flow.source.commands ?? {};
  for (const name of COMMANDS) {
    for (const word of custom[name] ?? defaultWords(flow, name)) {
      const w = word.trim().toLowerCase();
      if (!commands.has(w)) commands.set(w, name);
    }
  }
  const notQuestions = new Set(feedbackKeys.keys());
  for (const c of flow.nodes.values()) {
    if (c.node.type === 'action') for (const k of Object.values(c.node.output_map ?? {})) if (!questionByKey.has(k)) notQuestions.add(k);
  }
  const { remaining, rank } = remainingQuestions(flow);
  const keyRank = new Map<string, number>();
  for (const [id, c] of flow.nodes) {
    if (c.node.type === 'question') keyRank.set(c.node.key, Math.min(keyRank.get(c.node.key) ?? Infinity, rank.get(id) ?? -Infinity));
  }
  const order = dependencyOrder(flow, questionByKey);
  const slotted = [...keyRank].sort(([a, ra], [b, rb]) => (ra !== rb ? (ra > rb ? -1 : 1) : a < b ? -1 : a > b ? 1 : 0)).map(([k]) => k);
  const slots = answerSlots([...slotted, ...[...notQuestions].sort()]);
  const records = nodeRecords(flow);
  const unranked = unrankedWalks(flow, rank);
  for (const [id, r] of records) {
    r.rank = rank.get(id);
    r.walkRanked = !unranked.has(id);
    if (r.key !== undefined) {
      r.keyRank = keyRank.get(r.key);
      r.asksFirst = questionByKey.get(r.key) === r.c;
      r.keySlot = slots.slotOf.get(r.key);
    }
    r.edgeSlots = Object.freeze(r.edges.map((e) => (e.guard === null || e.guard === 'else' ? undefined
      : Object.freeze(e.guard.reads.map((k) => slots.slotOf.get(k) ?? -1)))));
    r.dependencies = order.get(id);
  }
  return { questionByKey, remaining, commands, questionCount: questionByKey.size, feedbackKeys,
    piiKeys: [...questionByKey.values()].flatMap((c) => (c.node.type === 'question' && c.node.pii ? [c.node.key] : [])), rank, keyRank, answerSlots: slots,
    notQuestions: [...notQuestions].sort(), dependencyOrder: order, records, recordList: [...records.values()] };
}

/**
 * The nodes from which a progress walk (progress.ts `remainingOnRoute`) may
 * step to a node ranked above the one it leaves. The ranks order the flat
 * graph (a subgraph node leads to its entry, an exit to every caller's next
 * node); a walk also steps past a subgraph node whose `when` is false along
 * the node's own edges, and out of a subgraph node without a chosen edge to
 * its caller's next node. Each node's steps are: its normal edges' targets,
 * a subgraph node's entry, and inside a subgraph the targets of every
 * caller's normal edges (the frame a walk pops is a caller: route-memo.ts
 * checks the stack). A node whose step goes up, and every node that reaches
 * it, is listed.
 */
function unrankedWalks(flow: CompiledFlow, rank: ReadonlyMap<string, number>): Set<string> {
  const callers = new Map<string, string[]>();
  for (const [id, c] of flow.nodes) if (c.node.type === 'subgraph') listed(callers, c.node.ref).push(id);
  const normal = (id: string): string[] => (flow.nodes.get(id)?.out ?? []).filter((e) => !e.on && e.to !== EXIT).map((e) => e.to);
  const pred = new Map<string, string[]>();
  const up: string[] = [];
  for (const [id, c] of flow.nodes) {
    const steps = normal(id);
    if (c.node.type === 'subgraph') {
      const entry = flow.subgraphs.get(c.node.ref)?.entry;
      if (entry !== undefined) steps.push(entry);
    }
    if (c.scope !== null) for (const caller of callers.get(c.scope) ?? []) steps.push(...normal(caller));
    for (const to of steps) {
      if (!flow.nodes.has(to)) continue; // a walk stops at a missing node
      listed(pred, to).push(id);
      if ((rank.get(to) ?? Infinity) > (rank.get(id) ?? -Infinity)) up.push(id);
    }
  }
  return reachableFrom(up, pred); // every node that reaches one of them
}

function listed(m: Map<string, string[]>, k: string): string[] {
  let l = m.get(k);
  if (l === undefined) m.set(k, (l = []));
  return l;
}

/** Each dependent question's transitive dependencies, dependencies first (cycles are a compile error; a seen set guards anyway). */
function dependencyOrder(flow: CompiledFlow, questionByKey: ReadonlyMap<string, CompiledNode>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [id, c] of flow.nodes) {
    if (c.node.type !== 'question' || !c.node.dependencies?.length) continue;
    const order: string[] = [];
    const seen = new Set<string>([c.node.key]);
    const visit = (key: string): void => {
      if (seen.has(key)) return;
      seen.add(key);
      const q = questionByKey.get(key)?.node;
      if (q?.type === 'question') for (const k of q.dependencies ?? []) visit(k);
      order.push(key);
    };
    for (const k of c.node.dependencies) visit(k);
    out.set(id, order);
  }
  return out;
}

/**
 * For each node, the number of required questions on the longest route from it to an
 * end, counting each cycle's questions once (strongly connected components,
 * then longest path over the condensed DAG). Static, so progress costs O(1)
 * per turn however large the flow. The component numbers are the nodes' ranks.
 */
function remainingQuestions(flow: CompiledFlow): { remaining: Map<string, number>; rank: Map<string, number> } {
  const out = new Map<string, string[]>();
  for (const [id, c] of flow.nodes) out.set(id, c.out.filter((e) => !e.on).map((e) => e.to));
  const nodes = new Map([...flow.nodes].map(([id, c]) => [id, { node: c.node, scope: c.scope }]));
  const subgraphEntry = new Map([...flow.subgraphs].map(([name, sg]) => [name, sg.entry]));
  const succ = flatSuccessors({ entry: flow.entry, nodes, out, subgraphEntry });
  const inner = new Map([...succ].map(([v, ws]) => [v, ws.filter((w) => w !== END)]));

  // Tarjan's algorithm, iterative so a long chain cannot overflow the stack
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const comp = new Map<string, number>();
  const comps: string[][] = [];
  let counter = 0;
  for (const root of flow.nodes.keys()) {
    if (indexOf.has(root)) continue;
    const work: Array<{ v: string; i: number }> = [{ v: root, i: 0 }];
    indexOf.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const next = inner.get(top.v) ?? [];
      if (top.i < next.length) {
        const w = next[top.i++]!;
        if (!indexOf.has(w)) {
          indexOf.set(w, counter);
          low.set(w, counter++);
          stack.push(w);
          onStack.add(w);
          work.push({ v: w, i: 0 });
        } else if (onStack.has(w)) low.set(top.v, Math.min(low.get(top.v)!, indexOf.get(w)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]!.v;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.v)!));
      }
      if (low.get(top.v) === indexOf.get(top.v)) {
        const members: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          comp.set(w, comps.length);
          members.push(w);
        } while (w !== top.v);
        comps.push(members);
      }
    }
  }
  // Tarjan emits components in reverse topological order: successors first
  const longest = comps.map(() => 0);
  comps.forEach((members, ci) => {
    const own = members.filter((m) => { const n = flow.nodes.get(m)?.node; return n?.type === 'question' && n.required !== false; }).length;
    let best = 0;
    for (const m of members) {
      for (const w of succ.get(m) ?? []) {
        const cw = comp.get(w);
        if (cw !== undefined && cw !== ci) best = Math.max(best, longest[cw]!);
      }
    }
    longest[ci] = own + best;
  });
  return { remaining: new Map([...comp].map(([id, ci]) => [id, longest[ci]!])), rank: comp };
}
