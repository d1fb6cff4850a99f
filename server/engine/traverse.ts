import { ENDED_STATUSES } from '../protocol/statuses.ts';
import { fillMessage } from '../flow/messages/catalogue.ts';
import type { CompiledEdge, CompiledNode } from '../flow/compiled-flow.ts';
import { canonicalJson } from '../shared/canonical-json.ts';
import { EXIT } from '../flow/desugar.ts';
import { commit } from './answers.ts';
import { emit, holds, isPii, recordAt, recordOf, type Draft } from './draft.ts';
import { answerValues, type Session } from './session.ts';
import { progressAt, steadyProgress } from './progress.ts';
import { renderTemplate } from './template.ts';
import { askReview } from './review.ts';
import { pendingDependency, startDetour } from './dependencies.ts';
import type { Progress } from './types.ts';
import { promptText, type NodeRecord } from './node-record.ts';
import { certainlyUnanswered } from './route-memo.ts';
import { askContactAtHandover } from './handover.ts';

/** Terminal statuses: a message after them changes nothing. */
export const ENDED: ReadonlySet<Session['status']> = new Set(ENDED_STATUSES);

/** Whether a node is where an `urgent` trigger (a red flag, a hazard) goes: what it says is safety advice, shown as an alert. */
export function isAlertNode(flow: Draft['flow'], id: string): boolean {
  return flow.source.triggers?.some((t) => t.urgent === true && t.goto === id) ?? false;
}

/** Answered questions and the estimated total of those that still apply. */
export function progressOf(d: Draft, at: string | null, rec?: NodeRecord): Progress {
  const now = progressAt(d.flow, d.s.answers, at, d.s, d.idx, rec);
  const shown = steadyProgress(now, d.s.progress, now.total > now.answered);
  d.s.progress = shown;
  return shown;
}

const render = (d: Draft, text: string) => renderTemplate(text, d.s.answers, d.s.context);

/** The prompt of a question for this attempt: lists rotate on re-asks. */
function promptOf(d: Draft, c: CompiledNode, plain: string | undefined): string {
  if (plain !== undefined) return plain;
  if (c.node.type !== 'question') return '';
  return render(d, promptText(c, d.s.attempts)).trim(); // an empty placeholder (feedback not given yet) leaves no stray space
}

const rawPrompts = (c: CompiledNode): string[] => (c.node.type !== 'question' ? [] : Array.isArray(c.node.prompt) ? c.node.prompt : c.node.prompt ? [c.node.prompt] : []);

/**
 * Asks the current question (again): plain, after a failed answer with the
 * reason, or for a refinement of an assessed answer with the feedback (which
 * comes first unless the prompt shows it itself through its `feedback_key`).
 * A `specific` reason (the extractor's clarification about what was typed, e.g. another currency) is
 * said even where the question has an `invalid_prompt`, which stays for plain invalid values.
 */
export function ask(d: Draft, c: CompiledNode, invalid?: string, feedback?: string, specific = false): void {
  const replies = recordOf(d, c) ?? d.idx.records.get(c.node.id)!;
  if (replies.type !== 'question') return;
  // the record says it is a question; the node itself is read only for what the record does not hold (a plain ask reads none of it)
  const prompt = promptOf(d, c, replies.prompt);
  const text = feedback === undefined && invalid === undefined ? prompt : reasked(d, c, prompt, invalid, feedback, specific);
  const kind = invalid === undefined ? 'question' : 'invalid';
  // the closed question's replies from its node record, copied: an effect is the caller's to keep
  // (Array.from, not slice: slice of the record's frozen list takes V8's slow path, ~0.4 µs)
  const id = replies.id;
  const key = replies.key!;
  const { quickReplies, multiple } = replies.facts;
  d.effects.push(quickReplies === undefined ? { type: 'ask', nodeId: id, key, text, kind, progress: progressOf(d, id, replies) }
    : multiple ? { type: 'ask', nodeId: id, key, text, kind, quickReplies: Array.from(quickReplies), multiple: true, progress: progressOf(d, id, replies) }
      : { type: 'ask', nodeId: id, key, text, kind, quickReplies: Array.from(quickReplies), progress: progressOf(d, id, replies) });
}

/** The text of a re-ask: the prompt after the feedback or the reason (or the question's `invalid_prompt`). */
function reasked(d: Draft, c: CompiledNode, prompt: string, invalid: string | undefined, feedback: string | undefined, specific: boolean): string {
  const q = c.node as Extract<CompiledNode['node'], { type: 'question' }>;
  const fk = feedback !== undefined ? q.assess?.feedback_key : undefined;
  return feedback !== undefined
    ? (fk && rawPrompts(c).some((p) => p.includes(`answers.${fk}`)) ? prompt : `${feedback} ${prompt}`)
    : q.invalid_prompt && !specific ? render(d, q.invalid_prompt) : `${invalid} ${prompt}`;
}

/** Asks the flow's path question at a decision that routes on `path`. */
export function askPath(d: Draft, nodeId: string, invalid?: string): void {
  const paths = d.flow.source.paths!;
  const options = Object.entries(paths.options);
  const prompt = paths.prompt ?? fillMessage(d.flow.messages.path_prompt, { options: options.map(([name, o]) => o.label ?? name).join(', ') });
  d.effects.push({ type: 'ask', nodeId, text: invalid ? `${invalid} ${prompt}` : prompt, kind: invalid ? 'invalid' : 'question',
    quickReplies: options.map(([name, o]) => o.label ?? name), progress: progressOf(d, nodeId) });
}

/** Ends the session with a status and outcome, and tells the runner. */
export function finish(d: Draft, status: Session['status'], outcome: string | undefined, detail: Record<string, unknown> = {}): void {
  d.s.status = status;
  d.s.pending = undefined;
  if (outcome !== undefined) d.s.outcome = outcome;
  const type = status === 'escalated' ? 'escalated' : status === 'abandoned' ? 'abandoned' : status === 'error' ? 'error' : 'completed';
  emit(d, type, { ...(outcome ? { outcome } : {}), ...detail });
  if (status === 'escalated' || status === 'error') {
    d.effects.push({ type: 'escalate', nodeId: d.s.node, reason: String(detail.reason ?? outcome ?? status) });
  }
  d.effects.push({ type: 'complete', status, ...(outcome ? { outcome } : {}), answers: answerValues(d.s) });
  // a person will answer: they need a way to reach the visitor (asked once, after what the flow said)
  if (status === 'escalated') askContactAtHandover(d, progressOf(d, null));
}

/** Ends with status `error` and escalates, with a snapshot of where it happened. */
export function fail(d: Draft, reason: string): void {
  finish(d, 'error', undefined, {
    reason,
    snapshot: { node: d.s.node, stack: d.s.stack, path: d.s.path, answered: [...d.s.answers.keys()].sort() },
  });
}

/**
 * Chooses the next node after `id` by its normal edges: the first guard that
 * holds, else the `else` edge. `__exit__` returns to the caller, which then
 * follows its own edges. A node without edges ends the conversation
 * (completed); edges that all fail end it with an error.
 */
export function next(d: Draft, id: string, path?: string): string | null {
  return nextFrom(d, d.idx.records.get(id)!, path);
}

function nextFrom(d: Draft, rec: NodeRecord, path?: string): string | null {
  const id = rec.id;
  const to = rec.directTo;
  if (to !== undefined) {
    // the usual node: one edge without a guard (read from the record, not the edge list)
    d.events.push({ type: 'node_exit', turn: d.s.turn, node: id, to, edge: rec.directEdge! });
    d.target = rec.directTarget;
    return to === EXIT ? exitSubgraph(d, id) : to;
  }
  const { c, edges } = rec;
  if (edges.length === 0) {
    if (c.scope !== null && d.s.stack.length > 0) return exitSubgraph(d, id);
    d.s.node = id;
    finish(d, 'completed', undefined, { reason: 'implicit end' });
    return null;
  }
  let chosen: CompiledEdge | undefined;
  let at = 0;
  for (; at < edges.length; at++) {
    const e = edges[at]!;
    if (e.guard === null) {
      chosen = e;
      break;
    }
    if (e.guard === 'else') continue;
    const result = holds(d, e.guard, path !== undefined ? { path } : undefined, rec.edgeSlots[at]);
    // events as literals with their fields in the order emit() gives them
    d.events.push(path !== undefined ? { type: 'guard', turn: d.s.turn, node: id, edge: e.id, result, tentativePath: path }
      : { type: 'guard', turn: d.s.turn, node: id, edge: e.id, result });
    if (result) {
      chosen = e;
      break;
    }
  }
  if (!chosen) for (at = 0; at < edges.length; at++) if (edges[at]!.guard === 'else') { chosen = edges[at]; break; }
  if (!chosen) {
    d.s.node = id;
    fail(d, `no edge of '${id}' matched`);
    return null;
  }
  d.events.push({ type: 'node_exit', turn: d.s.turn, node: id, to: chosen.to, edge: chosen.id });
  d.target = rec.targets[at];
  return chosen.to === EXIT ? exitSubgraph(d, id) : chosen.to;
}

function exitSubgraph(d: Draft, from: string): string | null {
  const frame = d.s.stack[d.s.stack.length - 1];
  if (!frame) {
    fail(d, `'${from}' reached __exit__ outside a subgraph`);
    return null;
  }
  d.s.stack = d.s.stack.slice(0, -1);
  emit(d, 'subgraph_exit', { subgraph: frame.ref }, frame.node);
  return afterNode(d, frame.node);
}

/** After a node's own work: its `after` interrupt, else its edges. */
export function afterNode(d: Draft, id: string): string | null {
  const rec = recordAt(d, id)!;
  const c = rec.c;
  if (!rec.plain && c.node.interrupt?.when === 'after' && !(d.s.pending?.kind === 'interrupt' && d.approved === id)) return wait(d, c, 'after');
  return nextFrom(d, rec);
}

function wait(d: Draft, c: CompiledNode, when: 'before' | 'after'): null {
  const i = c.node.interrupt!;
  d.s.node = c.node.id;
  d.s.status = 'waiting';
  d.s.pending = { kind: 'interrupt', when, since: d.s.now };
  emit(d, 'interrupt', { when, ...(i.role ? { role: i.role } : {}) });
  d.effects.push({ type: 'wait_for_operator', nodeId: c.node.id, when, ...(i.role ? { role: i.role } : {}),
    ...(i.prompt ? { prompt: i.prompt } : {}), ...(i.timeout_s ? { timeoutS: i.timeout_s } : {}) });
  return null;
}

/** Follows a node's `on: kind` edge (failure, invalid, rejected), else escalates. */
export function special(d: Draft, id: string, kind: 'failure' | 'invalid' | 'rejected', reason: string): string | null {
  const edge = d.flow.nodes.get(id)!.out.find((e) => e.on === kind);
  if (edge) {
    emit(d, 'node_exit', { to: edge.to, edge: edge.id, on: kind }, id);
    return edge.to === EXIT ? exitSubgraph(d, id) : edge.to;
  }
  d.s.node = id;
  finish(d, 'escalated', undefined, { reason });
  return null;
}

/** Runs from a node until the conversation needs input: a question, an action, an operator, or the end. */
export function run(d: Draft, from: string | null): void {
  let target = from;
  while (target !== null) {
    if (++d.steps > d.opts.maxSteps) {
      fail(d, `more than ${d.opts.maxSteps} steps in one turn`);
      return;
    }
    target = visit(d, target);
  }
}

/** Enters one node; returns the next node to enter, or null when the turn stops here. */
function visit(d: Draft, id: string): string | null {
  const rec = d.target !== undefined && d.target.id === id ? d.target : d.idx.records.get(id)!;
  const c = rec.c;
  d.events.push({ type: 'node_enter', turn: d.s.turn, node: id, nodeType: rec.type });
  if (rec.plain) {
    // the usual question: asked unless answered (the same steps as below, reading only the record)
    if (!certainlyUnanswered(d.s, d.s.answers, rec.keyRank) && d.s.answers.has(rec.key!) && !d.s.reask?.includes(rec.key!)) {
      emit(d, 'node_exit', { skipped: 'answered' }, id);
      return nextFrom(d, rec);
    }
    d.s.node = id;
    d.s.attempts = 0;
    d.s.assessing = undefined;
    ask(d, c);
    return null;
  }
  const n = c.node;
  if (c.when && !holds(d, c.when)) {
    emit(d, 'node_exit', { skipped: 'when' }, id);
    return nextFrom(d, rec);
  }
  const answered = rec.key !== undefined && !certainlyUnanswered(d.s, d.s.answers, rec.keyRank) && d.s.answers.has(rec.key);
  if (answered && !(n.type === 'question' && n.always_ask) && !d.s.reask?.includes(rec.key!)) {
    emit(d, 'node_exit', { skipped: 'answered' }, id);
    return nextFrom(d, rec);
  }
  // a never-asked question (v0's optional ones) is passed: it only takes an answer volunteered at another question
  if (n.type === 'question' && n.never_ask) {
    emit(d, 'node_exit', { skipped: 'never_ask' }, id);
    return nextFrom(d, rec);
  }
  // a question is not asked before the keys it depends on: the first missing one is asked, then it comes back here
  const dependency = rec.dependencies !== undefined ? pendingDependency(d, c) : undefined;
  if (dependency) {
    startDetour(d, c, dependency);
    ask(d, dependency);
    return null;
  }
  // the node's say comes first: it usually explains the pause ("a nurse will take a look")
  // (on the way back to a review after a change, what the nodes passed said the first time is not said again)
  // honest words: with nobody from the team online, the node's `say_offline` instead of its `say` ("I'm connecting you…")
  const say = !d.staffed && n.say_offline !== undefined ? n.say_offline : n.say;
  if (say && d.approved !== id && !(d.s.returning !== undefined && n.type !== 'terminal')) {
    // the say of the node an urgent trigger goes to is safety advice: it goes out marked as an alert
    d.effects.push({ type: 'say', nodeId: id, text: render(d, say), kind: n.type === 'terminal' ? 'done' : 'info', ...(isAlertNode(d.flow, id) ? { tone: 'alert' as const } : {}) });
  }
  if (n.interrupt?.when === 'before' && d.approved !== id) return wait(d, c, 'before');
  switch (n.type) {
    case 'question':
      d.s.node = id;
      d.s.attempts = 0;
      d.s.assessing = undefined;
      ask(d, c);
      return null;
    case 'decision':
      return routeDecision(d, c);
    case 'subgraph': {
      const sg = d.flow.subgraphs.get(n.ref)!;
      d.s.stack = [...d.s.stack, { node: id, ref: n.ref }];
      emit(d, 'subgraph_enter', { subgraph: n.ref }, id);
      return sg.entry;
    }
    case 'action':
      return callAction(d, c);
    case 'review':
      askReview(d, c);
      return null;
    case 'terminal': {
      d.s.node = id;
      const outcome = n.outcome ?? 'completed';
      const status = outcome === 'escalated' ? 'escalated' : outcome === 'abandoned' ? 'abandoned' : 'completed';
      finish(d, status, outcome);
      return null;
    }
  }
}

/** The key an action's result is cached under: handler name and canonical input. */
export function actionCacheKey(d: Draft, c: CompiledNode): string {
  return `${c.node.type === 'action' ? c.node.call : c.node.id}:${canonicalJson(actionInput(d, c))}`;
}

/**
 * Routes out of a decision. When the route depends on a path that is not
 * locked yet, it follows the tentative path (remembering where, to re-route
 * if the path switches before the lock), or asks the path question when there
 * is no tentative path.
 */
export function routeDecision(d: Draft, c: CompiledNode): string | null {
  const id = c.node.id;
  if (!needsPath(d, c)) return afterNode(d, id);
  const tentative = d.s.path.tentative;
  // no path voted yet: an `on: "no_path"` edge goes on without asking (the v0 migrator's global questions);
  // the decision is remembered, so a path voted on the way comes back here and follows it
  const onward = tentative === null ? c.out.find((e) => e.on === 'no_path') : undefined;
  if (onward) {
    d.s.route = { node: id, stack: d.s.stack, turn: d.s.turn };
    emit(d, 'node_exit', { to: onward.to, edge: onward.id, on: 'no_path' }, id);
    return onward.to === EXIT ? exitSubgraph(d, id) : onward.to;
  }
  if (tentative === null) {
    d.s.node = id;
    d.s.pending = { kind: 'path_prompt' };
    d.s.pathAttempts = undefined; // a fresh arrival at the prompt gets its full `paths.max_attempts`
    askPath(d, id);
    return null;
  }
  d.s.route ??= { node: id, stack: d.s.stack, turn: d.s.turn };
  return next(d, id, tentative);
}

/** The edge a node would take if `path` were `path`, without recording anything. */
function pick(d: Draft, c: CompiledNode, path: string | null): string | undefined {
  const edges = c.out.filter((e) => !e.on);
  const chosen = edges.find((e) => e.guard === null || (e.guard !== 'else' && holds(d, e.guard, { path })));
  return (chosen ?? edges.find((e) => e.guard === 'else'))?.id;
}

/**
 * Whether a decision must ask the path question: no path is locked, some
 * guard reads `path`, and the edge taken would differ between paths.
 * Otherwise the route is already decided by the answers and nobody is asked.
 */
function needsPath(d: Draft, c: CompiledNode): boolean {
  const paths = d.flow.source.paths;
  if (!paths || d.s.path.locked || !c.out.some((e) => e.guard && e.guard !== 'else' && e.guard.usesPath)) return false;
  const choices = new Set([null, ...Object.keys(paths.options)].map((p) => pick(d, c, p)));
  return choices.size > 1;
}

/** Resolves an action's input from answers and context. */
function actionInput(d: Draft, c: CompiledNode): Record<string, unknown> {
  if (c.node.type !== 'action') return {};
  const input: Record<string, unknown> = {};
  for (const [arg, ref] of Object.entries(c.node.input_map ?? {})) {
    const [root, key] = ref.trim().split('.', 2) as [string, string];
    input[arg] = root === 'answers' ? d.s.answers.get(key)?.value ?? null : Object.hasOwn(d.s.context, key) ? d.s.context[key] : null;
  }
  return input;
}

function callAction(d: Draft, c: CompiledNode): string | null {
  if (c.node.type !== 'action') return null;
  const n = c.node;
  const missing = (n.requires ?? []).filter((k) => !d.s.answers.has(k));
  if (missing.length > 0) {
    emit(d, 'action_failed', { call: n.call, reason: `missing required answers: ${missing.join(', ')}` }, n.id);
    return special(d, n.id, 'failure', `action '${n.call}' is missing ${missing.join(', ')}`);
  }
  const input = actionInput(d, c);
  const cached = d.s.cache[actionCacheKey(d, c)];
  if (cached) {
    emit(d, 'action_result', { call: n.call, ok: true, cached: true }, n.id);
    return applyActionOutput(d, c, cached);
  }
  const callId = `${n.id}#${d.s.turn}`;
  d.s.node = n.id;
  d.s.pending = { kind: 'action', callId, attempt: 0 };
  emit(d, 'action_call', { call: n.call, callId, input: redactInput(d, c, input) }, n.id);
  d.effects.push({ type: 'call', nodeId: n.id, callId, name: n.call, input,
    retry: { max: n.retry?.max ?? 0, backoffMs: n.retry?.backoff_ms ?? 0 }, timeoutMs: n.timeout_ms ?? 10_000 });
  return null;
}

function redactInput(d: Draft, c: CompiledNode, input: Record<string, unknown>): Record<string, unknown> {
  if (c.node.type !== 'action') return input;
  const map = c.node.input_map ?? {};
  return Object.fromEntries(Object.entries(input).map(([k, v]) => {
    const ref = map[k]!.trim();
    return [k, v !== null && ref.startsWith('answers.') && isPii(d, ref.slice(8)) ? '[pii]' : v];
  }));
}

/** Commits an action's mapped outputs and moves on; a missing `provides` key is a failure. */
export function applyActionOutput(d: Draft, c: CompiledNode, output: Record<string, unknown>): string | null {
  if (c.node.type !== 'action') return null;
  const n = c.node;
  for (const [field, key] of Object.entries(n.output_map ?? {})) {
    if (Object.hasOwn(output, field) && output[field] !== undefined) {
      commit(d, key, { value: output[field], turn: d.s.turn, source: 'action', validation: 'passed' });
    }
  }
  const absent = (n.provides ?? []).filter((k) => !d.s.answers.has(k));
  if (absent.length > 0) {
    emit(d, 'action_failed', { call: n.call, reason: `result did not provide ${absent.join(', ')}` }, n.id);
    return special(d, n.id, 'failure', `action '${n.call}' did not provide ${absent.join(', ')}`);
  }
  d.s.pending = undefined;
  return afterNode(d, n.id);
}

