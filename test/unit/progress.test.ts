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

/** Plays texts through the runner; returns the progress of each turn's question. */
async function progressOf(flow: CompiledFlow, texts: string[]): Promise<Array<{ answered: number; total: number }>> {
  let r = await runTurn(flow, undefined, { kind: 'start', init: { id: 'p', now: NOW } }, {});
  const seen = [r.messages.findLast((m) => m.progress)?.progress!];
  let session: Session = r.session;
  for (const text of texts) {
    r = await runTurn(flow, session, { kind: 'text', text, now: NOW }, {});
    session = r.session;
    const p = r.messages.findLast((m) => m.progress)?.progress;
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
    // once the route is known the total holds still until the review (it jumped 14 → 15 → 14 → 13 when it counted the longest route)
    expect(new Set(seen.slice(1, -1).map((p) => p.total)).size).toBe(1);
    // at the email question, the email (and the optional phone the contact rule may still ask) are what is left
    const atEmail = seen.at(-2)!;
    expect(atEmail.total - atEmail.answered).toBeGreaterThanOrEqual(1);
    expect(atEmail.total - atEmail.answered).toBeLessThanOrEqual(2);
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
