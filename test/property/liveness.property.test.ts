import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resumeAt, start } from '../../server/engine/engine.ts';
import { matchCommand } from '../../server/engine/extraction.ts';
import { runTurn } from '../../server/conversation/turn-runner.ts';
import type { Session } from '../../server/engine/session.ts';
import type { CompiledFlow } from '../../server/flow/compiled-flow.ts';
import { compileText } from '../../server/flow/document.ts';
import { envNumber } from '../reliability/tally.ts';

// Liveness (issue 17): a visitor who answers nothing useful is never trapped.
// From every question and every path prompt of every shipped flow, replies that
// answer nothing reach a terminal, an escalation or a `waiting` state within a
// bounded number of turns (each node re-asks at most its attempts, then moves on).
// Turns run through the turn runner, so action calls complete (and fail: no handlers).

const RUNS = envNumber('RELIABILITY_RUNS', 20);
const FLOWS = ['newsletter.flow.json', 'sales.flow.json', 'patient-intake.flow.yaml', 'checklist.v0.json'];
const NOW = '2026-01-15T10:00:00Z';

/** Replies that answer no question, choose no path and are no command. */
const USELESS = ['hmm', 'hmm, neither really', 'I don\'t know', 'no idea', 'asdf', '?', 'what do you mean', 'maybe', 'not sure', 'whatever', '...', 'ok'];

function load(name: string): CompiledFlow {
  const file = `flows/global/${name}`;
  const r = compileText(readFileSync(file, 'utf8'), file);
  if (r.kind !== 'flow' || !r.flow) throw new Error(`${file} does not compile`);
  return r.flow;
}

/** The subgraph frames a node needs: the subgraph node that calls its scope (flows nest one level). */
function stackFor(flow: CompiledFlow, id: string): Session['stack'] {
  const scope = flow.nodes.get(id)!.scope;
  if (scope === null) return [];
  const caller = [...flow.nodes.values()].find((c) => c.node.type === 'subgraph' && c.node.ref === scope)!;
  return [...stackFor(flow, caller.node.id), { node: caller.node.id, ref: scope }];
}

/** Sessions at every question (resumed there) and at every decision's path prompt. */
function startingPoints(flow: CompiledFlow): Array<{ at: string; session: Session }> {
  const fresh = start(flow, { id: 'live', now: NOW }).session;
  const points: Array<{ at: string; session: Session }> = [];
  for (const c of flow.nodes.values()) {
    if (c.node.type === 'question') points.push({ at: c.node.id, session: resumeAt(flow, fresh, c.node.id, stackFor(flow, c.node.id), NOW).session });
    if (c.node.type === 'decision' && flow.source.paths && c.out.some((e) => e.guard && e.guard !== 'else' && e.guard.usesPath)) {
      points.push({ at: `${c.node.id} (path prompt)`, session: { ...fresh, node: c.node.id, stack: stackFor(flow, c.node.id), pending: { kind: 'path_prompt' } } });
    }
  }
  return points;
}

describe('a visitor who answers nothing useful is never trapped', () => {
  for (const name of FLOWS) {
    it(`${name}: every question and path prompt reaches an end, an escalation or waiting within a bound`, async () => {
      const flow = load(name);
      // every node may take its attempts (at most 3 unless the flow says more) and then move on once
      const maxAttempts = Math.max(3, flow.source.paths?.max_attempts ?? 0,
        ...[...flow.nodes.values()].map((c) => (c.node.type === 'question' ? c.node.max_attempts ?? 3 : 0)));
      const bound = flow.nodes.size * (maxAttempts + 1);
      const points = startingPoints(flow);
      expect(points.length).toBeGreaterThan(0);
      await fc.assert(fc.asyncProperty(
        fc.constantFrom(...points),
        fc.infiniteStream(fc.constantFrom(...USELESS)),
        async ({ at, session: first }, replies) => {
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
          expect(session.status).not.toBe('error');
        },
      ), { numRuns: RUNS });
    });
  }
});
