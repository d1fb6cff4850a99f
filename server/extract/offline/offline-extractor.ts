import type { ExtractionRequest, Extractor, OpenQuestion, Proposal, ProposedUpdate } from '../extractor.ts';
import { findEmails, findPhones, findPhrase, findUrls, fold, foldPhrase, mask, MAX_TYPED_CHARS, narrowDate, parseAnswer, scrub, type ParseContext } from '../parse/index.ts';
import { ok, type ParseResult } from '../parse/parse-result.ts';
import { onlyDeclines, refuses, wantsHuman, wantsSkip } from './intents.ts';
import { packOf } from '../../language/registry.ts';
import { say } from '../../language/parser-messages.ts';
import type { LanguagePack } from '../../language/pack.ts';
import { nameQuestion, readNameReply } from './name-reply.ts';
import { votePath } from './path-vote.ts';
import { unexplainedWords } from './commit-rule.ts';
import { ceilingBeside, estimateBlanked, remarksOnly, unsureBeside } from './remarks.ts';
import { assertsItem, contentBeside, fineBlanked, narrowedNone, yesNoByContent } from './yes-no-content.ts';
import { readDuration } from './duration-reply.ts';
import { optionByPrompt } from './prompt-options.ts';
import { pickedFirst } from './picked-first.ts';
import { lateCorrection } from './late-correction.ts';
import { LOCAL_VALUE } from '../../engine/input.ts';
import { narrowAmount } from '../parse/narrow-amount.ts';
import { parseBoolean } from '../parse/boolean.ts';
import { contactFollowUp } from './contact-follow-up.ts';
import { scaleAmount } from '../parse/amount-scale.ts';
import { matchTrigger } from './triggers.ts';
import { volunteeredUpdates } from './volunteered.ts';
import { readText, type TextReading } from './short-text.ts';
import { asksOnly } from './not-an-answer.ts';
import { pauses } from './pause.ts';
import { normalOptions } from '../../flow/answer-types.ts';

/*
 * HOW THE OFFLINE RULES UNDERSTAND A REPLY — the rule of this layer is that
 * no wrong value is ever committed silently: a reply gives the right value,
 * or a short, specific problem that the engine says when it asks again.
 *
 * Hedges and skips (one rule, every answer type):
 *  1. A hedge — "I don't know", "dont know", "idk", "dunno", "no idea", "not
 *     sure", "unsure", "no clue" — or a refusal — "skip", "pass", "rather not
 *     say", "n/a" — with nothing else but filler words and the question's own
 *     key or label is a skip: the key is proposed as unknown. The engine skips
 *     an optional question and asks a required one again ("This one is needed
 *     to continue.").
 *  2. A bare "no", "none", "nope", "nah", "nothing", "no thanks" is the same
 *     skip when the question is optional and its prompt invites one ("say skip
 *     if not", "if any", "if none", "if you have one", "if applicable",
 *     "optional", "leave blank") — except a yes/no question, where "no" is the
 *     answer.
 *  3. A reply that is exactly an option ("Not sure" as an enum option) is that
 *     option, not a skip.
 *  4. A hedge beside a value ("no idea, ann@x.io"; "not sure, maybe 20k") is
 *     not a skip: the value is read, with a lower confidence when words
 *     surround it. A hedge alone never becomes a value.
 *
 * Values (server/extract/parse/): "not X" never selects X; two options for a
 * single choice ("red or green") are asked about; the words after a
 * self-correction ("3 — sorry, 4", "3, no wait, 4", "3 actually 4") are the
 * answer; a number in another unit of the same kind is converted exactly and
 * carries its conversion (echoed by the engine), in a unit of another kind or
 * another currency it is asked about; a date without a day ("mid January") is
 * asked about; short text answers lose filler by fixed rules (parse/text.ts)
 * and a name question (declared or inferred from its key or prompt) is read clause by clause
 * (name-reply.ts): the name of the person asked for, asked again when there is none.
 */

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
    const ctx: ParseContext = req.locale === undefined ? { now: req.now, defaultCountry: req.defaultCountry } : { now: req.now, defaultCountry: req.defaultCountry, locale: req.locale };
    const typed = typeof req.text === 'string' ? req.text : '';
    let text = typed;
    // "hold on", "ugh let me check", "Moment bitte": a moment asked for before answering — no answer, no miss, no correction (pause.ts)
    if (req.current && typed.length <= MAX_TYPED_CHARS && pauses(typed, packOf(req.locale), ['integer', 'number'].includes(req.current.answer.type))) return { extractor: this.name, updates: [], unknown: [], pause: { key: req.current.key } };
    // "actually make that 25k. and asap": a correction of the previous answer is taken out, the rest answers the current question
    const late = (req.previous || req.answered) && text.length <= MAX_TYPED_CHARS ? lateCorrection(text, req.previous, req.answered ?? [], req.current, ctx, packOf(req.locale)) : null;
    if (late) text = late.rest;
    // "…, sorry. ID W987654321": after a correction, the current text question's own name opening the rest is no part of its answer
    if (late?.update && req.current?.answer.type === 'text') text = withoutOwnName(text, req.current);
    // "Name: Ulrike Brandt", "Verein: SV Blau-Weiß Linz": a label made of the question's own words before a colon is no part of a text answer
    if (req.current?.answer.type === 'text') text = withoutOwnLabel(text, req.current);
    // "mainly the refill" right after "Please pick just one: …": the visitor's pick, no hedge (picked-first.ts)
    if (req.current?.answer.type === 'enum' && !req.current.answer.multiple) text = pickedFirst(text, req.history, packOf(req.locale));
    // A paste longer than any typed answer is only ever a text answer; the
    // phrase and value scans are skipped rather than run over megabytes.
    const scannable = text.length <= MAX_TYPED_CHARS ? scrub(text) : null;
    const human = scannable !== null && wantsHuman(scannable, req.locale);
    // Addresses and phone numbers go to other questions; without them, "no idea, but ann@x.io" is still a skip.
    const withoutContacts = scannable === null ? null : blankContacts(scannable, ctx);
    const proposal: Proposal = { extractor: this.name, updates: [], unknown: [] };
    const updates: ProposedUpdate[] = [];
    if (late?.update) updates.push(late.update);
    // "wrong number sorry, it ends 0134": the earlier answer is asked again; a free-text rest is not taken as this answer meanwhile
    if (late?.reopen) proposal.reopen = { key: late.reopen };
    const cur = req.current;
    // the yes/no was read together with what the reply names, so the rest needs no check (yes-no-content.ts)
    let settled = false;
    // clauses the parser read as describing the value ("rash on my arms"): accounted for by the commit rule
    let describing: readonly string[] = [];

    if (cur) {
      // a follow-up at the same question ("Which day in March?" → "the 9th"): nothing was committed the turn before,
      // so the visitor's last message was a reply to this question that the bot asked back about
      const followUp = !req.previous && ['date', 'integer', 'number', 'phone', 'email'].includes(cur.answer.type);
      // the visitor's last message; a pii one (at a pii question) read from its words kept in this process, never sent on
      const last = followUp ? [...(req.history ?? [])].reverse().find((h) => h.role === 'user') : undefined;
      const before = last === undefined ? undefined : last.pii ? last[LOCAL_VALUE] : last.text;
      const narrowed = before && cur.answer.type === 'date' ? narrowDate(cur.answer as Extract<ExtractionRequest['current'] & object, { answer: { type: 'date' } }>['answer'], text, before, ctx) : null;
      // "044 123 45 67" asked which country, then "ja, Zürich, Schweiz"; "555-0148" then "area code 312"; two numbers, then
      // "the cell"; "dreynolds@gmail" then "gmail.com": the contact both replies give together (contact-follow-up.ts)
      const read = narrowed ?? (before ? contactFollowUp(cur, text, before, ctx, packOf(req.locale)) : null) ?? parseAnswer(cur.answer, cur.answer.type === 'boolean' ? fineBlanked(cur, text, packOf(req.locale)) : text, ctx);
      // "15-25k" asked back, then "say 20": 20,000 (parse/narrow-amount.ts)
      const narrowedAmount = before && cur.answer.type !== 'date' ? narrowAmount(cur.answer, text, before, read) : null;
      // "50" at a budget whose prompt says packages start at about $12,000: checked as 50,000 (parse/amount-scale.ts)
      const typedRead = narrowedAmount ?? scaleAmount(cur.answer, cur.prompt, read, () => parseAnswer({ ...cur.answer, min: undefined, max: undefined } as typeof cur.answer, text, ctx)) ?? read;
      // a yes/no said by content, without a yes or no word: "saw a few sparks last night", "nothing like that" (yes-no-content.ts)
      const content = !typedRead.ok && cur.answer.type === 'boolean' && withoutContacts !== null ? yesNoByContent(cur, withoutContacts, packOf(req.locale)) : null;
      // a count of days or an age given another way: "since Monday", "a week", "18 months" (duration-reply.ts)
      const duration = (cur.answer.type === 'integer' || cur.answer.type === 'number') && withoutContacts !== null ? readDuration(cur, withoutContacts, ctx, packOf(req.locale), typedRead.ok) : null;
      // beside a yes or no word, what the reply names: "no sparks, but a cable is hanging out" is a yes (the no denies one
      // item), "no chest pain, only a runny nose" a no that needs no check (yes-no-content.ts)
      const beside = typedRead.ok && cur.answer.type === 'boolean' && withoutContacts !== null ? contentBeside(cur, withoutContacts, packOf(req.locale), typedRead.value === true) : null;
      if (beside || (content?.whole && !content.hedged)) settled = true;
      // an option named only by the prompt's description of it: "a stadium" at "… for a court, gym or stadium, or help …" (prompt-options.ts);
      // checked, never committed: a place says where, not what is wanted (new lights for the gym, or help with the gym's lights?)
      const described = !typedRead.ok && cur.answer.type === 'enum' && withoutContacts !== null ? optionByPrompt(cur, withoutContacts, packOf(req.locale)) : null;
      // (a yes read beside a hedge, "maybe? penicillin gave me a rash once", is checked: the visitor doubts it counts)
      const parsed: ParseResult = content ? (content.hedged ? { ok: true, value: content.value, evidence: content.evidence, exact: false, check: true } : ok(content.value, content.evidence, false)) : beside && 'flip' in beside ? ok(true, withoutContacts!.trim(), false)
        : described ? { ok: true, value: described.value, evidence: described.evidence, exact: false, check: true } : duration ? (duration.check ? { ok: true, value: duration.value, evidence: duration.evidence, exact: false, check: true } : ok(duration.value, duration.evidence, false)) : typedRead;
      const isText = cur.answer.type === 'text';
      const pack = packOf(req.locale);
      const nameAsk = isText && withoutContacts !== null ? nameQuestion(cur, pack) : null;
      // An option literally called "Not sure" or "Pass" is an answer, not a skip.
      const literalOption = parsed.ok && parsed.exact && !isText;
      const topic = [cur.key, cur.label ?? ''];
      // "dont want to say", "möcht i ned sagen", "company skip": a refusal and nothing more declines any text question (intents.ts)
      const skip = withoutContacts !== null && (wantsSkip(withoutContacts, topic, req.locale) || declines(cur, withoutContacts, pack, scannable ?? '') || (isTextAnswer(cur) && refuses(withoutContacts, topic, pack))
        || (!parsed.ok && reachedOtherwise(cur, withoutContacts, pack)));
      // "no idea, ann@x.io" answers; "no idea" to a yes/no enum does not: the
      // value only counts when the skip phrase survives without it.
      // an address or number read at its own contact question answers it whatever surrounds it: "a.lechner@x.at, danke"
      const answeredBesideSkip = skip && parsed.ok && !isText && (TYPED_DECLINE.has(cur.answer.type) || wantsSkip(blank(withoutContacts!, parsed.evidence), topic, req.locale));
      let reading: TextReading | null = null;
      let declined: string | null = null;
      // "not sure what you mean", "Wie meinen Sie das?": a question back is no answer and no skip; the question is asked again
      // "define unsafe", "dangerous in what way": a question back about the very word read as the value asks back too
      const backKind = withoutContacts !== null && !literalOption ? asksBack(withoutContacts, pack) : null;
      // (a yes/no or a choice, read from words: a number or a date beside "como", "pardon" is still the answer)
      // "does weed count", "is that bad?": a reply to a yes/no whose every clause asks, without a yes or no word, says neither (not-an-answer.ts)
      const back = (backKind !== null && (!(parsed.ok && !isText) || (backKind !== 'mark' && (cur.answer.type === 'boolean' || cur.answer.type === 'enum'))))
        || (cur.answer.type === 'boolean' && withoutContacts !== null && !literalOption && asksOnly(withoutContacts, pack) && !saysYesOrNo(withoutContacts, pack));
      if (human) {
        // The request is not an answer, but a typed value sent alongside it is kept for the person taking over.
        if (parsed.ok && !isText) updates.push(update(cur.key, parsed.value, parsed.exact ? 1 : PARTIAL, parsed.evidence));
      } else if (isText && cur.assess?.draft !== undefined && withoutContacts !== null && nothingMore(withoutContacts, pack)) {
        // "nein" / "no" alone while a description is refined ("Could you tell me a bit more?"): the answer so far stands
        proposal.unknown.push(cur.key);
      } else if (back) {
        proposal.problem = { key: cur.key, reason: say(pack, 'askedBack'), specific: true };
      } else if (skip && !literalOption && !answeredBesideSkip && (declined = skipOption(cur, withoutContacts!, pack, req.locale)) !== null) {
        // "I'd rather not say" at a choice offering "Prefer not to say": that option is the answer, not a skip
        updates.push(update(cur.key, cur.answer.type === 'enum' && cur.answer.multiple ? [declined] : declined, PARTIAL, withoutContacts!.trim()));
        settled = true;
      } else if (skip && !literalOption && !answeredBesideSkip) {
        proposal.unknown.push(cur.key);
      } else if (nameAsk) {
        // a name question (declared, or inferred from its key or prompt): the reply is read clause by clause (name-reply.ts)
        const name = readNameReply(withoutContacts!, nameAsk, pack);
        const checked = 'problem' in name ? null : parseAnswer({ ...cur.answer, kind: 'name' } as typeof cur.answer, name.value, ctx);
        if ('problem' in name) proposal.problem = { key: cur.key, reason: name.problem, specific: true };
        else if (checked && !checked.ok) proposal.problem = { key: cur.key, reason: checked.reason, ...(checked.specific ? { specific: true as const } : {}) };
        else {
          const u = update(cur.key, checked!.ok ? checked!.value : name.value, name.bare ? 1 : NAME_FROM_INTRO, name.evidence);
          if (name.confirm) u.confirm = true;
          updates.push(u);
        }
      } else if (isText && scannable !== null && (reading = readText(cur, scannable, packOf(req.locale), ctx, parsed.ok ? String(parsed.value) : null, req.previous ? undefined : req.history)) !== null) {
        // short text and codes (offline/short-text.ts): "order BF-100874, the lights …" → BF-100874; "it's private" skips
        if ('skip' in reading) proposal.unknown.push(cur.key);
        else if ('problem' in reading) proposal.problem = { key: cur.key, reason: reading.problem, specific: true };
        else updates.push({ ...update(cur.key, reading.value, reading.exact ? 1 : PARTIAL, reading.evidence), ...(reading.confirm ? { confirm: true as const } : {}) });
      } else if (parsed.ok && late?.reopen && isText) {
        // an earlier answer is asked again first: a free-text rest is not taken as this answer meanwhile (asked in its turn)
      } else if (parsed.ok) {
        const u = update(cur.key, parsed.value, parsed.exact && !parsed.check ? 1 : PARTIAL, parsed.evidence);
        if (parsed.conversion) u.conversion = parsed.conversion;
        // a reading the parser itself doubts ("3.2.2015" in the US) is checked with the visitor first (and not settled
        // offline by the hybrid rule: it is not exact)
        if (parsed.check && !human) u.confirm = true;
        describing = parsed.described ?? [];
        updates.push(u);
      } else {
        proposal.problem = { key: cur.key, reason: parsed.reason, ...(parsed.specific ? { specific: true as const } : {}) };
      }
    }

    if (scannable !== null) {
      // "I'd rather not say" skips the current question; the words in it ("not say") must not
      // answer another one. Contact details given beside a skip are still taken.
      const skipped = cur !== null && proposal.unknown.includes(cur.key);
      // the contact questions' keys, listed only when a skip has to tell them apart (most turns do not)
      let contact: Set<string> | undefined;
      for (const u of volunteeredUpdates(scannable, cur, req.open, ctx)) {
        if (skipped && !(contact ??= new Set(req.open.filter((q) => ['email', 'phone', 'url'].includes(q.answer.type)).map((q) => q.key))).has(u.key)) continue;
        if (!updates.some((x) => x.key === u.key) && !proposal.unknown.includes(u.key)) updates.push(u);
      }
    }
    // the commit rule: a value read from a reply with words nothing accounts for is checked with the visitor first
    const mine = cur && cur.answer.type !== 'text' ? updates.find((u) => u.key === cur.key && u.confidence !== 1) : undefined;
    if (mine && cur && !human && !settled) {
      const read = [...describing, ...updates.flatMap((u) => (u.evidence ?? '').split(', '))];
      // "no, paying cash", "yes — the card's at home": a yes or no said first and set apart answers; the rest is an aside
      const aside = cur.answer.type === 'boolean' && mine.evidence !== undefined && new RegExp(`^\\W*${mine.evidence.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*[,.;:!—–-]`, 'iu').test(text);
      // at an estimate question ("A ballpark is fine") the guesses softening one figure are set aside ("40k-ish", "so um die")
      const said = estimateBlanked(text, cur, packOf(req.locale));
      const masked = estimateBlanked(withoutContacts ?? text, cur, packOf(req.locale));
      // the spans read are blanked the same way, so "20k-ish per court x 2 courts" is still found in the blanked reply
      const blankedRead = read.map((r) => estimateBlanked(r, cur, packOf(req.locale)));
      const left = aside ? [] : unexplainedWords(masked, blankedRead, cur, packOf(req.locale), mine.value);
      // what is left may be only a remark (a reason, a story, a source, an aside) that competes with nothing (remarks.ts)
      // "no water coming in but a panel is loose": a no beside one of the prompt's own items named is checked, whatever explains its words
      if (cur.answer.type === 'boolean' && mine.value === false && assertsItem(cur, withoutContacts ?? text, packOf(req.locale))) mine.confirm = true;
      // "nothing regular" read by a flow's synonym "nothing": a no to part of what is asked is checked
      else if (cur.answer.type === 'boolean' && mine.value === false && narrowedNone(cur, withoutContacts ?? text, packOf(req.locale))) mine.confirm = true;
      else if ((left.length > 0 && !remarksOnly(said, masked, blankedRead, cur, packOf(req.locale), mine.value, left)) || unsureBeside(said, cur, packOf(req.locale)) || ceilingBeside(text, cur, packOf(req.locale))) mine.confirm = true;
    }
    proposal.updates = updates;
    if (human) proposal.escalate = { reason: 'user asked for a person' };
    if (scannable !== null) {
      // at the path prompt itself (no current question) the reply is read as the choice it answers
      const vote = votePath(scannable, req.paths, req.locale, cur === null && req.paths.length > 0 ? { now: req.now } : undefined);
      if (vote) proposal.pathVote = vote;
    }
    // triggers read the whole message: "hold on, there are sparks and the pole is leaning" is a hazard, whatever else
    // the message corrects
    const whole = late ? (typed.length <= MAX_TYPED_CHARS ? scrub(typed) : null) : scannable;
    if (whole !== null) {
      const trigger = matchTrigger(whole, req.triggers, packOf(req.locale));
      if (trigger) proposal.trigger = trigger;
    }
    return proposal;
  }
}

/** Lower-case words of a text, two letters or more, folded. */
function foldedWords(s: string): string[] {
  return s.split(/[^\p{L}]+/u).map((w) => fold(w).text).filter((w) => w.length >= 2);
}

/** The question's own words, folded: its key's parts and its label's words, and with `prompt` its prompt's words too. */
function ownWords(q: OpenQuestion, opts: { prompt?: boolean } = {}): Set<string> {
  return new Set([...foldedWords(q.key), ...foldedWords(q.label ?? ''), ...(opts.prompt ? foldedWords(q.prompt ?? '') : [])]);
}

/** Words a code's lead-in may add to the question's own after a correction ("my member number W98…"). */
const CODE_LEAD_EXTRA = new Set(['member', 'my', 'the', 'die', 'meine', 'mitglieds', 'is', 'ist', 'number', 'nummer']);

/** The text without a lead-in made of the question's key or label words before a code ("ID W98…", "member id: UH77…", "Bestellnummer BF-…"). */
function withoutOwnName(text: string, q: OpenQuestion): string {
  const own = ownWords(q);
  const m = /^\s*((?:[\p{L}]+\s+){0,2}[\p{L}]+)\s*(?::|is|ist|=)?\s+(?=\S*\p{N})/u.exec(text);
  if (!m || !m[1]!.split(/\s+/).every((w) => own.has(fold(w).text) || CODE_LEAD_EXTRA.has(fold(w).text))) return text;
  return text.slice(m[0].length);
}

/** Words a label before a colon may add to the question's own ("my name:", "full name:", "Ihr Name:"). */
const LABEL_EXTRA = new Set(['and', 'und', 'my', 'your', 'our', 'the', 'full', 'first', 'last', 'name', 'mein', 'meine', 'ihr', 'ihre', 'unser', 'unsere', 'der', 'die', 'das', 'vor', 'nach', 'vorname', 'nachname', 'voller']);

/** Prompt words too general to name a kind of answer ("what", "your", "project"). */
const GENERAL_PROMPT_WORD = /^(?:proje[ck]ts?|projet|proyecto|what|which|welche[nrs]?|your|ihre?)$/iu;

/**
 * The text without a label made of the question's own words, in one of three shapes:
 * - before a colon ("Name: Ulrike Brandt", "Verein: SV Blau-Weiß Linz", "Org: …"): every label word is a word of the key, the
 *   label or the prompt (or the start of one), or a word like "my" or "full"; a colon after other words ("Note: …", "Hab sie
 *   gefunden: …") is left to the readers;
 * - with a copula at a short text question ("Company is Greenfield Parks", "Verein ist der FC Oberau"): the same, and every
 *   label word is a key or label word or a kind the prompt names (not "the project is for …");
 * - bare before a capital ("emergency contact Dev Patel, husband", "my emergency contact is Tom Reed"): every label word is a
 *   key or label word (not the prompt's), at least one of them not "name".
 * The value as typed otherwise.
 */
function withoutOwnLabel(text: string, q: OpenQuestion): string {
  const bare = withoutKeyLabel(text, q);
  const colon = /^\s*((?:\p{L}+[\s-]+){0,2}\p{L}+)\s*:\s*(?=\S)/u.exec(text);
  const short = q.answer.type === 'text' && q.answer.max !== undefined && q.answer.max <= 200;
  const copula = colon === null && short && bare === text ? /^\s*((?:\p{L}+[\s-]+){0,2}\p{L}+)\s+(?:is|ist|are|lautet|heißt|heisst)\s+(?=\S)/u.exec(text) : null;
  const m = colon ?? copula;
  if (!m) return bare;
  const label = foldedWords(m[1]!);
  if (copula) {
    const kinds = new Set([...ownWords(q), ...(q.prompt ?? '').split(/[^\p{L}]+/u).filter((w) => w.length >= 4 && !GENERAL_PROMPT_WORD.test(w)).map((w) => fold(w).text)]);
    if (!m[1]!.split(/[^\p{L}]+/u).every((w) => kinds.has(fold(w).text))) return bare;
  }
  const own = ownWords(q, { prompt: true });
  // "Org:" at "… organisation?": a label word may be the start of one of the question's own words
  const ownWord = (w: string) => own.has(w) || (w.length >= 3 && [...own].some((o) => o.length > w.length && o.startsWith(w)));
  if (label.length === 0 || !label.every((w) => ownWord(w) || LABEL_EXTRA.has(w)) || label.every((w) => LABEL_EXTRA.has(w) && w !== 'name' && w !== 'vorname' && w !== 'nachname')) return text;
  return text.slice(m[0].length);
}

/** The bare shape of `withoutOwnLabel`: the question's key or label words without a colon before a capitalised value. */
function withoutKeyLabel(text: string, q: OpenQuestion): string {
  const m = /^\s*(?:(?:my|our|the|mein|meine|unser|unsere)\s+)?((?:\p{Ll}+\s+){0,2}\p{Ll}+)\s+(?:(?:is|ist|would be|wäre)\s+)?(?=\p{Lu})/u.exec(text);
  if (!m) return text;
  const own = ownWords(q);
  const label = m[1]!.split(/\s+/).map((w) => fold(w).text);
  if (!label.every((w) => own.has(w)) || label.every((w) => w === 'name')) return text;
  return text.slice(m[0].length);
}

/** Whether the whole reply is a plain no, as the yes/no reader takes one ("no", "nope 👍", "nein."): nothing more to add. */
function nothingMore(text: string, pack: LanguagePack): boolean {
  const read = parseBoolean({ type: 'boolean' }, text, pack);
  return read.ok && read.value === false && read.exact;
}

/** The message with email addresses, web addresses and phone numbers blanked out. */
function blankContacts(text: string, ctx: ParseContext): string {
  return mask(text, [...findEmails(text), ...findUrls(text), ...findPhones(text, ctx)].map((f) => [f.start, f.end] as const));
}


// Prompts that offer a way out ("Is there a date? Say skip if not"); a bare "no" to them is a skip (rule 2 above).
// The prompt says how to decline ("say skip if not", "if none"): "none" is that way out, not an answer.
const NAMES_SKIP = /\b(?:skip|if not|if none|leave (?:it )?blank)\b/i;
// "I don't have insurance", "we don't have a website": nothing to give — a skip (the engine asks a required question again).
const HAS_NONE = /^[\s,.!]*(?:no,?\s+)?(?:i|we)\s+(?:don['’]?t|do not|dont|haven['’]?t|have not)\s+(?:have|got|use)\s+(?:an?\s+|any\s+|one\b)?[\p{L}\s'’-]{0,30}[\s.!]*$/iu;

const NONE_COUNT = /^[\s,.!]*(?:none|nothing|no one|nobody|zero)[\s,.!]*$/i;

/**
 * Rule 2b: an optional email question answered with a wish for a call ("I'd rather you called me", "lieber anrufen"), or
 * an optional phone question with a wish for an email, declines it: the flow asks the other way next, as it does for a skip.
 */
function reachedOtherwise(q: OpenQuestion, text: string, pack: LanguagePack): boolean {
  if (q.required) return false;
  const wish = q.answer.type === 'email' ? pack.otherChannel.phone : q.answer.type === 'phone' ? pack.otherChannel.email : null;
  return wish !== null && wish.test(text);
}

/**
 * A question back about the question: one of the pack's `askBack` phrases ("what do you mean", "wie meinen Sie das"),
 * opening the reply, with at most two other words beside it, or ending it with a question mark. Opening or nearly alone,
 * it asks back even where a value was read from its words ("define unsafe"); with a question mark only where none was.
 */
function asksBack(text: string, pack: LanguagePack): 'opening' | 'short' | 'mark' | null {
  const folded = fold(text).text;
  let rest = folded;
  let found = false;
  for (const phrase of pack.lexicon.askBack) {
    const f = foldPhrase(phrase);
    if (f === '' || findPhrase(folded, f).length === 0) continue;
    found = true;
    rest = rest.split(f).join(' ');
  }
  if (!found) return null;
  // a reply that opens with the question back ("why do you need all that, just send a tech") asks it, whatever follows
  const opening = folded.trim().replace(/^[^\p{L}\p{N}]+/u, '');
  if (pack.lexicon.askBack.some((p) => { const f = foldPhrase(p); return f !== '' && (opening === f || opening.startsWith(`${f} `) || opening.startsWith(`${f},`) || opening.startsWith(`${f}?`)); })) return 'opening';
  if (rest.split(/\s+/u).filter((w) => /[\p{L}\p{N}]/u.test(w)).length <= 2) return 'short';
  return /\?\s*$/u.test(text) ? 'mark' : null;
}

/** Whether the reply holds one of the pack's yes or no words ("yes, is that bad?"). */
function saysYesOrNo(text: string, pack: LanguagePack): boolean {
  const folded = fold(text).text;
  return [...pack.lexicon.yes, ...pack.lexicon.no].some((w) => findPhrase(folded, foldPhrase(w)).length > 0);
}

/** Rule 2: a bare "no" / "none" to an optional, non-yes/no question whose prompt invites a skip (`typed`: the reply with its contacts; `text` without). */
function declines(q: OpenQuestion, text: string, pack: LanguagePack, typed: string): boolean {
  // "none" to "how many guests?" is 0 when 0 is allowed: an answer, not a skip
  const a = q.answer;
  if ((a.type === 'integer' || a.type === 'number') && (a.min === undefined || a.min <= 0) && NONE_COUNT.test(text)) return false;
  if (q.answer.type !== 'boolean' && HAS_NONE.test(text)) return true;
  // "none" to "Any allergies? (optional)" is the answer; to "… say skip if not" it declines
  if (a.type === 'text' && NONE_COUNT.test(text) && !(q.prompt !== undefined && NAMES_SKIP.test(q.prompt))) return false;
  // "keine", "keiner", "aucune" alone at an optional text question whose prompt names the skip ("Sagen Sie „überspringen“, …")
  if (a.type === 'text' && !q.required && noneNamingSkip(q, text, pack)) return true;
  // "no", "keine", "nein danke", "no email", "dont do email" at an optional email, phone or web address: no contact is made
  // of such words, so the visitor declines — whether or not the prompt offers a way out (a date still needs the invitation)
  if (!q.required && TYPED_DECLINE.has(a.type) && declinesTyped(q, typed, pack)) return true;
  const rule = pack.declineRule;
  if (!rule) return !q.required && q.answer.type !== 'boolean' && q.prompt !== undefined && declinesIn(pack, q.prompt, text);
  // "nah i'm good", "no im good thanks", "I'm good, thank you": every part a decline of the pack's (intents.ts)
  return !q.required && q.answer.type !== 'boolean' && q.prompt !== undefined && rule.invites.test(q.prompt) && (rule.bareNo.test(text) || onlyDeclines(text, pack));
}

/** Whether the question takes a text answer. */
function isTextAnswer(q: OpenQuestion): boolean {
  return q.answer.type === 'text';
}

/** Whether the reply is only a "none" word of the pack ("keine", "gar keine", "aucune") and the prompt names the skip word itself ("überspringen"). */
function noneNamingSkip(q: OpenQuestion, text: string, pack: LanguagePack): boolean {
  const none = pack.yesNo?.none;
  if (!none || q.prompt === undefined) return false;
  const prompt = fold(q.prompt).text;
  // the skip word itself (in the pack's skip words and its words inviting a skip: "skip", "überspringen"), not "(optional)"
  const named = pack.lexicon.skip.filter((w) => pack.lexicon.invitesSkip.includes(w));
  if (!NAMES_SKIP.test(q.prompt) && !named.some((w) => findPhrase(prompt, foldPhrase(w)).length > 0)) return false;
  const t = fold(text).text.replace(/[^\p{L}' ]+/gu, ' ').replace(/\s+/g, ' ').trim();
  return t !== '' && none.map(foldPhrase).includes(t);
}

const TYPED_DECLINE = new Set(['email', 'phone', 'url']);
/** The names of a contact channel in the packs' languages ("no email", "kein Handy", "pas de portable", "sin correo"). */
const CHANNEL = new Set(['email', 'e mail', 'emails', 'mail', 'mails', 'phone', 'telephone', 'cell', 'mobile', 'number', 'landline', 'handy', 'telefon',
  'nummer', 'festnetz', 'handynummer', 'telefonnummer', 'courriel', 'telephone', 'portable', 'numero', 'correo', 'telefono', 'movil', 'celular']);

/**
 * Rule 2c: at an optional contact question, a reply made only of declining words (the pack's `declines`, negators, filler) and
 * names of a contact channel, with one declining word or negator at least: "no", "keine", "nein danke", "no email", "dont
 * do email", "hab kein Handy". A digit, an @ or any other word is something else.
 */
function declinesTyped(q: OpenQuestion, text: string, pack: LanguagePack): boolean {
  if (/[\p{N}@]/u.test(text)) return false;
  const lex = pack.lexicon;
  const strip = (w: string) => foldPhrase(w).replace(/'/g, '').replace(/[^\p{L} ]+/gu, ' ').replace(/\s+/g, ' ').trim();
  let t = ` ${strip(text)} `;
  if (t.trim() === '' || t.trim().split(' ').length > 8) return false;
  // the declining phrases are taken out whole ("that's all" declines; its "all" alone does not)
  let hit = false;
  for (const p of [...lex.declines, ...lex.negators, ...(pack.yesNo?.none ?? [])].map(strip).filter((p) => p !== '').sort((a, b) => b.length - a.length)) {
    if (t.includes(` ${p} `)) {
      t = t.split(` ${p} `).join(' ');
      hit = true;
    }
  }
  if (!hit) return false;
  const plain = new Set([...lex.filler, ...lex.skipFiller].map(strip).filter((w) => !w.includes(' ')));
  const own = new Set([...q.key.split(/[_.\s-]+/), ...(q.label ?? '').split(/\s+/)].map((w) => fold(w).text));
  const channel = (w: string) => CHANNEL.has(w) || own.has(w) || [...CHANNEL].some((c) => c.length >= 4 && w.endsWith(c));
  return t.trim().split(' ').every((w) => w === '' || plain.has(w) || channel(w) || w === 'do' || w === 'use');
}

/** Rule 2 in another language: the prompt offers a way out ("(optional)", "falls nicht") and every part of the reply declines ("nein danke, das wars"). */
function declinesIn(pack: LanguagePack, prompt: string, text: string): boolean {
  const words = pack.lexicon;
  const folded = fold(prompt).text;
  if (!words.invitesSkip.some((w) => findPhrase(folded, foldPhrase(w)).length > 0)) return false;
  const parts = fold(text).text.split(/[,.;!]+/).map((p) => p.trim()).filter((p) => p !== '');
  const declines = new Set(words.declines.map(foldPhrase));
  return (parts.length > 0 && parts.every((p) => declines.has(p))) || onlyDeclines(text, pack);
}

/**
 * The option a skip names, at a choice that offers one: a refusal ("I'd rather not say", "pass": the pack's `refuse`) is the
 * option whose label refuses ("Prefer not to say"), a skip that does not know ("no idea") the one whose label is such a skip
 * and no refusal ("Not sure"); null when there is none, or several.
 */
function skipOption(q: OpenQuestion, text: string, pack: LanguagePack, locale: string | undefined): string | null {
  const a = q.answer;
  const refuse = pack.lexicon.refuse;
  if (a.type !== 'enum' || !refuse) return null;
  const refuses = (t: string) => { const f = fold(t).text; return refuse.some((r) => findPhrase(f, foldPhrase(r)).length > 0); };
  const said = refuses(text);
  const fits = normalOptions(a).filter((o) => wantsSkip(o.label, [], locale) && refuses(o.label) === said);
  return fits.length === 1 ? fits[0]!.value : null;
}

/** Blanks the first occurrence of `part`, if any. */
function blank(text: string, part: string): string {
  const at = part === '' ? -1 : text.indexOf(part);
  return at === -1 ? text : mask(text, [[at, at + part.length]]);
}

function update(key: string, value: unknown, confidence: number, evidence: string): ProposedUpdate {
  return { key, value, confidence, evidence };
}
