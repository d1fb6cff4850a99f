import { describe, expect, it } from 'vitest';
import { runCall, type CallEnv } from '../../server/conversation/actions.ts';
import { LocalConversation } from '../../server/conversation/local-conversation.ts';
import { turn } from '../../server/engine/engine.ts';
import type { Effect } from '../../server/engine/types.ts';
import { compileFile } from '../../server/flow/document.ts';
import { answer, begin, end, eventTypes, flowOf, NOW, q, valueOf } from '../support/engine-harness.ts';

/** A clock that advances only when the runner sleeps, so retries are instant and their delays observable. */
function fakeEnv() {
  const slept: number[] = [];
  let t = 0;
  const env: CallEnv = { now: () => NOW, sleep: async (ms) => { slept.push(ms); t += ms; }, clock: () => t };
  return { env, slept };
}

const crmFlow = flowOf({
  nodes: [
    q('q.company', 'company'),
    { id: 'a.crm', type: 'action', call: 'crm.lookup', input_map: { name: 'answers.company', site: 'context.site' },
      output_map: { id: 'account_id', owner: 'owner' }, requires: ['company'], provides: ['account_id'], retry: { max: 2, backoff_ms: 100 }, timeout_ms: 50 },
    q('q.next', 'next'), end(), end('n.failed', { outcome: 'crm_down' }),
  ],
  edges: [{ from: 'q.company', to: 'a.crm' }, { from: 'a.crm', to: 'q.next' }, { from: 'a.crm', to: 'n.failed', on: 'failure' }, { from: 'q.next', to: 'n.end' }],
});

describe('action nodes', () => {
  it('returns a call effect with the mapped input and waits for the result', () => {
    const r = answer(crmFlow, begin(crmFlow, { context: { site: 'eu' } }).session, { company: 'Acme' });
    const call = r.effects.find((e) => e.type === 'call') as Extract<Effect, { type: 'call' }>;
    expect(call).toMatchObject({ name: 'crm.lookup', input: { name: 'Acme', site: 'eu' }, retry: { max: 2, backoffMs: 100 }, timeoutMs: 50 });
    expect(r.session).toMatchObject({ node: 'a.crm', pending: { kind: 'action', callId: call.callId } });
    const done = turn(crmFlow, r.session, { kind: 'action_result', callId: call.callId, ok: true, output: { id: 'A-1', owner: 'Kim', extra: 'ignored' }, durationMs: 12, now: NOW });
    expect(valueOf(done.session, 'account_id')).toBe('A-1');
    expect(done.session.answers.get('owner')).toMatchObject({ value: 'Kim', source: 'action' });
    expect(done.session.answers.has('extra')).toBe(false);
    expect(done.session.node).toBe('q.next');
    expect(done.events).toContainEqual(expect.objectContaining({ type: 'action_result', call: 'crm.lookup', durationMs: 12 }));
  });

  it('follows the failure edge when the action fails, and when a provided key is missing', () => {
    const r = answer(crmFlow, begin(crmFlow).session, { company: 'Acme' });
    const callId = (r.effects.find((e) => e.type === 'call') as Extract<Effect, { type: 'call' }>).callId;
    const failed = turn(crmFlow, r.session, { kind: 'action_result', callId, ok: false, error: 'HTTP 503', now: NOW });
    expect(failed.session).toMatchObject({ status: 'completed', outcome: 'crm_down' });
    expect(eventTypes(failed)).toContain('action_failed');
    const empty = turn(crmFlow, r.session, { kind: 'action_result', callId, ok: true, output: { owner: 'Kim' }, now: NOW });
    expect(empty.session.outcome).toBe('crm_down');
  });

  it('ignores a result for a call it is not waiting for', () => {
    const r = answer(crmFlow, begin(crmFlow).session, { company: 'Acme' });
    const stray = turn(crmFlow, r.session, { kind: 'action_result', callId: 'nope', ok: true, output: { id: 'X' }, now: NOW });
    expect(stray.session.answers.has('account_id')).toBe(false);
    expect(eventTypes(stray)).toEqual(['input_ignored']);
  });

  it('the runner retries with exponential backoff, times out slow handlers, and reports the last error', async () => {
    const { env, slept } = fakeEnv();
    let calls = 0;
    const call = { type: 'call' as const, nodeId: 'a', callId: 'a#1', name: 'flaky', input: {}, retry: { max: 2, backoffMs: 100 }, timeoutMs: 1000 };
    const ok = await runCall(call, { flaky: async () => { calls++; if (calls < 3) throw new Error('busy'); return { id: 7 }; } }, env);
    expect(ok).toMatchObject({ kind: 'action_result', ok: true, output: { id: 7 } });
    expect(slept).toEqual([100, 200]);
    const slow = await runCall({ ...call, retry: { max: 0, backoffMs: 0 }, timeoutMs: 20 }, { flaky: (_i, { signal }) => new Promise((res) => signal.addEventListener('abort', () => res({}))) }, env);
    expect(slow).toMatchObject({ ok: false, error: 'timed out after 20 ms' });
    const missing = await runCall({ ...call, name: 'nobody' }, {}, env);
    expect(missing).toMatchObject({ ok: false, error: "no handler registered for 'nobody'" });
  });

  it('caches a handler result per session so the same inputs are not called twice', async () => {
    const loop = flowOf({
      nodes: [q('q.company', 'company'), { id: 'a.crm', type: 'action', call: 'crm', input_map: { name: 'answers.company' }, output_map: { id: 'account_id' } },
        q('q.ok', 'ok', { answer: { type: 'boolean' } }), end()],
      edges: [{ from: 'q.company', to: 'a.crm' }, { from: 'a.crm', to: 'q.ok' }, { from: 'q.ok', to: 'n.end' }],
    });
    let calls = 0;
    const conv = new LocalConversation(loop, { actions: { crm: async (input) => { calls++; return { id: `id-${String(input.name)}` }; } }, env: fakeEnv().env });
    await conv.start();
    await conv.send('Acme');
    expect(valueOf(conv.session, 'account_id')).toBe('id-Acme');
    await conv.send('back'); // undoes the company answer (and the action output that followed it)
    expect(conv.session.answers.has('account_id')).toBe(false);
    await conv.send('Acme');
    expect(valueOf(conv.session, 'account_id')).toBe('id-Acme');
    expect(calls).toBe(1);
    expect(conv.trace).toContainEqual(expect.objectContaining({ type: 'action_result', cached: true }));
  });
});

describe('interrupts', () => {
  const flow = flowOf({
    nodes: [
      q('q.symptom', 'symptom'),
      q('q.dose', 'dose', { answer: { type: 'integer' }, interrupt: { when: 'before', role: 'nurse', prompt: 'Check the symptom', timeout_s: 900 } }),
      end(), end('n.referred', { outcome: 'referral' }),
    ],
    edges: [{ from: 'q.symptom', to: 'q.dose' }, { from: 'q.dose', to: 'n.end' }, { from: 'q.dose', to: 'n.referred', on: 'rejected' }],
  });

  it('pauses before the node with status waiting and a wait_for_operator effect', () => {
    const r = answer(flow, begin(flow).session, { symptom: 'cough' });
    expect(r.session).toMatchObject({ status: 'waiting', node: 'q.dose', pending: { kind: 'interrupt', when: 'before' } });
    expect(r.effects).toContainEqual({ type: 'wait_for_operator', nodeId: 'q.dose', when: 'before', role: 'nurse', prompt: 'Check the symptom', timeoutS: 900 });
    const msg = answer(flow, r.session, { dose: 3 });
    expect(msg.session.answers.has('dose')).toBe(false);
    expect(msg.session.status).toBe('waiting');
  });

  it('an approval continues into the node; an operator may edit answers on the way', () => {
    const r = answer(flow, begin(flow).session, { symptom: 'cough' });
    const ok = turn(flow, r.session, { kind: 'operator', decision: 'approve', answers: { symptom: 'dry cough' }, by: 'nurse-1', now: NOW });
    expect(ok.session).toMatchObject({ status: 'active', node: 'q.dose' });
    expect(ok.session.answers.get('symptom')).toMatchObject({ value: 'dry cough', source: 'operator' });
    expect(ok.effects).toContainEqual(expect.objectContaining({ type: 'ask', nodeId: 'q.dose' }));
  });

  it('a rejection follows the rejected edge, else escalates', () => {
    const r = answer(flow, begin(flow).session, { symptom: 'cough' });
    const no = turn(flow, r.session, { kind: 'operator', decision: 'reject', now: NOW });
    expect(no.session).toMatchObject({ status: 'completed', outcome: 'referral' });
    const plain = flowOf({ nodes: [q('q.a', 'a'), end('n.x', { interrupt: { when: 'before' } })] });
    const waiting = answer(plain, begin(plain).session, { a: 'x' }).session;
    expect(turn(plain, waiting, { kind: 'operator', decision: 'reject', now: NOW }).session.status).toBe('escalated');
  });

  it('an after interrupt pauses once the node is done and then follows its edges', () => {
    const after = flowOf({ nodes: [q('q.a', 'a', { interrupt: { when: 'after' } }), q('q.b', 'b'), end()] });
    const r = answer(after, begin(after).session, { a: 'x' });
    expect(r.session).toMatchObject({ status: 'waiting', node: 'q.a', pending: { when: 'after' } });
    const ok = turn(after, r.session, { kind: 'operator', decision: 'approve', now: NOW });
    expect(ok.session.node).toBe('q.b');
  });
});

describe('v0 checklists run through the migrator', () => {
  it('asks in priority order, honours dependencies and when, and routes on the chosen path', async () => {
    const r = compileFile('flows/global/checklist.v0.json');
    if (r.kind !== 'flow' || !r.flow) throw new Error('v0 flow does not compile');
    const conv = new LocalConversation(r.flow, { env: fakeEnv().env });
    const first = await conv.start();
    expect(first.messages.at(-1)?.nodeId).toBe('q.name');
    await conv.send('Ann Lee');
    const email = await conv.send('ann@example.com');
    expect(email.session.node).toBe('q.product'); // no path voted: the global questions go on
    const warranty = await conv.send('warranty claim, it stopped working after a month');
    expect(warranty.session.path).toMatchObject({ tentative: 'warranty', locked: false });
    expect(warranty.session.node).toMatch(/^q\.warranty\./);
  });
});
