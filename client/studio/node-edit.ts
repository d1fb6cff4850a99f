// The Studio's node inspector edits (issue 34): a change to one node of a
// flow source (its prompt and locales, answer type and constraints,
// validation, optional) or to one of its edges (target, guard), made in place.
//
// Only the fields a change touches are rewritten: the rest of the file —
// other nodes, comments, the field's own trailing comment, blank lines,
// quoting — stays byte for byte. YAML fields are written by the `yaml`
// package (Document API: a field's value is cloned from the document, changed,
// and stringified with its comments; a scalar keeps its quoting style), JSON
// fields as JSON in the file's own indentation (a value that was on one line
// stays on one line).

import { Document, isCollection, isMap, isScalar, isSeq, parseDocument, type Node as YamlNode, type Pair, type YAMLMap } from 'yaml';

/** A node by id, an edge by its place in the flow's top-level `edges` list, or the document's top level (`locales`…). */
export type EditTarget = { node: string } | { edge: number } | { root: true };

/** One field to set (`value` undefined: delete it), by path from the node or edge, e.g. `['answer', 'min']`, `['prompt', 'de']`. */
export interface FieldChange {
  path: ReadonlyArray<string | number>;
  value: unknown;
}

/** The edited text, or why it could not be edited. */
export type EditResult = { ok: true; text: string } | { ok: false; message: string };

/** An edge leaving a node, as the inspector lists it. */
export interface NodeEdge {
  index: number;
  id?: string;
  to: string;
  guard?: string;
  on?: string;
}

/** Whether a source text is JSON (a flow or overlay file written as JSON). */
export function isJsonSource(text: string): boolean {
  return text.trimStart().startsWith('{');
}

function parse(text: string) {
  const doc = parseDocument(text, { keepSourceTokens: false, uniqueKeys: false });
  return doc.errors.length ? undefined : doc;
}

/** The map of a node (by id, anywhere in `nodes` or a subgraph's `nodes`) or of a top-level edge. */
function findTarget(doc: Document, target: EditTarget): YAMLMap | undefined {
  if ('root' in target) return isMap(doc.contents) ? doc.contents : undefined;
  if ('edge' in target) {
    const edges = doc.get('edges', true);
    const m = isSeq(edges) ? edges.items[target.edge] : undefined;
    return isMap(m) ? m : undefined;
  }
  let found: YAMLMap | undefined;
  const walk = (n: unknown, inNodes: boolean) => {
    if (found) return;
    if (isMap(n)) {
      const id = n.get('id', true);
      if (inNodes && isScalar(id) && id.value === target.node) {
        found = n;
        return;
      }
      for (const p of n.items) walk(p.value, isScalar(p.key) && p.key.value === 'nodes');
    } else if (isSeq(n)) for (const i of n.items) walk(i, inNodes);
  };
  walk(doc.contents, false);
  return found;
}

/** The plain value of a node's fields (what the inspector shows), or undefined when the text does not parse or has no such node. */
export function readNode(text: string, id: string): Record<string, unknown> | undefined {
  const doc = parse(text);
  const m = doc && findTarget(doc, { node: id });
  return m ? (m.toJSON() as Record<string, unknown>) : undefined;
}

/** The edges in the flow's top-level `edges` list that leave `id`. */
export function edgesFrom(text: string, id: string): NodeEdge[] {
  const doc = parse(text);
  const edges = doc?.get('edges', true);
  if (!isSeq(edges)) return [];
  const out: NodeEdge[] = [];
  edges.items.forEach((m, index) => {
    if (!isMap(m)) return;
    const e = m.toJSON() as Record<string, unknown>;
    if (e.from !== id || typeof e.to !== 'string') return;
    out.push({ index, to: e.to, ...(typeof e.id === 'string' ? { id: e.id } : {}), ...(typeof e.guard === 'string' ? { guard: e.guard } : {}), ...(typeof e.on === 'string' ? { on: e.on } : {}) });
  });
  return out;
}

/** Applies field changes to one node or edge of a source, rewriting only the fields they touch (a new field goes after the one named `after`, else last). */
export function editSource(text: string, target: EditTarget, changes: readonly FieldChange[], opts: { after?: readonly string[] } = {}): EditResult {
  const doc = parse(text);
  if (!doc) return { ok: false, message: 'the source does not parse: fix it in the editor first' };
  const map = findTarget(doc, target);
  if (!map?.range) return { ok: false, message: 'node' in target ? `no node '${target.node}' in this file` : 'edge' in target ? `no edge #${target.edge} in this file` : 'the file is not a map' };
  const anchor = opts.after?.map((k) => map.items.find((p) => isScalar(p.key) && p.key.value === k)).find(Boolean) as Pair<YamlNode, YamlNode | null> | undefined;
  const json = isJsonSource(text);
  // one splice per top-level field, applied from the end so earlier offsets hold
  const byKey = new Map<string, FieldChange[]>();
  for (const c of changes) {
    const k = String(c.path[0] ?? '');
    if (!k) return { ok: false, message: 'a change names no field' };
    byKey.set(k, [...(byKey.get(k) ?? []), c]);
  }
  const splices: Splice[] = [];
  for (const [key, cs] of byKey) {
    const pair = map.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === key) as Pair<YamlNode, YamlNode | null> | undefined;
    const before = pair?.value ?? undefined;
    const after = json ? jsonValue(before, cs) : yamlValue(doc, before, cs, map.flow === true);
    if (after === NO_CHANGE) continue;
    const s = json ? jsonSplice(text, map, pair, key, after as Plain, anchor) : yamlSplice(text, map, pair, key, after as YamlNode | undefined, anchor);
    if (s) splices.push(s);
  }
  let out = text;
  for (const s of splices.sort((a, b) => b.from - a.from)) out = out.slice(0, s.from) + s.insert + out.slice(s.to);
  return { ok: true, text: out };
}

/** The smallest single replacement turning `a` into `b` (for the editor: one change, the cursor stays put elsewhere). */
export function minimalChange(a: string, b: string): { from: number; to: number; insert: string } {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  return { from: start, to: endA, insert: b.slice(start, endB) };
}

// --- values ---------------------------------------------------------------

interface Splice { from: number; to: number; insert: string }
type Plain = unknown;
const NO_CHANGE = Symbol('no change');

/** The field's new value as a YAML node (undefined: delete the field), cloned from the document so its comments and styles stay. */
function yamlValue(doc: Document, before: YamlNode | undefined, cs: readonly FieldChange[], flowParent: boolean): YamlNode | undefined | typeof NO_CHANGE {
  let value: YamlNode | undefined = before ? (before.clone() as YamlNode) : undefined;
  for (const c of cs) {
    const rest = c.path.slice(1);
    if (rest.length === 0) {
      if (c.value === undefined) value = undefined;
      else if (isScalar(value) && !isObject(c.value)) value.value = c.value; // keeps the quoting style
      else value = created(doc, c.value);
      continue;
    }
    if (!isCollection(value)) {
      if (c.value === undefined) continue;
      value = doc.createNode(typeof rest[0] === 'number' ? [] : {}) as YamlNode;
    }
    if (!isCollection(value)) continue;
    if (c.value === undefined) {
      if (value.hasIn(rest)) value.deleteIn(rest);
      continue;
    }
    const at = value.getIn(rest, true);
    if (isScalar(at) && !isObject(c.value)) at.value = c.value;
    else value.setIn(rest, isObject(c.value) ? created(doc, c.value) : c.value);
  }
  if (!value && !before) return NO_CHANGE;
  // a value written on one line (`{ type: integer, min: 0 }`) stays on one line
  if (value && isCollection(value) && (flowParent || (isCollection(before) && before.flow))) value.flow = true;
  return value;
}

/** A new YAML value; a list of plain values is written on one line (`[a, b]`), as flows are usually written. */
function created(doc: Document, v: unknown): YamlNode {
  const n = doc.createNode(v) as YamlNode;
  const flowLists = (x: unknown) => {
    if (isSeq(x) && x.items.every((i) => isScalar(i))) x.flow = true;
    if (isCollection(x)) for (const i of x.items) flowLists(isMap(x) ? (i as Pair).value : i);
  };
  flowLists(n);
  return n;
}

const isObject = (v: unknown) => typeof v === 'object' && v !== null;

/** The field's new plain value for a JSON source (undefined: delete the field). */
function jsonValue(before: YamlNode | undefined, cs: readonly FieldChange[]): Plain | typeof NO_CHANGE {
  let value: Plain = before ? (before.toJSON() as Plain) : undefined;
  for (const c of cs) {
    const rest = c.path.slice(1);
    if (rest.length === 0) {
      value = c.value;
      continue;
    }
    if (!isObject(value)) {
      if (c.value === undefined) continue;
      value = typeof rest[0] === 'number' ? [] : {};
    }
    let at = value as Record<string | number, unknown>;
    for (const k of rest.slice(0, -1)) {
      if (!isObject(at[k])) at[k] = {};
      at = at[k] as Record<string | number, unknown>;
    }
    const last = rest[rest.length - 1]!;
    if (c.value === undefined) {
      if (Array.isArray(at) && typeof last === 'number') at.splice(last, 1);
      else delete at[last];
    } else at[last] = c.value;
  }
  if (value === undefined && !before) return NO_CHANGE;
  return value;
}

// --- splices ----------------------------------------------------------------

const lineStart = (text: string, at: number) => text.lastIndexOf('\n', at - 1) + 1;
const lineEnd = (text: string, at: number) => {
  const i = text.indexOf('\n', at);
  return i < 0 ? text.length : i;
};
const columnOf = (text: string, at: number) => at - lineStart(text, at);
/** Where a value's text ends (a block value's range takes the line break after it: that stays). */
function valueEnd(text: string, node: YamlNode): number {
  let end = node.range![1];
  while (end > node.range![0] && /\s/.test(text[end - 1]!)) end--;
  return end;
}
const indentLines = (s: string, pad: string) => s.split('\n').map((l, i) => (i === 0 || l === '' ? l : pad + l)).join('\n');

/** A YAML field written as `key: value` (with the value's own comments), its trailing comment on the line left as it was. */
function yamlPairText(key: string, value: YamlNode): string {
  const d = new Document({});
  const v = value.clone() as YamlNode;
  // the comment after the old value stays in the text after the splice; comments inside a block value come along
  if (isScalar(v) || (isCollection(v) && v.flow)) v.comment = '';
  (d.contents as YAMLMap).set(key, v);
  return d.toString({ lineWidth: 0, flowCollectionPadding: true }).replace(/\n+$/, '');
}

function yamlSplice(text: string, map: YAMLMap, pair: Pair<YamlNode, YamlNode | null> | undefined, key: string, value: YamlNode | undefined, anchor?: Pair<YamlNode, YamlNode | null>): Splice | undefined {
  const flow = map.flow === true;
  if (pair && isScalar(pair.key) && pair.key.range) {
    const from = pair.key.range[0];
    const to = pair.value?.range ? valueEnd(text, pair.value) : pair.key.range[1];
    if (value === undefined) return removal(text, map, pair, from, to, flow);
    const pad = ' '.repeat(columnOf(text, from));
    return { from, to, insert: indentLines(yamlPairText(key, value), pad) };
  }
  if (value === undefined) return undefined;
  return insertion(text, map, flow, (pad) => indentLines(yamlPairText(key, value), pad), false, anchor);
}

/** Removes a field: its whole line(s) in a block map, or the pair and one comma in a flow (or JSON) map. */
function removal(text: string, map: YAMLMap, pair: Pair<YamlNode, YamlNode | null>, from: number, to: number, flow: boolean): Splice {
  const i = map.items.indexOf(pair as never);
  if (!flow) {
    const start = lineStart(text, from);
    const onlyIndent = text.slice(start, from).trim() === '';
    if (!onlyIndent) return { from, to, insert: '' }; // the first field after "- ": keep the dash
    return { from: start, to: Math.min(text.length, lineEnd(text, to) + 1), insert: '' };
  }
  const prev = i > 0 ? map.items[i - 1] as Pair<YamlNode, YamlNode | null> : undefined;
  if (prev) {
    const prevEnd = prev.value?.range ? valueEnd(text, prev.value) : (prev.key as YamlNode).range![1];
    return { from: prevEnd, to, insert: '' };
  }
  const next = map.items[i + 1] as Pair<YamlNode, YamlNode | null> | undefined;
  return { from, to: next ? (next.key as YamlNode).range![0] : to, insert: '' };
}

/** Adds a field after the map's last one: on its own line in a block map or a multi-line JSON object, after a comma in a one-line one. */
function insertion(text: string, map: YAMLMap, flow: boolean, pairText: (pad: string) => string, json = false, anchor?: Pair<YamlNode, YamlNode | null>): Splice | undefined {
  const last = anchor ?? map.items[map.items.length - 1] as Pair<YamlNode, YamlNode | null> | undefined;
  if (!last || !isScalar(last.key) || !last.key.range) return undefined;
  const keyAt = (map.items[0]!.key as YamlNode).range![0];
  const lastEnd = last.value?.range ? valueEnd(text, last.value) : last.key.range[1];
  const pad = ' '.repeat(columnOf(text, last.key.range[0]));
  if (!flow) {
    const at = lineEnd(text, lastEnd);
    return { from: at, to: at, insert: `\n${' '.repeat(columnOf(text, keyAt))}${pairText(' '.repeat(columnOf(text, keyAt)))}` };
  }
  const multiLine = text.slice(map.range![0], map.range![1]).includes('\n');
  if (multiLine) {
    const linePad = text.slice(lineStart(text, last.key.range[0]), last.key.range[0]);
    return { from: lastEnd, to: lastEnd, insert: `,\n${linePad}${pairText(linePad)}` };
  }
  return { from: lastEnd, to: lastEnd, insert: `, ${pairText(json ? pad : '')}` };
}

// --- JSON -------------------------------------------------------------------

/** The file's indentation unit (the first indented line's), two spaces when none. */
function jsonUnit(text: string): string {
  return /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
}

/** A value as JSON on one line, braces padded (`{ "a": 1 }`) or not (`{"a": 1}`) as the file writes them. */
function oneLine(v: Plain, padded: boolean): string {
  if (Array.isArray(v)) return `[${v.map((x) => oneLine(x, padded)).join(', ')}]`;
  if (isObject(v)) {
    const e = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
    const inner = e.map(([k, x]) => `${JSON.stringify(k)}: ${oneLine(x, padded)}`).join(', ');
    return e.length ? (padded ? `{ ${inner} }` : `{${inner}}`) : '{}';
  }
  return JSON.stringify(v);
}

function jsonSplice(text: string, map: YAMLMap, pair: Pair<YamlNode, YamlNode | null> | undefined, key: string, value: Plain, anchor?: Pair<YamlNode, YamlNode | null>): Splice | undefined {
  const unit = jsonUnit(text);
  const was = pair?.value?.range ? text.slice(pair.value.range[0], valueEnd(text, pair.value)) : '';
  const padded = /[{[]/.test(was) ? /\{ /.test(was) : /\{ "/.test(text);
  const render = (pad: string, wasMultiLine: boolean) => {
    const v = wasMultiLine && isObject(value) ? JSON.stringify(value, null, unit).replace(/\n/g, `\n${pad}`) : oneLine(value, padded);
    return `${JSON.stringify(key)}: ${v}`;
  };
  if (pair && pair.key.range) {
    const from = pair.key.range[0];
    const to = pair.value?.range ? valueEnd(text, pair.value) : pair.key.range[1];
    if (value === undefined) return removal(text, map, pair, from, to, true);
    const pad = text.slice(lineStart(text, from), from).replace(/\S.*$/, '');
    return { from, to, insert: render(pad, text.slice(from, to).includes('\n')) };
  }
  if (value === undefined) return undefined;
  return insertion(text, map, true, (pad) => render(pad, false), true, anchor);
}

/** The language a flow's plain texts are in: its `default_locale`, else its first of `locales`, else "en". */
export function flowLocale(text: string): string {
  const doc = parse(text);
  const d = doc?.get('default_locale');
  if (typeof d === 'string') return d;
  const l = doc?.get('locales', true);
  const first = isSeq(l) ? l.items[0] : undefined;
  return isScalar(first) && typeof first.value === 'string' ? first.value : 'en';
}

/** The ids of every node written in a source (in `nodes` lists), in file order. */
export function nodeIds(text: string): string[] {
  const doc = parse(text);
  const out: string[] = [];
  const walk = (n: unknown, inNodes: boolean) => {
    if (isMap(n)) {
      const id = n.get('id');
      if (inNodes && typeof id === 'string') out.push(id);
      for (const p of n.items) walk(p.value, isScalar(p.key) && p.key.value === 'nodes');
    } else if (isSeq(n)) for (const i of n.items) walk(i, inNodes);
  };
  if (doc) walk(doc.contents, false);
  return out;
}

/** A flow's top-level `locales` (undefined when it declares none), and whether the file is an overlay (`extends`). */
export function flowLocales(text: string): { locales: string[] | undefined; overlay: boolean } {
  const doc = parse(text);
  const l = doc?.get('locales', true);
  const locales = isSeq(l) ? l.items.flatMap((i) => (isScalar(i) && typeof i.value === 'string' ? [i.value] : [])) : undefined;
  return { locales, overlay: doc?.has('extends') ?? false };
}
