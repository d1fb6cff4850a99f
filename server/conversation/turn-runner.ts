import { noteContact, start, turn } from '../engine/engine.ts';
import { expire } from '../engine/expire.ts';
import { closeSession, type ClosedBy } from '../engine/close.ts';
import { reopen } from '../engine/reopen.ts';
import { handBackAt } from '../engine/hand-back.ts';
import { extractionRequest, matchCommand, reviewRequest } from '../engine/extraction.ts';
import { flowFor, matchLanguageSwitch, sessionFlow } from '../engine/locale.ts';
import type { Session } from '../engine/session.ts';
import type { Proposal } from '../engine/input.ts';
import type { EngineEvent, Input, StartInit, TurnResult } from '../engine/types.ts';
import { OfflineExtractor } from '../extract/offline/index.ts';
import type { CompiledFlow } from '../flow/compiled-flow.ts';
import { runCall, systemCallEnv } from './actions.ts';
import type { Implementations } from './implementations.ts';
import { effectsToMessages, type BotMessage } from './messages.ts';
import { contactProposal } from './contact-scan.ts';
import { carriedRest } from '../extract/offline/index.ts';
import { packOf } from '../language/registry.ts';
import { fillMessage } from '../language/fill-message.ts';
import { formatAnswer } from '../engine/review.ts';
import { offerOpening } from './opening-offer.ts';

/** A turn with its effects carried out: where the session ended up, what people see, what happened. */
export interface Settled {
  session: Session;
  messages: BotMessage[];
  events: EngineEvent[];
}

/**
 * What a runner is asked to do: start a session, or move one on with a
 * user's text (a command word or words for the extractor), a command sent as
 * a control, an operator's decision, a hand-back to the bot at a question,
 * or the end of an idle session.
 */
export type TurnInput =
  | { kind: 'start'; init: StartInit }
  | { kind: 'text'; text: string; now: string; staffed?: boolean }
  | Extract<Input, { kind: 'command' | 'operator' }>
  | { kind: 'resume'; nodeId: string; stack: Session['stack']; now: string; answers?: Record<string, unknown> }
  | { kind: 'expire'; now: string; idleSeconds: number; resumable?: boolean }
  /** A visitor comes back to a session that went idle: active again where it stood (`greet`: welcomed and asked again). */
  | { kind: 'reopen'; now: string; greet: boolean }
  /** A person (or the inactivity sweep) ends a conversation a person was answering. */
  | { kind: 'close'; now: string; by: ClosedBy }
  /** A visitor's message to a person who holds the conversation: only its contact details are taken, the bot says nothing. */
  | { kind: 'note'; text: string; now: string };

// stateless: one instance serves every runner that brings no extractor
const offline = new OfflineExtractor();
/** The proposal of a message no extractor was asked about. */
const NOTHING: Proposal = { extractor: 'rules', updates: [], unknown: [] };

/**
 * The session's model usage never goes down: a restart starts the
 * conversation over but not its spend, so a per-session budget holds
 * however often the visitor types "restart".
 */
function keepUsage(before: Session, settled: Settled): Settled {
  const used = before.llm;
  if (!used || settled.session.llm) return settled;
  return { ...settled, session: { ...settled.session, llm: used } };
}

/**
 * Runs one turn the same way everywhere: a command word or the extractor's
 * proposal for text, the engine's turn, then every `call` effect carried out
 * (each action result goes back into the engine) until the engine waits for
 * a person. `session` is the session as it stands; unused for `start`.
 */
export function runTurn(root: CompiledFlow, session: Session | undefined, input: TurnInput, impl: Implementations): Promise<Settled> {
  // one promise per turn: the steps below return a settled turn as it is when no action or extractor
  // waits (most turns), instead of an async function per step with its own promise and resumption
  try {
    return Promise.resolve(turnOf(root, session, input, impl)); // a native promise is returned as it is
  } catch (e) {
    return Promise.reject(e);
  }
}

/** runTurn's turn: settled now, or a promise when an action or the extractor is asynchronous. */
function turnOf(root: CompiledFlow, session: Session | undefined, input: TurnInput, impl: Implementations): Maybe<Settled> {
  if (input.kind === 'start') return settle(flowFor(root, input.init.locale), start(root, input.init, impl), impl);
  if (!session) throw new Error(`a '${input.kind}' turn needs a started session`);
  if (input.kind === 'text') {
    // "Deutsch", "en français": the session goes on in that language (flows with `locales` only)
    const locale = matchLanguageSwitch(root, input.text);
    if (locale !== null) {
      const switched = turn(root, session, { kind: 'locale', locale, now: input.now, text: input.text }, impl);
      return then(settle(sessionFlow(root, switched.session), switched, impl), (settled) => keepUsage(session, settled));
    }
  }
  // the session's language: its locale's compile of the flow (same revision and node ids)
  const flow = sessionFlow(root, session);
  const done = turnOn(flow, session, input, impl);
  // a description question entered: the visitor's first words of the matter are offered instead of its prompt (opening-offer.ts)
  const offered = input.kind === 'text' || input.kind === 'command'
    ? then(done, (settled) => offerOpening(flow, session, settled, input.now, input.kind === 'text' ? input.text : undefined)) : done;
  return then(offered, (settled) => keepUsage(session, settled));
}

/** A value now, or later (a promise, or any thenable an extractor returns). */
type Maybe<T> = T | PromiseLike<T>;

/** A value with a `then` method (awaited as a promise). */
const isThenable = <T>(v: Maybe<T>): v is PromiseLike<T> => typeof (v as { then?: unknown } | null)?.then === 'function';

/** `f` of the value: at once when it is here, else when it settles (Promise.resolve adopts a foreign thenable). */
function then<T, U>(v: Maybe<T>, f: (t: T) => Maybe<U>): Maybe<U> {
  return isThenable(v) ? Promise.resolve(v).then(f) : f(v);
}

/**
 * A review reply read against each reviewed answer in turn (as if its
 * question were being asked; offline rules, no model call): the values it
 * could be, one per question, for the engine to pick the one it corrects.
 */
function withReviewReadings(flow: CompiledFlow, session: Session, text: string, now: string, p: Proposal): Maybe<Proposal> {
  const node = session.node ? flow.nodes.get(session.node)?.node : undefined;
  if (node?.type !== 'review') return p;
  const keys = node.keys ?? [...session.answers.keys()];
  const base = reviewRequest(flow, session, keys.filter((k) => session.answers.has(k)), text, now);
  const updates: Proposal['updates'] = [];
  const readings = base.open.map((q) => offline.extract({ ...base, current: q, open: [] }));
  const collect = (all: readonly Proposal[]): Proposal => {
    all.forEach((r, i) => {
      const u = r.updates.find((x) => x.key === base.open[i]!.key);
      if (u) updates.push(u);
    });
    return updates.length ? { ...p, updates } : p;
  };
  return readings.some(isThenable) ? Promise.all(readings).then(collect) : collect(readings as Proposal[]);
}

/**
 * The reply kept while a check waited, read at the question asked after the yes: taken when it answers that question
 * (committed, not checked, no miss); else dropped, and that question stands asked as it was.
 */
function readKept(flow: CompiledFlow, kept: string, done: Settled, now: string, impl: Implementations): Maybe<Settled> {
  return done.events.some((e) => e.type === 'confirmation' && e.outcome === 'confirmed') ? readAt(flow, kept, done, now, impl, false) : done;
}

/**
 * `text` read at the question the turn `done` asked, as if typed there: taken when it answers that question (committed,
 * not checked, no miss; `echo` says it back: "Noted — Insurance provider: Aetna."), else `done` as it was.
 */
function readAt(flow: CompiledFlow, text: string, done: Settled, now: string, impl: Implementations, echo: boolean): Maybe<Settled> {
  const after = done.session;
  const asked = after.node !== null ? flow.nodes.get(after.node)?.node : undefined;
  if (after.status !== 'active' || after.checking || asked?.type !== 'question' || after.answers.has(asked.key)) return done;
  const key = asked.key;
  return then(turnOn(flow, after, { kind: 'text', text, now }, impl), (next) => {
    const rec = next.session.answers.get(key);
    const took = rec !== undefined && rec.validation === 'passed' && !next.session.checking && !next.events.some((e) => e.type === 'validation_failed');
    if (!took) return done;
    const said = echo && !asked.pii ? [{ text: fillMessage(flow.messages.carried, { label: asked.label ?? key.replace(/[_.-]+/g, ' '), value: formatAnswer(asked.answer!, rec.value, flow.messages, flow.locale) }), nodeId: asked.id, kind: 'info' as const }] : [];
    // the next question was asked and at once answered: its ask is left out, what the reply led to follows
    return { session: next.session, messages: [...done.messages.filter((m) => m.kind !== 'question'), ...said, ...next.messages], events: [...done.events, ...next.events] };
  });
}

/** True when the session waits at a review node (confirm, or name an answer to change). */
function atReview(flow: CompiledFlow, session: Session): boolean {
  return session.node !== null && flow.nodes.get(session.node)?.node.type === 'review';
}

/** The turn itself, on a started session. */
function turnOn(flow: CompiledFlow, session: Session, input: Exclude<TurnInput, { kind: 'start' }>, impl: Implementations): Maybe<Settled> {
  switch (input.kind) {
    case 'text': {
      const { text, now } = input;
      const staffed = input.staffed === true ? { staffed: true } : {};
      const command = matchCommand(flow, text);
      if (command) return settle(flow, turn(flow, session, { kind: 'command', command, now, text, ...staffed }, impl), impl, input.staffed);
      // waiting for a person: no extractor, only the contact details the flow asks for are looked for
      if (session.status === 'escalated') {
        return settle(flow, turn(flow, session, { kind: 'message', text, now, proposal: contactProposal(flow, session, text, now), ...staffed }, impl), impl);
      }
      // a session that cannot take an answer (ended, waiting for an operator) gets the engine's
      // fixed reply: nothing to extract, so no model call is made (or paid for)
      // at a review (the engine reads the confirmation or the answer to change itself) only the
      // offline rules look at the message, for triggers: no model call for "yes, that's right"
      const review = session.status === 'active' && atReview(flow, session);
      const reading = session.status !== 'active' ? null : review ? offline : (impl.extractor ?? offline);
      const read: Maybe<Proposal> = reading ? reading.extract(extractionRequest(flow, session, text, now)) : NOTHING;
      // at a review the reply is also read against each reviewed answer: a correction typed there is applied
      const proposal = review ? then(read, (p) => withReviewReadings(flow, session, text, now, p)) : read;
      const settled = then(proposal, (p) => settle(flow, turn(flow, session, { kind: 'message', text, now, proposal: p, ...staffed }, impl), impl, input.staffed));
      // a reply kept while a check waited ("spring" to "Just to check: 5000 USD?") is read at the next question after the yes
      if (session.checking?.kept !== undefined) return then(settled, (done) => readKept(flow, session.checking!.kept!, done, now, impl));
      // "yep, Aetna" to "Do you have insurance?": the rest is read at the question asked next (extract/offline/carried-answer.ts)
      const was = session.node !== null ? flow.nodes.get(session.node)?.node : undefined;
      const yesNo = was?.type === 'question' && was.answer?.type === 'boolean' && !session.checking ? was.key : undefined;
      const rest = yesNo !== undefined ? carriedRest(text, packOf(session.locale ?? flow.locale)) : null;
      return rest === null ? settled : then(settled, (done) => (done.session.answers.get(yesNo!)?.turn === done.session.turn ? readAt(flow, rest, done, now, impl, true) : done));
    }
    case 'resume':
      return settle(flow, handBackAt(flow, session, input.nodeId, input.stack, input.now, input.answers ?? {}, impl), impl);
    case 'expire':
      return settle(flow, expire(flow, session, input.now, input.idleSeconds, input.resumable === true), impl);
    case 'reopen':
      return settle(flow, reopen(flow, session, input.now, input.greet), impl);
    case 'close':
      return settle(flow, closeSession(flow, session, input.now, input.by), impl);
    case 'note':
      return settle(flow, noteContact(flow, session, input.text, contactProposal(flow, session, input.text, input.now), input.now, impl), impl);
    default:
      return settle(flow, turn(flow, session, input, impl), impl, input.kind === 'command' ? input.staffed : undefined);
  }
}

/** Carries out `call` effects until the engine waits for a person; collects the messages and events of every step. `staffed` goes on to each action result's turn. */
function settle(flow: CompiledFlow, first: TurnResult, impl: Implementations, staffed?: boolean): Maybe<Settled> {
  const messages = effectsToMessages(first.effects, flow.messages);
  const events = [...first.events];
  const call = first.effects.find((e) => e.type === 'call');
  if (!call || call.type !== 'call') return { session: first.session, messages, events };
  return settleCalls(flow, first, impl, messages, events, staffed);
}

/** settle's loop once there is a call to carry out (asynchronous: actions are). */
async function settleCalls(flow: CompiledFlow, first: TurnResult, impl: Implementations, messages: BotMessage[], events: EngineEvent[], staffed?: boolean): Promise<Settled> {
  let result = first;
  for (;;) {
    const call = result.effects.find((e) => e.type === 'call');
    if (!call || call.type !== 'call') break;
    const done = await runCall(call, impl.actions ?? {}, impl.env ?? systemCallEnv);
    result = turn(flow, result.session, staffed === true && done.kind === 'action_result' ? { ...done, staffed } : done, impl);
    messages.push(...effectsToMessages(result.effects, flow.messages));
    events.push(...result.events);
  }
  return { session: result.session, messages, events };
}
