import type { EngineEvent } from '../engine/types.ts';

// What one session has done that the funnel counts (docs/insights.md): the
// nodes it reached and left, where it was re-asked and why, and the node of
// its last ending. Folded from the engine's events turn by turn, kept on the
// stored record (`StoredSession.insights`), so a turn's counts are the
// difference between the record's tally before and after it — and
// `questline insights rebuild` gets the same facts by folding the stored
// events of each session from the start.

/** A session's funnel facts: sets of node ids (in first-seen order) and re-ask reasons by node. */
export interface FunnelFacts {
  /** Nodes entered (node_enter). */
  reached: string[];
  /** Nodes left forward (node_exit): a question answered, any other node passed. */
  answered: string[];
  /** Questions the visitor was asked again after an answer that did not pass (validation_failed from the visitor). */
  reasked: string[];
  /** Per node, per reason: how many re-asks. */
  reasons: Record<string, Record<string, number>>;
  /** The node of the last ending event (completed, escalated, abandoned, error), or of the last node entered. */
  last: string | null;
  /** Edges taken (the edge id of each node_exit that names one); absent on facts kept before edges were. */
  edges?: string[];
}

/** The facts of a session that has done nothing yet. */
export const NO_FACTS: FunnelFacts = Object.freeze({ reached: [], answered: [], reasked: [], reasons: {}, last: null }) as FunnelFacts;

const ENDINGS: ReadonlySet<string> = new Set(['completed', 'escalated', 'abandoned', 'error']);

/** The facts after a turn's events (a new object; `facts` is left as it is). */
export function foldEvents(facts: FunnelFacts | undefined, events: readonly EngineEvent[]): FunnelFacts {
  const f = facts ?? NO_FACTS;
  let reached: string[] | null = null;
  let answered: string[] | null = null;
  let reasked: string[] | null = null;
  let reasons: Record<string, Record<string, number>> | null = null;
  let edges: string[] | null = null;
  let last = f.last;
  for (const e of events) {
    const node = e.node;
    if (node === null) continue;
    if (e.type === 'node_enter') {
      last = node;
      if (!(reached ?? f.reached).includes(node)) (reached ??= [...f.reached]).push(node);
    } else if (e.type === 'node_exit') {
      if (!(answered ?? f.answered).includes(node)) (answered ??= [...f.answered]).push(node);
      if (typeof e.edge === 'string' && !(edges ?? f.edges ?? []).includes(e.edge)) (edges ??= [...(f.edges ?? [])]).push(e.edge);
    } else if (e.type === 'validation_failed' && e.source === undefined) {
      // a visitor's answer refused (corrections by an operator or given context carry a `source`)
      if (!(reasked ?? f.reasked).includes(node)) (reasked ??= [...f.reasked]).push(node);
      const reason = typeof e.reason === 'string' && e.reason ? e.reason : 'unknown';
      reasons ??= Object.fromEntries(Object.entries(f.reasons).map(([n, r]) => [n, { ...r }]));
      const at = (reasons[node] ??= {});
      at[reason] = (at[reason] ?? 0) + 1;
    } else if (ENDINGS.has(e.type)) {
      last = node;
    }
  }
  if (!reached && !answered && !reasked && !reasons && !edges && last === f.last && facts) return facts;
  const taken = edges ?? f.edges;
  return { reached: reached ?? f.reached, answered: answered ?? f.answered, reasked: reasked ?? f.reasked, reasons: reasons ?? f.reasons, last, ...(taken ? { edges: taken } : {}) };
}
