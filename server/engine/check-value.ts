import type { CompiledNode } from '../flow/compiled-flow.ts';
import { fillMessage } from '../language/fill-message.ts';
import { packOf } from '../language/registry.ts';
import { emit, isPii, type Draft } from './draft.ts';
import type { Proposal, ProposedUpdate } from './input.ts';
import { formatAnswer } from './review.ts';
import type { AnswerRecord, Session } from './session.ts';
import { progressOf } from './traverse.ts';

// Confirmations (docs/understanding.md, "The commit rule"): a value the
// extractor read from a reply with words it could not account for is not
// committed at once; the bot asks one short question ("Just to check: 15
// January 2027?"). A yes commits it; a no asks the question again; anything
// else (a new value) goes on as a normal reply. Neither the check nor its
// answer counts as a miss: the question's attempts are left as they were.

/** Asks "Just to check: …?" about the current question's value instead of committing it. */
export function askToCheck(d: Draft, c: CompiledNode, update: ProposedUpdate, value: unknown, extractor: string, text: string): void {
  if (c.node.type !== 'question') return;
  const key = c.node.key;
  const pii = isPii(d, key);
  d.s.checking = {
    key, value, extractor, ...(pii ? {} : { text }),
    ...(update.conversion && update.conversion.value === value ? { conversion: update.conversion } : {}),
  };
  emit(d, 'confirmation', { key, outcome: 'asked', ...(pii ? {} : { value }) });
  const m = d.flow.messages;
  d.effects.push({
    type: 'ask', nodeId: c.node.id, key, kind: 'question', quickReplies: [m.yes, m.no], progress: progressOf(d, c.node.id),
    text: fillMessage(m.check_value, { value: formatAnswer(c.node.answer, value, m, d.flow.locale) }),
  });
}

const normal = (text: string) => text.trim().toLowerCase().replace(/[’]/g, "'").replace(/[.!?]+$/, '').replace(/\s+/g, ' ');

/** Whether `said` is the phrase, or starts with it and a break ("yes, that's right", "no thanks"). */
const opens = (said: string, phrase: string) => said === phrase || said.startsWith(`${phrase} `) || said.startsWith(`${phrase},`);

/**
 * What a reply says to a pending check: `yes` (commit the value), `no` (ask
 * again), or `other` (a new value or anything else: read as usual). A reply
 * that proposes another value for the key is `other` whatever it starts with
 * ("no, the 16th"); at a yes/no question only the yes/no words count; at a
 * text question a reply opening with a yes or no word is that answer (any
 * reply reads as a text value there).
 */
export function checkReply(d: Draft, pending: NonNullable<Session['checking']>, proposal: Proposal, text: string): 'yes' | 'no' | 'other' {
  const lex = packOf(d.flow.locale).lexicon;
  const said = normal(text);
  if (lex.neither.some((p) => said.includes(normal(p)))) return 'other';
  const boolean = d.idx.questionByKey.get(pending.key)?.node.type === 'question'
    && (d.idx.questionByKey.get(pending.key)!.node as { answer?: { type?: string } }).answer?.type === 'boolean';
  // at a text question every reply reads as a value: "yes" (or "yes, that's it") is the answer to the check, not a new value
  const text_ = (d.idx.questionByKey.get(pending.key)?.node as { answer?: { type?: string } } | undefined)?.answer?.type === 'text';
  if (text_ && lex.yes.some((p) => opens(said, normal(p)))) return 'yes';
  if (text_ && lex.no.some((p) => opens(said, normal(p)))) return 'no';
  const proposed = proposal.updates.find((u) => u.key === pending.key);
  const newValue = !boolean && proposed !== undefined && JSON.stringify(proposed.value) !== JSON.stringify(pending.value);
  if (newValue) return 'other';
  if (lex.yes.some((p) => said === normal(p))) return 'yes';
  if (lex.no.some((p) => opens(said, normal(p)))) return 'no';
  if (lex.yes.some((p) => opens(said, normal(p)))) return 'yes';
  if (!boolean && proposed !== undefined) return 'yes'; // the same value typed again
  return 'other';
}

/** The answer record of a value the visitor confirmed. */
export function checkedRecord(d: Draft, pending: NonNullable<Session['checking']>): AnswerRecord {
  return {
    value: pending.value, turn: d.s.turn, source: 'user', extractor: pending.extractor,
    ...(pending.text !== undefined ? { text: pending.text } : {}), validation: 'passed',
    ...(pending.conversion ? { conversion: pending.conversion } : {}),
  };
}

/** Whether a reply to the check on `key` says nothing about it: no value or skip for it, no correction, no escalation (it answers another question). */
export function ignoresCheck(proposal: Proposal, key: string): boolean {
  return !proposal.updates.some((u) => u.key === key || u.corrects) && !proposal.unknown.includes(key) && !proposal.reopen && !proposal.escalate && !proposal.trigger;
}

/** Keeps a reply that ignored the check for the next question, and asks the check once more in plain words (`check_again`). */
export function keepForNext(d: Draft, c: CompiledNode, pending: NonNullable<Session['checking']>, text: string): void {
  if (c.node.type !== 'question') return;
  d.s.checking = { ...pending, kept: text.trim().slice(0, 500) };
  emit(d, 'confirmation', { key: pending.key, outcome: 'asked_again' });
  const m = d.flow.messages;
  d.effects.push({
    type: 'ask', nodeId: c.node.id, key: pending.key, kind: 'question', quickReplies: [m.yes, m.no], progress: progressOf(d, c.node.id),
    text: fillMessage(m.check_again, { value: formatAnswer(c.node.answer, pending.value, m, d.flow.locale) }),
  });
}
