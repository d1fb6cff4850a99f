import type { CompiledFlow, CompiledNode } from '../flow/compiled-flow.ts';
import { EXIT } from '../flow/desugar.ts';
import type { CompiledGuard } from '../flow/guard/index.ts';
import { draftOf, holds as holdsNow, type Draft } from './draft.ts';
import { flowIndex, type FlowIndex } from './flow-index.ts';
import { noteGuard, rememberedRemaining, type RouteReads } from './route-memo.ts';
import type { Session } from './session.ts';
import type { Progress } from './types.ts';
import type { NodeRecord } from './node-record.ts';

// Progress the visitor sees (docs/engine.md, progress): answered questions /
// those plus the REQUIRED questions still ahead on the route the visitor is
// on. Optional questions ahead are not counted (they may never be asked);
// the question on screen is, even when optional, so "10/10" never shows over
// an open question. Questions whose `when` is false and other paths'
// questions are not in the total; the total is an estimate ahead (guards
// that depend on answers not given yet take their `else`), so the ratio is
// kept from going backwards except after `back`.

/**
 * At most this many nodes are walked ahead along the route; past that horizon
 * the estimate adds the flow's precomputed count of questions on the longest
 * route from where the walk stopped (flowIndex.remaining). So progress costs
 * O(horizon) per turn however long the flow, not O(flow) (bench:engine, N=2000).
 */
const HORIZON = 64;

/**
 * Answered questions and the estimated total of those that still apply:
 * the answers so far (feedback keys excluded) plus the unanswered
 * questions on the route ahead of `at`, walking the edges the current answers
 * and path take.
 */
export function progressAt(
  flow: CompiledFlow, answers: Session['answers'], at: string | null, session?: Session, idx: FlowIndex = flowIndex(flow), rec?: NodeRecord,
): Progress {
  let answered = answers.size;
  for (const k of idx.notQuestions) if (answers.has(k)) answered -= 1; // feedback and action outputs are not answered questions
  if (!at) return { answered, total: answered };
  if (!session) return { answered, total: answered + (idx.remaining.get(at) ?? 0) };
  const detour = session.detour && at === session.node ? session.detour : undefined;
  if (detour) {
    // a dependency asked out of order: it, then the route from the question waiting for it (rare: walked, not remembered)
    const d = draftOf(flow, { ...session, answers, stack: detour.stack });
    const asked = flow.nodes.get(at)?.node;
    const also = asked?.type === 'question' && !answers.has(asked.key) ? asked.key : undefined;
    return { answered, total: answered + remainingOnRoute(d, detour.node, detour.stack, undefined, also) };
  }
  return { answered, total: answered + rememberedRemaining(flow, idx, session, answers, at,
    (reads) => remainingOnRoute(draftOf(flow, { ...session, answers }), at, session.stack, reads), rec) };
}

/**
 * Unanswered, applicable required questions from `at` (included, counted even
 * when optional) along the route the answers and path take, plus `also` (a
 * dependency asked out of order). `reads`, when given, records what the
 * guards read (route-memo.ts), which remembers the count when it may.
 */
export function remainingOnRoute(d: Draft, at: string, stack: Session['stack'], reads?: RouteReads, also?: string): number {
  const path = d.s.path.tentative;
  const holds = (g: CompiledGuard, extra: { path: string | null }) => {
    if (reads) noteGuard(d.idx, reads, g, d.s.answers);
    return holdsNow(d, g, extra);
  };
  const frames = [...stack];
  const seen = new Set<string>();
  const counted = new Set<string>(also === undefined ? [] : [also]);
  let id: string | null = at;
  for (let steps = 0; id !== null; steps++) {
    if (steps === HORIZON) return counted.size + (flowIndex(d.flow).remaining.get(id) ?? 0);
    const frameKey = `${id}|${frames.length}`;
    if (seen.has(frameKey)) break; // a loop back: its questions are counted once
    seen.add(frameKey);
    const c: CompiledNode | undefined = d.flow.nodes.get(id);
    if (!c) break;
    const n = c.node;
    const applies = !c.when || holds(c.when, { path });
    if (n.type === 'terminal') break;
    if (applies && n.type === 'question' && !d.s.answers.has(n.key) && (n.required !== false || id === at)) counted.add(n.key);
    if (applies && n.type === 'subgraph') {
      frames.push({ node: id, ref: n.ref });
      id = d.flow.subgraphs.get(n.ref)?.entry ?? null;
      continue;
    }
    const edges = c.out.filter((e) => !e.on);
    const chosen = edges.find((e) => e.guard === null || (e.guard !== 'else' && holds(e.guard, { path })))
      ?? edges.find((e) => e.guard === 'else');
    if (!chosen) {
      // the end of a subgraph without edges returns to its caller
      const frame = c.scope !== null ? frames.pop() : undefined;
      id = frame ? nextOf(d, frame.node, path, holds) : null;
      continue;
    }
    if (chosen.to === EXIT) {
      const frame = frames.pop();
      id = frame ? nextOf(d, frame.node, path, holds) : null;
    } else id = chosen.to;
  }
  return counted.size;
}

function nextOf(d: Draft, id: string, path: string | null, holds: (g: CompiledGuard, extra: { path: string | null }) => boolean): string | null {
  const edges = d.flow.nodes.get(id)!.out.filter((e) => !e.on);
  const chosen = edges.find((e) => e.guard === null || (e.guard !== 'else' && holds(e.guard, { path }))) ?? edges.find((e) => e.guard === 'else');
  return chosen && chosen.to !== EXIT ? chosen.to : null;
}

/**
 * Progress that does not go backwards: when the visitor answered as many or
 * more than last time, the ratio shown is at least the last one (the total is
 * lowered to keep it, never below the answers plus one question still
 * ahead). After `back` (fewer answers) the fresh estimate stands.
 */
export function steadyProgress(now: Progress, last: Progress | undefined, stillAhead: boolean): Progress {
  if (!last || last.total === 0 || now.answered < last.answered || now.total === 0) return now;
  if (now.answered * last.total >= last.answered * now.total) return now;
  const total = Math.max(now.answered + (stillAhead ? 1 : 0), Math.floor((now.answered * last.total) / last.answered));
  return { answered: now.answered, total: Math.min(total, now.total) };
}
