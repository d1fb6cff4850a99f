import { createHash } from 'node:crypto';
import { canonicalJson } from '../shared/canonical-json.ts';
import { RE2JS } from 're2js';
import { normalOptions, valueSchema } from './answer-types.ts';
import type { CompiledConstraint, CompiledEdge, CompiledFlow, CompiledNode, CompiledValidator } from './compiled-flow.ts';
import { desugar, EXIT, plainFlow, type PlacedEdge, type PlacedNode } from './desugar.ts';
import type { Diagnostic } from './diagnostic.ts';
import { canEnd, components, dependencyCycles, END, flatSuccessors, push, reachable, subgraphExits } from './graph-analysis.ts';
import { compileGuard, type AnswerKeyInfo, type CheckOptions, type CompiledGuard } from './guard/index.ts';
import type { DocPath, SourceMap } from './load.ts';
import type { FlowV1, Node, QuestionNode } from './schema.ts';


/** What the compiler needs: the flow, and optionally where it came from for positions. */
export interface CompileInput {
  flow: FlowV1;
  file?: string;
  map?: SourceMap;
  /** Source paths of nodes that came from another document (the v0 migrator). */
  nodePath?: (id: string) => DocPath | undefined;
}

export interface CompileResult {
  /** Present when there are no errors. */
  flow?: CompiledFlow;
  diagnostics: Diagnostic[];
}

const TEMPLATE = /\{\{\s*([^{}]*?)\s*\}\}/g;
const TEMPLATE_REF = /^(answers|context)\.([A-Za-z0-9_-]+)$/;

/**
 * Compiles a v1 flow: expands sugar, compiles every guard once, checks the
 * graph, and returns every diagnostic at once. The flow is returned only when
 * there is no error.
 */
export function compileFlow(input: CompileInput): CompileResult {
  const { flow, file, map } = input;
  const diagnostics: Diagnostic[] = [];
  const report = (
    severity: Diagnostic['severity'],
    code: string,
    message: string,
    where: { path?: DocPath; node?: string; edge?: string; col?: number; key?: boolean } = {},
  ) => {
    const pos = where.path && map ? (where.col ? map.inString(where.path, where.col) : map.at(where.path, { key: where.key })) : undefined;
    diagnostics.push({
      code, severity, message,
      ...(file ? { file } : {}),
      ...(pos ? { line: pos.line, col: pos.col } : {}),
      ...(where.node ? { node: where.node } : {}),
      ...(where.edge ? { edge: where.edge } : {}),
    });
  };
  const error = (code: string, message: string, where?: Parameters<typeof report>[3]) => report('error', code, message, where);
  const warn = (code: string, message: string, where?: Parameters<typeof report>[3]) => report('warning', code, message, where);

  const placed = desugar(flow, input.nodePath);

  // ---- nodes, ids, scopes
  const byId = new Map<string, PlacedNode>();
  for (const p of placed.nodes) {
    const prev = byId.get(p.node.id);
    if (prev) {
      const line = map?.at(prev.path)?.line;
      const other = `${prev.scope ? `subgraph '${prev.scope}'` : 'the top level'}${line ? `, line ${line}` : ''}`;
      error('duplicate_node', `duplicate node id '${p.node.id}' (first defined in ${other}); node ids are unique across the whole flow`,
        { path: [...p.path, 'id'], node: p.node.id });
    } else byId.set(p.node.id, p);
  }
  const subgraphNames = Object.keys(flow.subgraphs ?? {});

  // ---- answer keys and their types
  const keys = new Map<string, AnswerKeyInfo>();
  const keyNodes = new Map<string, PlacedNode[]>();
  for (const p of placed.nodes) {
    const n = p.node;
    if (n.type === 'question') {
      const spec = n.answer ?? { type: 'text' as const };
      const info: AnswerKeyInfo =
        spec.type === 'enum' ? { type: 'enum', options: normalOptions(spec).map((o) => o.value), multiple: !!spec.multiple } : { type: spec.type };
      const prev = keys.get(n.key);
      if (prev && prev.type !== 'any' && prev.type !== info.type) {
        error('conflicting_key_type', `answer key '${n.key}' is ${info.type} here but ${prev.type} on another question`,
          { path: [...p.path, 'answer'], node: n.id });
      }
      if (!prev || prev.type === 'any') keys.set(n.key, info);
      push(keyNodes, n.key, p);
    } else if (n.type === 'action') {
      for (const k of [...Object.values(n.output_map ?? {}), ...(n.provides ?? [])]) if (!keys.has(k)) keys.set(k, { type: 'any' });
    }
  }
  // an assessment's feedback is kept as a text answer under its feedback_key (guards and templates may read it)
  for (const p of placed.nodes) {
    const a = p.node.type === 'question' ? p.node.assess : undefined;
    if (a && a.min_words === undefined && !a.must_mention?.length) {
      warn('assess_offline', `question '${p.node.id}': its assess has no min_words or must_mention, so without a model its answers are taken unjudged`, { path: [...p.path, 'assess'], node: p.node.id });
    }
    const fk = a?.feedback_key;
    if (fk === undefined) continue;
    if (keyNodes.has(fk)) error('conflicting_key_type', `feedback_key '${fk}' of '${p.node.id}' is also a question's answer key`, { path: [...p.path, 'assess', 'feedback_key'], node: p.node.id });
    else if (!keys.has(fk)) keys.set(fk, { type: 'text' });
  }

  // ---- guards
  let usesPath = false;
  const guardOf = (
    source: string,
    at: { path?: DocPath; node?: string; edge?: string; offset?: number; inline?: boolean },
    opts: Partial<CheckOptions> = {},
  ): CompiledGuard | null => {
    const res = compileGuard(source, { answers: keys, ...opts });
    for (const issue of res.issues) {
      const col = Math.max(1, issue.column - (at.offset ?? 0));
      const what = at.edge ? `edge ${at.edge}` : at.node ? `node '${at.node}'` : 'expression';
      report(issue.severity, `guard_${issue.code}`, `${what}: ${issue.message} (column ${col} of "${truncate(source)}")`,
        { ...(at.path ? { path: at.path } : {}), ...(at.node ? { node: at.node } : {}), ...(at.edge ? { edge: at.edge } : {}), ...(at.inline === false ? {} : { col }) });
    }
    if (!res.ok) return null;
    usesPath ||= res.guard.usesPath;
    return res.guard;
  };

  // ---- entry
  const entry = flow.entry ?? flow.nodes[0]?.id;
  if (!entry) error('no_nodes', `flow '${flow.id}' has no nodes`, { path: ['nodes'] });
  else if (!byId.has(entry)) error('unknown_entry', `entry '${entry}' is not a node of the flow`, { path: ['entry'] });
  else if (byId.get(entry)!.scope !== null) error('unknown_entry', `entry '${entry}' is inside subgraph '${byId.get(entry)!.scope}'; the entry must be a top-level node`, { path: ['entry'] });

  // ---- subgraphs
  const subgraphEntry = new Map<string, string | undefined>();
  for (const name of subgraphNames) {
    const sg = flow.subgraphs![name]!;
    const e = sg.entry ?? sg.nodes[0]?.id;
    subgraphEntry.set(name, e);
    const at: DocPath = sg.entry ? ['subgraphs', name, 'entry'] : ['subgraphs', name];
    if (!e) error('subgraph_entry', `subgraph '${name}' has no nodes`, { path: at });
    else if (byId.get(e)?.scope !== name) {
      error('subgraph_entry', `subgraph '${name}': entry '${e}' is not one of its nodes`, { path: at });
    }
  }

  // routes' `on` expressions: checked once per decision, so errors are not repeated per case
  const badRoutes = new Set<string>();
  for (const p of placed.nodes) {
    if (p.node.type === 'decision' && p.node.routes) {
      if (!guardOf(`has(${p.node.routes.on})`, { path: [...p.path, 'routes', 'on'], node: p.node.id, offset: 4 })) badRoutes.add(p.node.id);
    }
  }

  // ---- edges
  const edgeIds = new Map<string, number>();
  const edges: CompiledEdge[] = [];
  const out = new Map<string, CompiledEdge[]>();
  placed.edges.forEach((pe, index) => {
    const { edge } = pe;
    const pairId = `${edge.from}->${edge.to}`;
    const seen = edgeIds.get(pairId) ?? 0;
    edgeIds.set(pairId, seen + 1);
    const id = edge.id ?? (seen ? `${pairId}#${seen + 1}` : pairId);
    const label = `${edge.from} → ${edge.to}`;
    const from = byId.get(edge.from);
    const to = edge.to === EXIT ? undefined : byId.get(edge.to);
    if (!from) {
      error('dangling_edge', `edge ${label}: no node '${edge.from}' (source of the edge to '${edge.to}')`, { path: [...pe.path, ...(pe.generated ? [] : ['from'])], edge: id });
    }
    if (edge.to === EXIT) {
      if (pe.scope === null) {
          error('exit_outside_subgraph', `edge ${label}: '__exit__' only exists inside a subgraph`, { path: [...pe.path, ...(pe.generated ? [] : ['to'])], edge: id, node: edge.from });
      }
    } else if (!to) {
      error('dangling_edge', `edge ${label}: no node '${edge.to}' (target of the edge from '${edge.from}')`, { path: [...pe.path, ...(pe.generated ? [] : ['to'])], edge: id, node: edge.from });
    }
    if (from && from.scope !== pe.scope) {
      error('cross_scope_edge', `edge ${label}: '${edge.from}' belongs to ${scopeName(from.scope)}, not to ${scopeName(pe.scope)} where the edge is listed`, { path: pe.path, edge: id });
    } else if (from && to && to.scope !== from.scope) {
      error('cross_scope_edge', `edge ${label}: an edge cannot jump from ${scopeName(from.scope)} into ${scopeName(to.scope)}; enter a subgraph through a subgraph node and leave it through '__exit__'`, { path: pe.path, edge: id });
    }
    if (from?.node.type === 'terminal') {
      error('terminal_has_edges', `terminal node '${edge.from}' has an outgoing edge to '${edge.to}'; a terminal ends the conversation`, { path: pe.path, edge: id, node: edge.from });
    }
    let guard: CompiledEdge['guard'] = null;
    if (edge.guard !== undefined) {
      if (edge.guard.trim() === 'else') guard = 'else';
      else if (pe.route) {
        // a case's problems (say, a value that is not an option) point at the case, not into generated text
        guard = badRoutes.has(edge.from) ? null : guardOf(edge.guard, { path: pe.path, edge: id, node: edge.from, inline: false });
      } else {
        guard = guardOf(edge.guard, { ...(pe.guardPath ? { path: pe.guardPath } : { path: pe.path }), edge: id, node: edge.from });
      }
    }
    const compiled: CompiledEdge = { index, id, from: edge.from, to: edge.to, ...(edge.on ? { on: edge.on } : {}), guard, source: edge };
    edges.push(compiled);
    // structurally the edge exists even when its guard or target is wrong; keeping it
    // avoids follow-on noise (a false "implicit end" or "unreachable")
    if (from) push(out, edge.from, compiled);
  });


  // per-node edge checks
  for (const p of placed.nodes) {
    const n = p.node;
    if (byId.get(n.id) !== p) continue; // a duplicate id, already reported
    const own = out.get(n.id) ?? [];
    const normal = own.filter((e) => !e.on);
    const elses = normal.filter((e) => e.guard === 'else');
    if (elses.length > 1) {
      const second = placed.edges[elses[1]!.index]!;
      error('duplicate_else', `node '${n.id}' has ${elses.length} else edges (to ${elses.map((e) => `'${e.to}'`).join(', ')}); only one can apply`, { path: second.path, node: n.id, edge: elses[1]!.id });
    }
    const firstAlways = normal.findIndex((e) => e.guard === null);
    if (firstAlways >= 0 && firstAlways < normal.length - 1) {
      const shadowed = normal[firstAlways + 1]!;
      warn('shadowed_edge', `edge ${shadowed.id} is never taken: the earlier edge ${normal[firstAlways]!.id} has no guard`, { path: placed.edges[shadowed.index]!.path, node: n.id, edge: shadowed.id });
    }
    if (n.type === 'terminal') continue;
    if (normal.length === 0 && !own.some((e) => e.on === undefined)) {
      if (!(n.type === 'decision' && n.routes)) {
        warn('implicit_end', `node '${n.id}' has no outgoing edges: the conversation ends there as completed (add a terminal to make it explicit)`, { path: p.path, node: n.id });
      }
    } else if (normal.every((e) => e.guard !== null && e.guard !== 'else') && !exhaustive(n, normal, placed.edges, keys, flow)) {
      warn('no_else', `node '${n.id}': every outgoing edge is guarded and none is 'else'; if no guard holds the conversation stops with an error`, { path: p.path, node: n.id });
    }
    for (const e of own) {
      if (e.on === 'failure' && n.type !== 'action') warn('on_mismatch', `edge ${e.id}: "on": "failure" only applies to action nodes`, { path: placed.edges[e.index]!.path, edge: e.id });
      if (e.on === 'invalid' && n.type !== 'question') warn('on_mismatch', `edge ${e.id}: "on": "invalid" only applies to question nodes`, { path: placed.edges[e.index]!.path, edge: e.id });
      if (e.on === 'rejected' && !n.interrupt) warn('on_mismatch', `edge ${e.id}: "on": "rejected" only applies to nodes with an interrupt`, { path: placed.edges[e.index]!.path, edge: e.id });
    }
  }

  // ---- node contents
  const compiledNodes = new Map<string, CompiledNode>();
  const dependencies = new Map<string, string[]>();
  for (const p of placed.nodes) {
    const n = p.node;
    if (byId.get(n.id) !== p) continue; // a duplicate, already reported
    const when = n.when !== undefined ? guardOf(n.when, { path: [...p.path, 'when'], node: n.id }) : null;
    const validators: CompiledValidator[] = [];
    let schema;
    if (n.type === 'question') {
      checkQuestion(n, p.path, error, warn);
      validators.push(...compileValidators(n, p.path, keys, guardOf));
      schema = valueSchema(n.answer);
      if (n.dependencies) {
        for (const d of n.dependencies) push(dependencies, n.key, d);
        n.dependencies.forEach((d, i) => {
          if (!keys.has(d)) error('unknown_dependency', `question '${n.id}' depends on '${d}', which no question defines`, { path: [...p.path, 'dependencies', i], node: n.id });
        });
      }
    } else if (n.type === 'subgraph') {
      if (!flow.subgraphs?.[n.ref]) {
        const known = subgraphNames.length ? ` (known: ${subgraphNames.join(', ')})` : '';
        error('unknown_subgraph', `node '${n.id}' enters subgraph '${n.ref}', which is not defined${known}`, { path: [...p.path, 'ref'], node: n.id });
      } else if (n.ref === p.scope) {
        error('recursive_subgraph', `node '${n.id}' enters its own subgraph '${n.ref}'`, { path: [...p.path, 'ref'], node: n.id });
      }
    } else if (n.type === 'action') {
      for (const [arg, ref] of Object.entries(n.input_map ?? {})) {
        const m = TEMPLATE_REF.exec(ref.trim());
        if (!m) error('bad_input_map', `action '${n.id}': input '${arg}' must read answers.KEY or context.KEY, not '${ref}'`, { path: [...p.path, 'input_map', arg], node: n.id });
        else if (m[1] === 'answers' && !keys.has(m[2]!)) error('unknown_answer_key', `action '${n.id}': input '${arg}' reads answers.${m[2]}, which no question defines`, { path: [...p.path, 'input_map', arg], node: n.id });
      }
      (n.requires ?? []).forEach((k, i) => {
        if (!keys.has(k)) error('unknown_answer_key', `action '${n.id}' requires '${k}', which no question defines`, { path: [...p.path, 'requires', i], node: n.id });
      });
    }
    checkTemplates(n, p.path, keys, warn);
    compiledNodes.set(n.id, { node: n, scope: p.scope, out: out.get(n.id) ?? [], when, validators, ...(schema ? { valueSchema: schema } : {}) });
  }
  for (const cycle of dependencyCycles(dependencies)) {
    const first = keyNodes.get(cycle[0]!)?.[0];
    error('dependency_cycle', `questions depend on each other in a cycle: ${[...cycle, cycle[0]].join(' → ')}`,
      first ? { path: [...first.path, 'dependencies'], node: first.node.id } : {});
  }

  // ---- constraints
  const constraints: CompiledConstraint[] = [];
  (flow.constraints ?? []).forEach((c, i) => {
    if ('oneOf' in c) {
      c.oneOf.forEach((group, g) => group.forEach((k, j) => {
        if (!keys.has(k)) error('unknown_answer_key', `constraint ${i + 1}: oneOf names '${k}', which no question defines`, { path: ['constraints', i, 'oneOf', g, j] });
      }));
      constraints.push({ kind: 'oneOf', groups: c.oneOf, ...(c.message ? { message: c.message } : {}), source: c });
    } else {
      const guard = guardOf(c.expr, { path: ['constraints', i, 'expr'] });
      if (guard) constraints.push({ kind: 'expr', name: c.name, guard, ...(c.message ? { message: c.message } : {}), source: c });
    }
  });

  if (usesPath && !flow.paths) warn('path_without_paths', `a guard reads 'path' but the flow declares no paths, so 'path' is always null`, { path: ['id'] });

  // ---- graph shape: reachability, ways out, subgraph exits, keys on one route
  const targets = new Map<string, string[]>();
  for (const [id, list] of out) targets.set(id, list.map((e) => e.to));
  const nodesForGraph = new Map([...byId].map(([id, p]) => [id, { node: p.node, scope: p.scope }]));
  const succ = flatSuccessors({ entry, nodes: nodesForGraph, out: targets, subgraphEntry });
  const reached = reachable(entry && byId.has(entry) ? entry : undefined, succ);
  const usedSubgraphs = new Set<string>();
  for (const id of reached) {
    const n = byId.get(id)?.node;
    if (n?.type === 'subgraph') usedSubgraphs.add(n.ref);
  }
  if (entry && byId.has(entry)) {
    for (const p of placed.nodes) {
      if (reached.has(p.node.id) || byId.get(p.node.id) !== p) continue;
      if (p.scope !== null && !usedSubgraphs.has(p.scope)) continue; // reported once for the subgraph
      error('unreachable_node', `node '${p.node.id}' can never be reached from the entry '${entry}'`, { path: p.path, node: p.node.id });
    }
    for (const name of subgraphNames) {
      if (!usedSubgraphs.has(name)) warn('unused_subgraph', `subgraph '${name}' is never entered`, { path: ['subgraphs', name], key: true });
    }
    const ends = canEnd(succ);
    const trapped = new Set([...reached].filter((v) => v !== END && !ends.has(v)));
    for (const group of components(trapped, succ)) {
      const first = byId.get(group[0]!)!;
      error('trapped_cycle', `nodes ${group.slice(0, 8).map((g) => `'${g}'`).join(', ')}${group.length > 8 ? ' …' : ''} form a cycle with no way out to a terminal or '__exit__'`,
        { path: first.path, node: first.node.id });
    }
  }
  for (const name of subgraphNames) {
    const e = subgraphEntry.get(name);
    if (e && byId.get(e)?.scope === name && !subgraphExits(e, targets)) {
      error('subgraph_no_exit', `subgraph '${name}' never reaches '__exit__' from its entry '${e}', so it cannot return to its caller`, { path: ['subgraphs', name], key: true });
    }
  }
  for (const [key, list] of keyNodes) {
    if (list.length < 2) continue;
    for (const a of list) {
      const after = reachable(a.node.id, succ);
      for (const b of list) {
        if (a === b || !after.has(b.node.id) || (b.node as QuestionNode).always_ask) continue;
        error('duplicate_key_on_route', `answer key '${key}' is asked by '${a.node.id}' and again by '${b.node.id}' on the same route; the second is always skipped (set always_ask to re-ask on purpose)`,
          { path: [...b.path, 'key'], node: b.node.id });
      }
    }
  }

  if (diagnostics.some((d) => d.severity === 'error') || !entry) return { diagnostics };
  const plain = plainFlow(flow, placed);
  const revision = createHash('sha256').update(canonicalJson(plain)).digest('hex').slice(0, 16);
  return {
    diagnostics,
    flow: {
      id: flow.id,
      ...(flow.label ? { label: flow.label } : {}),
      revision,
      source: plain,
      entry,
      nodes: compiledNodes,
      edges,
      subgraphs: new Map(subgraphNames.map((name) => [name, {
        entry: subgraphEntry.get(name)!,
        nodes: placed.nodes.filter((p) => p.scope === name).map((p) => p.node.id),
      }])),
      keys,
      constraints,
    },
  };
}

const scopeName = (scope: string | null) => (scope === null ? 'the top level' : `subgraph '${scope}'`);
const truncate = (s: string) => (s.length > 60 ? `${s.slice(0, 57)}...` : s);

type Report = (code: string, message: string, where?: { path?: DocPath; node?: string; key?: boolean }) => void;

/** Answer-spec sanity: options, bounds, patterns. */
function checkQuestion(n: QuestionNode, at: DocPath, error: Report, warn: Report): void {
  const spec = n.answer;
  const path = [...at, 'answer'];
  if (!spec) return;
  if (spec.type === 'enum') {
    if (spec.options.length === 0) error('enum_no_options', `question '${n.id}': an enum needs at least one option`, { path: [...path, 'options'], node: n.id });
    const seen = new Set<string>();
    normalOptions(spec).forEach((o, i) => {
      if (seen.has(o.value)) error('enum_duplicate_option', `question '${n.id}': option value '${o.value}' appears twice`, { path: [...path, 'options', i], node: n.id });
      seen.add(o.value);
    });
  }
  if ((spec.type === 'text' || spec.type === 'number' || spec.type === 'integer' || spec.type === 'date') &&
      spec.min !== undefined && spec.max !== undefined && spec.min > spec.max) {
    error('min_gt_max', `question '${n.id}': min (${spec.min}) is greater than max (${spec.max}); no answer can pass`, { path: [...path, 'min'], node: n.id });
  }
  if (spec.type === 'date' && spec.past && spec.future) warn('past_and_future', `question '${n.id}': a date cannot be both past and future except today`, { path, node: n.id });
  if (spec.type === 'text' && spec.pattern !== undefined) {
    try {
      RE2JS.compile(spec.pattern);
    } catch (err) {
      error('bad_pattern', `question '${n.id}': pattern is not a valid linear-time (RE2) regular expression: ${(err as Error).message}`, { path: [...path, 'pattern'], node: n.id });
    }
  }
}

/** Compiles a question's `validate` into rules; expressions may read `value`. */
function compileValidators(
  n: QuestionNode,
  at: DocPath,
  keys: ReadonlyMap<string, AnswerKeyInfo>,
  guardOf: (s: string, at: { path?: DocPath; node?: string }, o?: Partial<CheckOptions>) => CompiledGuard | null,
): CompiledValidator[] {
  if (n.validate === undefined) return [];
  const valueType = keys.get(n.key);
  const opts: Partial<CheckOptions> = { allowValue: true, ...(valueType ? { valueType } : {}) };
  const rules = typeof n.validate === 'string' ? [n.validate] : n.validate;
  return rules.flatMap((rule, i): CompiledValidator[] => {
    const path = typeof n.validate === 'string' ? [...at, 'validate'] : [...at, 'validate', i];
    if (typeof rule === 'string' || 'expr' in rule) {
      const expr = typeof rule === 'string' ? rule : rule.expr;
      const guard = guardOf(expr, { path: typeof rule === 'string' ? path : [...path, 'expr'], node: n.id }, opts);
      return guard ? [{ kind: 'expr', guard, ...(typeof rule !== 'string' && rule.message ? { message: rule.message } : {}) }] : [];
    }
    return [{ kind: 'named', name: rule.name, ...(rule.args !== undefined ? { args: rule.args } : {}), ...(rule.message ? { message: rule.message } : {}) }];
  });
}

/** Warns about `{{…}}` placeholders that name no answer key or are malformed. */
function checkTemplates(n: Node, at: DocPath, keys: ReadonlyMap<string, AnswerKeyInfo>, warn: Report): void {
  const fields: Array<[string, string]> = [];
  if (n.say) fields.push(['say', n.say]);
  if (n.type === 'question') {
    const prompts = typeof n.prompt === 'string' ? [n.prompt] : n.prompt ?? [];
    prompts.forEach((p) => fields.push(['prompt', p]));
    if (n.invalid_prompt) fields.push(['invalid_prompt', n.invalid_prompt]);
  }
  for (const [field, text] of fields) {
    for (const m of text.matchAll(TEMPLATE)) {
      const ref = TEMPLATE_REF.exec(m[1]!);
      if (!ref) warn('bad_template', `node '${n.id}': placeholder '${m[0]}' is not {{answers.KEY}} or {{context.KEY}}; it is sent as written`, { path: [...at, field], node: n.id });
      else if (ref[1] === 'answers' && !keys.has(ref[2]!)) warn('unknown_template_key', `node '${n.id}': placeholder '${m[0]}' names an answer key no question defines`, { path: [...at, field], node: n.id });
    }
  }
}

/**
 * Whether guarded edges cover every case without an else: a route on an enum
 * answer (single choice, required) whose cases name every option, or a route
 * on `path` naming every declared path (the engine asks the path prompt until
 * one locks).
 */
function exhaustive(n: Node, normal: readonly CompiledEdge[], placed: readonly PlacedEdge[], keys: ReadonlyMap<string, AnswerKeyInfo>, flow: FlowV1): boolean {
  const routes = normal.map((e) => placed[e.index]!.route);
  if (n.type !== 'decision' || routes.some((r) => !r)) return false;
  const on = routes[0]!.on.trim();
  const values = new Set(routes.map((r) => r!.value));
  if (on === 'path') return Object.keys(flow.paths?.options ?? {}).every((p) => values.has(p));
  const m = /^answers\.([A-Za-z_]\w*)$/.exec(on);
  const info = m ? keys.get(m[1]!) : undefined;
  return !!info && info.type === 'enum' && !info.multiple && (info.options ?? []).every((o) => values.has(o));
}
