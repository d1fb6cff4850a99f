import type { CompiledNode } from '../flow/compiled-flow.ts';
import { fillMessage } from '../flow/messages/catalogue.ts';
import type { Draft } from './draft.ts';
import type { Command } from './types.ts';

// A miss leads somewhere (issue 31): a re-ask of an optional question offers
// "Skip"; once a question's attempts run out (and the flow gave it no
// `on: "invalid"` edge) the bot does not end the intake on its own but says
// what the visitor can do — answer again, skip it when it is optional, or
// talk to a person — with a chip for each. A usable reply is still taken.

/** The chip for a command: the flow's first word for it with a space ("talk to a human"), else its first, capitalised; none when the flow has no word for it. */
export function commandChip(d: Draft, command: Command): string | undefined {
  let first: string | undefined;
  for (const [word, c] of d.idx.commands) {
    if (c !== command) continue;
    if (word.includes(' ')) return capitalise(word);
    first ??= word;
  }
  return first === undefined ? undefined : capitalise(first);
}

const capitalise = (w: string) => w.charAt(0).toLocaleUpperCase() + w.slice(1);

/**
 * Adds the way forward to the re-ask just pushed for `c`: "Skip" for an
 * optional question, and once its attempts have run out (`stuck`) the line
 * saying what the visitor can do and a chip to talk to a person.
 */
export function addWayForward(d: Draft, c: CompiledNode, stuck: boolean): void {
  if (c.node.type !== 'question') return;
  const last = d.effects[d.effects.length - 1];
  if (last?.type !== 'ask' || last.nodeId !== c.node.id) return;
  const chips = [...(last.quickReplies ?? [])];
  const skip = c.node.required === false ? commandChip(d, 'skip') : undefined;
  if (skip && !chips.includes(skip)) chips.push(skip);
  let text = last.text;
  if (stuck) {
    const person = commandChip(d, 'human');
    const m = d.flow.messages;
    text = `${text}\n${fillMessage(m.stuck_offer, { skip: skip ? m.stuck_skip : '' })}`;
    if (person && !chips.includes(person)) chips.push(person);
  }
  if (chips.length === (last.quickReplies?.length ?? 0) && text === last.text) return;
  d.effects[d.effects.length - 1] = { ...last, text, quickReplies: chips };
}
