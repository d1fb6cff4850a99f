// Read models the console gets from the admin REST routes
// (server/transport/http/admin-views.ts, admin-routes.ts) and GraphLayout v1
// (server/render/graph-layout.ts). The wire protocol itself (sessions'
// state, statuses, transcript lines, errors) is not declared here: it is
// imported from server/protocol.

import type { SessionState, Status, WireMessage } from '../../server/protocol/index.ts';
import type { LayoutEdgeKind, LayoutNodeType, NodeFace } from '../../server/render/shapes.ts';

export interface TenantInfo {
  id: string;
  name: string;
  flows: Array<{ id: string; label: string | null; revision: string }>;
}

/** A row of the sessions list: the shared protocol's type (server/protocol/admin-sessions.ts). */
export type { SessionList, SessionRow } from '../../server/protocol/index.ts';

export interface AnswerView {
  key: string;
  value: unknown;
  turn: number;
  source: string;
  extractor: string | null;
  confidence: number | null;
  utterance: string | null;
  validation: string;
  nodeId: string | null;
}

export interface HandBackTarget {
  id: string;
  label: string;
  key: string;
  scope: string | null;
  answered: boolean;
}

export interface Trail {
  nodes: string[];
  edges: string[];
}

export interface SessionDetail {
  session: {
    id: string;
    tenant: string;
    flowId: string;
    revision: string;
    status: Status;
    createdAt: string;
    updatedAt: string;
    operator?: { since: string; by?: string; unanswered?: { since: string; count: number } };
    /** Visitor messages to an escalated session nobody has replied to yet. */
    unanswered?: { since: string; count: number };
    session: { outcome?: string; pending?: { kind: string; when?: string } };
  };
  state: SessionState;
  /** The interrupt the session waits at: who must decide, what they are asked, and its timeout (null when not waiting). */
  interrupt?: { role: string | null; prompt: string | null; timeoutS: number | null } | null;
  messages: WireMessage[];
  /** The trace (engine events), oldest first. */
  events: Array<{ type: string; turn: number; node: string | null; reason?: unknown }>;
  flow: { id: string; revision: string; label: string | null };
  provenance: AnswerView[];
  trail: Trail;
  handBack: HandBackTarget[];
  /** The question the picker starts at: the one the bot was on (null when there is none). */
  handBackAt: string | null;
}

export interface Box { x: number; y: number; width: number; height: number }

export interface GraphNode extends Box {
  id: string;
  type: LayoutNodeType;
  label: string;
  key: string | null;
  answerType: string | null;
  call: string | null;
  ref: string | null;
  outcome: string | null;
  when: string | null;
  scope: string | null;
  entry: boolean;
  groups: string[];
}

export interface GraphEdge {
  id: string;
  from: string;
  to: string;
  kind: LayoutEdgeKind;
  guard: string | null;
  label: string | null;
  points: Array<{ x: number; y: number }>;
  labelBox: Box | null;
}

export interface GraphGroup {
  id: string;
  kind: 'subgraph' | 'ui' | 'path';
  name: string;
  label: string;
  nodes: string[];
  box: Box | null;
}

/** GraphLayout v1 (server/flow/render-json.ts). */
export interface GraphLayout {
  version: 1;
  flow: { id: string; label: string | null; revision: string; entry: string };
  width: number;
  height: number;
  nodes: GraphNode[];
  edges: GraphEdge[];
  groups: GraphGroup[];
}
