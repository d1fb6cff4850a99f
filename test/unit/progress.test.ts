import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runTurn } from '../../server/conversation/turn-runner.ts';
import type { Session } from '../../server/engine/session.ts';
import { steadyProgress } from '../../server/engine/progress.ts';
import type { CompiledFlow } from '../../server/flow/compiled-flow.ts';
import { compileText } from '../../server/flow/document.ts';

const NOW = '2026-01-15T10:00:00Z';

function load(name: string): CompiledFlow {
  const file = `flows/global/${name}`;
  const r = compileText(readFileSync(file, 'utf8'), file);
  if (r.kind !== 'flow' || !r.flow) throw new Error(`${file} does not compile`);
  return r.flow;
}

/** Plays texts through the runner; returns the progress of each turn's question, with the node asking. */
async function progressOf(flow: CompiledFlow, texts: string[]): Promise<Array<{ answered: number; total: number; node: string }>> {
  const last = (r: Awaited<ReturnType<typeof runTurn>>) => {
    const m = r.messages.findLast((x) => x.progress);
    return m ? { ...m.progress!, node: m.nodeId ?? '' } : undefined;
  };
  let r = await runTurn(flow, undefined, { kind: 'start', init: { id: 'p', now: NOW } }, {});
  const seen = [last(r)!];
  let session: Session = r.session;
  for (const text of texts) {
    r = await runTurn(flow, session, { kind: 'text', text, now: NOW }, {});
    session = r.session;
    const p = last(r);
    if (p) seen.push(p);
  }
  return seen;
}

const SALES_HAPPY = ['Hi, I want LED lights for a basketball court', 'about 420 m2', '4', '12', 'not sure', '$25k', 'within 3 months', "I'm Ann Lee", 'Northside High School', 'ann@northside.edu'];

describe('progress is answered / applicable required questions on the route taken', () => {
  it('never goes backwards on the sales happy path, and the total counts only this route', async () => {
    const seen = await progressOf(load('sales.flow.json'), SALES_HAPPY);
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i]!.answered * seen[i - 1]!.total).toBeGreaterThanOrEqual(seen[i - 1]!.answered * seen[i]!.total);
    }
    // once the buyer path is known the total is the buy route's questions, not the longest route through the flow (14–15 before)
    expect(Math.max(...seen.map((p) => p.total))).toBeLessThan(14);
    // once the route is known the total only grows when an optional question comes on screen, by that one question:
    // optional questions ahead are not counted (wattage, company and email are optional here)
    const flow = load('sales.flow.json');
    const optional = (node: string) => { const n = flow.nodes.get(node)!.node; return n.type === 'question' && n.required === false; };
    for (let i = 2; i < seen.length - 1; i++) {
      if (seen[i]!.total !== seen[i - 1]!.total) {
        expect(optional(seen[i]!.node), `total changed at ${seen[i]!.node}`).toBe(true);
        expect(seen[i]!.total - seen[i - 1]!.total).toBe(1);
      }
    }
    expect(seen.slice(1, -1).some((p) => optional(p.node))).toBe(true);
    // an open question is never shown as the last step done ("10/10" while asking for the email)
    for (const p of seen.slice(0, -1)) expect(p.answered, `at ${p.node}`).toBeLessThan(p.total);
    // at the email question the email is what is left: the optional phone after it is not counted
    const atEmail = seen.at(-2)!;
    expect(atEmail.node).toBe('q.email');
    expect(atEmail.total - atEmail.answered).toBe(1);
    // at the review before submit nothing is left: the phone was not needed once the email was given
    const atReview = seen.at(-1)!;
    expect(atReview.answered).toBe(atReview.total);
  });

  it('goes back with `back`: fewer answers, fresh estimate', async () => {
    const seen = await progressOf(load('sales.flow.json'), [...SALES_HAPPY.slice(0, 4), 'back']);
    expect(seen.at(-1)!.answered).toBeLessThan(seen.at(-2)!.answered);
  });

  it('a steadied ratio never drops while answers grow, and keeps one question ahead', () => {
    expect(steadyProgress({ answered: 3, total: 15 }, { answered: 2, total: 6 }, true)).toEqual({ answered: 3, total: 9 });
    expect(steadyProgress({ answered: 3, total: 4 }, { answered: 2, total: 6 }, true)).toEqual({ answered: 3, total: 4 });
    expect(steadyProgress({ answered: 1, total: 9 }, { answered: 2, total: 6 }, true)).toEqual({ answered: 1, total: 9 });
  });
});
