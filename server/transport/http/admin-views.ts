import type { TenantDirectory } from '../../catalog/tenants.ts';
import { localeField } from '../../conversation/locale-field.ts';
import { urgentFirst } from '../../protocol/statuses.ts';
import type { EngineEvent } from '../../engine/types.ts';
import type { CompiledFlow } from '../../flow/compiled-flow.ts';
import type { GraphLayout } from '../../render/graph-layout.ts';
import type { SessionStore, SessionSummary, StoredSession } from '../../store/session-store.ts';
import { HttpError } from '../errors.ts';
import { LIMITS } from '../../protocol/limits.ts';
import { type SessionList, type SessionRow, type VisitorLabel } from '../../protocol/admin-sessions.ts';
import { importLayoutModule } from './layout-loader.ts';

// Read models of the operator console (`/admin`), built from the store and the
// flow registry: a sessions list across tenants with filters, the answers
// with their provenance, the path a conversation took through its flow
// revision's graph, and the questions a session can be handed back at.

export type { SessionRow } from '../../protocol/admin-sessions.ts';

export interface ListFilter {
  tenant?: string;
  status?: StoredSession['status'];
  flow?: string;
  /** A search text (`?q=`): name, email, phone, any answer's text, or the session id. */
  q?: string;
  limit: number;
}

/** How far a flow-filtered listing reads ahead, at most, per tenant. */
const MAX_SCAN = 10_000;

/** How many of a tenant's newest sessions a search reads, at most (its cost bound: one record load each). */
export const SEARCH_SCAN = 5_000;

/**
 * Sessions for the person answering, across every tenant or one, filtered by
 * status, flow and a search text, in the order `rowOrder` gives (urgent ones
 * no operator has taken, then unanswered, then the rest waiting for a person,
 * longest wait first, then newest first). The store filters by status; a flow
 * filter reads ahead in growing pages (up to MAX_SCAN sessions per tenant)
 * until `limit` rows match; a search reads at most SEARCH_SCAN per tenant.
 */
export async function listSessions(store: SessionStore, tenants: TenantDirectory, f: ListFilter, lines = new LastMessages()): Promise<SessionList> {
  const ids = f.tenant ? [f.tenant] : tenants.ids();
  const rows: SessionRow[] = [];
  const search = f.q ? searchOf(f.q) : null;
  let scanned = 0;
  let complete = true;
  for (const tenant of ids) {
    if (search) {
      const listed = await store.list(tenant, { limit: SEARCH_SCAN, ...(f.status ? { status: f.status } : {}) });
      if (listed.length >= SEARCH_SCAN) complete = false;
      let matched = 0;
      for (const s of listed) {
        if (matched >= f.limit) break;
        if (f.flow && s.flowId !== f.flow) continue;
        scanned++;
        const record = await store.load(s.id).catch(() => null);
        if (!record) continue;
        const flow = tenants.pinned(record.flowId, record.revision);
        if (!search(record, visitorOf(flow, record))) continue;
        matched++;
        rows.push(await rowOf(store, lines, flow, s, record));
      }
      continue;
    }
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
      rows.push(await rowOf(store, lines, tenants.pinned(record.flowId, record.revision), s, record));
    }
  }
  rows.sort(rowOrder);
  return { sessions: rows.slice(0, f.limit), ...(search ? { search: { scanned, complete } } : {}) };
}

/** One row from a stored record: who the visitor is, the last line, since when a person is waited for. */
async function rowOf(store: SessionStore, lines: LastMessages, flow: CompiledFlow | undefined, s: SessionSummary, record: StoredSession): Promise<SessionRow> {
  // a closed escalation waits for nobody (the visitor was told it is closed)
  const closed = record.status === 'escalated' && record.session.handover?.closed !== undefined;
  const unanswered = closed ? null : record.operator?.unanswered ?? record.unanswered ?? null;
  const needsPerson = (record.status === 'escalated' && !record.operator && !closed) || record.status === 'waiting';
  return {
    ...s, revision: record.revision, nodeId: record.session.node, operator: record.operator !== undefined,
    unanswered,
    answered: Object.values(record.session.answers).filter((a) => a.validation === 'passed').length,
    ...localeField(record.session),
    urgent: record.session.urgent ? { reason: record.session.urgent.reason } : null,
    ...(record.preview ? { preview: true } : {}),
    ...(closed ? { closed: true as const } : {}),
    visitor: visitorOf(flow, record),
    lastMessage: await lines.of(store, record),
    waitingSince: unanswered?.since ?? (needsPerson ? record.updatedAt : null),
  };
}

/**
 * The list's order: urgent sessions no operator has taken or closed yet (`urgentFirst`,
 * so a limit never drops them), then those with unanswered visitor messages,
 * then the others a person is waited for — each group longest wait first —
 * then the rest newest first (by creation).
 */
export function rowOrder(a: SessionRow, b: SessionRow): number {
  const group = (r: SessionRow) => (urgentFirst(r) && !r.closed ? 0 : r.unanswered ? 1 : r.waitingSince ? 2 : 3);
  const wait = (r: SessionRow) => r.waitingSince ?? '';
  return group(a) - group(b)
    || (group(a) < 3 && wait(a) !== wait(b) ? (wait(a) < wait(b) ? -1 : 1) : 0)
    || (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id.localeCompare(b.id));
}

/** The answer keys that say who a visitor is, per flow revision: name-kind questions (the respondent's first) and contact keys. */
const labelKeys = new WeakMap<CompiledFlow, { names: string[]; contacts: string[] }>();

function keysOf(flow: CompiledFlow): { names: string[]; contacts: string[] } {
  let keys = labelKeys.get(flow);
  if (!keys) {
    const respondent: string[] = [];
    const subject: string[] = [];
    const typed: string[] = [];
    for (const c of flow.nodes.values()) {
      if (c.node.type !== 'question') continue;
      const a = c.node.answer as { type?: string; kind?: string; of?: string } | undefined;
      if (a?.type === 'text' && a.kind === 'name') (a.of === 'subject' ? subject : respondent).push(c.node.key);
      if (a?.type === 'email' || a?.type === 'phone') typed.push(c.node.key);
    }
    const declared = flow.source.contact ?? [];
    keys = { names: [...new Set([...respondent, ...subject])], contacts: [...new Set([...declared, ...typed])] };
    labelKeys.set(flow, keys);
  }
  return keys;
}

/** A committed answer's value as text (null when absent, skipped or empty). */
function textOf(record: StoredSession, key: string): string | null {
  const a = record.session.answers[key];
  if (!a || a.validation !== 'passed' || a.value === null || a.value === undefined) return null;
  const t = typeof a.value === 'string' ? a.value : typeof a.value === 'number' || typeof a.value === 'boolean' ? String(a.value) : null;
  return t && t.trim() ? t.trim() : null;
}

/** Who the visitor is, from their answers: the first name-kind answer and the first answered contact key. */
export function visitorOf(flow: CompiledFlow | undefined, record: StoredSession): VisitorLabel {
  if (!flow) return { name: null, contact: null };
  const { names, contacts } = keysOf(flow);
  const first = (keys: string[]) => keys.map((k) => textOf(record, k)).find((v) => v !== null) ?? null;
  return { name: first(names), contact: first(contacts) };
}

/** Lower-cased, spacing collapsed. */
const fold = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * A search: every word of the text must occur in the session's id, the
 * visitor's name or contact, or any committed answer's value (case and spacing
 * ignored); a text with three or more digits also matches a phone number or
 * other value with the same digits however they are spaced or punctuated.
 */
export function searchOf(q: string): (record: StoredSession, visitor: VisitorLabel) => boolean {
  const words = fold(q).split(' ').filter(Boolean);
  const digits = q.replace(/\D/g, '');
  const byDigits = digits.length >= 3 && /^[\d\s()+.\-/]+$/.test(q.trim());
  return (record, visitor) => {
    const texts: string[] = [record.id, visitor.name ?? '', visitor.contact ?? ''];
    for (const a of Object.values(record.session.answers)) {
      if (a.value === null || a.value === undefined) continue;
      if (Array.isArray(a.value)) texts.push(...a.value.map(String));
      else texts.push(typeof a.value === 'object' ? JSON.stringify(a.value) : String(a.value));
    }
    const hay = fold(texts.join(' \u0000 '));
    if (words.every((w) => hay.includes(w))) return true;
    return byDigits && texts.some((t) => t.replace(/\D/g, '').includes(digits));
  };
}

/**
 * The last line a person wrote in each session (the visitor, or an operator;
 * the bot's own line when no person has written yet), remembered by the
 * record's `seq` (a new line changes it), so a list refreshed every few
 * seconds reads a session's transcript only when it has moved. Bounded: the
 * oldest entries go first.
 */
export class LastMessages {
  private readonly seen = new Map<string, { seq: number; line: SessionRow['lastMessage'] }>();
  constructor(private readonly max = 5_000) {}

  /** The record's last line, read from the store only when its `seq` moved since the last call. */
  async of(store: SessionStore, record: StoredSession): Promise<SessionRow['lastMessage']> {
    const hit = this.seen.get(record.id);
    if (hit && hit.seq === record.seq) return hit.line;
    // the recent lines first; the whole transcript only when no person wrote among them
    let lines = record.seq > 0 ? await store.transcript(record.id, Math.max(0, record.seq - RECENT)).catch(() => []) : [];
    let last = lines.findLast((e) => e.role !== 'bot');
    if (!last && record.seq > RECENT) {
      lines = await store.transcript(record.id).catch(() => []);
      last = lines.findLast((e) => e.role !== 'bot');
    }
    last ??= lines.at(-1);
    const line = last ? { role: last.role, text: last.text.length > LIMITS.previewChars ? `${last.text.slice(0, LIMITS.previewChars - 1)}…` : last.text, at: last.at } : null;
    this.seen.delete(record.id);
    if (this.seen.size >= this.max) this.seen.delete(this.seen.keys().next().value!);
    this.seen.set(record.id, { seq: record.seq, line });
    return line;
  }
}

/** How many of the newest transcript lines are read first for a row's last line. */
const RECENT = 12;

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
 * The question a hand-back picker starts at: the one the bot was on — the
 * session's node when it is a question, else the last question entered
 * before it left (a red flag moves the session to its advice node, an
 * escalation to a person keeps it where it was) — else the first unanswered
 * one; null when there is none.
 */
export function handBackDefault(targets: readonly HandBackTarget[], record: StoredSession, events: readonly EngineEvent[]): string | null {
  const ids = new Set(targets.map((t) => t.id));
  if (record.session.node && ids.has(record.session.node)) return record.session.node;
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type === 'command' && e.command === 'restart') break;
    if ((e.type === 'node_enter' || e.type === 'resumed') && typeof e.node === 'string' && ids.has(e.node)) return e.node;
  }
  return targets.find((t) => !t.answered)?.id ?? targets[0]?.id ?? null;
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
