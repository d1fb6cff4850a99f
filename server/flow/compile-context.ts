import type { CompiledConstraint, CompiledEdge, CompiledNode } from './compiled-flow.ts';
import { desugar, type PlacedEdge, type PlacedNode } from './desugar.ts';
import type { Diagnostic } from './diagnostic.ts';
import { compileGuard, type AnswerKeyInfo, type CheckOptions, type CompiledGuard } from './guard/index.ts';
import type { DocPath, SourceMap } from './load.ts';
import type { BuiltInMessages } from './messages/catalogue.ts';
import type { FlowSource, FlowV1 } from './schema.ts';

// What the compile passes share: the flow as the desugarer placed it, what
// each pass found (filled in pass order; a pass reads only what earlier passes
// wrote), and one diagnostics list. Diagnostics are data: a pass reports and
// carries on, so one run returns every problem.

/** What the compiler needs: the flow, and optionally where it came from for positions. */
export interface CompileInput {
  /** The flow as written: texts may be maps by locale. */
  flow: FlowSource;
  /** Built-in texts changed outside the flow (a tenant's), by locale; the flow's own `messages` come first. */
  messages?: Readonly<Record<string, BuiltInMessages>>;
  file?: string;
  map?: SourceMap;
  /** Source paths of nodes that came from another document (the v0 migrator). */
  nodePath?: (id: string) => DocPath | undefined;
}

/** Where a diagnostic points: a document path (turned into line and column), a node, an edge. */
export interface Where {
  path?: DocPath;
  node?: string;
  edge?: string;
  /** A column inside the string at `path` (guards written inline). */
  col?: number;
  /** Point at the key rather than the value. */
  key?: boolean;
}

/** Reports one diagnostic of a fixed severity. */
export type Report = (code: string, message: string, where?: Where) => void;

/** Where a guard sits, for its diagnostics. */
export interface GuardSite {
  path?: DocPath;
  node?: string;
  edge?: string;
  /** Characters the compiled source has in front of what the author wrote (`has(` around a route's `on`). */
  offset?: number;
  /** False when the source was generated, so a column inside it means nothing to the author. */
  inline?: boolean;
}

/** Compiles one guard against the flow's answer keys, reporting its issues; null when it does not compile. */
export type GuardOf = (source: string, at: GuardSite, opts?: Partial<CheckOptions>) => CompiledGuard | null;

/** The compiler's working state, passed through every pass. */
export interface CompileContext {
  readonly flow: FlowV1;
  readonly map: SourceMap | undefined;
  readonly placed: { nodes: PlacedNode[]; edges: PlacedEdge[] };
  readonly diagnostics: Diagnostic[];
  readonly error: Report;
  readonly warn: Report;
  readonly guardOf: GuardOf;
  /** The first node placed under each id (later duplicates are reported and skipped). */
  readonly byId: Map<string, PlacedNode>;
  readonly subgraphNames: string[];
  /** Answer keys with their types (questions, action outputs, assessment feedback). */
  readonly keys: Map<string, AnswerKeyInfo>;
  /** The questions asking each answer key. */
  readonly keyNodes: Map<string, PlacedNode[]>;
  entry: string | undefined;
  readonly subgraphEntry: Map<string, string | undefined>;
  /** Decisions whose `routes.on` does not compile: their cases are not compiled either. */
  readonly badRoutes: Set<string>;
  readonly edges: CompiledEdge[];
  /** Outgoing edges of each existing source node, in source order. */
  readonly out: Map<string, CompiledEdge[]>;
  readonly nodes: Map<string, CompiledNode>;
  /** Answer key → keys it depends on. */
  readonly dependencies: Map<string, string[]>;
  readonly constraints: CompiledConstraint[];
  /** Some guard reads `path`. */
  usesPath: boolean;
}

/** A fresh context for `input`: the flow desugared, nothing found yet. */
export function createContext(input: CompileInput & { flow: FlowV1 }): CompileContext {
  const { flow, file, map } = input;
  const diagnostics: Diagnostic[] = [];
  const declared = declaredValues(flow);
  const report = (severity: Diagnostic['severity'], code: string, message: string, where: Where = {}) => {
    const pos = where.path && map ? (where.col ? map.inString(where.path, where.col) : map.at(where.path, { key: where.key })) : undefined;
    diagnostics.push({
      code, severity, message,
      ...(file ? { file } : {}),
      ...(pos ? { line: pos.line, col: pos.col } : {}),
      ...(where.node ? { node: where.node } : {}),
      ...(where.edge ? { edge: where.edge } : {}),
    });
  };
  const ctx: CompileContext = {
    flow,
    map,
    placed: desugar(flow, input.nodePath),
    diagnostics,
    error: (code, message, where) => report('error', code, message, where),
    warn: (code, message, where) => report('warning', code, message, where),
    guardOf: (source, at, opts = {}) => {
      const res = compileGuard(source, { answers: ctx.keys, ...declared, ...opts });
      for (const issue of res.issues) {
        const col = Math.max(1, issue.column - (at.offset ?? 0));
        const what = at.edge ? `edge ${at.edge}` : at.node ? `node '${at.node}'` : 'expression';
        report(issue.severity, `guard_${issue.code}`, `${what}: ${issue.message} (column ${col} of "${truncate(source)}")`,
          { ...(at.path ? { path: at.path } : {}), ...(at.node ? { node: at.node } : {}), ...(at.edge ? { edge: at.edge } : {}), ...(at.inline === false ? {} : { col }) });
      }
      if (!res.ok) return null;
      ctx.usesPath ||= res.guard.usesPath;
      return res.guard;
    },
    byId: new Map(),
    subgraphNames: Object.keys(flow.subgraphs ?? {}),
    keys: new Map(),
    keyNodes: new Map(),
    entry: undefined,
    subgraphEntry: new Map(),
    badRoutes: new Set(),
    edges: [],
    out: new Map(),
    nodes: new Map(),
    dependencies: new Map(),
    constraints: [],
    usesPath: false,
  };
  return ctx;
}

/** True for the node placed first under its id (a later duplicate was reported by indexNodes). */
export const isCanonical = (ctx: CompileContext, p: PlacedNode): boolean => ctx.byId.get(p.node.id) === p;

/** How a diagnostic names a scope. */
export const scopeName = (scope: string | null): string => (scope === null ? 'the top level' : `subgraph '${scope}'`);

const truncate = (s: string) => (s.length > 60 ? `${s.slice(0, 57)}...` : s);

/**
 * What a guard may compare `path` and `context.KEY` with: the flow's path
 * names, and each `interface.context` property whose `enum` lists strings.
 */
function declaredValues(flow: FlowV1): Pick<CheckOptions, 'paths' | 'contextValues'> {
  const paths = flow.paths?.options ? Object.keys(flow.paths.options) : undefined;
  const properties = (flow.interface?.context as { properties?: Record<string, unknown> } | undefined)?.properties;
  const contextValues = new Map<string, readonly string[]>();
  for (const [key, prop] of Object.entries(properties ?? {})) {
    const values = (prop as { enum?: unknown } | null)?.enum;
    if (Array.isArray(values) && values.length > 0 && values.every((v) => typeof v === 'string')) contextValues.set(key, values as string[]);
  }
  return { ...(paths && paths.length ? { paths } : {}), ...(contextValues.size ? { contextValues } : {}) };
}
