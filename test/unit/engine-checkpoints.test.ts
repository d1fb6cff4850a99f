import { describe, expect, it } from 'vitest';
import { generateFlow, scriptFor } from '../../bench/engine/generate.ts';
import { compileBenchFlow, inputsFor } from '../../bench/engine/questline.ts';
import { start, turn } from '../../server/engine/engine.ts';
import { MAX_CHECKPOINTS, type Session } from '../../server/engine/session.ts';

// `back` keeps the last MAX_CHECKPOINTS answered turns (engine.ts `appended`):
// the list is checked against the turns that made it, past the cap.

describe('back checkpoints', () => {
  it('keep the last MAX_CHECKPOINTS answered turns, oldest first, and leave the caller\'s list alone', () => {
    const bench = generateFlow(200);
    const { flow } = compileBenchFlow(bench);
    const inputs = inputsFor(scriptFor(bench)).slice(0, MAX_CHECKPOINTS + 12);
    let s: Session = start(flow, { now: '2025-01-06T09:00:00Z' }).session;
    for (const [i, input] of inputs.entries()) {
      const before = s.checkpoints;
      const copy = [...before];
      s = turn(flow, s, input).session;
      expect(before).toEqual(copy);
      const n = i + 1;
      expect(s.checkpoints.map((c) => c.turn)).toEqual(Array.from({ length: Math.min(n, MAX_CHECKPOINTS) }, (_, k) => Math.max(0, n - MAX_CHECKPOINTS) + k + 1));
      expect(s.checkpoints[s.checkpoints.length - 1]!.changes.map((c) => c.key)).toEqual([input.proposal.updates[0]!.key]);
    }
  });
});
