import { extractionRequest } from '../engine/extraction.ts';
import type { Proposal, ProposedUpdate } from '../engine/input.ts';
import type { Session } from '../engine/session.ts';
import { findEmails, findPhones, type ParseContext } from '../extract/parse/index.ts';
import { countryInDoubt } from '../extract/parse/phone.ts';
import type { CompiledFlow } from '../flow/compiled-flow.ts';

/**
 * The contact details in a message written while a person is to answer
 * (after an escalation, or to an operator who holds the conversation): for
 * each of the flow's `contact` keys not answered yet, the one email address
 * or phone number of its type the message holds. The engine checks and
 * commits them (server/engine/handover.ts).
 */
export function contactProposal(flow: CompiledFlow, session: Session, text: string, now: string): Proposal {
  const updates: ProposedUpdate[] = [];
  const keys = flow.source.contact ?? [];
  if (keys.length === 0) return { extractor: 'rules', updates, unknown: [] };
  const req = extractionRequest(flow, session, text, now);
  const ctx: ParseContext = { now: req.now, defaultCountry: req.defaultCountry, ...(req.locale ? { locale: req.locale } : {}) };
  for (const key of keys) {
    const had = session.answers.get(key)?.value;
    if (had !== null && had !== undefined) continue;
    const q = [...flow.nodes.values()].find((c) => c.node.type === 'question' && c.node.key === key)?.node;
    const type = q?.type === 'question' ? q.answer?.type : undefined;
    const found = type === 'email' ? findEmails(text) : type === 'phone' ? findPhones(text, ctx) : [];
    // a number a neighbour country may own, no country named ("044 123 45 67" in a German session): left for its question
    if (found.length === 1 && !(type === 'phone' && countryInDoubt(text, found[0]!, ctx))) updates.push({ key, value: found[0]!.value, confidence: 1, evidence: text.slice(found[0]!.start, found[0]!.end) });
  }
  return { extractor: 'rules', updates, unknown: [] };
}
