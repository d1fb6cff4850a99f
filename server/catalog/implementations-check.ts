import type { CompiledFlow } from '../flow/compiled-flow.ts';
import type { Diagnostic } from '../flow/diagnostic.ts';
import { loadFlowFile, type DocPath, type SourceMap } from '../flow/load.ts';

/** The names a host has registered: what a flow's `validate: [{ name }]` and `call` may refer to. */
export interface RegisteredNames {
  validators: Iterable<string>;
  actions: Iterable<string>;
}

/** Where a flow came from, to point at the line that names a missing implementation. */
export interface FlowSource {
  file: string;
  /** The parsed document (before desugaring), as the source map indexes it. */
  ir?: unknown;
  map?: SourceMap;
}

/**
 * Every named validator and action the flow uses that is not registered, as
 * errors with file:line:col where the source is known. Checked when a flow is
 * loaded so a missing implementation never surfaces mid-conversation.
 */
export function checkImplementations(flow: CompiledFlow, names: RegisteredNames, source?: FlowSource): Diagnostic[] {
  const validators = new Set(names.validators);
  const actions = new Set(names.actions);
  const out: Diagnostic[] = [];
  const at = (nodeId: string, tail: DocPath, message: string, code: string) => {
    const path = source?.ir !== undefined ? pathOfNode(source.ir, nodeId) : undefined;
    const pos = path && source?.map ? source.map.at([...path, ...tail]) : undefined;
    out.push({
      code, severity: 'error', message, node: nodeId,
      ...(source ? { file: source.file } : {}), ...(pos ? { line: pos.line, col: pos.col } : {}),
    });
  };
  for (const [id, c] of flow.nodes) {
    c.validators.forEach((v) => {
      if (v.kind !== 'named' || validators.has(v.name)) return;
      const index = ruleIndex(source?.ir, id, v.name);
      at(id, index === undefined ? ['validate'] : ['validate', index, 'name'],
        `validator '${v.name}' is not registered (question ${id}); add it to validators in questline.config or pass it to the runner`, 'unregistered_validator');
    });
    if (c.node.type === 'action' && !actions.has(c.node.call)) {
      at(id, ['call'], `action '${c.node.call}' is not registered (node ${id}); add it to actions in questline.config or pass it to the runner`, 'unregistered_action');
    }
  }
  return out;
}

/** The document path of the node with this id, searched through nested node lists. */
function pathOfNode(doc: unknown, id: string, path: PropertyKey[] = []): PropertyKey[] | undefined {
  if (Array.isArray(doc)) {
    for (const [i, item] of doc.entries()) {
      const found = pathOfNode(item, id, [...path, i]);
      if (found) return found;
    }
    return undefined;
  }
  if (doc === null || typeof doc !== 'object') return undefined;
  const o = doc as Record<string, unknown>;
  if (o.id === id && typeof o.type === 'string') return path;
  for (const [k, v] of Object.entries(o)) {
    if (v !== null && typeof v === 'object') {
      const found = pathOfNode(v, id, [...path, k]);
      if (found) return found;
    }
  }
  return undefined;
}

/** Index of the rule naming `name` in the node's `validate` list, if the document has one. */
function ruleIndex(doc: unknown, nodeId: string, name: string): number | undefined {
  const path = doc === undefined ? undefined : pathOfNode(doc, nodeId);
  if (!path) return undefined;
  let node: unknown = doc;
  for (const step of path) node = (node as Record<PropertyKey, unknown>)[step as string];
  const rules = (node as { validate?: unknown }).validate;
  if (!Array.isArray(rules)) return undefined;
  const i = rules.findIndex((r) => r !== null && typeof r === 'object' && (r as { name?: unknown }).name === name);
  return i < 0 ? undefined : i;
}

/** checkImplementations for a flow compiled from `file`: the file is parsed again only for positions. */
export function checkFileImplementations(file: string, flow: CompiledFlow, ir: unknown, names: RegisteredNames): Diagnostic[] {
  const loaded = loadFlowFile(file);
  if (!loaded.ok) return checkImplementations(flow, names, { file });
  // a v0 checklist's ir is the migrated flow, whose paths the v0 file's source map does not index
  const v1 = (loaded.doc.data as { version?: unknown } | null)?.version === 'v1';
  return checkImplementations(flow, names, { file, ...(v1 ? { ir, map: loaded.doc.map } : {}) });
}

/** The names a config registers. */
export function namesOf(impl: { validators?: Readonly<Record<string, unknown>>; actions?: Readonly<Record<string, unknown>> }): RegisteredNames {
  return { validators: Object.keys(impl.validators ?? {}), actions: Object.keys(impl.actions ?? {}) };
}
