import type { TenantDirectory } from '../../catalog/tenants.ts';
import { localeField } from '../../conversation/locale-field.ts';
import { urgentFirst } from '../../protocol/statuses.ts';
import type { EngineEvent } from '../../engine/types.ts';
import type { CompiledFlow } from '../../flow/compiled-flow.ts';
import type { GraphLayout } from '../../render/graph-layout.ts';
import type { SessionStore, SessionSummary, StoredSession } from '../../store/session-store.ts';
import { HttpError } from '../errors.ts';
import { importLayoutModule } from './layout-loader.ts';

// Read models of the operator console (`/admin`), built from the store and the
// flow registry: a sessions list across tenants with filters, the answers
// with their provenance, the path a conversation took through its flow
// revision's graph, and the questions a session can be handed back at.

/** One row of the console's sessions list. */
export interface SessionRow extends SessionSummary {
  revision: string;
  /** The node the conversation is at (the question asked, or the node waited on). */
  nodeId: string | null;
  /** Whether an operator holds the conversation (the bot is quiet until hand-back). */
  operator: boolean;
  /** A visitor message the operator has not replied to yet: since when, and how many (null when none). */
  unanswered: { since: string; count: number } | null;
  answered: number;
  /** The session's language, when it has one. */
  locale?: string;
  /** Set when a flow trigger marked the session urgent (a red flag, a hazard): the reason operators see (null when not). */
  urgent: { reason: string } | null;
  /** A Studio preview (a chat with a draft): the console marks it "Preview". */
  preview?: boolean;
}

export interface ListFilter {
  tenant?: string;
  status?: StoredSession['status'];
  flow?: string;
  limit: number;
}

/** How far a flow-filtered listing reads ahead, at most, per tenant. */
const MAX_SCAN = 10_000;

/**
 * Sessions urgent first (until an operator takes them, while not completed
 * or abandoned: `urgentFirst`), then newest first (by creation), across every tenant or one, filtered by
 * status and flow. The store filters by status; a flow filter reads ahead in
 * growing pages (up to MAX_SCAN sessions per tenant) until `limit` rows match.
 */
export async function listSessions(store: SessionStore, tenants: TenantDirectory, f: ListFilter): Promise<SessionRow[]> {
  const ids = f.tenant ? [f.tenant] : tenants.ids();
  const rows: SessionRow[] = [];
  for (const tenant of ids) {
    let page = f.limit;
    let found: SessionSummary[] = [];
    for (;;) {
      const listed = await store.list(tenant, { limit: page, ...(f.status ? { status: f.status } : {}) });
      found = f.flow ? listed.filter((s) => s.flowId === f.flow) : listed;
      if (found.length >= f.limit || listed.length < page || page >= MAX_SCAN) break;
      page = Math.min(MAX_SCAN, page * 4);
    }
    for (const s of found.slice(0, f.limit)) {
      const record = await store.load(s.id).catch(() => null);
      if (!record) continue;
      rows.push({
        ...s, revision: record.revision, nodeId: record.session.node, operator: record.operator !== undefined,
        unanswered: record.operator?.unanswered ?? record.unanswered ?? null,
        answered: Object.values(record.session.answers).filter((a) => a.validation === 'passed').length,
        ...localeField(record.session),
        urgent: record.session.urgent ? { reason: record.session.urgent.reason } : null,
        ...(record.preview ? { preview: true } : {}),
      });
    }
  }
  // urgent sessions no operator has taken yet first (so a limit never drops them), then newest first
  rows.sort((a, b) => (urgentFirst(a) ? 0 : 1) - (urgentFirst(b) ? 0 : 1)
    || (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id.localeCompare(b.id)));
  return rows.slice(0, f.limit);
}

/** One committed answer with where it came from. */
export interface AnswerView {
  key: string;
  value: unknown;
  turn: number;
  source: string;
  extractor: string | null;
  confidence: number | null;
  /** The visitor's message that gave it (absent for pii answers and non-user sources). */
  utterance: string | null;
  validation: string;
  /** The question node that asks for this key (null when no node asks it, e.g. an action output). */
  nodeId: string | null;
}

/** The session's answers with their provenance, in the order they were given (turn, then key). */
export function provenanceOf(flow: CompiledFlow | undefined, record: StoredSession): AnswerView[] {
  const asker = new Map<string, string>();
  for (const c of flow?.nodes.values() ?? []) if (c.node.type === 'question' && !asker.has(c.node.key)) asker.set(c.node.key, c.node.id);
  return Object.entries(record.session.answers)
    .map(([key, a]) => ({
      key, value: a.value, turn: a.turn, source: a.source, extractor: a.extractor ?? null, confidence: a.confidence ?? null,
      utterance: a.text ?? null, validation: a.validation, nodeId: asker.get(key) ?? null,
    }))
    .sort((a, b) => a.turn - b.turn || a.key.localeCompare(b.key));
}

/** The way a conversation went through its graph: node entries in order, and the layout edges it took. */
export interface Trail {
  /** Node ids in the order they were entered (repeats kept), since the last restart. */
  nodes: string[];
  /** Ids of the layout edges taken (each once), since the last restart. */
  edges: string[];
}

/**
 * The trail of a session from its trace events, in the ids of the graph
 * layout (so the map can draw it): `node_enter` gives the nodes, `node_exit`
 * the edge taken (an edge to `__exit__` is drawn to the subgraph's exit node),
 * `subgraph_enter` the call edge into the subgraph, `resumed` the node an
 * operator handed the conversation back at. A restart starts it over.
 */
export function trailOf(events: readonly EngineEvent[], layout: GraphLayout): Trail {
  const byId = new Map(layout.edges.map((e) => [e.id, e]));
  const exitOf = new Map(layout.nodes.filter((n) => n.type === 'exit').map((n) => [n.scope ?? '', n.id]));
  const scopeOf = new Map(layout.nodes.map((n) => [n.id, n.scope]));
  let nodes: string[] = [];
  let edges = new Set<string>();
  for (const e of events) {
    if (e.type === 'command' && e.command === 'restart') {
      nodes = [];
      edges = new Set();
    } else if ((e.type === 'node_enter' || e.type === 'resumed') && typeof e.node === 'string') {
      // `resumed`: an operator handed the conversation back at this node (a jump, no edge)
      nodes.push(e.node);
    } else if (e.type === 'node_exit' && typeof e.node === 'string' && typeof e.to === 'string') {
      const to = e.to === '__exit__' ? exitOf.get(scopeOf.get(e.node) ?? '') ?? e.to : e.to;
      const named = typeof e.edge === 'string' ? byId.get(e.edge) : undefined;
      const edge = named && named.from === e.node && named.to === to ? named : layout.edges.find((x) => x.from === e.node && x.to === to && x.kind !== 'call');
      if (edge) edges.add(edge.id);
    } else if (e.type === 'subgraph_enter' && typeof e.node === 'string') {
      const call = layout.edges.find((x) => x.kind === 'call' && x.from === e.node);
      if (call) edges.add(call.id);
    }
  }
  return { nodes, edges: [...edges] };
}

/** A question an operator can hand the conversation back at. */
export interface HandBackTarget {
  id: string;
  label: string;
  key: string;
  /** The subgraph the question is in (null at the top level). */
  scope: string | null;
  answered: boolean;
}

/**
 * The questions `handBack` accepts for this session: every top-level question,
 * and those of the subgraphs the conversation is inside (its call stack), in
 * flow order.
 */
export function handBackTargets(flow: CompiledFlow, record: StoredSession): HandBackTarget[] {
  const inside = new Set(record.session.stack.map((f) => f.ref));
  const out: HandBackTarget[] = [];
  for (const c of flow.nodes.values()) {
    if (c.node.type !== 'question') continue;
    if (c.scope !== null && !inside.has(c.scope)) continue;
    out.push({ id: c.node.id, label: c.node.label ?? c.node.id, key: c.node.key, scope: c.scope, answered: c.node.key in record.session.answers });
  }
  return out;
}

/**
 * Graph layouts by flow revision (a revision never changes, so neither does its
 * layout). The layout module (dagre, an optional peer) is loaded on the first
 * layout asked for, so a server without the admin console never needs it;
 * without dagre installed, asking for a layout fails with `not_installed`.
 */
export class LayoutCache {
  private readonly layouts = new Map<string, GraphLayout>();
  constructor(private readonly max = 64) {}

  async of(flow: CompiledFlow): Promise<GraphLayout> {
    const key = `${flow.id}@${flow.revision}`;
    let layout = this.layouts.get(key);
    if (!layout) {
      const { layoutFlow } = await importLayoutModule(() => import('../../render/layout.ts'));
      layout = layoutFlow(flow);
      if (this.layouts.size >= this.max) this.layouts.delete(this.layouts.keys().next().value!);
      this.layouts.set(key, layout);
    }
    return layout;
  }

  /** The layout, or null when the layout's optional package is not installed (for views that can do without it). */
  async ifInstalled(flow: CompiledFlow): Promise<GraphLayout | null> {
    try {
      return await this.of(flow);
    } catch (err) {
      if (err instanceof HttpError && err.code === 'not_installed') return null;
      throw err;
    }
  }
}
