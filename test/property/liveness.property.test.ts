import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resumeAt, start } from '../../server/engine/engine.ts';
import { matchCommand } from '../../server/engine/extraction.ts';
import { runTurn } from '../../server/conversation/turn-runner.ts';
import type { Session } from '../../server/engine/session.ts';
import type { CompiledFlow } from '../../server/flow/compiled-flow.ts';
import { compileText } from '../../server/flow/document.ts';
import { hasErrors } from '../../server/flow/diagnostic.ts';
import { effectiveFlow, loadLibrary } from '../../server/catalog/library.ts';
import { envNumber } from '../reliability/tally.ts';

// Liveness (issue 17): a visitor who answers nothing useful is never trapped.
// From every question (and its cancel confirmation), every review and every path prompt of every shipped flow — the global
// flows, each industry pack over the flow it extends, each tenant's merged flow
// (its packs and overlays, with its settings as context) and the examples —
// replies that answer nothing reach a terminal, an escalation or a `waiting`
// state within a bounded number of turns (each node re-asks at most its
// attempts, then moves on). Turns run through the turn runner, so action calls
// complete (and fail: no handlers).

const RUNS = envNumber('RELIABILITY_RUNS', 20);
/** Random reply streams per starting point (every point of every flow is tried). */
const PER_POINT = Math.max(2, Math.ceil(RUNS / 10));
const NOW = '2026-01-15T10:00:00Z';

/** Replies that answer no question, choose no path and are no command. */
const USELESS = ['hmm', 'hmm, neither really', 'I don\'t know', 'no idea', 'asdf', '?', 'what do you mean', 'maybe', 'not sure', 'whatever', '...', 'ok'];

interface Shipped { name: string; flow: CompiledFlow; context?: Record<string, unknown> }

/** Every flow the repository ships, as the server would build it. */
function shippedFlows(): Shipped[] {
  const lib = loadLibrary('flows');
  const out: Shipped[] = [];
  const built = (name: string, r: { flow?: CompiledFlow; diagnostics: { severity: string; message: string }[] }, context?: Record<string, unknown>) => {
    if (!r.flow || hasErrors(r.diagnostics as never)) throw new Error(`${name} does not build: ${r.diagnostics.map((d) => d.message).join('; ')}`);
    out.push({ name, flow: r.flow, ...(context ? { context } : {}) });
  };
  for (const [id, f] of [...lib.flows].sort(([a], [b]) => a.localeCompare(b))) built(`global ${id} (${f.file})`, f);
  for (const [pack, files] of [...lib.packs].sort(([a], [b]) => a.localeCompare(b))) {
    for (const base of [...new Set(files.map((f) => f.extends).filter((x): x is string => x !== undefined))].sort()) {
      built(`pack ${pack} over ${base}`, effectiveFlow(lib, base, undefined, { packs: [pack] }));
    }
  }
  for (const [id, t] of [...lib.tenants].sort(([a], [b]) => a.localeCompare(b))) {
    for (const flowId of t.tenant?.flows ?? []) built(`tenant ${id}: ${flowId}`, effectiveFlow(lib, flowId, id), t.tenant?.settings);
  }
  for (const file of readdirSync('flows/examples').filter((n) => /\.(json|ya?ml)$/.test(n)).sort()) {
    const r = compileText(readFileSync(`flows/examples/${file}`, 'utf8'), `flows/examples/${file}`);
    if (r.kind === 'flow') built(`example ${file}`, r);
  }
  return out;
}

const SHIPPED = shippedFlows();

/** The subgraph frames a node needs: the subgraph node that calls its scope (flows nest one level). */
function stackFor(flow: CompiledFlow, id: string): Session['stack'] {
  const scope = flow.nodes.get(id)!.scope;
  if (scope === null) return [];
  const caller = [...flow.nodes.values()].find((c) => c.node.type === 'subgraph' && c.node.ref === scope)!;
  return [...stackFor(flow, caller.node.id), { node: caller.node.id, ref: scope }];
}

/** Sessions at every question (resumed there, and with cancel waiting for its confirmation), every review and every decision's path prompt. */
function startingPoints(flow: CompiledFlow, context?: Record<string, unknown>): Array<{ at: string; session: Session }> {
  const fresh = start(flow, { id: 'live', now: NOW, ...(context ? { context } : {}) }).session;
  const points: Array<{ at: string; session: Session }> = [];
  for (const c of flow.nodes.values()) {
    if (c.node.type === 'question') {
      const asked = resumeAt(flow, fresh, c.node.id, stackFor(flow, c.node.id), NOW).session;
      points.push({ at: c.node.id, session: asked }, { at: `${c.node.id} (cancel confirmation)`, session: { ...asked, confirming: 'cancel' } });
    }
    if (c.node.type === 'review') points.push({ at: `${c.node.id} (review)`, session: { ...fresh, node: c.node.id, stack: stackFor(flow, c.node.id) } });
    if (c.node.type === 'decision' && flow.source.paths && c.out.some((e) => e.guard && e.guard !== 'else' && e.guard.usesPath)) {
      points.push({ at: `${c.node.id} (path prompt)`, session: { ...fresh, node: c.node.id, stack: stackFor(flow, c.node.id), pending: { kind: 'path_prompt' } } });
    }
  }
  return points;
}

describe('a visitor who answers nothing useful is never trapped', () => {
  it('covers every shipped flow: global, packs, tenants and examples', () => {
    const names = SHIPPED.map((s) => s.name);
    for (const want of ['global flow.sales', 'global flow.patient_intake', 'pack lighting over flow.sales', 'tenant acme: flow.sales', 'tenant northside-clinic: flow.patient_intake']) {
      expect(names.some((n) => n.startsWith(want)), want).toBe(true);
    }
    expect(names.some((n) => n.includes('checklist.v0.json'))).toBe(true);
  });

  for (const { name, flow, context } of SHIPPED) {
    it(`${name}: every question, review, cancel confirmation and path prompt reaches an end, an escalation or waiting within a bound`, async () => {
      const maxAttempts = Math.max(3, flow.source.paths?.max_attempts ?? 0,
        ...[...flow.nodes.values()].map((c) => (c.node.type === 'question' || c.node.type === 'review' ? c.node.max_attempts ?? 3 : 0)));
      // a question out of attempts offers a way forward for as many again before a person takes over
      const bound = flow.nodes.size * (2 * maxAttempts + 1);
      const points = startingPoints(flow, context);
      expect(points.length).toBeGreaterThan(0); console.log('POINTS', name, points.filter((p) => p.at.endsWith('(review)')).length, bound);
      // every starting point, each with its own random streams of useless replies
      for (const { at, session: first } of points) {
        // at a review "ok" would confirm it: there the replies settle nothing, so only the review's own bound can end it
        const useless = at.endsWith('(review)') ? USELESS.filter((t) => t !== 'ok') : USELESS;
        await fc.assert(fc.asyncProperty(fc.infiniteStream(fc.constantFrom(...useless)), async (replies) => {
          let session = first;
          let turns = 0;
          for (const text of replies) {
            if (session.status !== 'active') break;
            if (turns >= bound) throw new Error(`still active at ${session.node} after ${bound} useless replies from ${at}`);
            expect(matchCommand(flow, text)).toBeNull();
            // the runner as the server runs it: offline rules, and action calls carried out (no handlers registered: they fail)
            session = (await runTurn(flow, session, { kind: 'text', text, now: NOW }, {})).session;
            turns++;
          }
          expect(['completed', 'escalated', 'abandoned', 'waiting', 'error']).toContain(session.status);
          expect(session.status, `from ${at}`).not.toBe('error');
        }), { numRuns: PER_POINT });
      }
    });
  }
});
