import { describe, expect, it } from 'vitest';
import { SessionPositions } from '../../server/observability/metrics.ts';
import type { SessionState } from '../../server/protocol/session.ts';

const at = (nodeId: string | null, status: SessionState['status'] = 'active') =>
  ({ status, nodeId, path: { active: null, locked: false }, progress: { answered: 0, total: 1 } }) as SessionState;

/** The gauge's rows as "node idle=n" strings, sorted. */
const rows = (p: SessionPositions) => [...p.counts().values()].map((r) => `${r.labels.node} ${r.labels.idle}=${r.n}`).sort();

describe('open sessions by node', () => {
  it('counts each session once, where its last turn left it; an ended session is forgotten', () => {
    let now = 0;
    const p = new SessionPositions(1_000, 10, () => now);
    p.update('s1', 'acme', 'flow.sales', at('q.a'));
    p.update('s2', 'acme', 'flow.sales', at('q.a'));
    now = 500;
    p.update('s1', 'acme', 'flow.sales', at('q.b'));
    expect(rows(p)).toEqual(['q.a false=1', 'q.b false=1']);
    now = 1_200; // s2 last seen at 0, s1 at 500
    expect(rows(p)).toEqual(['q.a true=1', 'q.b false=1']);
    p.update('s1', 'acme', 'flow.sales', at('q.c', 'completed'));
    expect(rows(p)).toEqual(['q.a true=1']);
  });

  it('past its bound forgets the session seen least recently (a turn makes a session recent again)', () => {
    const p = new SessionPositions(1_000, 2, () => 0);
    p.update('s1', 'acme', 'flow.sales', at('q.one'));
    p.update('s2', 'acme', 'flow.sales', at('q.two'));
    p.update('s1', 'acme', 'flow.sales', at('q.one'));
    p.update('s3', 'acme', 'flow.sales', at('q.three'));
    expect(rows(p)).toEqual(['q.one false=1', 'q.three false=1']);
  });
});
