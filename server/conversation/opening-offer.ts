import { extractionRequest } from '../engine/extraction.ts';
import { flowIndex } from '../engine/flow-index.ts';
import { askHeld, askOpening, openingAt } from '../engine/opening.ts';
import { packOf } from '../language/registry.ts';
import type { Proposal } from '../engine/input.ts';
import { OfflineExtractor } from '../extract/offline/index.ts';
import type { CompiledFlow } from '../flow/compiled-flow.ts';
import type { QuestionNode } from '../flow/schema.ts';
import type { Session } from '../engine/session.ts';
import type { EngineEvent } from '../engine/types.ts';
import { effectsToMessages, type BotMessage } from './messages.ts';

// A description given before its question (docs/understanding.md): when a turn enters the description question of
// the branch the visitor's own words chose ("the floodlights over our back pitch keep cutting out" → support → "Please
// describe the problem"), the bot quotes those words and asks once whether to note them, instead of asking for the
// description as if nothing had been said. The engine says which words and asks (engine/opening.ts); here the offline
// rules read them at that question first, as if typed there, so a question, a request to be called, a vague "something's
// wrong" or an unsure reply is never offered as the description.

// stateless: the same offline rules as every runner without an extractor of its own
const offline = new OfflineExtractor();

/** A value now, or later. */
type Maybe<T> = T | PromiseLike<T>;

/** A settled turn (turn-runner.ts's `Settled`): where the session ended up, what people see, what happened. */
interface Settled {
  session: Session;
  messages: BotMessage[];
  events: EngineEvent[];
}

/** A turn that entered a description question, with the visitor's earlier description offered in place of its prompt when the rules would take it there. */
export function offerOpening(flow: CompiledFlow, before: Session, settled: Settled, now: string, text?: string): Maybe<Settled> {
  const done = text === undefined ? settled : holdOpening(flow, before, settled, text);
  const s = done.session;
  const at = s.node;
  if (at === null || !done.events.some((e) => e.type === 'node_enter' && e.node === at)) return done;
  const asked = done.messages.findIndex((m) => m.nodeId === at && m.kind === 'question');
  if (asked < 0) return done;
  const o = openingAt(flow, s);
  if (!o) return s.opening ? offerHeld(flow, done, asked, now) : done;
  const take = (p: Proposal): Settled => {
    const u = p.updates.find((x) => x.key === o.key);
    if (!u || u.confirm || typeof u.value !== 'string' || p.problem?.key === o.key || p.unknown.includes(o.key) || p.escalate || p.trigger || p.reopen) return done;
    const offered = askOpening(flow, s, { ...o, text: u.value });
    const said = effectsToMessages(offered.effects, flow.messages);
    return { session: offered.session, messages: [...done.messages.slice(0, asked), ...said, ...done.messages.slice(asked + 1)], events: [...done.events, ...offered.events] };
  };
  const read = offline.extract(extractionRequest(flow, s, o.text, now));
  return typeof (read as { then?: unknown }).then === 'function' ? Promise.resolve(read).then(take) : take(read as Proposal);
}

/**
 * The words of the message that first chose a path, held in the session (`opening`) when no pii answer was taken from them:
 * "my son has had a fever since Monday" at the name question votes unwell, and the reason for the visit and the
 * days are asked much later.
 */
function holdOpening(flow: CompiledFlow, before: Session, done: Settled, text: string): Settled {
  const s = done.session;
  if (s.opening || before.path.tentative !== null || s.path.tentative === null || s.turn !== before.turn + 1) return done;
  // typed at a pii question (the patient's name) but no pii answer taken from it: the words are the matter, not the name
  for (const [key, rec] of s.answers.entries()) if (rec.turn === s.turn && flowIndex(flow).piiKeys.includes(key)) return done;
  return { ...done, session: { ...s, opening: { text: text.trim().replace(/\s+/g, ' ').slice(0, 300), turn: s.turn } } };
}

/**
 * At a question of the matter entered later — a single choice offering the path voted as an option (the clinic's
 * "What brings you in today?" on the unwell path), or a count in days — the held words read there as if typed: a
 * value read is asked about with the words quoted ("You wrote: “my son has had a fever since Monday”. Just to check:
 * 6?"), as any check (a yes commits it, a no asks the question as written).
 */
function offerHeld(flow: CompiledFlow, done: Settled, asked: number, now: string): Maybe<Settled> {
  const s = done.session;
  const c = s.node === null ? undefined : flow.nodes.get(s.node);
  const q = c?.node;
  if (!q || q.type !== 'question' || q.pii || s.checking || s.assessing || s.pending || s.answers.has(q.key) || !ofTheMatter(q, s, flow)) return done;
  const held = s.opening!;
  const take = (p: Proposal): Settled => {
    const u = p.updates.find((x) => x.key === q.key);
    if (!u || p.problem?.key === q.key || p.escalate || p.trigger || p.reopen) return done;
    const offered = askHeld(flow, s, q.key, u.value, held.text);
    if (!offered) return done;
    const said = effectsToMessages(offered.effects, flow.messages);
    return { session: offered.session, messages: [...done.messages.slice(0, asked), ...said, ...done.messages.slice(asked + 1)], events: [...done.events, ...offered.events] };
  };
  const read = offline.extract({ ...extractionRequest(flow, s, held.text, now), open: [] });
  return typeof (read as { then?: unknown }).then === 'function' ? Promise.resolve(read).then(take) : take(read as Proposal);
}

/** A question of the matter: a single choice with the path voted among its options, or a whole count of days. */
function ofTheMatter(q: QuestionNode, s: Session, flow: CompiledFlow): boolean {
  const a = q.answer;
  if (a?.type === 'enum') return !a.multiple && s.path.tentative !== null && a.options.some((o) => (typeof o === 'string' ? o : o.value) === s.path.tentative);
  if (a?.type === 'integer' && a.unit !== undefined) return packOf(flow.locale).durations?.dayUnits.includes(a.unit.toLowerCase()) === true || /^days?$/i.test(a.unit);
  return false;
}
