import { normalOptions } from './answer-types.ts';
import type { CompileContext } from './compile-context.ts';
import { push } from './graph-analysis.ts';
import type { AnswerKeyInfo } from './guard/index.ts';
import type { DocPath } from './load.ts';

// The first passes: what the rest looks things up in. Node ids, answer keys
// with their types, and the entries of the flow and of each subgraph.

/** Indexes nodes by id across every scope; a second node with the same id is an error. */
export function indexNodes(ctx: CompileContext): void {
  for (const p of ctx.placed.nodes) {
    const prev = ctx.byId.get(p.node.id);
    if (prev) {
      const line = ctx.map?.at(prev.path)?.line;
      const other = `${prev.scope ? `subgraph '${prev.scope}'` : 'the top level'}${line ? `, line ${line}` : ''}`;
      ctx.error('duplicate_node', `duplicate node id '${p.node.id}' (first defined in ${other}); node ids are unique across the whole flow`,
        { path: [...p.path, 'id'], node: p.node.id });
    } else ctx.byId.set(p.node.id, p);
  }
}

/** Collects answer keys and their types from questions, action outputs and assessment feedback. */
export function collectAnswerKeys(ctx: CompileContext): void {
  const { keys, keyNodes } = ctx;
  for (const p of ctx.placed.nodes) {
    const n = p.node;
    if (n.type === 'question') {
      const spec = n.answer ?? { type: 'text' as const };
      const info: AnswerKeyInfo =
        spec.type === 'enum' ? { type: 'enum', options: normalOptions(spec).map((o) => o.value), multiple: !!spec.multiple } : { type: spec.type };
      const prev = keys.get(n.key);
      if (prev && prev.type !== 'any' && prev.type !== info.type) {
        ctx.error('conflicting_key_type', `answer key '${n.key}' is ${info.type} here but ${prev.type} on another question`,
          { path: [...p.path, 'answer'], node: n.id });
      }
      if (!prev || prev.type === 'any') keys.set(n.key, info);
      push(keyNodes, n.key, p);
    } else if (n.type === 'action') {
      for (const k of [...Object.values(n.output_map ?? {}), ...(n.provides ?? [])]) if (!keys.has(k)) keys.set(k, { type: 'any' });
    }
  }
  // an assessment's feedback is kept as a text answer under its feedback_key (guards and templates may read it)
  for (const p of ctx.placed.nodes) {
    const a = p.node.type === 'question' ? p.node.assess : undefined;
    if (a && a.min_words === undefined && !a.must_mention?.length) {
      ctx.warn('assess_offline', `question '${p.node.id}': its assess has no min_words or must_mention, so without a model its answers are taken unjudged`, { path: [...p.path, 'assess'], node: p.node.id });
    }
    const fk = a?.feedback_key;
    if (fk === undefined) continue;
    if (keyNodes.has(fk)) ctx.error('conflicting_key_type', `feedback_key '${fk}' of '${p.node.id}' is also a question's answer key`, { path: [...p.path, 'assess', 'feedback_key'], node: p.node.id });
    else if (!keys.has(fk)) keys.set(fk, { type: 'text' });
  }
}

/** Resolves the flow's entry (a top-level node) and each subgraph's (one of its own nodes). */
export function resolveEntries(ctx: CompileContext): void {
  const { flow, byId } = ctx;
  const entry = flow.entry ?? flow.nodes[0]?.id;
  ctx.entry = entry;
  if (!entry) ctx.error('no_nodes', `flow '${flow.id}' has no nodes`, { path: ['nodes'] });
  else if (!byId.has(entry)) ctx.error('unknown_entry', `entry '${entry}' is not a node of the flow`, { path: ['entry'] });
  else if (byId.get(entry)!.scope !== null) ctx.error('unknown_entry', `entry '${entry}' is inside subgraph '${byId.get(entry)!.scope}'; the entry must be a top-level node`, { path: ['entry'] });

  for (const name of ctx.subgraphNames) {
    const sg = flow.subgraphs![name]!;
    const e = sg.entry ?? sg.nodes[0]?.id;
    ctx.subgraphEntry.set(name, e);
    const at: DocPath = sg.entry ? ['subgraphs', name, 'entry'] : ['subgraphs', name];
    if (!e) ctx.error('subgraph_entry', `subgraph '${name}' has no nodes`, { path: at });
    else if (byId.get(e)?.scope !== name) {
      ctx.error('subgraph_entry', `subgraph '${name}': entry '${e}' is not one of its nodes`, { path: at });
    }
  }
}
