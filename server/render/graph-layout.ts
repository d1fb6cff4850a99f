import { z } from 'zod';

/*
 * The graph layout JSON (`questline graph FLOW --format json`), version 1.
 * It drives the HTML picture and the admin's live flow map, so it is a stable
 * format: fields are only added within a version, never renamed or removed.
 * The same compiled flow always gives byte-identical JSON.
 *
 * Coordinates are pixels in a top-to-bottom layout computed by dagre; every
 * box is { x, y, width, height } with (x, y) its top-left corner, and the
 * whole picture fits in [0, width] × [0, height].
 *
 * {
 *   version: 1,
 *   flow:   { id, label: string|null, revision, entry },   // entry: the first node's id
 *   direction: "TB",
 *   width, height,
 *   nodes: [{
 *     id,                      // node id; exit pseudo-nodes get "<subgraph>/__exit__"
 *     type,                    // question | decision | action | subgraph | terminal | exit
 *     label,                   // the node's label, else its id ("exit" for exits)
 *     key, answerType,         // questions: answer key and answer type (text when unset); else null
 *     call,                    // actions: the handler name; else null
 *     ref,                     // subgraph nodes: the subgraph they enter; else null
 *     outcome,                 // terminals: outcome (completed when unset); else null
 *     when,                    // the node's `when` guard text, or null
 *     scope,                   // the subgraph the node belongs to, or null at the top level
 *     entry,                   // true for the flow's entry and each subgraph's entry
 *     tags, ui,                // passed through from the flow (ui: null when absent)
 *     groups,                  // ids of the groups that contain the node, in `groups` order
 *     x, y, width, height
 *   }],
 *   edges: [{
 *     id,                      // the edge's id, else "from->to" (#n when repeated); calls: "<node>/call"
 *     from, to,                // node ids; an edge to __exit__ points at its subgraph's exit node
 *     kind,                    // normal | else | invalid | failure | rejected | call | exit
 *                              //   on-edges take their `on`; then edges to __exit__ are exit;
 *                              //   then guard "else" is else; call: a subgraph node to its subgraph's entry
 *     guard,                   // the guard text as written ("else" for else edges), or null
 *     label,                   // the edge's label, or null
 *     points: [{ x, y }, …],   // the route from the source's outline to the target's (≥ 2 points)
 *     labelBox                 // where the label (label / on-kind / guard) is drawn, or null
 *   }],
 *   groups: [{
 *     id,                      // "subgraph:<name>", "ui:<group>" ("ui:<subgraph>/<group>" inside one), "path:<name>"
 *     kind,                    // subgraph | ui | path
 *     name, label,             // subgraph / ui group / path name, and its label (else the name)
 *     nodes,                   // member node ids, in flow order
 *     box                      // the cluster drawn around them; null for paths
 *   }]
 * }
 *
 * Groups: a subgraph's nodes (and its exit) form a cluster; nodes that share a
 * `ui.group` string in the same scope form a cluster nested in it; a path's
 * group is its branch — the nodes every route to which passes through an
 * edge whose guard reads `path == '<name>'` (rule in render-paths.ts). Order:
 * subgraphs (file order), ui groups (first appearance), paths (declared order).
 */

const Num = z.number().describe('pixels');
const Box = z.object({ x: Num, y: Num, width: z.number().nonnegative(), height: z.number().nonnegative() }).strict();

export const GraphNodeType = z.enum(['question', 'decision', 'action', 'subgraph', 'terminal', 'exit']);
export const GraphEdgeKind = z.enum(['normal', 'else', 'invalid', 'failure', 'rejected', 'no_path', 'call', 'exit']);

export const GraphLayoutNode = z
  .object({
    id: z.string(),
    type: GraphNodeType,
    label: z.string(),
    key: z.string().nullable(),
    answerType: z.string().nullable(),
    call: z.string().nullable(),
    ref: z.string().nullable(),
    outcome: z.string().nullable(),
    when: z.string().nullable(),
    scope: z.string().nullable(),
    entry: z.boolean(),
    tags: z.array(z.string()),
    ui: z.record(z.string(), z.unknown()).nullable(),
    groups: z.array(z.string()),
    ...Box.shape,
  })
  .strict();
export type GraphLayoutNode = z.infer<typeof GraphLayoutNode>;

export const GraphLayoutEdge = z
  .object({
    id: z.string(),
    from: z.string(),
    to: z.string(),
    kind: GraphEdgeKind,
    guard: z.string().nullable(),
    label: z.string().nullable(),
    points: z.array(z.object({ x: Num, y: Num }).strict()).min(2),
    labelBox: Box.nullable(),
  })
  .strict();
export type GraphLayoutEdge = z.infer<typeof GraphLayoutEdge>;

export const GraphLayoutGroup = z
  .object({
    id: z.string(),
    kind: z.enum(['subgraph', 'ui', 'path']),
    name: z.string(),
    label: z.string(),
    nodes: z.array(z.string()),
    box: Box.nullable(),
  })
  .strict();
export type GraphLayoutGroup = z.infer<typeof GraphLayoutGroup>;

/** The graph layout JSON, version 1 (see the comment above). */
export const GraphLayout = z
  .object({
    version: z.literal(1),
    flow: z.object({ id: z.string(), label: z.string().nullable(), revision: z.string(), entry: z.string() }).strict(),
    direction: z.literal('TB'),
    width: z.number().nonnegative(),
    height: z.number().nonnegative(),
    nodes: z.array(GraphLayoutNode),
    edges: z.array(GraphLayoutEdge),
    groups: z.array(GraphLayoutGroup),
  })
  .strict();
export type GraphLayout = z.infer<typeof GraphLayout>;
