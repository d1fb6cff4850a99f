import { fillMessage } from '../flow/messages/catalogue.ts';
import type { CompiledFlow } from '../flow/compiled-flow.ts';
import { checkValue, commit } from './answers.ts';
import { emit, isPii, type Draft } from './draft.ts';
import type { Proposal } from './input.ts';
import type { Progress } from './types.ts';

// An escalated session is a conversation a person will answer, not a closed
// one: the visitor may keep writing (the server stores it and shows it to
// the team as unanswered). The engine's part is what the bot says meanwhile —
// honestly, whether someone is online or when and how the team will reply —
// and the contact details: asked for once when the session escalates without
// any of the flow's `contact` keys, and taken from what the visitor writes.

/** The flow's contact keys (flow-level `contact`), in order; none when the flow names none. */
export function contactKeys(flow: CompiledFlow): readonly string[] {
  return flow.source.contact ?? [];
}

/** The first contact key answered (not skipped) and its value, if any. */
function contactGiven(d: Draft): { key: string; value: string } | undefined {
  for (const key of contactKeys(d.flow)) {
    const v = d.s.answers.get(key)?.value;
    if (v !== null && v !== undefined && v !== '') return { key, value: String(v) };
  }
  return undefined;
}

/**
 * At an escalation: asks for a contact (once, skippable) when the flow names
 * contact keys and none is answered. Comes after whatever the flow said (the
 * safety advice first, the question after).
 */
export function askContactAtHandover(d: Draft, progress: Progress): void {
  const keys = contactKeys(d.flow);
  if (keys.length === 0 || d.s.handover?.contactAsked || contactGiven(d)) return;
  d.s.handover = { ...d.s.handover, contactAsked: true };
  const nodeId = d.s.node ?? d.flow.entry;
  d.effects.push({ type: 'ask', nodeId, key: keys[0]!, text: d.flow.messages.contact_ask, kind: 'question',
    quickReplies: [d.flow.messages.contact_skip_chip], progress });
}

/**
 * Commits the contact details a proposal found (only the flow's contact keys
 * not answered yet; each value checked like any answer), with provenance.
 * Returns the keys committed.
 */
export function commitContact(d: Draft, proposal: Proposal, text: string): string[] {
  const keys = new Set(contactKeys(d.flow));
  const done: string[] = [];
  const from = d.events.length;
  for (const u of proposal.updates) {
    if (!keys.has(u.key) || done.includes(u.key)) continue;
    const had = d.s.answers.get(u.key)?.value;
    if (had !== null && had !== undefined) continue;
    const c = d.idx.questionByKey.get(u.key);
    if (!c) continue;
    const checked = checkValue(d, c, u.value);
    if (!checked.ok) {
      emit(d, 'validation_failed', { key: u.key, reason: checked.reason, source: 'handover' });
      continue;
    }
    const pii = isPii(d, u.key);
    commit(d, u.key, { value: checked.value, turn: d.s.turn, source: 'user', extractor: proposal.extractor,
      ...(u.confidence !== undefined ? { confidence: u.confidence } : {}),
      ...(pii ? {} : { text: text.trim().slice(0, 500) }), validation: 'passed' });
    done.push(u.key);
  }
  // marked as taken while a person is to answer: the audit does not count them as events after the end
  for (let i = from; i < d.events.length; i++) d.events[i] = { ...d.events[i]!, handover: true };
  return done;
}

/**
 * When the team will reply: the tenant's `settings.reply_time` (in the session's context) — one text, or one per
 * language (`{ "en": "within one business day", "de": "innerhalb eines Werktags" }`, read in the session's language,
 * then its base language) — else the catalogue's `handover_when` in the session's language.
 */
export function replyWhen(d: Draft): string {
  const t = d.s.context.reply_time;
  if (typeof t === 'string') return t.trim() || d.flow.messages.handover_when;
  if (t !== null && typeof t === 'object' && !Array.isArray(t)) {
    const byLang = t as Record<string, unknown>;
    const locale = d.flow.locale;
    const said = byLang[locale] ?? byLang[locale.split(/[-_]/)[0]!.toLowerCase()];
    if (typeof said === 'string' && said.trim()) return said.trim();
  }
  return d.flow.messages.handover_when;
}

/**
 * A visitor's message while the session waits for a person: their contact
 * details are taken, a skip of the contact question is acknowledged, and the
 * bot says where things stand — connecting (`staffed`: someone is online) or
 * when and how the team will reply; the full line when that changed since the
 * last one, else a short acknowledgement. The session stays `escalated`.
 */
export function onHandoverMessage(d: Draft, text: string, proposal: Proposal, staffed: boolean, skip: boolean): void {
  const m = d.flow.messages;
  const nodeId = d.s.node ?? d.flow.entry;
  d.heard = { text, pii: false };
  const taken = commitContact(d, proposal, text);
  const given = contactGiven(d);
  if (taken.length > 0 && given) {
    d.effects.push({ type: 'say', nodeId, kind: 'info', text: fillMessage(m.contact_noted, { contact: given.value }) });
    d.heard = { text, pii: true };
  } else if (skip && d.s.handover?.contactAsked && !given) {
    d.effects.push({ type: 'say', nodeId, kind: 'info', text: m.contact_skipped });
  }
  const told = staffed ? 'online' : 'offline';
  emit(d, 'handover', { staffed, ...(taken.length ? { contact: taken } : {}) });
  if (d.s.handover?.told === told) {
    // told already: a short acknowledgement (or just the thanks for the contact)
    if (taken.length === 0) d.effects.push({ type: 'say', nodeId, kind: 'info', text: m.handover_noted });
    return;
  }
  d.s.handover = { ...d.s.handover, told };
  if (staffed) {
    d.effects.push({ type: 'say', nodeId, kind: 'info', text: m.handover_online });
    return;
  }
  const when = replyWhen(d);
  const spec = given ? d.idx.questionByKey.get(given.key)?.node : undefined;
  const type = spec?.type === 'question' ? spec.answer?.type : undefined;
  const channel = !given ? m.handover_by_chat
    : type === 'phone' ? fillMessage(m.handover_by_phone, { contact: given.value })
      : fillMessage(m.handover_by_email, { contact: given.value });
  d.effects.push({ type: 'say', nodeId, kind: 'info', text: fillMessage(m.handover_offline, { when, channel }) });
}
