import type { ExtractionRequest, Extractor, OpenQuestion, Proposal, ProposedUpdate } from '../extractor.ts';
import { findEmails, findPhones, findUrls, mask, MAX_TYPED_CHARS, parseAnswer, scrub, type ParseContext } from '../parse/index.ts';
import { wantsHuman, wantsSkip } from './intents.ts';
import { findName, NAME_KEYS } from './name.ts';
import { votePath } from './path-vote.ts';
import { matchTrigger } from './triggers.ts';
import { volunteeredUpdates } from './volunteered.ts';

/** Confidence of an answer found inside a longer message rather than being the whole of it. */
const PARTIAL = 0.8;
const NAME_FROM_INTRO = 0.9;

/**
 * The rule-based extractor: typed parsers for the current question, skip and
 * "talk to a human" phrases, self-identifying values for other open
 * questions, and a keyword path vote. Synchronous and deterministic — it
 * reads no clock but `request.now`, so the same request gives the same proposal.
 */
export class OfflineExtractor implements Extractor {
  readonly name = 'rules';

  /** Proposes updates, unknowns, an escalation and a path vote for one user message. */
  extract(req: ExtractionRequest): Proposal {
    const ctx: ParseContext = { now: req.now, defaultCountry: req.defaultCountry };
    const text = typeof req.text === 'string' ? req.text : '';
    // A paste longer than any typed answer is only ever a text answer; the
    // phrase and value scans are skipped rather than run over megabytes.
    const scannable = text.length <= MAX_TYPED_CHARS ? scrub(text) : null;
    const human = scannable !== null && wantsHuman(scannable);
    // Addresses and phone numbers go to other questions; without them, "no idea, but ann@x.io" is still a skip.
    const withoutContacts = scannable === null ? null : blankContacts(scannable, ctx);
    const proposal: Proposal = { extractor: this.name, updates: [], unknown: [] };
    const updates: ProposedUpdate[] = [];
    const cur = req.current;

    if (cur) {
      const parsed = parseAnswer(cur.answer, text, ctx);
      const isText = cur.answer.type === 'text';
      // An option literally called "Not sure" or "Pass" is an answer, not a skip.
      const literalOption = parsed.ok && parsed.exact && !isText;
      const topic = [cur.key, cur.label ?? ''];
      const skip = withoutContacts !== null && wantsSkip(withoutContacts, topic);
      // "no idea, ann@x.io" answers; "no idea" to a yes/no enum does not: the
      // value only counts when the skip phrase survives without it.
      const answeredBesideSkip = skip && parsed.ok && !isText && wantsSkip(blank(withoutContacts!, parsed.evidence), topic);
      if (human) {
        // The request is not an answer, but a typed value sent alongside it is kept for the person taking over.
        if (parsed.ok && !isText) updates.push(update(cur.key, parsed.value, parsed.exact ? 1 : PARTIAL, parsed.evidence));
      } else if (skip && !literalOption && !answeredBesideSkip) {
        proposal.unknown.push(cur.key);
      } else if (parsed.ok) {
        const name = isText && withoutContacts !== null ? introducedName(cur, withoutContacts, ctx) : null;
        updates.push(name ?? update(cur.key, parsed.value, parsed.exact ? 1 : PARTIAL, parsed.evidence));
      } else {
        proposal.problem = { key: cur.key, reason: parsed.reason };
      }
    }

    if (scannable !== null) {
      // "I'd rather not say" skips the current question; the words in it ("not say") must not
      // answer another one. Contact details given beside a skip are still taken.
      const skipped = cur !== null && proposal.unknown.includes(cur.key);
      const contact = new Set(req.open.filter((q) => ['email', 'phone', 'url'].includes(q.answer.type)).map((q) => q.key));
      for (const u of volunteeredUpdates(scannable, cur, req.open, ctx)) {
        if (skipped && !contact.has(u.key)) continue;
        if (!updates.some((x) => x.key === u.key) && !proposal.unknown.includes(u.key)) updates.push(u);
      }
    }
    proposal.updates = updates;
    if (human) proposal.escalate = { reason: 'user asked for a person' };
    if (scannable !== null) {
      const vote = votePath(scannable, req.paths);
      if (vote) proposal.pathVote = vote;
      const trigger = matchTrigger(scannable, req.triggers);
      if (trigger) proposal.trigger = trigger;
    }
    return proposal;
  }
}

/** The message with email addresses, web addresses and phone numbers blanked out. */
function blankContacts(text: string, ctx: ParseContext): string {
  return mask(text, [...findEmails(text), ...findUrls(text), ...findPhones(text, ctx)].map((f) => [f.start, f.end] as const));
}

/** "I'm Ann" answering a name question is "Ann", not the whole sentence. */
function introducedName(q: OpenQuestion, blanked: string, ctx: ParseContext): ProposedUpdate | null {
  if (!NAME_KEYS.has(q.key)) return null;
  const name = findName(blanked, q.key === 'first_name' ? 1 : 3);
  if (!name) return null;
  const checked = parseAnswer(q.answer, name.value, ctx);
  return checked.ok ? update(q.key, checked.value, NAME_FROM_INTRO, name.evidence) : null;
}

/** Blanks the first occurrence of `part`, if any. */
function blank(text: string, part: string): string {
  const at = part === '' ? -1 : text.indexOf(part);
  return at === -1 ? text : mask(text, [[at, at + part.length]]);
}

function update(key: string, value: unknown, confidence: number, evidence: string): ProposedUpdate {
  return { key, value, confidence, evidence };
}
