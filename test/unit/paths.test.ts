import { describe, expect, it } from 'vitest';
import { applyVote, NO_PATH } from '../../server/engine/paths.ts';
import type { PathState } from '../../server/engine/session.ts';
import { answer, begin, end, eventTypes, flowOf, q, valueOf } from '../support/engine-harness.ts';

const policyFlow = (policy: Record<string, unknown> = {}) => flowOf({
  paths: { policy, options: { buy: { examples: ['buy'] }, help: { examples: ['help'] }, other: {} } },
  nodes: [q('q.a', 'a'), end()],
});

/** Applies a sequence of votes (undefined = a turn without a vote). */
function votes(flow: ReturnType<typeof policyFlow>, seq: Array<string | [string, number] | undefined>): PathState {
  let s: PathState = NO_PATH;
  for (const v of seq) {
    const vote = v === undefined ? undefined : typeof v === 'string' ? { path: v } : { path: v[0], confidence: v[1] };
    s = applyVote(s, vote, flow).state;
  }
  return s;
}

describe('path votes with hysteresis', () => {
  it('early flip-flops do not lock', () => {
    const s = votes(policyFlow(), ['buy', 'help', ['buy', 0.5], ['help', 0.5]]);
    expect(s.locked).toBe(false);
  });

  it('consistent evidence over several turns locks', () => {
    const flow = policyFlow({ lock_threshold: 3 });
    expect(votes(flow, ['buy', 'buy']).locked).toBe(false);
    expect(votes(flow, ['buy', 'buy', 'buy'])).toMatchObject({ tentative: 'buy', locked: true });
  });

  it('after the lock single votes cannot move it', () => {
    const flow = policyFlow();
    const locked = votes(flow, ['buy', 'buy']);
    const r = applyVote(locked, { path: 'help', confidence: 1 }, flow);
    expect(r.state).toBe(locked);
    expect(r.events).toEqual([expect.objectContaining({ type: 'path_vote', ignored: 'path already locked' })]);
  });

  it('a different path takes over before the lock when it leads, but not when switching is disallowed', () => {
    expect(votes(policyFlow({ lock_threshold: 3 }), ['buy', 'help', 'help'])).toMatchObject({ tentative: 'help', locked: false });
    expect(votes(policyFlow({ lock_threshold: 3, allow_switch_before_lock: false }), ['buy', 'help', 'help'])).toMatchObject({ tentative: 'buy' });
  });

  it('decay makes an old lead fade', () => {
    const noDecay = votes(policyFlow({ lock_threshold: 5 }), ['buy', 'buy', undefined, undefined, 'help', 'help']);
    expect(noDecay.tentative).toBe('buy');
    const decay = votes(policyFlow({ lock_threshold: 5, decay: 0.5 }), ['buy', 'buy', undefined, undefined, 'help', 'help']);
    expect(decay.tentative).toBe('help');
    expect(decay.scores.buy).toBeLessThan(0.5);
  });

  it('votes below min_confidence are ignored, with the reason', () => {
    const flow = policyFlow({ min_confidence: 0.6 });
    const r = applyVote(NO_PATH, { path: 'buy', confidence: 0.4 }, flow);
    expect(r.state).toMatchObject({ tentative: null, scores: {} });
    expect(r.events[0]).toMatchObject({ ignored: 'confidence below 0.6' });
  });

  it('confidence weights votes; votes for undeclared paths are ignored', () => {
    const flow = policyFlow();
    expect(votes(flow, [['buy', 0.9], ['buy', 0.9]]).locked).toBe(false);
    expect(votes(flow, [['buy', 0.9], ['buy', 0.9], ['buy', 0.9]]).locked).toBe(true);
    expect(applyVote(NO_PATH, { path: 'nope' }, flow).events[0]).toMatchObject({ ignored: 'not a declared path' });
  });

  it('every vote, switch and lock is an event with scores and threshold', () => {
    const flow = policyFlow();
    const first = applyVote(NO_PATH, { path: 'buy' }, flow);
    expect(first.events.map((e) => e.type)).toEqual(['path_vote', 'path_switch']);
    const second = applyVote(first.state, { path: 'buy' }, flow);
    expect(second.events.at(-1)).toMatchObject({ type: 'path_lock', path: 'buy', scores: { buy: 2 }, threshold: 2 });
  });
});

describe('routing on a tentative path and carry-over', () => {
  const flow = flowOf({
    paths: { policy: { lock_threshold: 3 }, prompt: 'Buy or help?', options: { buy: { examples: ['buy'] }, help: { examples: ['help'] } } },
    nodes: [
      q('q.name', 'name'), { id: 'd', type: 'decision' },
      q('q.size', 'size', { answer: { type: 'integer' }, carry: 'drop' }),
      q('q.budget', 'budget', { answer: { type: 'integer' }, carry: 'reask' }),
      q('q.venue', 'venue'),
      q('q.order', 'order'), end('n.buy'),
    ],
    edges: [
      { from: 'q.name', to: 'd' }, { from: 'd', to: 'q.size', guard: "path == 'buy'" }, { from: 'd', to: 'q.order', guard: "path == 'help'" },
      { from: 'q.size', to: 'q.budget' }, { from: 'q.budget', to: 'q.venue' }, { from: 'q.venue', to: 'n.buy' }, { from: 'q.order', to: 'q.budget' },
    ],
  });

  it('follows the tentative path; a switch before the lock moves to the new route and applies keep, reask and drop', () => {
    let r = answer(flow, begin(flow).session, { name: 'Ann' }, { pathVote: { path: 'buy' } });
    expect(r.session.node).toBe('q.size');
    r = answer(flow, r.session, { size: 400 });
    r = answer(flow, r.session, { budget: 9000 });
    expect(r.session.node).toBe('q.venue');
    r = answer(flow, r.session, { venue: 'gym' }, { pathVote: { path: 'help' } }); // help: 1 vs buy: 1 — no takeover yet
    expect(r.session.status).toBe('completed');

    let s = answer(flow, begin(flow).session, { name: 'Ann' }, { pathVote: { path: 'buy' } }).session;
    s = answer(flow, s, { size: 400 }).session;
    s = answer(flow, s, { budget: 9000 }).session;
    const switched = answer(flow, s, {}, { pathVote: { path: 'help', confidence: 1 } });
    expect(switched.session.path.tentative).toBe('buy'); // a tie keeps the current path
    const moved = answer(flow, switched.session, {}, { pathVote: { path: 'help', confidence: 1 } });
    expect(moved.session.path).toMatchObject({ tentative: 'help', locked: false });
    expect(moved.session.node).toBe('q.order');
    expect(moved.events).toContainEqual(expect.objectContaining({ type: 'path_switch', moved: { from: 'q.venue', to: 'd' }, carry: { dropped: ['size'], reask: ['budget'] } }));
    expect(moved.session.answers.has('size')).toBe(false); // drop
    expect(valueOf(moved.session, 'name')).toBe('Ann'); // answered before the route: kept
    const order = answer(flow, moved.session, { order: 'BF-1' });
    expect(order.session.node).toBe('q.budget'); // reask: asked again although answered
    expect(valueOf(order.session, 'budget')).toBe(9000);
    const budget = answer(flow, order.session, { budget: 5000 });
    expect(valueOf(budget.session, 'budget')).toBe(5000);
  });

  it('once locked, the route is final and later votes change nothing', () => {
    let s = answer(flow, begin(flow).session, { name: 'Ann' }, { pathVote: { path: 'buy' } }).session;
    s = answer(flow, s, { size: 400 }, { pathVote: { path: 'buy' } }).session;
    s = answer(flow, s, { budget: 1 }, { pathVote: { path: 'buy' } }).session;
    expect(s.path.locked).toBe(true);
    expect(s.route).toBeUndefined();
    const r = answer(flow, s, {}, { pathVote: { path: 'help' } });
    expect(r.session.node).toBe('q.venue');
    expect(eventTypes(r)).not.toContain('path_switch');
  });
});
