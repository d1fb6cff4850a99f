import type { CompiledFlow, CompiledNode } from '../flow/compiled-flow.ts';
import { EXIT } from '../flow/desugar.ts';
import type { ExtractionRequest, OpenQuestion } from '../extract/extractor.ts';
import { assessPolicy } from './assess.ts';
import { draftOf, holds } from './draft.ts';
import { flowIndex } from './flow-index.ts';
import type { Session } from './session.ts';
import type { Command } from './types.ts';

/** How many questions ahead an extractor is shown besides the current one. */
export const OPEN_AHEAD = 25;

/** The command a message is, if it is exactly one of the flow's command words. */
export function matchCommand(flow: CompiledFlow, text: string): Command | null {
  const words = text.trim().toLowerCase().replace(/[.!?]+$/, '').replace(/\s+/g, ' ');
  return flowIndex(flow).commands.get(words) ?? null;
}

function asOpen(c: CompiledNode): OpenQuestion | null {
  if (c.node.type !== 'question') return null;
  const prompt = typeof c.node.prompt === 'string' ? c.node.prompt : c.node.prompt?.[0];
  return {
    nodeId: c.node.id,
    key: c.node.key,
    answer: c.node.answer ?? { type: 'text' },
    required: c.node.required !== false,
    ...(c.node.label ? { label: c.node.label } : {}),
    ...(prompt ? { prompt } : {}),
  };
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
  const d = draftOf(flow, session);
  const here = session.node ? flow.nodes.get(session.node) : undefined;
  let current = session.pending?.kind === 'path_prompt' || !here ? null : asOpen(here);
  if (current && here?.node.type === 'question' && here.node.assess) {
    const { threshold, maxRefinements } = assessPolicy(here.node.assess);
    const refining = session.assessing?.key === current.key ? session.assessing : undefined;
    current = { ...current, assess: { criteria: here.node.assess.criteria, threshold, maxRefinements, refinement: refining?.refinements ?? 0,
      ...(refining && !here.node.pii && typeof refining.draft === 'string' ? { draft: refining.draft } : {}) } };
  }
  const open: OpenQuestion[] = [];
  const seen = new Set<string>(here ? [here.node.id] : []);
  const queue: string[] = here ? successors(flow, here, session) : [];
  while (queue.length > 0 && open.length < OPEN_AHEAD) {
    const id = queue.shift()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const c = flow.nodes.get(id);
    if (!c) continue;
    if (c.node.type === 'question' && !session.answers.has(c.node.key) && c.node.key !== current?.key && !(c.when && !holds(d, c.when))) {
      const q = asOpen(c);
      if (q && !open.some((o) => o.key === q.key)) open.push(q);
    }
    queue.push(...successors(flow, c, session));
  }
  const paths = flow.source.paths && !session.path.locked
    ? Object.entries(flow.source.paths.options).map(([name, o]) => ({ name, ...(o.label ? { label: o.label } : {}), examples: o.examples ?? [] }))
    : [];
  return {
    text,
    current,
    open,
    paths,
    now,
    defaultCountry: flow.source.default_country ?? 'US',
    ...(history ?? session.recent ? { history: history ?? session.recent! } : {}),
    ...(session.id ? { sessionId: session.id } : {}),
    ...(session.llm ? { usage: session.llm } : {}),
  };
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
