import type { z } from 'zod';
import type { AnswerKeyInfo, CompiledGuard } from './guard/index.ts';
import type { Messages } from './messages/catalogue.ts';
import type { Constraint, Edge, FlowSource, FlowV1, Node, ValidateRule } from './schema.ts';

/** An edge ready to run: its guard compiled once. */
export interface CompiledEdge {
  /** Position among all edges of the flow (stable, file order); coverage counts by it. */
  index: number;
  /** The edge's `id`, else `from->to` (with `#n` when the pair repeats). */
  id: string;
  from: string;
  /** A node id or `__exit__`. */
  to: string;
  on?: Edge['on'];
  /** `null` is always true; `else` is taken only when no other edge of the node matched. */
  guard: CompiledGuard | 'else' | null;
  source: Edge;
}

/** A compiled validation rule: a guard over `value`, or a registered validator's name. */
export type CompiledValidator =
  | { kind: 'expr'; guard: CompiledGuard; message?: string }
  | { kind: 'named'; name: string; args?: unknown; message?: string };

/** A node ready to run. */
export interface CompiledNode {
  node: Node;
  /** The subgraph the node belongs to, or null at the top level. */
  scope: string | null;
  /** Outgoing edges in file order. */
  out: CompiledEdge[];
  when: CompiledGuard | null;
  validators: CompiledValidator[];
  /** For questions: the zod schema of a committed value. */
  valueSchema?: z.ZodType;
  /** For a question with `derive`: its expression, compiled (flow-ir.md "Derived answers"). */
  derive?: CompiledGuard;
}

/** A flow-level constraint, compiled. */
export type CompiledConstraint =
  | { kind: 'oneOf'; groups: string[][]; message?: string; source: Constraint }
  | { kind: 'expr'; name: string; guard: CompiledGuard; message?: string; source: Constraint };

/** The output of the compiler: indexed, guards compiled, pinned by a content hash. */
export interface CompiledFlow {
  id: string;
  label?: string;
  /** Content hash of the plain (desugared) flow: sessions are pinned to it. */
  revision: string;
  /** The locale this compile speaks: its texts and `messages` are in it. */
  locale: string;
  /** The built-in texts in `locale` (shipped catalogue, then the flow's and the tenant's changes). */
  messages: Messages;
  /** The flow with sugar expanded, projected to `locale`, as the engine and renderers see it. */
  source: FlowV1;
  /** For a flow that declares `locales`: its compile in each (same revision, same node ids) and the flow as written. */
  i18n?: FlowLocales;
  entry: string;
  nodes: ReadonlyMap<string, CompiledNode>;
  edges: readonly CompiledEdge[];
  subgraphs: ReadonlyMap<string, { entry: string; nodes: readonly string[] }>;
  /** Every answer key the flow defines, with its type. */
  keys: ReadonlyMap<string, AnswerKeyInfo>;
  constraints: readonly CompiledConstraint[];
}

/** A localized flow's languages, shared by each locale's compile. */
export interface FlowLocales {
  locales: readonly string[];
  defaultLocale: string;
  byLocale: ReadonlyMap<string, CompiledFlow>;
  /** The flow as written (texts by locale): what the revision archive keeps and recompiles. */
  source: FlowSource;
}

export type { ValidateRule };
