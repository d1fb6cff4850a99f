import { emptyAnswers } from './answer-map.ts';
import { commitContact, onHandoverMessage, replyWhen } from './handover.ts';
import { addWayForward } from './way-forward.ts';
import type { CompiledFlow, CompiledNode } from '../flow/compiled-flow.ts';
import type { Proposal, ProposedUpdate } from './input.ts';
import { assessPolicy, combineDraft, judgeOffline } from './assess.ts';
import { checkValue, commit, constrainedKey, openQuestion, uncommit, violatedConstraint } from './answers.ts';
import { extractionRequest } from './extraction.ts';
import { clearChanges, draftOf, emit, holds, isPii, recordAt, sessionRecord, type Draft } from './draft.ts';
import { AT_RECORD, type NodeRecord } from './node-record.ts';
import { applyVote, NO_PATH, pathPolicy } from './paths.ts';
import { MAX_CHECKPOINTS, SESSION_VERSION, type AnswerRecord, type Checkpoint, type Conversion, type Session } from './session.ts';
import { actionCacheKey, afterNode, applyActionOutput, ask, askPath, ENDED, finish, next, routeDecision, run, special } from './traverse.ts';
import { cancelCommand, confirmingReply } from './cancel.ts';
import { askToCheck, checkedRecord, checkReply, ignoresCheck, keepForNext } from './check-value.ts';
import { openingReply, withOpening } from './opening.ts';
import { endDetour, missingDependencies } from './dependencies.ts';
import { pathPromptMissed } from './path-prompt.ts';
import { fireTrigger, matchedTrigger, noteTrigger } from './triggers.ts';
import { flowIndex } from './flow-index.ts';
import { markRank } from './route-memo.ts';
import { answerReview, askReview, formatAnswer } from './review.ts';
import { correctAtReview } from './review-correction.ts';
import type { Effect, EngineOptions, EventType, Input, StartInit, TurnResult } from './types.ts';
import { baseLanguage, fillMessage, type Messages } from '../flow/messages/catalogue.ts';
import { localNumber } from '../language/local-number.ts';
import { packOf } from '../language/registry.ts';
import { flowFor, regionOf, sessionFlow } from './locale.ts';
import { EN } from '../language/en/messages.ts';
import { derivedMismatch, hasDerived, mismatchText, type Mismatch } from './derive.ts';

// The engine: pure functions from (flow, session, input) to (session, effects,
// events). No I/O, no clock (time arrives in the input), no randomness.

/** Starts a session: the bot speaks first, running from the entry to the first question. */
export function start(root: CompiledFlow, init: StartInit, opts: EngineOptions = {}): TurnResult {
  const flow = flowFor(root, init.locale);
  const idx = flowIndex(flow);
  const session: Session = {
    v: SESSION_VERSION,
    ...(init.id ? { id: init.id } : {}),
    flow: { id: flow.id, revision: flow.revision },
    status: 'active',
    node: null,
    stack: [],
    attempts: 0,
    path: NO_PATH,
    turn: 0,
    context: { ...(init.context ?? {}) },
    ...(flow.i18n ? { locale: flow.locale } : {}),
    ...(regionOf(init.locale, flow.locale) ? { region: regionOf(init.locale, flow.locale)! } : {}),
    answers: emptyAnswers(idx.answerSlots),
    cache: {},
    checkpoints: [],
    now: init.now,
  };
  markRank(idx, session);
  const d = draftOf(flow, session, opts);
  for (const [key, value] of Object.entries(init.given?.answers ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    const c = d.idx.questionByKey.get(key);
    const checked = c ? checkValue(d, c, value) : { ok: false as const, reason: `'${key}' is not a question of this flow` };
    if (checked.ok) commit(d, key, { value: checked.value, turn: 0, source: 'given', validation: 'passed' });
    else emit(d, 'validation_failed', { key, reason: checked.reason, source: 'given' }, null);
  }
  if (init.given?.path !== undefined) {
    const p = init.given.path;
    d.s.path = { scores: { [p]: pathPolicy(flow).lockThreshold }, tentative: p, locked: true };
  }
  clearChanges(d);
  run(d, flow.entry);
  return result(d);
}

/** The proposal of a command word: nothing found in it. */
const NO_PROPOSAL: Proposal = { extractor: 'rules', updates: [], unknown: [] };

/** One turn: a user message (with its proposal), a command, an action result or an operator decision. */
export function turn(root: CompiledFlow, session: Session, input: Input, opts: EngineOptions = {}): TurnResult {
  if (session.flow.revision !== root.revision) {
    throw new Error(`session is pinned to revision ${session.flow.revision} of ${session.flow.id}, not ${root.revision}`);
  }
  if (input.kind === 'locale') return switchLocale(root, session, input, opts);
  const flow = sessionFlow(root, session);
  const d = draftOf(flow, session, opts);
  // escalated: a person will answer; the visitor may keep writing (contact details are taken)
  if (session.status === 'escalated' && !session.handover?.closed && (input.kind === 'message' || (input.kind === 'command' && input.command !== 'restart'))) {
    d.s.turn = session.turn + 1;
    d.s.now = input.now;
    const text = input.text ?? (input.kind === 'command' ? input.command : '');
    const proposal = input.kind === 'message' ? input.proposal : NO_PROPOSAL;
    const skip = input.kind === 'command' ? input.command === 'skip' : proposal.unknown.length > 0;
    onHandoverMessage(d, text, proposal, input.staffed === true, skip);
    return result(d, true);
  }
  if (ENDED.has(session.status) && !(input.kind === 'command' && input.command === 'restart')) {
    d.effects.push({ type: 'say', nodeId: session.node ?? flow.entry, kind: 'done',
      text: session.status === 'completed' ? flow.messages.ended_completed
        : session.status === 'escalated' && !session.handover?.closed ? flow.messages.ended_escalated
          : flow.messages.ended_other });
    return { session, effects: d.effects, events: [] };
  }
  // turns count what the user sends; action results and operator decisions belong to the turn that led to them
  if (input.kind === 'message' || input.kind === 'command') d.s.turn = session.turn + 1;
  d.s.now = input.now;
  if (input.kind !== 'operator' && input.staffed === true) d.staffed = true;
  switch (input.kind) {
    case 'message':
      onMessage(d, input);
      if (d.command) return onCommand(flow, d, { kind: 'command', command: d.command, now: input.now, text: input.text, ...(d.staffed ? { staffed: true } : {}) }, opts);
      break;
    case 'command':
      return onCommand(flow, d, input, opts);
    case 'action_result':
      onActionResult(d, input);
      break;
    case 'operator':
      onOperator(d, input);
      break;
  }
  return result(d, input.kind === 'message');
}

/**
 * Takes the contact details in a message the visitor wrote to a person who
 * holds the conversation: committed with provenance, nothing said, the
 * session otherwise as it was (server/engine/handover.ts).
 */
export function noteContact(root: CompiledFlow, session: Session, text: string, proposal: Proposal, now: string, opts: EngineOptions = {}): TurnResult {
  const d = draftOf(sessionFlow(root, session), session, opts);
  if (proposal.updates.length === 0) return { session, effects: [], events: [] };
  d.s.turn = session.turn + 1;
  d.s.now = now;
  const taken = commitContact(d, proposal, text);
  if (taken.length === 0) return { session, effects: [], events: d.events };
  return result(d, true);
}

/**
 * Gives a session back to the bot at a question, after a person handled it:
 * active again, at `nodeId` (inside the subgraph frames `stack`), asking it
 * even if it was answered.
 */
export function resumeAt(flow: CompiledFlow, session: Session, nodeId: string, stack: Session['stack'], now: string, opts: EngineOptions = {}): TurnResult {
  const c = flow.nodes.get(nodeId);
  if (!c || c.node.type !== 'question') throw new Error(`'${nodeId}' is not a question of ${flow.id}`);
  const d = draftOf(flow, session, opts);
  d.s.turn = session.turn + 1;
  d.s.now = now;
  Object.assign(d.s, { status: 'active', pending: undefined, outcome: undefined, stack, node: nodeId, attempts: 0, detour: undefined });
  if (d.s.answers.has(c.node.key) && !d.s.reask?.includes(c.node.key)) d.s.reask = [...(d.s.reask ?? []), c.node.key];
  emit(d, 'resumed', { by: 'operator' });
  ask(d, c);
  return result(d);
}

/**
 * The visitor asks for another of the flow's locales: the session speaks it
 * from now on, keeping its answers and place, and whatever it waits on is
 * asked again in the new language.
 */
function switchLocale(root: CompiledFlow, session: Session, input: Extract<Input, { kind: 'locale' }>, opts: EngineOptions): TurnResult {
  const flow = flowFor(root, input.locale);
  const d = draftOf(flow, session, opts);
  d.s.turn = session.turn + 1;
  d.s.now = input.now;
  d.heard = { text: input.text ?? input.locale, pii: false };
  if (!flow.i18n) {
    emit(d, 'input_ignored', { reason: `the flow speaks one language; '${input.locale}' was asked for` });
    return result(d);
  }
  const from = sessionFlow(root, session).locale;
  d.s.locale = flow.locale;
  emit(d, 'locale_changed', { from, to: flow.locale });
  d.effects.push({ type: 'say', nodeId: d.s.node ?? flow.entry, kind: 'info', text: flow.messages.language_changed });
  if (d.s.status === 'active') {
    if (d.s.confirming) d.s.confirming = undefined;
    if (d.s.checking) d.s.checking = undefined;
    reask(d);
  }
  return result(d);
}

/** How many lines of conversation a session keeps for context-reading extractors. */
export const RECENT_LINES = 6;
const RECENT_CHARS = 300;
const EMAIL = /[^\s@<>()]+@[^\s@<>()]+\.[a-z]{2,}/gi;

/** A line for the session's recent lines: pii answers' values and email addresses masked, length capped. */
function masked(d: Draft, text: string): string {
  let t = /\s\s|[^\S ]/.test(text) ? text.replace(/\s+/g, ' ').trim() : text.trim();
  for (const key of d.idx.piiKeys) {
    const v = d.s.answers.get(key)?.value;
    if (v === null || v === undefined) continue;
    for (const shown of Array.isArray(v) ? v.map(String) : [String(v)]) {
      if (shown.length >= 3) t = t.split(shown).join('[pii]');
    }
  }
  if (t.includes('@')) t = t.replace(EMAIL, '[pii]');
  return t.length > RECENT_CHARS ? `${t.slice(0, RECENT_CHARS)}…` : t;
}

/** A pii reply's words as held for the next turn's offline rules: on one line, cut at RECENT_CHARS. */
function oneLineOf(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > RECENT_CHARS ? t.slice(0, RECENT_CHARS) : t;
}

/** A bot line as kept: a question's plain prompt is masked once per node (without pii keys masking reads only the text). */
function botLine(d: Draft, e: Extract<Effect, { type: 'ask' | 'say' }>): string {
  if (e.type !== 'ask' || d.idx.piiKeys.length > 0) return masked(d, e.text);
  const rec = recordAt(d, e.nodeId);
  if (rec === undefined || rec.prompt !== e.text) return masked(d, e.text);
  return (rec.promptLine ??= masked(d, e.text));
}

/** Appends this turn's user message and bot lines to the session's recent lines (pii withheld). */
function remember(d: Draft): void {
  const lines: NonNullable<Session['recent']>[number][] = [];
  if (d.heard) lines.push(d.heard.pii ? { role: 'user', text: '', pii: true, held: oneLineOf(d.heard.text) } : { role: 'user', text: masked(d, d.heard.text) });
  for (const e of d.effects) if (e.type === 'ask' || e.type === 'say') lines.push({ role: 'bot', text: botLine(d, e) });
  if (lines.length > 0) {
    // the last RECENT_LINES of the lines before and these, copied into a list of exactly that length (concat is slow)
    const before = d.s.recent ?? [];
    const from = Math.max(0, lines.length - RECENT_LINES);
    const kept = Math.max(0, before.length - (RECENT_LINES - (lines.length - from)));
    const recent: typeof lines = new Array(before.length - kept + lines.length - from);
    let n = 0;
    // only the last user line keeps a pii line's words (`held`)
    const newUser = lines.some((l) => l.role === 'user');
    for (let i = kept; i < before.length; i++) {
      const b = before[i]!;
      recent[n++] = newUser && b.held !== undefined ? { role: b.role, text: b.text, pii: true } : b;
    }
    for (let i = from; i < lines.length; i++) recent[n++] = lines[i]!;
    d.s.recent = recent;
  }
}

/** Packs a draft into a result; a user turn that committed answers gets a `back` checkpoint. */
function result(d: Draft, userTurn = false): TurnResult {
  remember(d);
  if (d.changedKey !== undefined) {
    const changes = changesOf(d);
    const cps = d.s.checkpoints;
    if (userTurn || cps.length === 0) {
      // plain literals, not a spread: a checkpoint per answered turn is much of a session's memory
      const { node, stack, path, route, detour } = d.base;
      const cp = route || detour
        ? { turn: d.s.turn, node, stack, path, ...(route ? { route } : {}), ...(detour ? { detour } : {}), changes }
        : { turn: d.s.turn, node, stack, path, changes };
      d.s.checkpoints = appended(cps, cp);
    } else {
      // answers from actions and operators belong to the user turn that led to them
      const last = cps[cps.length - 1]!;
      const known = new Set(last.changes.map((c) => c.key));
      d.s.checkpoints = [...cps.slice(0, -1), { ...last, changes: [...last.changes, ...changes.filter((c) => !known.has(c.key))] }];
    }
  }
  // the record of the node the session is at, for the next turn (sessionRecord)
  (d.s as { [AT_RECORD]?: number })[AT_RECORD] = d.s.node === null ? undefined : recordAt(d, d.s.node)?.ordinal;
  return { session: d.s, effects: d.effects, events: d.events };
}

/** The last MAX_CHECKPOINTS - 1 checkpoints and `cp`, copied once into a list of exactly that length. */
function appended(cps: readonly Checkpoint[], cp: Checkpoint): Checkpoint[] {
  const from = cps.length < MAX_CHECKPOINTS ? 0 : cps.length - (MAX_CHECKPOINTS - 1);
  const out: Checkpoint[] = new Array(cps.length - from + 1);
  for (let i = from; i < cps.length; i++) out[i - from] = cps[i]!;
  out[cps.length - from] = cp;
  return out;
}

/** A turn that answered one question for the first time, as a checkpoint's changes: one frozen list per key and flow, shared. */
const firstAnswers = new WeakMap<CompiledFlow, Map<string, Checkpoint['changes']>>();

/** The draft's changes for its checkpoint (`before` absent where the key was unanswered). */
function changesOf(d: Draft): Checkpoint['changes'] {
  if (d.changes === undefined) {
    const key = d.changedKey!;
    const before = d.changedBefore;
    if (before === undefined && d.at !== undefined && d.at.key === key) return d.at.firstChange as Checkpoint['changes'];
    if (before === undefined) {
      let byKey = firstAnswers.get(d.flow);
      if (!byKey) firstAnswers.set(d.flow, (byKey = new Map()));
      let shared = byKey.get(key);
      if (!shared) byKey.set(key, (shared = Object.freeze([Object.freeze({ key })]) as Checkpoint['changes']));
      return shared;
    }
  }
  const first = d.changedBefore;
  const changes: Checkpoint['changes'] = [first ? { key: d.changedKey!, before: first } : { key: d.changedKey! }];
  if (d.changes !== undefined) for (const [key, before] of d.changes) changes.push(before ? { key, before } : { key });
  return changes;
}


/** Whether a key decided this turn (accepted, or the skipped current one) is named by a constraint. */
function decidesConstrained(d: Draft, keys: Iterable<string>, skipped: string | undefined): boolean {
  if (skipped !== undefined && constrainedKey(d, skipped)) return true;
  for (const k of keys) if (constrainedKey(d, k)) return true;
  return false;
}

function onMessage(d: Draft, input: Extract<Input, { kind: 'message' }>): void {
  let { proposal } = input;
  recordLlm(d, proposal);
  if (d.s.status === 'waiting') {
    // a red flag while an operator holds the session still marks it urgent
    const t = matchedTrigger(d, proposal);
    if (t) noteTrigger(d, t, proposal);
    d.effects.push({ type: 'say', nodeId: d.s.node ?? d.flow.entry, kind: 'info', text: d.flow.messages.waiting });
    return;
  }
  const atPathPrompt = d.s.pending?.kind === 'path_prompt';
  d.at = sessionRecord(d);
  const current = d.at?.c;
  if (d.at?.type === 'review' && !atPathPrompt) {
    // at a review the message confirms, corrects an answer ("the poles are 8 metres not 6"), or names one to change
    d.heard = { text: input.text, pii: false };
    const fixed = correctAtReview(d, current!, input.text, proposal);
    if (fixed?.node.type === 'question') {
      if (isPii(d, fixed.node.key)) d.heard = { text: input.text, pii: true };
      // through the corrected question (answered: passed) and on along its edges, back to the review
      run(d, fixed.node.id);
      return;
    }
    run(d, answerReview(d, current!, input.text, (id) => afterNode(d, id), (id, reason) => special(d, id, 'invalid', reason)));
    return;
  }
  const currentKey = d.at?.type === 'question' && !atPathPrompt ? d.at.key : undefined;
  d.heard = { text: input.text, pii: (currentKey !== undefined && isPii(d, currentKey)) || (d.idx.piiKeys.length > 0 && proposal.updates.some((u) => isPii(d, u.key))) };
  // a trigger wins over everything the message might also answer
  const trigger = matchedTrigger(d, proposal);
  if (trigger) {
    d.s.confirming = undefined;
    noteTrigger(d, trigger, proposal);
    d.command = fireTrigger(d, trigger);
    return;
  }
  if (d.s.confirming && confirmingReply(d, input.text, reask)) return;
  if (d.s.checking?.opening) {
    // "You wrote: “…”. Shall I note that as the problem description?": a yes takes the message, a bare no asks the
    // question as written, anything else is added to the message; then read as a reply to the question (opening.ts)
    const pending = d.s.checking;
    d.s.checking = undefined;
    if (currentKey === pending.key) {
      const said = openingReply(d, input.text);
      emit(d, 'confirmation', { key: pending.key, outcome: said === 'yes' ? 'confirmed' : said === 'no' ? 'declined' : 'added', opening: true });
      if (said === 'no') {
        ask(d, current!);
        return;
      }
      proposal = withOpening(proposal, pending, said, input.text);
    }
  } else if (d.s.checking) {
    // "Just to check: …?" waits: a yes commits the value, a no asks again, anything else is read as usual
    const pending = d.s.checking;
    d.s.checking = undefined;
    const said = currentKey === pending.key ? checkReply(d, pending, proposal, input.text) : 'other';
    if (said === 'yes') {
      commit(d, pending.key, checkedRecord(d, pending));
      emit(d, 'confirmation', { key: pending.key, outcome: 'confirmed' });
      if (pending.conversion && !isPii(d, pending.key)) d.effects.push({ type: 'say', nodeId: d.s.node ?? d.flow.entry, kind: 'info', text: conversionEcho(pending.conversion, d.flow.messages, d.flow.locale) });
      run(d, d.s.detour ? endDetour(d) : afterNode(d, d.at!.id));
      return;
    }
    if (said === 'no') {
      emit(d, 'confirmation', { key: pending.key, outcome: 'declined' });
      ask(d, current!);
      return;
    }
    // "spring" to "Just to check: 5000 USD?": a reply that says nothing about the value checked (it answers the next
    // question) is kept and the check asked once more in plain words; after a yes the kept reply is read at the next
    // question (conversation/turn-runner.ts). Asked once more only: a second such reply is read as usual.
    if (said === 'other' && pending.kept === undefined && currentKey === pending.key && ignoresCheck(proposal, pending.key)) {
      keepForNext(d, current!, pending, input.text);
      return;
    }
  }
  // without a vote, a locked path or a flow without paths leaves the path as it is, with no event: applyVote is not asked
  if (proposal.pathVote || (d.flow.source.paths && !d.s.path.locked)) {
    const voted = applyVote(d.s.path, proposal.pathVote, d.flow);
    d.s.path = voted.state;
    for (const { type, ...detail } of voted.events) emit(d, type as EventType, detail);
    if (proposal.pathVote && proposal.extractor !== 'rules' && voted.events.some((e) => e.ignored === 'not a declared path')) {
      emit(d, 'llm_proposal_rejected', { path: proposal.pathVote.path, reason: `'${proposal.pathVote.path}' is not a declared path`, extractor: proposal.extractor });
    }
  }
  if (proposal.escalate) {
    emit(d, 'command', { command: 'human', reason: proposal.escalate.reason });
    finish(d, 'escalated', undefined, { reason: proposal.escalate.reason });
    return;
  }
  const accepted = new Map<string, { update: ProposedUpdate; value: unknown }>();
  let currentProblem: string | undefined = proposal.problem?.key === currentKey ? proposal.problem?.reason : undefined;
  const rejected = proposal.extractor === 'rules' ? 'proposal_rejected' : 'llm_proposal_rejected';
  const llm = rejected === 'llm_proposal_rejected';
  // the request's current question is the base session's (extractionRequest): the open ones are looked up only for another key
  const requested = llm ? requestedKey(d, d.at) : undefined;
  let offered: Set<string> | undefined;
  for (const update of proposal.updates) {
    if (accepted.has(update.key)) {
      emit(d, rejected, { key: update.key, reason: 'two values proposed for one key', extractor: proposal.extractor });
      continue;
    }
    // the question asked, when it is the first to ask its key, is open (openQuestion's answer, without reading the node)
    // a correction of the answer given the turn before replaces it (the offline rules propose one only for that key)
    const corrected = update.corrects === true && update.key !== currentKey && d.s.answers.has(update.key) ? d.idx.questionByKey.get(update.key) : undefined;
    const found = corrected?.node.type === 'question' ? { ok: true as const, node: corrected }
      : update.key === currentKey && d.at!.asksFirst ? { ok: true as const, node: current! } : openQuestion(d, update.key, current?.node);
    // a model may answer only what its request offered (found.ok alone would take any unanswered question)
    const open = found.ok && llm && update.key !== requested && !(offered ??= offeredKeys(d, input)).has(update.key)
      ? { ok: false as const, reason: `'${update.key}' was not offered in this turn's request` } : found;
    const checked = open.ok ? checkValue(d, open.node, update.value) : open;
    if (checked.ok) accepted.set(update.key, { update, value: checked.value });
    else if (update.key === currentKey) {
      currentProblem = checked.reason;
      // the re-ask says why; a model's refused value is also on the record as a rejection
      if (llm) emit(d, rejected, { key: update.key, reason: checked.reason, extractor: proposal.extractor });
    } else emit(d, rejected, { key: update.key, reason: checked.reason, extractor: proposal.extractor });
  }
  if (llm) {
    for (const key of proposal.unknown) {
      if (key !== currentKey) emit(d, rejected, { key, reason: `'${key}' is not the question being asked`, extractor: proposal.extractor, tool: 'unknown_answer' });
    }
  }
  // a later question's `when` is judged with this message's other answers in: "pickleball courts"
  // answers the sport, which switches the venue question off, so "court" is not its answer
  if (accepted.size > 1) {
    const withMessage = [...accepted].reduce((m, [k, a]) => m.set(k, { value: a.value, turn: d.s.turn, source: 'user' as const, validation: 'passed' as const }), d.s.answers);
    for (const [key] of [...accepted]) {
      const c = d.idx.questionByKey.get(key);
      if (key === currentKey || !c?.when || holds(d, c.when, { answers: withMessage })) continue;
      accepted.delete(key);
      emit(d, rejected, { key, reason: `'${key}' does not apply`, extractor: proposal.extractor });
    }
  }
  // the next two checks concern answers besides the current question's: most messages have none
  const volunteered = accepted.size > (currentKey !== undefined && accepted.has(currentKey) ? 1 : 0);
  if (volunteered) {
    // a volunteered answer waits for the keys it depends on (v1 `dependencies`)
    for (const key of [...accepted.keys()]) {
      if (key === currentKey) continue;
      const missing = missingDependencies(d, key, new Set(accepted.keys()));
      if (missing.length === 0) continue;
      accepted.delete(key);
      emit(d, rejected, { key, reason: `'${key}' depends on ${missing.map((k) => `'${k}'`).join(', ')}, not answered yet`, extractor: proposal.extractor });
    }
    // an assessed question answered ahead is judged by its offline rules now; one that falls short is asked in its turn
    for (const [key, a] of [...accepted]) {
      const spec = key === currentKey ? undefined : d.idx.questionByKey.get(key)?.node;
      if (spec?.type !== 'question' || !spec.assess) continue;
      const verdict = judgeOffline(spec.assess, a.value, d.flow.messages);
      if (!verdict) continue;
      emit(d, 'assessment', { key, by: 'rules', score: verdict.score, passed: verdict.passed, outcome: verdict.passed ? 'accepted' : 'asked_later', refinements: 0, ahead: true });
      if (!verdict.passed) {
        accepted.delete(key);
        emit(d, rejected, { key, reason: `'${key}' falls short of its assessment and will be asked`, extractor: proposal.extractor });
      }
    }
  }
  let skipCurrent = false;
  const refining = currentKey !== undefined && d.s.assessing?.key === currentKey ? d.s.assessing : undefined;
  let declined = false;
  if (currentKey !== undefined && !accepted.has(currentKey) && proposal.unknown.includes(currentKey)) {
    if (refining) {
      // "that's all I know": the answer so far stands
      accepted.set(currentKey, { update: { key: currentKey, value: refining.draft }, value: refining.draft });
      declined = true;
    } else if (current!.node.type === 'question' && current!.node.required === false) skipCurrent = true;
    else currentProblem = d.flow.messages.required;
  }
  // the values decided this turn, for the constraints: only when one names a decided key (else none is judged)
  let decided: Map<string, unknown> | undefined;
  if (d.flow.constraints.length > 0 && decidesConstrained(d, accepted.keys(), skipCurrent ? currentKey : undefined)) {
    decided = new Map();
    for (const [k, a] of accepted) decided.set(k, a.value);
    if (skipCurrent) decided.set(currentKey!, null);
  }
  const violation = decided ? violatedConstraint(d, decided) : null;
  if (violation) {
    // nothing from this message is committed when it breaks a constraint
    if (llm) for (const key of accepted.keys()) emit(d, rejected, { key, reason: violation, extractor: proposal.extractor });
    accepted.clear();
    skipCurrent = false;
    currentProblem = violation;
  }
  // an answer derived from another that the message contradicts ("born March 2010 … she's 35"): neither value is stored
  // (a value proposed for an answer already derived is no open question's, but still says the two disagree)
  const mismatch = proposal.updates.length > 0 && hasDerived(d)
    ? derivedMismatch(d, new Map([...proposal.updates.filter((u) => d.s.answers.get(u.key)?.source === 'derived').map((u) => [u.key, u.value] as const),
      ...[...accepted].map(([k, a]) => [k, a.value] as const)]))
    : undefined;
  if (mismatch) {
    for (const key of [mismatch.key, mismatch.from]) {
      if (accepted.delete(key)) emit(d, rejected, { key, reason: `'${mismatch.key}' ${String(mismatch.given)} disagrees with ${String(mismatch.derived)} derived from '${mismatch.from}'`, extractor: proposal.extractor });
    }
    if (d.s.answers.get(mismatch.key)?.source === 'user') uncommit(d, mismatch.key);
  }
  let refine: string | undefined;
  if (currentKey !== undefined && accepted.has(currentKey) && !d.at!.plain && current!.node.type === 'question' && current!.node.assess) {
    refine = assessCurrent(d, current!, accepted.get(currentKey)!, proposal, refining, declined);
    if (refine !== undefined) accepted.delete(currentKey);
  }
  const text = input.text.trim().slice(0, 500);
  // the commit rule: the current question's value read beside words the extractor could not account for is checked first
  const toCheck = currentKey !== undefined && !atPathPrompt ? accepted.get(currentKey) : undefined;
  if (toCheck?.update.confirm) accepted.delete(currentKey!);
  // where each corrected answer's question led before the correction (compared after it: see below)
  const ledTo = new Map<string, string | undefined>();
  for (const { update } of accepted.values()) {
    const c = update.corrects && update.key !== currentKey ? d.idx.questionByKey.get(update.key) : undefined;
    if (c?.node.type === 'question' && c.out.some((e) => e.guard !== null && e.on === undefined)) ledTo.set(update.key, edgeTaken(d, c));
  }
  let converted = false;
  // each entry's key is its update's (accepted is keyed by update.key): values(), not entries(), so no pair per answer
  for (const { update, value } of accepted.values()) {
    const key = update.key;
    if (update.conversion) converted = true;
    const plain = modelOf(proposal) === NO_MODEL && update.confidence === undefined && !(update.conversion && update.conversion.value === value);
    // the usual record as one literal (the same fields in the same order): spreads leave it bigger in memory
    commit(d, key, plain && !isPii(d, key) ? { value, turn: d.s.turn, source: 'user', extractor: proposal.extractor, text, validation: 'passed' } : {
      value, turn: d.s.turn, source: 'user', extractor: proposal.extractor,
      ...modelOf(proposal),
      ...(update.confidence !== undefined ? { confidence: update.confidence } : {}),
      ...(isPii(d, key) ? {} : { text }), validation: 'passed',
      ...(update.conversion && update.conversion.value === value ? { conversion: update.conversion } : {}) });
  }
  // "5000 sq ft — about 465 m², noted.": a converted value is said back, so the visitor sees how it was read and can correct it
  if (converted) for (const [key, { update, value }] of accepted) {
    if (update.conversion && update.conversion.value === value && !isPii(d, key)) {
      d.effects.push({ type: 'say', nodeId: d.s.node ?? d.flow.entry, kind: 'info', text: conversionEcho(update.conversion, d.flow.messages, d.flow.locale) });
    }
  }
  if (skipCurrent) commit(d, currentKey!, { value: null, turn: d.s.turn, source: 'user', extractor: proposal.extractor, validation: 'skipped' });
  // "Thanks — I've changed the budget to 25000.": a late correction is said back, so the visitor sees it was taken
  for (const { update, value } of accepted.values()) {
    const c = update.corrects ? d.idx.questionByKey.get(update.key) : undefined;
    if (c?.node.type !== 'question') continue;
    const named = c.node.label ?? c.node.key.replace(/[_.-]+/g, ' ');
    // mid-sentence: "I've changed current lighting to …" (German keeps its capital nouns; "LED type" keeps its capitals)
    const label = packOf(d.flow.locale).capitalNouns || !/^\p{Lu}\p{Ll}/u.test(named) ? named : named[0]!.toLowerCase() + named.slice(1);
    // personal data is not repeated in the chat, but the visitor still hears that the correction was taken
    d.effects.push({ type: 'say', nodeId: d.s.node ?? d.flow.entry, kind: 'info', text: isPii(d, update.key) ? fillMessage(d.flow.messages.corrected_private, { label })
      : fillMessage(d.flow.messages.corrected, { label, value: formatAnswer(c.node.answer, value, d.flow.messages, d.flow.locale) }) });
  }

  // "hold on, the wiring on pole 6 is exposed" after "no" to the safety question: a correction that changes where its
  // question leads (here to the escalation) goes on from that question, along its edges, as at the review
  for (const [key, before] of ledTo) {
    const c = d.idx.questionByKey.get(key)!;
    if (edgeTaken(d, c) === before || atPathPrompt || d.s.detour) continue;
    emit(d, 'confirmation', { key, outcome: 'rerouted' });
    run(d, c.node.id);
    return;
  }
  if (atPathPrompt) {
    if (d.s.path.tentative !== null) {
      d.s.pending = undefined;
      d.s.pathAttempts = undefined;
      run(d, routeDecision(d, d.flow.nodes.get(d.s.node!)!));
    } else pathPromptMissed(d);
    return;
  }
  if (!current || d.at!.type !== 'question') return;
  if (d.s.route && d.s.path.tentative !== d.base.path.tentative) {
    moveToRoute(d);
    return;
  }
  if (d.s.path.locked) d.s.route = undefined; // the route taken on the tentative path is now final
  // "wrong number sorry, it ends 0134": an earlier answer the reply went back to without a value read is asked again
  const reopened = proposal.reopen && !d.s.detour && proposal.reopen.key !== currentKey && d.s.answers.has(proposal.reopen.key)
    ? d.idx.questionByKey.get(proposal.reopen.key) : undefined;
  if (reopened?.node.type === 'question') {
    reopenAnswer(d, reopened);
    return;
  }
  if (mismatch && askAboutMismatch(d, current, mismatch)) return;
  if (refine !== undefined) {
    ask(d, current, undefined, refine);
    return;
  }
  if (toCheck?.update.confirm) {
    askToCheck(d, current, toCheck.update, toCheck.value, proposal.extractor, text); // no miss, no strike
    return;
  }
  if (accepted.has(currentKey!) || skipCurrent) {
    // a dependency asked out of order goes back to the question that needed it
    run(d, d.s.detour ? endDetour(d) : afterNode(d, d.at!.id)); // the record's id: the node itself is not read
    return;
  }
  if (accepted.size > 0) {
    // "Noted — Budget: $30,000.": the values the reply gave for other questions are said back before this one is asked again
    for (const { update, value } of accepted.values()) {
      const c = update.corrects ? undefined : d.idx.questionByKey.get(update.key);
      if (c?.node.type !== 'question' || isPii(d, update.key)) continue;
      const label = c.node.label ?? c.node.key.replace(/[_.-]+/g, ' ');
      d.effects.push({ type: 'say', nodeId: d.s.node ?? d.flow.entry, kind: 'info', text: fillMessage(d.flow.messages.noted, { label, value: formatAnswer(c.node.answer, value, d.flow.messages, d.flow.locale) }) });
    }
    ask(d, current); // the message answered other questions: ask this one again, no penalty
    return;
  }
  if (proposal.pause?.key === currentKey && currentProblem === undefined) {
    ask(d, current, undefined, d.flow.messages.pause); // "hold on, let me check": no answer yet, and no miss
    return;
  }
  d.s.attempts += 1;
  const reason = currentProblem ?? d.flow.messages.not_understood;
  emit(d, 'validation_failed', { key: currentKey, reason, attempt: d.s.attempts });
  const max = (current.node.type === 'question' ? current.node.max_attempts : undefined) ?? 3;
  // out of attempts: the flow's `invalid` edge when it has one; else the visitor is offered the way forward
  // (answer again, skip, a person) for as many attempts again before a person is asked to take over
  const wayOut = d.s.detour !== undefined || current.out.some((e) => e.on === 'invalid');
  if (d.s.attempts >= max && (wayOut || d.s.attempts >= 2 * max)) {
    // in a detour the question that needed the answer takes the failure (its `invalid` edge, else an escalation)
    const failed = d.s.detour ? endDetour(d) : current.node.id;
    run(d, special(d, failed, 'invalid', `no valid answer to '${currentKey}' after ${d.s.attempts} attempts`));
  } else {
    ask(d, current, reason, undefined, proposal.problem?.specific === true && proposal.problem.reason === reason);
    addWayForward(d, current, d.s.attempts >= max);
  }
}

/**
 * After a mismatch between a derived answer and the one it is derived from (derive.ts): the line saying why, then
 * the question it is derived from — asked again here when it is the current one, or as a detour when it was answered
 * before (its answer taken back), or in its turn when it has not been reached. Returns whether it asked.
 */
function askAboutMismatch(d: Draft, current: CompiledNode, m: Mismatch): boolean {
  const text = mismatchText(d, m);
  const source = d.idx.questionByKey.get(m.from);
  if (source?.node.type === 'question' && source.node.id === current.node.id) {
    ask(d, current, text, undefined, true); // no miss: the reply was understood
    return true;
  }
  if (source?.node.type === 'question' && d.s.answers.has(m.from) && !d.s.detour) {
    uncommit(d, m.from);
    d.s.detour = { node: d.s.node!, stack: d.s.stack };
    d.s.node = source.node.id;
    d.s.attempts = 0;
    d.s.assessing = undefined;
    ask(d, source, text, undefined, true);
    return true;
  }
  d.effects.push({ type: 'say', nodeId: d.s.node ?? d.flow.entry, kind: 'info', text });
  return false;
}

/**
 * Asks an earlier question again (its answer is taken back): the reply went back to it ("wrong number sorry, it ends
 * 0134", "hang on, the pole on court 4 is leaning") but no new value could be read. A detour: once it is answered the
 * conversation comes back to the question it was at. No miss is counted.
 */
function reopenAnswer(d: Draft, c: CompiledNode): void {
  if (c.node.type !== 'question') return;
  const key = c.node.key;
  uncommit(d, key);
  emit(d, 'confirmation', { key, outcome: 'reopened' });
  d.s.detour = { node: d.s.node!, stack: d.s.stack };
  d.s.node = c.node.id;
  d.s.attempts = 0;
  d.s.assessing = undefined;
  ask(d, c, d.flow.messages.reopen, undefined, true);
}

/**
 * Judges the answer to an assessed question (the model's score when the
 * proposal has one, else the offline rules) and decides: accept it (the
 * accepted value becomes the answer so far joined with this message), or
 * keep it as a draft and re-ask with feedback. Returns the feedback when it
 * re-asks, undefined when the answer stands. Every judgement is an event.
 */
function assessCurrent(
  d: Draft, c: CompiledNode, entry: { update: ProposedUpdate; value: unknown },
  proposal: Proposal, refining: Session['assessing'], declined: boolean,
): string | undefined {
  if (c.node.type !== 'question' || !c.node.assess) return undefined;
  const a = c.node.assess;
  const key = c.node.key;
  const refinements = refining?.refinements ?? 0;
  const pii = isPii(d, key);
  if (declined) {
    emit(d, 'assessment', { key, outcome: 'user_declined', refinements });
    return undefined;
  }
  if (refining) {
    const joined = combineDraft(refining.draft, entry.value);
    const checked = checkValue(d, c, joined);
    if (checked.ok) entry.value = checked.value;
  }
  const { threshold, maxRefinements } = assessPolicy(a);
  const byModel = proposal.assessment && proposal.assessment.key === key && Number.isFinite(proposal.assessment.score)
    ? { score: Math.min(1, Math.max(0, proposal.assessment.score)), feedback: proposal.assessment.feedback } : undefined;
  const offline = byModel ? null : judgeOffline(a, entry.value, d.flow.messages);
  if (!byModel && !offline) return undefined; // nothing to judge with: criteria only, and no model
  const score = byModel ? byModel.score : offline!.score;
  const passed = byModel ? score >= threshold : offline!.passed;
  const feedback = (byModel ? byModel.feedback?.trim() : offline!.feedback) || d.flow.messages.more;
  const outcome = passed ? 'accepted' : refinements >= maxRefinements ? 'max_refinements' : 'refine';
  emit(d, 'assessment', {
    key, by: byModel ? 'model' : 'rules', score, ...(byModel ? { threshold } : {}), passed, outcome, refinements,
    ...(passed ? {} : { feedback: pii ? '[pii]' : feedback }),
  });
  if (outcome !== 'refine') {
    d.s.assessing = undefined;
    return undefined;
  }
  if (a.feedback_key) commit(d, a.feedback_key, { value: feedback, turn: d.s.turn, source: 'assessment', validation: 'passed' });
  d.s.assessing = { key, draft: entry.value, refinements: refinements + 1 };
  return feedback;
}

/**
 * The keys a model was offered for this message: the current question and the
 * open questions of the extraction request built from the session as it stood
 * (the same request the caller sent). A model's answer for any other key, even
 * an unanswered question of the flow, is not committed.
 */
function offeredKeys(d: Draft, input: Extract<Input, { kind: 'message' }>): Set<string> {
  const req = extractionRequest(d.flow, d.base, input.text, input.now);
  // earlier answers are offered for a correction only (an update that `corrects`; anything else to an answered key is refused)
  return new Set([...(req.current ? [req.current.key] : []), ...req.open.map((q) => q.key), ...(req.previous ? [req.previous.key] : []), ...(req.answered ?? []).map((q) => q.key)]);
}

/** The key of the question a message's extraction request names as current (none at a path prompt or off a question). */
function requestedKey(d: Draft, at: NodeRecord | undefined): string | undefined {
  if (d.base.pending?.kind === 'path_prompt' || d.base.node === null) return undefined;
  // `at` is the record of the node at d.s.node, which is still the base session's here: its type and key, not the (cold) node
  if (d.base.node === d.s.node) return at?.type === 'question' ? at.key : undefined;
  const here = d.flow.nodes.get(d.base.node)?.node;
  return here?.type === 'question' ? here.key : undefined;
}

/** The model behind a proposal, for the provenance of each answer it produced (none for rules, replay or a failed call). */
function modelOf(p: Proposal): { model?: string } {
  return p.llm && !p.llm.failed && !p.fallback ? { model: p.llm.model } : NO_MODEL;
}

const NO_MODEL: { model?: string } = Object.freeze({});

const ZERO_USAGE: NonNullable<Session['llm']> = { calls: 0, skipped: 0, fallbacks: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheCreationTokens: 0, durationMs: 0 };

/** Adds the extractor's model usage to the session's and puts calls and fallbacks in the trace. */
function recordLlm(d: Draft, p: Proposal): void {
  if (!p.llm && !p.fallback && p.skipped === undefined) return;
  const u = { ...(d.s.llm ?? ZERO_USAGE) };
  if (p.skipped !== undefined) u.skipped += 1;
  if (p.llm) {
    const { model, durationMs, inputTokens, outputTokens, cacheReadTokens, cacheCreationTokens, failed } = p.llm;
    u.calls += p.llm.calls ?? 1;
    u.inputTokens += inputTokens;
    u.outputTokens += outputTokens;
    u.cacheReadTokens += cacheReadTokens;
    u.cacheCreationTokens += cacheCreationTokens;
    u.durationMs += durationMs;
    emit(d, 'llm_call', { model, inputTokens, outputTokens, cacheReadTokens, cacheCreationTokens, durationMs, ...(failed ? { failed: true } : {}) });
  }
  if (p.fallback) {
    u.fallbacks += 1;
    emit(d, 'llm_fallback', { reason: p.fallback.reason, detail: p.fallback.detail, extractor: p.extractor });
  }
  d.s.llm = u;
}

/**
 * The tentative path changed before the lock after a decision had routed on
 * it: apply each question's `carry` rule to the answers given since, go back
 * to that decision and follow the new path's route.
 */
function moveToRoute(d: Draft): void {
  const route = d.s.route!;
  const dropped: string[] = [];
  const reasked: string[] = [];
  for (const [key, rec] of d.s.answers) {
    if (rec.turn <= route.turn || rec.turn >= d.s.turn || rec.source === 'given') continue;
    const q = d.idx.questionByKey.get(key)?.node;
    const carry = q?.type === 'question' ? q.carry ?? 'keep' : 'keep';
    if (carry === 'drop') {
      uncommit(d, key);
      dropped.push(key);
    } else if (carry === 'reask') reasked.push(key);
  }
  if (reasked.length) d.s.reask = [...new Set([...(d.s.reask ?? []), ...reasked])];
  emit(d, 'path_switch', { moved: { from: d.s.node, to: route.node }, path: d.s.path.tentative, carry: { dropped: dropped.sort(), reask: reasked.sort() } });
  d.s.node = route.node;
  d.s.stack = route.stack;
  d.s.detour = undefined;
  d.s.pending = undefined;
  d.s.attempts = 0;
  d.s.route = d.s.path.locked ? undefined : { ...route, turn: d.s.turn };
  run(d, d.s.path.locked ? next(d, route.node) : next(d, route.node, d.s.path.tentative!));
}

function onCommand(flow: CompiledFlow, d: Draft, input: Extract<Input, { kind: 'command' }>, opts: EngineOptions): TurnResult {
  emit(d, 'command', { command: input.command });
  d.heard = { text: input.text ?? input.command, pii: false };
  if (input.command !== 'cancel') d.s.confirming = undefined;
  d.s.checking = undefined;
  switch (input.command) {
    case 'restart': {
      const fresh = start(flow, { ...(d.s.id ? { id: d.s.id } : {}), context: d.s.context, now: input.now, ...(d.s.locale ? { locale: d.s.locale } : {}) }, opts);
      const events = fresh.events.map((e) => ({ ...e, turn: d.s.turn }));
      return { session: { ...fresh.session, turn: d.s.turn, ...(d.s.region ? { region: d.s.region } : {}) }, effects: fresh.effects, events: [...d.events, ...events] };
    }
    case 'human':
      finish(d, 'escalated', undefined, { reason: 'user asked for a person' });
      // "I'll connect you" only when someone is online; else when the team will reply
      d.effects.unshift({ type: 'say', nodeId: d.s.node ?? flow.entry, kind: 'handoff',
        text: d.staffed ? flow.messages.handoff : fillMessage(flow.messages.handoff_offline, { when: replyWhen(d) }) });
      break;
    case 'cancel':
      cancelCommand(d);
      break;
    case 'skip':
      return turn(flow, d.base, { kind: 'message', text: input.text ?? 'skip', now: input.now,
        proposal: { extractor: 'rules', updates: [], unknown: currentKeyOf(d) ? [currentKeyOf(d)!] : [] } }, opts);
    case 'back':
      back(d);
      break;
  }
  return result(d);
}

const currentKeyOf = (d: Draft) => {
  const n = d.s.node ? d.flow.nodes.get(d.s.node)?.node : undefined;
  return n?.type === 'question' ? n.key : undefined;
};

/** Undoes the last turn that committed answers and asks again where that turn was. */
function back(d: Draft): void {
  const cp = d.s.checkpoints[d.s.checkpoints.length - 1];
  if (!cp || cp.node === null) {
    d.effects.push({ type: 'say', nodeId: d.s.node ?? d.flow.entry, kind: 'info', text: d.flow.messages.nothing_to_go_back });
    reask(d);
    return;
  }
  d.s.checkpoints = d.s.checkpoints.slice(0, -1);
  let answers = d.s.answers;
  for (const { key, before } of cp.changes) answers = before ? answers.set(key, before) : answers.delete(key);
  d.s.answers = answers;
  d.s.node = cp.node;
  d.s.stack = cp.stack;
  d.s.path = cp.path;
  d.s.route = cp.route;
  d.s.detour = cp.detour;
  d.s.attempts = 0;
  d.s.pending = undefined;
  d.s.assessing = undefined;
  d.s.status = 'active';
  const n = d.flow.nodes.get(cp.node)!.node;
  if (n.type === 'question' && !d.s.reask?.includes(n.key)) d.s.reask = [...(d.s.reask ?? []), n.key];
  emit(d, 'back', { undone: cp.changes.map((c) => c.key), to: cp.node });
  reask(d);
}

/** Asks again whatever the session is waiting on. */
/** Asks what the session is at again: its question, its review, or its path prompt (a language switch, a returning visitor). */
export function reask(d: Draft): void {
  const c = d.s.node ? d.flow.nodes.get(d.s.node) : undefined;
  if (!c) return;
  if (c.node.type === 'question') ask(d, c);
  else if (c.node.type === 'review') askReview(d, c);
  else if (c.node.type === 'decision' && d.flow.source.paths && !d.s.path.locked) {
    d.s.pending = { kind: 'path_prompt' };
    askPath(d, c.node.id);
  }
}

function onActionResult(d: Draft, input: Extract<Input, { kind: 'action_result' }>): void {
  const pending = d.s.pending;
  const c = d.s.node ? d.flow.nodes.get(d.s.node) : undefined;
  if (pending?.kind !== 'action' || pending.callId !== input.callId || !c || c.node.type !== 'action') {
    emit(d, 'input_ignored', { reason: `unexpected action result ${input.callId}` });
    return;
  }
  const call = c.node.call;
  if (!input.ok) {
    d.s.pending = undefined;
    emit(d, 'action_failed', { call, callId: input.callId, reason: input.error, ...(input.durationMs !== undefined ? { durationMs: input.durationMs } : {}) });
    run(d, special(d, c.node.id, 'failure', `action '${call}' failed: ${input.error}`));
    return;
  }
  emit(d, 'action_result', { call, callId: input.callId, ok: true, ...(input.durationMs !== undefined ? { durationMs: input.durationMs } : {}) });
  d.s.cache = { ...d.s.cache, [actionCacheKey(d, c)]: input.output };
  run(d, applyActionOutput(d, c, input.output));
}

function onOperator(d: Draft, input: Extract<Input, { kind: 'operator' }>): void {
  const pending = d.s.pending;
  const id = d.s.node;
  if (pending?.kind !== 'interrupt' || d.s.status !== 'waiting' || id === null) {
    emit(d, 'input_ignored', { reason: 'no interrupt is waiting for an operator' });
    return;
  }
  emit(d, 'operator', { decision: input.decision, ...(input.by ? { by: input.by } : {}), ...(input.note ? { note: input.note } : {}) });
  for (const [key, value] of Object.entries(input.answers ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    const c = d.idx.questionByKey.get(key);
    const checked = c ? checkValue(d, c, value) : { ok: false as const, reason: `'${key}' is not a question of this flow` };
    if (checked.ok) commit(d, key, { value: checked.value, turn: d.s.turn, source: 'operator', validation: 'passed' });
    else emit(d, 'validation_failed', { key, reason: checked.reason, source: 'operator' });
  }
  d.s.status = 'active';
  d.s.pending = undefined;
  if (input.decision === 'reject') {
    run(d, special(d, id, 'rejected', 'an operator rejected it'));
    return;
  }
  d.approved = id;
  if (pending.when === 'before') run(d, id);
  else run(d, next(d, id));
}

/**
 * The line that says a converted value back in the session's language, words
 * from the catalogue and numbers written the locale's way: "5,000 sq ft —
 * about 465 m², noted." (English: en-US digits), "5.000 Quadratfuß — etwa
 * 464,52 m², notiert." (German). Deterministic: Intl, no host locale.
 */
export function conversionEcho(c: Conversion, messages: Pick<Messages, 'conversion' | 'conversion_about'> = EN, locale = 'en'): string {
  const tag = baseLanguage(locale) === 'en' ? 'en-US' : locale;
  // a long run of digits the visitor typed without grouping ("5000", "1234,5" in German) is grouped as the locale groups it
  const dec = localNumber(tag, 1.5).includes(',') ? ',' : '\\.';
  const raw = c.raw.replace(new RegExp(`\\d{4,}(?:${dec}\\d+)?`, 'g'), (n) => localNumber(tag, Number(n.replace(',', '.'))));
  const value = localNumber(tag, c.value, 2);
  const approx = !c.exact || value !== localNumber(tag, c.value);
  return fillMessage(approx ? messages.conversion_about : messages.conversion, { raw, value, unit: c.to });
}

/** The target of the edge a question's answers now take out of it (its first guard that holds, else its `else` edge). */
function edgeTaken(d: Draft, c: CompiledNode): string | undefined {
  const edges = c.out.filter((e) => e.on === undefined);
  return (edges.find((e) => e.guard === null || (e.guard !== 'else' && holds(d, e.guard))) ?? edges.find((e) => e.guard === 'else'))?.to;
}
