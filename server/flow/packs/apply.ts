import { z } from 'zod';
import { emptySourceMap, type DocPath } from '../load.ts';
import { patternProblem } from './paths.ts';
import { edgeKey, isObj, MergeState, type Site } from './state.ts';
import { Node, type Edge, type Overlay, type OverlayNode } from '../schema.ts';
import { schemaDiagnostics } from '../schema-issues.ts';

// Applies one overlay to the flow being merged, in a fixed order: its merge
// rules, then removals (edges, then nodes with their edges), subgraphs, nodes,
// edges, and finally flow-level fields. Nodes and edges are addressed by id,
// wherever they live; new ones are placed by the rules in flows/packs/README.md.

type Obj = Record<string, unknown>;
const EDGE_FIELDS = ['id', 'from', 'to', 'guard', 'on', 'label'] as const;
/** A source map with no positions, for documents that exist only in memory. */
export const EMPTY_MAP = emptySourceMap();
const scopeName = (scope: string | null) => (scope === null ? 'the top level' : `subgraph '${scope}'`);

/** Applies overlay `o`, the layer at index `layer`, to the merge state. */
export function applyOverlay(st: MergeState, layer: number, o: Overlay): void {
  addRules(st, layer, o);
  removeEdges(st, layer, o);
  removeNodes(st, layer, o);
  const seen = new Set<string>();
  const edges: Array<{ edge: Edge; src: DocPath; scope?: string }> = [];
  for (const name of Object.keys(o.subgraphs ?? {}).sort()) {
    const sg = o.subgraphs![name]!;
    const base = ['subgraphs', name];
    const existing = st.flow.subgraphs?.[name];
    if (!existing) {
      const created = { ...(sg.label !== undefined ? { label: sg.label } : {}), ...(sg.entry !== undefined ? { entry: sg.entry } : {}) };
      st.flow.subgraphs = { ...(st.flow.subgraphs ?? {}), [name]: { ...created, nodes: [], ...(sg.edges ? { edges: [] } : {}) } };
      st.record(['subgraphs', name], layer, 'override', undefined, created);
    } else {
      for (const k of ['label', 'entry'] as const) {
        const v = st.mergeField(['subgraphs', name, k], existing[k], sg[k], { layer, src: [...base, k] });
        if (v === undefined) delete existing[k];
        else existing[k] = v as string;
      }
    }
    (sg.nodes ?? []).forEach((n, i) => upsertNode(st, { layer, src: [...base, 'nodes', i] }, n, seen, name));
    (sg.edges ?? []).forEach((edge, i) => edges.push({ edge, src: [...base, 'edges', i], scope: name }));
  }
  (o.nodes ?? []).forEach((n, i) => upsertNode(st, { layer, src: ['nodes', i] }, n, seen));
  (o.edges ?? []).forEach((edge, i) => edges.push({ edge, src: ['edges', i] }));
  for (const e of edges) upsertEdge(st, { layer, src: e.src }, e.edge, e.scope);
  mergeFlowFields(st, layer, o);
}

function addRules(st: MergeState, layer: number, o: Overlay): void {
  for (const pattern of Object.keys(o.merge ?? {}).sort()) {
    const problem = patternProblem(pattern);
    if (problem) st.diag('error', 'bad_merge_path', problem, { layer, src: ['merge', pattern] }, {}, { key: true });
    else st.rules.add({ pattern, strategy: o.merge![pattern]!, layer, label: st.layers[layer]!.label });
  }
}

/** Refuses (as conflicts) the removal of anything with a locked field; true when the removal may go ahead. */
function removable(st: MergeState, segs: string[], value: unknown, site: Site): boolean {
  const whole = st.rules.lockOf(segs, site.layer);
  if (whole) {
    st.conflict(segs, value, undefined, site, whole);
    return false;
  }
  for (const leaf of st.leafPaths(segs, value)) {
    const lock = st.rules.lockOf(leaf, site.layer);
    if (lock) {
      let v: unknown = value;
      for (const k of leaf.slice(segs.length)) v = (v as Obj)[k];
      st.conflict(leaf, v, undefined, site, lock);
      return false;
    }
  }
  return true;
}

function removeEdge(st: MergeState, layer: number, edge: Edge, list: Edge[], cause?: string): void {
  list.splice(list.indexOf(edge), 1);
  st.record(['edges', edgeKey(edge)], layer, 'override', edge, undefined, cause ? { cause } : {});
  st.origins.delete(`edge:${edgeKey(edge)}`);
}

function removeEdges(st: MergeState, layer: number, o: Overlay): void {
  (o.remove?.edges ?? []).forEach((ref, i) => {
    const site = { layer, src: ['remove', 'edges', i] };
    if ('from' in ref) {
      const from = st.findNode(ref.from);
      if (from) st.explicitEdges(from.scope); // an edge of a sequence exists only once written out
    }
    const hits = st.allEdges().filter(({ edge }) => ('id' in ref ? edge.id === ref.id : edge.from === ref.from && edge.to === ref.to));
    if (hits.length === 0) {
      const what = 'id' in ref ? `edge '${ref.id}'` : `edge from '${ref.from}' to '${ref.to}'`;
      st.diag('warning', 'remove_unknown_edge', `${st.layers[layer]!.info.name} removes ${what}, which is not in the flow`, site);
    }
    for (const { edge, list } of hits) if (removable(st, ['edges', edgeKey(edge)], edge, site)) removeEdge(st, layer, edge, list);
  });
}

function removeNodes(st: MergeState, layer: number, o: Overlay): void {
  (o.remove?.nodes ?? []).forEach((id, i) => {
    const site = { layer, src: ['remove', 'nodes', i] };
    const found = st.findNode(id);
    if (!found) {
      st.diag('warning', 'remove_unknown_node', `${st.layers[layer]!.info.name} removes node '${id}', which is not in the flow`, site, { node: id });
      return;
    }
    const attached = st.allEdges().filter(({ edge }) => edge.from === id || edge.to === id);
    if (!removable(st, ['nodes', id], found.node, site)) return;
    if (!attached.every(({ edge }) => removable(st, ['edges', edgeKey(edge)], edge, site))) return;
    for (const { edge, list } of attached) removeEdge(st, layer, edge, list, `node ${id} removed`);
    st.nodesOf(found.scope).splice(found.index, 1);
    st.record(['nodes', id], layer, 'override', found.node, undefined);
    st.removed.set(id, st.layers[layer]!.info.name);
    st.origins.delete(`node:${id}`);
  });
}

/** Places `value` at `path` in an otherwise empty document, so schema messages can name the node. */
function placeAt(path: DocPath, value: unknown): unknown {
  return path.reduceRight<unknown>((inner, step) => {
    if (typeof step === 'number') {
      const arr: unknown[] = [];
      arr[step] = inner;
      return arr;
    }
    return { [step as string]: inner };
  }, value);
}

/** Checks a node against the node schema, reporting problems at its entry in the overlay. */
function checkNode(st: MergeState, site: Site, node: unknown): node is Node {
  const res = Node().safeParse(node);
  if (res.success) return true;
  const l = st.layers[site.layer]!;
  const issues = res.error.issues.map((i) => ({ ...i, path: [...site.src, ...i.path] }));
  const doc = { file: l.info.file ?? '', data: placeAt(site.src, node), map: l.map ?? EMPTY_MAP };
  for (const d of schemaDiagnostics(new z.ZodError(issues), doc)) {
    st.diagnostics.push({ ...d, message: `${l.info.name}: ${d.message}`, ...(l.info.file ? {} : { file: undefined }) });
  }
  return false;
}

function upsertNode(st: MergeState, site: Site, entry: OverlayNode, seen: Set<string>, scope?: string): void {
  const { id, $after, ...fields } = entry as OverlayNode & Obj;
  const name = st.layers[site.layer]!.info.name;
  if (seen.has(id)) {
    st.diag('error', 'duplicate_overlay_node', `${name} lists node '${id}' twice; give all its changes in one entry`, { ...site, src: [...site.src, 'id'] }, { node: id });
    return;
  }
  seen.add(id);
  const found = st.findNode(id);
  if (found) {
    if (scope !== undefined && found.scope !== scope) {
      st.diag('error', 'node_scope_mismatch', `node '${id}' is in ${scopeName(found.scope)}, not in subgraph '${scope}'`, site, { node: id });
    }
    if ($after !== undefined) st.diag('warning', 'after_ignored', `"$after" only places new nodes; node '${id}' stays where it is`, { ...site, src: [...site.src, '$after'] }, { node: id });
    const node = found.node as unknown as Obj;
    for (const k of Object.keys(fields)) {
      const v = st.mergeField(['nodes', id, k], node[k], fields[k], { layer: site.layer, src: [...site.src, k] });
      if (v === undefined) delete node[k];
      else node[k] = v;
    }
    checkNode(st, site, node);
    st.origins.set(`node:${id}`, { layer: site.layer, path: site.src });
    return;
  }
  if (fields.type === undefined) {
    const gone = st.removed.get(id);
    st.diag('error', 'unknown_node',
      `node '${id}' is not in the flow${gone ? ` (${gone} removed it)` : ''}, so this entry would add it, but it has no "type"; check the id`,
      { ...site, src: [...site.src, 'id'] }, { node: id });
    return;
  }
  const node = { id, ...fields };
  if (!checkNode(st, site, node)) return;
  let list = st.nodesOf(scope ?? null);
  let at = list.length;
  if ($after !== undefined) {
    const anchor = st.findNode($after);
    if (!anchor) {
      st.diag('error', 'unknown_after', `"$after": no node '${$after}' to place '${id}' after`, { ...site, src: [...site.src, '$after'] }, { node: id });
      return;
    }
    if (scope !== undefined && anchor.scope !== scope) {
      st.diag('error', 'node_scope_mismatch', `"$after": '${$after}' is in ${scopeName(anchor.scope)}, not in subgraph '${scope}'`, { ...site, src: [...site.src, '$after'] }, { node: id });
    }
    list = st.nodesOf(anchor.scope);
    at = anchor.index + 1;
  }
  list.splice(at, 0, node);
  const home = st.findNode(id)!.scope;
  const place = `${home === null ? 'top level' : home}${$after !== undefined ? ` after ${$after}` : ''}`;
  st.record(['nodes', id], site.layer, 'override', undefined, node, { place });
  st.origins.set(`node:${id}`, { layer: site.layer, path: site.src });
}

function upsertEdge(st: MergeState, site: Site, edge: Edge, scope?: string): void {
  const fromScope = st.findNode(edge.from)?.scope;
  const home = scope !== undefined ? scope : (fromScope ?? null);
  st.explicitEdges(fromScope !== undefined ? fromScope : home);
  const all = st.allEdges();
  const match = (edge.id !== undefined ? all.find((x) => x.edge.id === edge.id) : undefined) ??
    all.find((x) => x.edge.from === edge.from && x.edge.to === edge.to && (edge.id === undefined || x.edge.id === undefined));
  if (match) {
    // a matching edge is replaced: fields the overlay leaves out are dropped, except its id
    const key = edgeKey(match.edge);
    const target = match.edge as unknown as Obj;
    for (const k of EDGE_FIELDS) {
      const after = k === 'id' && edge.id === undefined ? undefined : (edge[k] ?? null);
      const v = st.mergeField(['edges', key, k], target[k], after, { layer: site.layer, src: [...site.src, k] });
      if (v === undefined) delete target[k];
      else target[k] = v;
    }
    const now = edgeKey(match.edge);
    if (now !== key) {
      st.rename(['edges', key], ['edges', now]);
      st.origins.delete(`edge:${key}`);
    }
    st.origins.set(`edge:${now}`, { layer: site.layer, path: site.src });
    return;
  }
  const list = st.explicitEdges(home);
  let at = list.length;
  for (let i = list.length - 1; i >= 0; i--) {
    if (list[i]!.from === edge.from) {
      at = i + 1; // keep a node's outgoing edges together; order among them is the file order
      break;
    }
  }
  const added = { ...edge };
  list.splice(at, 0, added);
  st.record(['edges', edgeKey(added)], site.layer, 'override', undefined, added);
  st.origins.set(`edge:${edgeKey(added)}`, { layer: site.layer, path: site.src });
}

/** Containers merged key by key whatever the strategy: a pack adds one path option (or changes one built-in text of one locale) without restating the others. */
const isContainer = (segs: readonly string[]) =>
  (segs.length === 1 && (segs[0] === 'paths' || segs[0] === 'commands' || segs[0] === 'messages')) ||
  (segs[0] === 'messages' && segs.length === 2) ||
  (segs[0] === 'paths' && segs[1] === 'options' && segs.length <= 3);

function mergeContainer(st: MergeState, segs: string[], before: unknown, after: unknown, site: Site): unknown {
  if (!isContainer(segs) || !isObj(before) || !isObj(after)) return st.mergeField(segs, before, after, site);
  const out: Obj = { ...before };
  for (const k of Object.keys(after)) {
    const v = mergeContainer(st, [...segs, k], out[k], after[k], { layer: site.layer, src: [...site.src, k] });
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}

function mergeFlowFields(st: MergeState, layer: number, o: Overlay): void {
  const flow = st.flow as unknown as Obj;
  for (const k of ['paths', 'commands', 'constraints', 'messages'] as const) {
    if (o[k] === undefined) continue;
    const v = mergeContainer(st, [k], flow[k], o[k], { layer, src: [k] });
    if (v === undefined) delete flow[k];
    else flow[k] = v;
  }
}
