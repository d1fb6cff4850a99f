import { extractionRequest } from '../engine/extraction.ts';
import { askOpening, openingAt } from '../engine/opening.ts';
import type { Proposal } from '../engine/input.ts';
import { OfflineExtractor } from '../extract/offline/index.ts';
import type { CompiledFlow } from '../flow/compiled-flow.ts';
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
export function offerOpening(flow: CompiledFlow, done: Settled, now: string): Maybe<Settled> {
  const s = done.session;
  const at = s.node;
  if (at === null || !done.events.some((e) => e.type === 'node_enter' && e.node === at)) return done;
  const asked = done.messages.findIndex((m) => m.nodeId === at && m.kind === 'question');
  if (asked < 0) return done;
  const o = openingAt(flow, s);
  if (!o) return done;
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
