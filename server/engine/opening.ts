import type { CompiledFlow, CompiledNode } from '../flow/compiled-flow.ts';
import { EXIT } from '../flow/desugar.ts';
import { fillMessage } from '../language/fill-message.ts';
import { packOf } from '../language/registry.ts';
import type { LanguagePack } from '../language/pack.ts';
import { checkValue } from './answers.ts';
import { combineDraft } from './assess.ts';
import { draftOf, emit, isPii, type Draft } from './draft.ts';
import type { Proposal } from './input.ts';
import type { Session } from './session.ts';
import type { TurnResult } from './types.ts';
import { progressOf } from './traverse.ts';
import { formatAnswer } from './review.ts';

// The description carried from the message that chose the branch (docs/understanding.md, "A description given
// before its question"): "the floodlights over our back pitch keep cutting out" as the first message answers the
// routing question (support) and IS the problem description. When the conversation reaches the description question
// of that branch, the bot quotes the message and asks once ("You wrote: “…”. Shall I note that as the problem
// description? Say yes, or add anything else.") instead of asking for the description as if nothing had been said.
// A yes takes the message, more words are added to it, a bare no asks the question as written.

/** The shortest `max` of a text question with room for sentences (a description, not a code or a name). */
const ROOM_FOR_SENTENCES = 200;
/** Words a message must hold besides filler and the choice's own words to describe the matter. */
const MIN_CONTENT_WORDS = 3;

const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
const wordsOf = (s: string) => fold(s).match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) ?? [];

/** Whether a question asks for a description: required free text, not pii, no pattern or name, with room for sentences. */
export function isDescription(c: CompiledNode): boolean {
  const n = c.node;
  if (n.type !== 'question' || n.pii || n.required === false || n.never_ask || n.internal) return false;
  const a = n.answer ?? { type: 'text' as const };
  return a.type === 'text' && a.kind === undefined && a.pattern === undefined && (a.max === undefined || a.max >= ROOM_FOR_SENTENCES);
}

/** The routing question whose branch a description question belongs to, by description node id (built once per flow). */
const owners = new WeakMap<CompiledFlow, ReadonlyMap<string, CompiledNode>>();

/**
 * For each routing question — a single-choice question whose edges branch on guards — the description question of
 * each branch: the first description question a walk from the branch reaches (guards ignored), when no other branch
 * of that question reaches it. A description shared by every branch (reached whatever was chosen) belongs to none.
 */
export function descriptionOwners(flow: CompiledFlow): ReadonlyMap<string, CompiledNode> {
  let map = owners.get(flow);
  if (map) return map;
  const out = new Map<string, CompiledNode>();
  for (const r of flow.nodes.values()) {
    const n = r.node;
    if (n.type !== 'question' || n.answer?.type !== 'enum' || n.answer.multiple) continue;
    const branches = r.out.filter((e) => e.on === undefined && e.to !== EXIT);
    if (branches.length < 2 || !branches.some((e) => e.guard !== null && e.guard !== 'else')) continue;
    const reach = branches.map((e) => reachable(flow, e.to, r.node.id));
    branches.forEach((_, i) => {
      const first = reach[i]!.order.find((id) => isDescription(flow.nodes.get(id)!));
      if (first !== undefined && !out.has(first) && reach.every((other, j) => j === i || !other.seen.has(first))) out.set(first, r);
    });
  }
  map = out;
  owners.set(flow, map);
  return map;
}

/** The nodes reachable from `from` (guards ignored, into subgraphs, never through `stop`), in breadth-first order. */
function reachable(flow: CompiledFlow, from: string, stop: string): { order: string[]; seen: Set<string> } {
  const seen = new Set<string>([stop]);
  const order: string[] = [];
  const queue = [from];
  for (let head = 0; head < queue.length; head++) {
    const id = queue[head]!;
    const c = flow.nodes.get(id);
    if (seen.has(id) || !c) continue;
    seen.add(id);
    order.push(id);
    if (c.node.type === 'subgraph') queue.push(flow.subgraphs.get(c.node.ref)?.entry ?? '');
    for (const e of c.out) if (e.to !== EXIT) queue.push(e.to);
  }
  seen.delete(stop);
  return { order, seen };
}

/** The words that only choose: the chosen option of the routing question and the path voted (labels, synonyms, examples), folded. */
function choiceWords(flow: CompiledFlow, r: CompiledNode, chosen: unknown, path: string | null): Set<string> {
  const words = new Set<string>();
  const add = (v: unknown): void => {
    if (typeof v === 'string') for (const w of wordsOf(v)) words.add(w);
    else if (Array.isArray(v)) v.forEach(add);
  };
  if (r.node.type === 'question' && r.node.answer?.type === 'enum') {
    for (const o of r.node.answer.options) {
      if (typeof o === 'string' ? o === chosen : o.value === chosen) add(typeof o === 'string' ? o : [o.value, o.label, o.synonyms]);
    }
  }
  const p = path === null ? undefined : flow.source.paths?.options[path];
  if (p) add([path, p.label, p.examples]);
  return words;
}

/**
 * Whether a message describes the matter rather than only choosing or asking: no question (a question mark, or the
 * pack's question form: "can you …", "what is …"), nothing unsure ("not sure", "weiß nicht mehr"), and at least
 * MIN_CONTENT_WORDS words (a figure counts) besides the words that say nothing — filler, greetings, a vague complaint
 * ("broken", "something wrong"), asking for help or a call ("question", "help", "call") — and the words of the option
 * chosen. "support", "help with existing lights", "hi, my lights are broken", "I have a question that doesn't fit your
 * options" do not; "the floodlights over our back pitch keep cutting out" does.
 */
export function describesMatter(text: string, pack: LanguagePack, choice: ReadonlySet<string>): boolean {
  if (text.includes('?')) return false;
  const words = wordsOf(text);
  const { free, unsure, aux, wh, subjects } = wordsSaying(pack);
  const joined = ` ${words.join(' ')} `;
  if (unsure.some((p) => joined.includes(` ${p} `))) return false;
  const lead = words.findIndex((w) => !free.has(w) || aux.has(w) || wh.has(w));
  if (lead >= 0 && (wh.has(words[lead]!) || (aux.has(words[lead]!) && subjects.has(words[lead + 1] ?? '')))) return false;
  let content = 0;
  for (const w of words) {
    if ((w.length < 2 && !/\d/.test(w)) || free.has(w) || choice.has(w)) continue;
    if (++content >= MIN_CONTENT_WORDS) return true;
  }
  return false;
}

interface SayingWords {
  /** Words that describe nothing on their own. */
  free: ReadonlySet<string>;
  /** Unsure phrases, folded. */
  unsure: readonly string[];
  /** The question form's one-word auxiliaries, question words and subjects. */
  aux: ReadonlySet<string>;
  wh: ReadonlySet<string>;
  subjects: ReadonlySet<string>;
}

const saying = new WeakMap<LanguagePack, SayingWords>();

/** A pack's words that say nothing, unsure phrases and question form, folded (built once per pack). */
function wordsSaying(pack: LanguagePack): SayingWords {
  let w = saying.get(pack);
  if (!w) {
    const t = pack.text;
    const free = [...pack.lexicon.filler, ...pack.lexicon.skipFiller, ...pack.lexicon.joinFiller, ...t.contentFree, ...(t.vagueProblem ?? []),
      ...(t.nonDescription ?? []), ...(t.placeholder ?? []), ...(t.discourse ?? [])];
    const one = (list: readonly string[] | undefined) => new Set((list ?? []).filter((p) => wordsOf(p).length === 1).map((p) => wordsOf(p)[0]!));
    w = {
      free: new Set(free.flatMap((p) => wordsOf(p))),
      unsure: [...t.unsure, ...(pack.leftovers?.unsure ?? [])].map((p) => wordsOf(p).join(' ')).filter((p) => p !== ''),
      aux: one(t.questionForm?.aux), wh: one(t.questionForm?.wh), subjects: one(t.questionForm?.subjects),
    };
    saying.set(pack, w);
  }
  return w;
}

/** A description offered at the question the session is at: the question, the message, and the routing answer it came with. */
export interface Opening {
  nodeId: string;
  key: string;
  /** The message as it would be taken (a greeting set apart at its start dropped). */
  text: string;
  /** The routing question's key whose answer the message gave. */
  from: string;
}

/**
 * The description the session may be offered at the question it is at: when that question is the description
 * question of a branch (descriptionOwners), unanswered, nothing being checked or refined, and the message that
 * answered the routing question (its record's text: not pii) describes the matter (describesMatter) and fits the
 * question's type and length. Null otherwise: the question stands as asked.
 */
export function openingAt(flow: CompiledFlow, session: Session): Opening | null {
  if (session.status !== 'active' || session.node === null || session.checking || session.assessing || session.pending) return null;
  const r = descriptionOwners(flow).get(session.node);
  const c = flow.nodes.get(session.node);
  if (!r || !c || c.node.type !== 'question' || r.node.type !== 'question' || session.answers.has(c.node.key)) return null;
  const d = draftOf(flow, session);
  if (isPii(d, c.node.key) || isPii(d, r.node.key)) return null;
  const chosen = session.answers.get(r.node.key);
  const text = chosen?.source === 'user' && chosen.validation === 'passed' ? chosen.text : undefined;
  const pack = packOf(flow.locale);
  if (text === undefined || !describesMatter(text, pack, choiceWords(flow, r, chosen!.value, session.path.tentative))) return null;
  const checked = checkValue(d, c, withoutGreeting(text, pack));
  if (!checked.ok || typeof checked.value !== 'string') return null;
  return { nodeId: c.node.id, key: c.node.key, text: checked.value, from: r.node.key };
}

/**
 * Asks about the description instead of the question's prompt ("You wrote: “…”. Shall I note that as the problem
 * description? Say yes, or add anything else.", the catalogue's `opening_check`, Yes/No chips): the session waits on
 * it as on a check (`checking` with `opening`). The turn's other effects are the caller's.
 */
export function askOpening(flow: CompiledFlow, session: Session, o: Opening): TurnResult {
  const d = draftOf(flow, session);
  const c = flow.nodes.get(o.nodeId)!;
  const chosen = session.answers.get(o.from);
  d.s.checking = { key: o.key, value: o.text, extractor: chosen?.extractor ?? 'rules', text: chosen?.text ?? o.text, opening: true };
  emit(d, 'confirmation', { key: o.key, outcome: 'asked', opening: true, from: o.from, value: o.text });
  const m = flow.messages;
  const label = (c.node.type === 'question' ? c.node.label : undefined) ?? o.key.replace(/[_.-]+/g, ' ');
  d.effects.push({
    type: 'ask', nodeId: o.nodeId, key: o.key, kind: 'question', quickReplies: [m.yes, m.no], progress: progressOf(d, o.nodeId),
    text: fillMessage(m.opening_check, { text: o.text, label: packOf(flow.locale).capitalNouns ? label : label.toLowerCase() }),
  });
  return { session: d.s, effects: d.effects, events: d.events };
}

/** The message without a greeting set apart at its start ("Hi, the LED lights …" → "The LED lights …"). */
export function withoutGreeting(text: string, pack: LanguagePack): string {
  const t = text.trim();
  const m = pack.names.reply.lead.exec(t.toLowerCase());
  if (!m || !/[,.!]/.test(m[0]) || m[0].length >= t.length) return t;
  const rest = t.slice(m[0].length);
  return /^\p{Lu}/u.test(t) ? rest.charAt(0).toUpperCase() + rest.slice(1) : rest;
}

const normal = (text: string) => fold(text).replace(/[’]/g, "'").replace(/[.!?,;:]+/g, ' ').replace(/\s+/g, ' ').trim();

/**
 * What a reply to the offer does: `yes` (a yes word and at most a few more: "yes", "yep that's it") takes the
 * message, as does a whole reply declining more ("nothing else"); `no` (a bare no: "no", "no thanks") asks the question as written; anything else is `add`: the reply joins the message
 * ("it trips the breaker too, since Tuesday"; "no, the car park lights as well"), as an assessed answer's refinement does.
 */
export function openingReply(d: Draft, text: string): 'yes' | 'no' | 'add' {
  const lex = packOf(d.flow.locale).lexicon;
  const said = normal(text);
  const rest = (phrases: readonly string[]): number | null => {
    for (const p of [...phrases].map(normal).sort((a, b) => b.length - a.length)) {
      if (p !== '' && (said === p || said.startsWith(`${p} `))) return wordsOf(said.slice(p.length)).length;
    }
    return null;
  };
  if (rest(lex.no) === 0) return 'no';
  // "nothing else", "that's all": nothing to add
  if (lex.declines.some((p) => normal(p) === said)) return 'yes';
  const afterYes = rest(lex.yes);
  if (afterYes !== null && afterYes <= 3) return 'yes';
  return 'add';
}

/** The proposal of a reply to the offer, its value for the key being the message (`yes`) or the message and the reply (`add`). */
export function withOpening(proposal: Proposal, pending: NonNullable<Session['checking']>, said: 'yes' | 'add', text: string): Proposal {
  const value = said === 'yes' ? pending.value : combineDraft(pending.value, proposal.updates.find((u) => u.key === pending.key)?.value ?? text.trim());
  // a yes answers the offer only; words added may answer other questions too
  const others = said === 'yes' ? [] : proposal.updates.filter((u) => u.key !== pending.key);
  return { ...proposal, updates: [{ key: pending.key, value }, ...others], unknown: proposal.unknown.filter((k) => k !== pending.key) };
}

/**
 * Asks about a value read from the visitor's held first words at the question the session is at, the words quoted
 * before the usual check ("You wrote: “…”. Just to check: 6?"); null when the value does not fit the question.
 */
export function askHeld(flow: CompiledFlow, session: Session, key: string, value: unknown, text: string): TurnResult | null {
  const d = draftOf(flow, session);
  const c = d.idx.questionByKey.get(key);
  if (!c || c.node.type !== 'question') return null;
  const checked = checkValue(d, c, value);
  if (!checked.ok) return null;
  d.s.checking = { key, value: checked.value, extractor: 'rules', text };
  emit(d, 'confirmation', { key, outcome: 'asked', held: true, value: checked.value });
  const m = flow.messages;
  d.effects.push({
    type: 'ask', nodeId: c.node.id, key, kind: 'question', quickReplies: [m.yes, m.no], progress: progressOf(d, c.node.id),
    text: `${fillMessage(m.opening_quote, { text })} ${fillMessage(m.check_value, { value: formatAnswer(c.node.answer, checked.value, m, flow.locale) })}`,
  });
  return { session: d.s, effects: d.effects, events: d.events };
}
