import type { ExtractionRequest, Proposal } from '../extractor.ts';
import { measureOf } from './schema.ts';

/** Why a message was settled by the offline rules without calling the model. */
export type ExactRule = 'exact_value' | 'short_text' | 'skip' | 'human' | 'path_option' | 'trigger' | 'pause';

/** A text answer this short (in words, without clause punctuation) is taken as typed. */
export const SHORT_TEXT_WORDS = 4;

const SIGN: Readonly<Record<string, string>> = { USD: '$', EUR: '€', GBP: '£', JPY: '¥' };
const squash = (s: string) => s.toLowerCase().replace(/²/g, '2').replace(/³/g, '3').replace(/[\s.]/g, '');

/** Whether a number reply says nothing besides the digits but the question's own unit or currency ("1000w" for W, "$25,000" for USD). */
function inOwnTerms(text: string, unit?: string, currency?: string): boolean {
  const rest = squash(text.replace(/[\d.,'+-]/g, ''));
  if (rest === '') return true;
  const own = [unit, currency, currency && SIGN[currency]].filter((x): x is string => Boolean(x)).map(squash);
  return own.includes(rest);
}

function words(text: string): number {
  return text.trim().split(/\s+/).filter(Boolean).length;
}

/**
 * The hybrid rule: the offline proposal is taken, and the model not called,
 * when the message is settled by an exact parse. Exactly one of:
 *
 * - `trigger`: the offline rules matched a flow trigger (a red flag is not
 *   left to the model's reading);
 * - `human`: the offline rules found a request for a person;
 * - `exact_value`: the current question is not free text, the offline
 *   proposal answers it with confidence 1 (the parser's `exact` flag: the
 *   whole message is the value — a quick-reply label, a number, an email,
 *   yes/no, a date) and proposes nothing else — but not a number written
 *   with anything besides digits and separators when the question has a
 *   unit or currency (the model converts a unit and refuses another currency);
 * - `short_text`: the current question is free text, the offline proposal
 *   answers it with confidence 1 and nothing else, and the message is at most
 *   SHORT_TEXT_WORDS words with no clause punctuation ("Acme Tennis Club");
 * - `skip`: a message of at most SHORT_TEXT_WORDS words that the offline rules
 *   read as "skip / don't know" for the current question, and nothing else;
 * - `pause`: the offline rules read the message as asking for a moment
 *   before answering ("hold on", "one sec, let me check");
 * - `path_option`: at the path prompt, the message is a declared path's name
 *   or label (a quick-reply click).
 *
 * Anything else — free text, several facts, no exact parse, a problem, any
 * answer to an assessed question (`assess`) — goes to the model. Returns the rule that applied, or null.
 */
export function exactRule(req: ExtractionRequest, offline: Proposal): ExactRule | null {
  const text = req.text.trim();
  if (offline.trigger) return 'trigger';
  if (offline.escalate) return 'human';
  const cur = req.current;
  if (!cur) {
    const folded = text.toLowerCase().replace(/[.!]+$/, '');
    return req.paths.some((p) => p.name.toLowerCase() === folded || p.label?.toLowerCase() === folded) ? 'path_option' : null;
  }
  if (offline.pause?.key === cur.key) return 'pause';
  // an assessed answer is the model's to judge against its criteria, however short
  const onlyCurrent = !cur.assess && offline.updates.length === 1 && offline.updates[0]!.key === cur.key && offline.unknown.length === 0;
  if (onlyCurrent && offline.updates[0]!.confidence === 1) {
    if (cur.answer.type !== 'text') {
      // a number written with a unit or currency sign is the model's to convert or refuse ("€30,000" for USD,
      // "25ft" for metres): the offline parse reads the number and may drop what it is in
      const { unit, currency } = measureOf(cur.answer);
      if ((unit || currency) && !inOwnTerms(text, unit, currency)) return null;
      return 'exact_value';
    }
    if (words(text) <= SHORT_TEXT_WORDS && !/[,;:.!?]/.test(text.replace(/[.!]+$/, ''))) return 'short_text';
    return null;
  }
  if (offline.updates.length === 0 && offline.unknown.length === 1 && offline.unknown[0] === cur.key && words(text) <= SHORT_TEXT_WORDS) return 'skip';
  return null;
}
