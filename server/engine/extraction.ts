import type { CompiledFlow, CompiledNode } from '../flow/compiled-flow.ts';
import { EXIT } from '../flow/desugar.ts';
import { LOCAL_VALUE, type EarlierAnswer, type ExtractionRequest, type OpenQuestion, type PathChoice } from './input.ts';
import { activeTriggers } from './triggers.ts';
import { assessPolicy } from './assess.ts';
import { draftOf, holds, type Draft } from './draft.ts';
import { flowIndex } from './flow-index.ts';
import type { Session } from './session.ts';
import type { Command } from './types.ts';
import { baseLanguage } from '../flow/messages/catalogue.ts';
import { packOf } from '../language/registry.ts';
import { regionalQuestion } from './regional-options.ts';
import { impliedAnswer } from './implied-answer.ts';

/** How many questions ahead an extractor is shown besides the current one. */
export const OPEN_AHEAD = 25;

/** The command a message is, if it is exactly one of the flow's command words. */
export function matchCommand(flow: CompiledFlow, text: string): Command | null {
  const words = text.trim().toLowerCase().replace(/[.!?]+$/, '').replace(/\s+/g, ' ');
  return flowIndex(flow).commands.get(words) ?? null;
}

function asOpen(c: CompiledNode): OpenQuestion | null {
  let q = openCache.get(c);
  if (q === undefined) {
    q = openOf(c);
    openCache.set(c, q);
  }
  return q;
}

// A question's OpenQuestion is a pure function of its compiled node (flows are immutable
// after compile), so each is built once and shared, frozen, by every request.
const openCache = new WeakMap<CompiledNode, OpenQuestion | null>();

function openOf(c: CompiledNode): OpenQuestion | null {
  if (c.node.type !== 'question') return null;
  const prompt = typeof c.node.prompt === 'string' ? c.node.prompt : c.node.prompt?.[0];
  const q: OpenQuestion = {
    nodeId: c.node.id,
    key: c.node.key,
    answer: impliedAnswer(c.node.answer ?? { type: 'text' }, c.node.key, prompt),
    required: c.node.required !== false,
    ...(c.node.label ? { label: c.node.label } : {}),
    ...(prompt ? { prompt } : {}),
  };
  return Object.freeze(q);
}

/**
 * What an extractor is told for one message: the current question (by node id
 * and key), up to OPEN_AHEAD unanswered questions ahead on the routes from
 * here whose `when` does not rule them out, and the paths while none is locked;
 * the current question's `assess` (with the answer so far when refining); the
 * session's recent lines (pii lines withheld) unless `history` is given; the
 * session id and its model usage so far (for per-session budgets).
 */
export function extractionRequest(
  flow: CompiledFlow,
  session: Session,
  text: string,
  now: string,
  history?: ExtractionRequest['history'],
): ExtractionRequest {
  const here = session.node ? flow.nodes.get(session.node) : undefined;
  let current = session.pending?.kind === 'path_prompt' || !here ? null : asOpen(here);
  if (current && here?.node.type === 'question' && here.node.assess) {
    const { threshold, maxRefinements } = assessPolicy(here.node.assess);
    const refining = session.assessing?.key === current.key ? session.assessing : undefined;
    current = { ...current, assess: { criteria: here.node.assess.criteria, threshold, maxRefinements, refinement: refining?.refinements ?? 0,
      ...(refining && !here.node.pii && typeof refining.draft === 'string' ? { draft: refining.draft } : {}) } };
  }
  const region = defaultCountry(flow, session);
  if (current) current = regionalQuestion(current, region);
  const open = here ? openAhead(flow, session, here, current).map((q) => regionalQuestion(q, region)) : [];
  const paths = flow.source.paths && !session.path.locked ? pathChoices(flow) : [];
  const triggers = activeTriggers(flow, session.node);
  const before = previousAnswer(flow, session, current?.key);
  const previous = before ? { ...before, ...regionalQuestion(before, region) } : undefined;
  const answered = answeredBefore(flow, session, current?.key, previous?.key).map((q) => ({ ...q, ...regionalQuestion(q, region) }));
  return {
    text,
    current,
    open,
    paths,
    ...(triggers ? { triggers } : {}),
    now,
    defaultCountry: region,
    ...(history ?? session.recent ? { history: history ?? localHistory(session.recent!) } : {}),
    ...(previous ? { previous } : {}),
    ...(answered.length > 0 ? { answered } : {}),
    ...(session.id ? { sessionId: session.id } : {}),
    ...(session.llm ? { usage: session.llm } : {}),
    // the language the visitor writes in, when not English (extractors read absent as 'en')
    ...(flow.locale !== 'en' ? { locale: baseLanguage(flow.locale) } : {}),
  };
}

/** The session's recent lines as a request carries them: a pii line's held words only under LOCAL_VALUE. */
function localHistory(recent: NonNullable<Session['recent']>): ExtractionRequest['history'] {
  if (!recent.some((h) => h.held !== undefined)) return recent;
  return recent.map((h) => (h.held === undefined ? h : { role: h.role, text: h.text, pii: true, [LOCAL_VALUE]: h.held }));
}

/**
 * What an extractor is asked at a review: no current question, and the
 * reviewed questions that are answered (not pii-free text: every one) as the
 * open ones, so a correction typed at the review ("the poles are 8 metres
 * not 6", "actually my email is …") is read against them. Free-text answers
 * are left out: any reply would "answer" them.
 */
export function reviewRequest(flow: CompiledFlow, session: Session, keys: readonly string[], text: string, now: string): ExtractionRequest {
  const idx = flowIndex(flow);
  const open: OpenQuestion[] = [];
  for (const key of keys) {
    const c = idx.questionByKey.get(key);
    const q = c ? asOpen(c) : null;
    if (!q || q.answer.type === 'text') continue;
    open.push(q);
  }
  return {
    text, current: null, open, paths: [], now, defaultCountry: defaultCountry(flow, session),
    ...(session.id ? { sessionId: session.id } : {}),
    ...(flow.locale !== 'en' ? { locale: baseLanguage(flow.locale) } : {}),
  };
}

/**
 * The question the visitor answered on the last turn (the first in flow order when a message answered several),
 * with its value (null when skipped): the next reply may correct it ("sorry, I meant 25k"). A pii question comes
 * without its value (`pii: true`), the value only under LOCAL_VALUE for the rules that run here (never a model's prompt).
 */
function previousAnswer(flow: CompiledFlow, session: Session, currentKey: string | undefined): EarlierAnswer | undefined {
  if (session.turn === 0) return undefined;
  const idx = flowIndex(flow);
  let best: { c: CompiledNode; value: unknown; rank: number } | undefined;
  for (const [key, rec] of session.answers.entries()) {
    if (rec.turn !== session.turn || rec.source !== 'user' || key === currentKey) continue;
    const c = idx.questionByKey.get(key);
    const rank = idx.keyRank.get(key) ?? Number.MAX_SAFE_INTEGER;
    if (!c || c.node.type !== 'question' || (best && best.rank <= rank)) continue;
    best = { c, value: rec.value, rank };
  }
  const q = best ? asOpen(best.c) : null;
  if (!q || !best) return undefined;
  return best.c.node.type === 'question' && best.c.node.pii ? { ...q, pii: true, [LOCAL_VALUE]: best.value } : { ...q, value: best.value };
}

/** How many earlier answers a request carries besides `previous` (the latest first). */
const ANSWERED_BACK = 12;

/**
 * The questions answered (or skipped) before, latest first, besides the current one and `previous`: a reply may
 * correct one of them by naming it ("oops, typo in the email"). A pii question's value is left out (`pii: true`), kept under LOCAL_VALUE.
 */
function answeredBefore(flow: CompiledFlow, session: Session, currentKey: string | undefined, previousKey: string | undefined): EarlierAnswer[] {
  if (session.turn === 0 || session.answers.size === 0) return [];
  const idx = flowIndex(flow);
  const found: { q: OpenQuestion; value: unknown; pii: boolean; turn: number; rank: number }[] = [];
  for (const [key, rec] of session.answers.entries()) {
    if (rec.source !== 'user' || key === currentKey || key === previousKey) continue;
    const c = idx.questionByKey.get(key);
    const q = c ? asOpen(c) : null;
    if (!c || !q || c.node.type !== 'question') continue;
    found.push({ q, value: rec.value, pii: c.node.pii === true, turn: rec.turn, rank: idx.keyRank.get(key) ?? 0 });
  }
  found.sort((a, b) => b.turn - a.turn || a.rank - b.rank);
  return found.slice(0, ANSWERED_BACK).map((f) => (f.pii ? { ...f.q, pii: true as const, [LOCAL_VALUE]: f.value } : { ...f.q, value: f.value }));
}

/**
 * Up to OPEN_AHEAD unanswered, applicable questions on the routes from `here`,
 * breadth first. The order nodes are visited in depends only on the flow, the
 * node and the subgraph stack, so it is computed once and cached; answers and
 * `when` only decide which of them are open.
 */
function openAhead(flow: CompiledFlow, session: Session, here: CompiledNode, current: OpenQuestion | null): OpenQuestion[] {
  const order = visitOrder(flow, here, session);
  // a walk that failed, or a cached order that was cut short and ran out before OPEN_AHEAD were found: walk it all
  if (order === null) return openAmong(flow, session, reached(flow, here, session), current);
  const open = openAmong(flow, session, order.questions, current);
  return order.truncated && open.length < OPEN_AHEAD ? openAmong(flow, session, reached(flow, here, session), current) : open;
}

/** Of `nodes` in order, the first OPEN_AHEAD unanswered questions whose `when` holds, one per key, besides the current one. */
function openAmong(flow: CompiledFlow, session: Session, nodes: Iterable<CompiledNode>, current: OpenQuestion | null): OpenQuestion[] {
  const open: OpenQuestion[] = [];
  let d: Draft | undefined;
  for (const c of nodes) {
    if (c.node.type === 'question' && !session.answers.has(c.node.key) && c.node.key !== current?.key
      && !(c.when && !holds((d ??= draftOf(flow, session)), c.when))) {
      const q = asOpen(c);
      if (q && !open.some((o) => o.key === q.key)) open.push(q);
    }
    if (open.length >= OPEN_AHEAD) break;
  }
  return open;
}

/**
 * The nodes a breadth-first walk from `here` reaches (guards ignored), in
 * order and lazily: a walk stopped early does not look further, and a walk
 * that fails (a stack naming a node the flow lacks) throws where it fails.
 */
function* reached(flow: CompiledFlow, here: CompiledNode, session: Session): Generator<CompiledNode> {
  const seen = new Set<string>([here.node.id]);
  const queue: string[] = successors(flow, here, session);
  for (let head = 0; head < queue.length; head++) {
    const id = queue[head]!;
    if (seen.has(id)) continue;
    seen.add(id);
    const c = flow.nodes.get(id);
    if (!c) continue;
    const next = successors(flow, c, session);
    yield c;
    for (const x of next) queue.push(x);
  }
}

interface VisitOrder {
  /** The question nodes among the first MAX_ORDER nodes the walk from a node reaches, in the order it reaches them. */
  questions: readonly CompiledNode[];
  /** Whether the walk went on past them (kept short, so a huge flow's cache stays small). */
  truncated: boolean;
}

/** How many visited ids a cached order keeps; past it, a request that needs more walks the graph. */
const MAX_ORDER = 512;
/** Orders cached per flow (subgraph stacks multiply them); the cache is dropped when full. */
const MAX_ORDERS = 4096;

interface FlowOrders {
  /** By node id, for an empty stack. */
  top: Map<string, VisitOrder | null>;
  /** By node id and stack. */
  nested: Map<string, VisitOrder | null>;
}

const orderCache = new WeakMap<CompiledFlow, FlowOrders>();

/** The cached visit order from `here` under the session's stack; null when the walk fails (the slow walk then does exactly what it did). */
function visitOrder(flow: CompiledFlow, here: CompiledNode, session: Session): VisitOrder | null {
  let orders = orderCache.get(flow);
  if (!orders) {
    orders = { top: new Map(), nested: new Map() };
    orderCache.set(flow, orders);
  }
  const stack = session.stack;
  const map = stack.length === 0 ? orders.top : orders.nested;
  const key = stack.length === 0 ? here.node.id : JSON.stringify([here.node.id, ...stack.map((f) => [f.node, f.ref])]);
  let order = map.get(key);
  if (order === undefined) {
    order = walk(flow, here, session);
    if (map.size >= MAX_ORDERS) map.clear();
    map.set(key, order);
  }
  return order;
}

function walk(flow: CompiledFlow, here: CompiledNode, session: Session): VisitOrder | null {
  try {
    const questions: CompiledNode[] = [];
    let visited = 0;
    for (const c of reached(flow, here, session)) {
      if (visited++ >= MAX_ORDER) return { questions, truncated: true };
      if (c.node.type === 'question') questions.push(c);
    }
    return { questions, truncated: false };
  } catch {
    return null;
  }
}

const pathCache = new WeakMap<CompiledFlow, readonly PathChoice[]>();

/** The flow's declared paths as an extractor sees them (built once per flow, shared and frozen). */
function pathChoices(flow: CompiledFlow): readonly PathChoice[] {
  let paths = pathCache.get(flow);
  if (!paths) {
    paths = Object.freeze(Object.entries(flow.source.paths?.options ?? {})
      .map(([name, o]): PathChoice => Object.freeze({ name, ...(o.label ? { label: o.label } : {}), examples: o.examples ?? [] })));
    pathCache.set(flow, paths);
  }
  return paths;
}

/** Next nodes ignoring guards: into subgraphs, and out of `__exit__` to the caller's targets. */
function successors(flow: CompiledFlow, c: CompiledNode, session: Session): string[] {
  if (c.node.type === 'subgraph') return [flow.subgraphs.get(c.node.ref)?.entry ?? ''];
  return c.out.flatMap((e) => {
    if (e.to !== EXIT) return [e.to];
    const caller = [...session.stack].reverse().find((f) => f.ref === c.scope);
    return caller ? flow.nodes.get(caller.node)!.out.map((x) => x.to) : [];
  });
}

/**
 * The tenant's country for phone numbers and date order: the session context's
 * `country` (tenant settings override what the page sent, see the
 * conversation service), when it is an ISO 3166 alpha-2 code; the flow's
 * `default_country` and then US come after it.
 */
/**
 * The country a phone number without a country code is read in, and the region whose option synonyms are read: the
 * region of the visitor's language tag at start (`session.region`, "en-GB" → GB) or of the session's locale ("de-AT" → AT),
 * else the tenant's (`context.country`), else the home country of the session's language when the flow speaks
 * another language than its default ("de" → DE), else the flow's `default_country`, else US.
 */
function defaultCountry(flow: CompiledFlow, session: Session): string {
  if (session.region) return session.region;
  const region = /^[a-z]{2,3}[-_]([a-z]{2})$/i.exec(session.locale ?? flow.locale)?.[1];
  if (region) return region.toUpperCase();
  const tenant = countryOf(session.context);
  if (tenant) return tenant;
  const home = flow.locale !== (flow.i18n?.defaultLocale ?? flow.locale) ? packOf(flow.locale).region : null;
  return home ?? flow.source.default_country ?? 'US';
}

/** The tenant's country (`context.country`), upper case, when it is a two-letter code. */
export function countryOf(context: Session['context'] | undefined): string | undefined {
  const c = context?.country;
  return typeof c === 'string' && /^[A-Za-z]{2}$/.test(c.trim()) ? c.trim().toUpperCase() : undefined;
}
