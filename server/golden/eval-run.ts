import { isDeepStrictEqual } from 'node:util';
import { LocalConversation } from '../conversation/local-conversation.ts';
import { ScriptedClock } from '../conversation/scripted-clock.ts';
import type { Extractor } from '../extract/extractor.ts';
import { formatDiagnostic, hasErrors } from '../flow/diagnostic.ts';
import { compileText } from '../flow/document.ts';
import type { CompiledFlow } from '../flow/compiled-flow.ts';
import type { ResolvedCase } from './eval-cases.ts';
import type { Session } from '../engine/session.ts';
import { PACKS } from '../language/registry.ts';

// One case = one question flow, one visitor turn, through the same steps the
// server takes (command words, the extraction request, the extractor, the
// engine's validation and commit). What the engine committed is judged
// against the label.

/** What one turn did to the question: committed a value, recorded a skip, or asked again. */
export type EvalOutcome = { kind: 'value'; value: unknown } | { kind: 'skip' } | { kind: 'reask' };

/**
 * How a case went. `correct`: the expected value (or the required re-ask or
 * skip). `clarified`: asked again where a value or skip was expected — safe,
 * not helpful. `wrong`: silently wrong — committed a value other than the
 * expected one, committed (or skipped) where a re-ask was required, or moved
 * on with a skip where the visitor gave an answer. `error`: the case could
 * not run (its question does not compile, the extractor threw); it fails the
 * run like a wrong one but is counted apart.
 */
export type Verdict = 'correct' | 'clarified' | 'wrong' | 'error';

export interface CaseResult {
  id: string;
  file: string;
  type: string;
  reply: string;
  /** The visitor's language when the case gives one. */
  locale?: string;
  expected: ResolvedCase['expect'];
  outcome: EvalOutcome;
  verdict: Verdict;
  /** What the bot said next (the re-ask, or the next line): how the visitor saw it understood. */
  bot: string;
  error?: string;
  /** For a case with a previous question: what that question holds after the reply, and its own verdict (absent when not judged). */
  previous?: { key: string; outcome: EvalOutcome; verdict?: Verdict; expected?: ResolvedCase['expect'] };
}

/** Makes the extractor for one case (replay needs the case's recorded calls). */
export type ExtractorFor = (c: ResolvedCase) => Extractor;

const TERMINAL = { id: 'n.done', type: 'terminal', say: 'Noted.' };
/**
 * After a follow-up case's question (the same question twice), the question a real flow asks next: when the bot took
 * the first reply instead of asking back, the case's reply comes there, as it would in a conversation, rather than
 * after the end.
 */
const AFTER = { id: 'q.after', type: 'question', key: 'eval_after', prompt: 'Is there anything else you would like to add?', answer: { type: 'text', max: 2000 }, required: false };

/** The flow a case runs in: its question (after the previous one, when the case has one), then the end. */
export function caseFlow(c: ResolvedCase): CompiledFlow {
  const before = c.previous && c.previous.question.key !== c.question.key ? [{ id: 'q.previous', type: 'question', ...c.previous.question }] : [];
  const doc = {
    version: 'v1',
    id: 'eval.case',
    ...(c.defaultCountry ? { default_country: c.defaultCountry } : {}),
    // through a shipped flow, a question keyed `path` is the flow's path prompt: a decision routing on the path
    ...(c.pathPrompt ? { paths: c.pathPrompt } : {}),
    nodes: [...before, c.pathPrompt
      ? { id: 'q.case', type: 'decision', routes: { on: 'path', cases: Object.fromEntries(Object.keys(c.pathPrompt.options).map((p) => [p, TERMINAL.id])) } }
      : { id: 'q.case', type: 'question', ...c.question }, ...(c.previous && c.previous.question.key === c.question.key && !c.pathPrompt ? [AFTER] : []), TERMINAL],
  };
  const r = compileText(JSON.stringify(doc), `${c.file}#${c.id}`);
  if (r.kind !== 'flow' || !r.flow || hasErrors(r.diagnostics)) {
    throw new Error(r.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic).join('; ') || 'the case question does not compile');
  }
  return r.flow;
}

/** What a turn left in the session for `key`: a value, a skip, or nothing yet (asked again); at a path prompt, the path it routed on. */
function outcomeOf(session: Session, key: string, pathPrompt = false): EvalOutcome {
  if (pathPrompt) return session.path.tentative !== null ? { kind: 'value', value: session.path.tentative } : { kind: 'reask' };
  const rec = session.answers.get(key);
  return !rec ? { kind: 'reask' } : rec.validation === 'skipped' || rec.value === null ? { kind: 'skip' } : { kind: 'value', value: rec.value };
}

const RANK: Record<Verdict, number> = { correct: 0, clarified: 1, error: 2, wrong: 3 };

/**
 * Runs one case: start, the previous question's reply (when the case has one), the visitor's reply, and what
 * the engine made of it. A case with a previous question is as good as the worse of its two judgements.
 */
export async function runCase(c: ResolvedCase, extractor: Extractor): Promise<CaseResult> {
  const type = (c.question.answer?.type ?? 'text') + ((c.question.answer as { multiple?: boolean } | undefined)?.multiple ? '[]' : '');
  const base = { id: c.id, file: c.file, type, reply: c.reply, ...(c.locale ? { locale: c.locale } : {}), expected: c.expect };
  let flow: CompiledFlow;
  try {
    flow = caseFlow(c);
  } catch (err) {
    return { ...base, outcome: { kind: 'reask' }, verdict: 'error', bot: '', error: `case does not compile: ${(err as Error).message}` };
  }
  const clock = new ScriptedClock(c.now);
  const conv = new LocalConversation(flow, { extractor: c.locale ? inLocale(extractor, c.locale) : extractor, env: clock });
  await conv.start({ now: clock.now() });
  clock.tick();
  const prev = c.previous;
  if (prev && prev.question.key !== c.question.key) {
    const first = await conv.send(prev.reply, clock.now());
    clock.tick();
    // the case is about the next question: a previous reply the bot did not take never got there (safe, not helpful)
    if (outcomeOf(first.session, prev.question.key).kind === 'reask') {
      const said = first.messages.map((m) => m.text).filter(Boolean).join(' / ');
      return { ...base, outcome: { kind: 'reask' }, verdict: 'clarified', bot: `(previous reply not taken) ${said}`, previous: { key: prev.question.key, outcome: { kind: 'reask' } } };
    }
  } else if (prev) {
    await conv.send(prev.reply, clock.now());
    clock.tick();
  }
  const reply = await conv.send(c.reply, clock.now());
  const outcome = outcomeOf(reply.session, c.question.key, c.pathPrompt !== undefined);
  const bot = reply.messages.map((m) => m.text).filter(Boolean).join(' / ');
  let verdict = judge(c.expect, outcome, c.question.answer?.type ?? 'text', isDescription(c.question.answer) ? c.reply : undefined);
  let previous: CaseResult['previous'];
  if (prev && prev.question.key !== c.question.key) {
    const held = outcomeOf(reply.session, prev.question.key);
    const expected = prev.expect ? { kind: 'value' as const, ...prev.expect } : undefined;
    let pv = expected ? judge(expected, held, prev.question.answer?.type ?? 'text') : undefined;
    // a description added to in the visitor's own words is as faithful a record as the one the case tidied
    if (pv === 'wrong' && isDescription(prev.question.answer) && held.kind === 'value' && ownAddition(prev.reply, c.reply, held.value)) pv = 'correct';
    previous = { key: prev.question.key, outcome: held, ...(pv ? { verdict: pv } : {}), ...(expected ? { expected } : {}) };
    if (pv && RANK[pv] > RANK[verdict]) verdict = pv;
  }
  return { ...base, outcome, verdict, bot, ...(previous ? { previous } : {}) };
}

/** The extractor asked in the case's language: every request carries `locale`, as a session in that language sends it. */
function inLocale(extractor: Extractor, locale: string): Extractor {
  return { name: extractor.name, extract: (req) => extractor.extract({ ...req, locale }) };
}

/** The verdict on one outcome (see Verdict). */
export function judge(expected: ResolvedCase['expect'], outcome: EvalOutcome, type: string, ownWords?: string): Verdict {
  if (expected.kind === 'reask') return outcome.kind === 'reask' ? 'correct' : 'wrong';
  if (outcome.kind === 'reask') return 'clarified';
  if (expected.kind === 'skip') return outcome.kind === 'skip' ? 'correct' : 'wrong';
  if (outcome.kind === 'skip') return 'wrong';
  // a description kept in the visitor's own words is a faithful record of it, as a tidied one is
  if (ownWords !== undefined && (sameValue(ownWords, outcome.value, 0, 'text') || sameValue(withoutOpening(ownWords), outcome.value, 0, 'text'))) return 'correct';
  return expected.values.some((v) => sameValue(v, outcome.value, expected.tolerance, type)) ? 'correct' : 'wrong';
}

/** Words that open a chat message and say nothing ("ok so", "hi, well", "ja also"): a description without them is the same record. */
const OPENING = new Set(['ok', 'okay', 'so', 'well', 'um', 'uh', 'hi', 'hello', 'hey', 'yeah', 'yes', 'yep', 'right', 'anyway', 'ja', 'also', 'hallo', 'na', 'naja', 'gut', 'moin', 'servus']);

/** The reply without up to three opening words of the OPENING list ("ok so we had them put in …" → "we had them put in …"). */
export function withoutOpening(reply: string): string {
  let rest = reply.trimStart();
  for (let i = 0; i < 3; i++) {
    const m = /^(\p{L}+)[\s,.!-]+/u.exec(rest);
    if (!m || !OPENING.has(m[1]!.toLowerCase())) break;
    rest = rest.slice(m[0].length);
  }
  return rest;
}

/**
 * Whether a description answer is the earlier reply with words of the later reply added in the visitor's own words:
 * the earlier reply as typed, then (after "; ") one run of the later reply's words as typed ("lisinopril 10mg; aspirin
 * 81 daily" for "lisinopril 10mg", then "no allergies. forgot, I also take aspirin 81 daily").
 */
export function ownAddition(earlier: string, later: string, value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const words = (t: string) => t.normalize('NFC').toLowerCase().replace(/[^\p{L}\p{N}'’]+/gu, ' ').trim();
  const at = value.indexOf('; ');
  if (at < 0 || words(value.slice(0, at)) !== words(earlier)) return false;
  const added = words(value.slice(at + 2));
  return added !== '' && ` ${words(later)} `.includes(` ${added} `);
}

/**
 * Whether a question asks for a description in the visitor's own words: free
 * text (no `kind`, no `pattern`) with room for sentences (`max` of 500 or more).
 */
export function isDescription(answer: ResolvedCase['question']['answer']): boolean {
  if (answer && answer.type !== 'text') return false;
  return !answer?.kind && !answer?.pattern && (answer?.max ?? 0) >= 500;
}

/**
 * Whether a committed value is the expected one: numbers within the
 * tolerance, text answers equal once case, spacing, closing punctuation and
 * the separator between parts are set aside (a careful person records "Blue
 * Cross" and "blue cross" as the same insurer, "latex, rash", "latex — rash" and
 * "latex. rash" as the same allergy), lists of options in any order, anything else exactly.
 */
export function sameValue(expected: unknown, actual: unknown, tolerance: number, type: string): boolean {
  if (typeof expected === 'number' && typeof actual === 'number') return Math.abs(expected - actual) <= tolerance;
  if (typeof expected === 'string' && typeof actual === 'string') {
    if (type !== 'text') return expected === actual;
    // the same record written with other separators: an aside in brackets and one after a comma ("Marcus (father)",
    // "Marcus, father"), a dash or semicolon between parts ("penicillin — hives", "penicillin - hives",
    // "penicillin, hives"), a full stop or colon between two parts ("flicker at night. started Friday", "flicker at
    // night; started Friday"), and a figure with or without a space before its unit ("10mg", "10 mg")
    const norm = (s: string) => s.normalize('NFC').trim()
      .replace(/\s*\(\s*([^()]*?)\s*\)/g, ', $1')
      .replace(/\s*[—–]\s*|\s+-\s+|\s*;\s*|(?<=\S)[.:]\s+(?=\S)/g, ', ')
      .replace(/\s*,\s*/g, ', ')
      .replace(/(\d)\s*(mg|mcg|µg|g|kg|ml|l|m|cm|mm|km|ft|lbs?|oz|iu|units?)\b/giu, '$1 $2')
      .replace(/\s+/g, ' ').replace(/[.!]+$/, '').toLowerCase();
    return norm(expected) === norm(actual) || asRecorded(norm(expected)) === asRecorded(norm(actual));
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    return expected.length === actual.length && [...expected].map(String).sort().join('\u0000') === [...actual].map(String).sort().join('\u0000');
  }
  // dates may be written unquoted in YAML and parsed as Date
  if (expected instanceof Date && typeof actual === 'string') return expected.toISOString().slice(0, 10) === actual;
  return isDeepStrictEqual(expected, actual);
}

let relations: ReadonlyMap<string, string> | undefined;

/**
 * A text record with the relation words after its first part written the one way the language packs record them
 * (`relationAs`: "mom" → "mother", "Mama" → "Mutter"): "Jen Carter (mom)" and "Jen Carter, mother" are the same record.
 */
function asRecorded(normalised: string): string {
  relations ??= new Map(PACKS.flatMap((p) => Object.entries(p.names.reply.relationAs)));
  const [head, ...rest] = normalised.split(', ');
  return [head, ...rest.map((part) => part.split(' ').map((w) => relations!.get(w) ?? w).join(' '))].join(', ');
}

/** Runs every case in order with the extractor made for it; `after` sees each case once it ran (recording). */
export async function runCases(cases: readonly ResolvedCase[], extractorFor: ExtractorFor, after?: (c: ResolvedCase, r: CaseResult) => void): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const c of cases) {
    try {
      const r = await runCase(c, extractorFor(c));
      results.push(r);
      after?.(c, r);
    } catch (err) {
      const type = c.question.answer?.type ?? 'text';
      // a case that cannot run says why; it is never counted as answered
      results.push({ id: c.id, file: c.file, type, reply: c.reply, ...(c.locale ? { locale: c.locale } : {}), expected: c.expect, outcome: { kind: 'reask' }, verdict: 'error', bot: '', error: (err as Error).message });
    }
  }
  return results;
}
