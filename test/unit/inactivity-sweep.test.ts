import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TenantDirectory } from '../../server/catalog/tenants.ts';
import { sampleActions } from '../../examples/sample-actions.ts';
import { ConversationService, wantsPartialLeads } from '../../server/conversation/service.ts';
import type { Completion } from '../../server/delivery/completion.ts';
import { deliveryHook } from '../../server/delivery/hook.ts';
import { MemoryOutbox } from '../../server/delivery/outbox.ts';
import { MemoryStore } from '../../server/store/memory.ts';
import { must } from '../support/service.ts';

// A copy of the shipped flows where Acme ends sessions idle for 60 s and wants partial leads.
const dir = mkdtempSync(join(tmpdir(), 'ql-idle-'));
cpSync('flows', dir, { recursive: true });
const tenantFile = join(dir, 'tenants', 'acme', 'tenant.json');
const acme = JSON.parse(readFileSync(tenantFile, 'utf8'));
writeFileSync(tenantFile, JSON.stringify({ ...acme, webhook: { url: 'https://hooks.example/intake', secret: 'sekrit-sekrit' },
  settings: { ...acme.settings, inactivity_s: 60, partial_leads: true } }));
// and a tenant whose flow waits for an operator for at most 30 s
writeFileSync(join(dir, 'global', 'wait.flow.json'), JSON.stringify({
  version: 'v1', id: 'flow.wait',
  nodes: [
    { id: 'q.name', type: 'question', key: 'name', prompt: 'Your name?' },
    { id: 'n.check', type: 'decision', interrupt: { when: 'before', role: 'manager', timeout_s: 30 } },
    { id: 'n.done', type: 'terminal' },
    { id: 'n.not_reviewed', type: 'terminal', outcome: 'not_reviewed' },
  ],
  edges: [
    { from: 'q.name', to: 'n.check' }, { from: 'n.check', to: 'n.done' },
    { from: 'n.check', to: 'n.not_reviewed', on: 'rejected' },
  ],
}));
mkdirSync(join(dir, 'tenants', 'waity'));
writeFileSync(join(dir, 'tenants', 'waity', 'tenant.json'), JSON.stringify({ id: 'waity', name: 'Waity', keys: ['pk_waity_demo'], origins: [], flows: ['flow.wait'] }));
const tenants = TenantDirectory.load(dir);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function setup() {
  let t = Date.parse('2026-01-15T10:00:00Z');
  const clock = { advance: (s: number) => { t += s * 1000; } };
  const store = new MemoryStore();
  const outbox = new MemoryOutbox();
  const completions: Completion[] = [];
  const enqueue = deliveryHook(outbox, {
    webhookFor: (id) => tenants.tenant(id)?.webhook, log: () => {},
    partialLeads: (id) => wantsPartialLeads(tenants.tenant(id)?.settings),
  });
  const svc = new ConversationService({
    store, tenants, actions: sampleActions,
    env: { now: () => new Date(t).toISOString(), sleep: async () => {}, clock: () => 0 },
    onComplete: async (c) => { completions.push(c); await enqueue(c); },
  });
  return { svc, store, outbox, completions, clock };
}

describe('inactivity sweep', () => {
  it('ends a session idle past the tenant\'s inactivity_s as abandoned / timed_out and delivers the partial lead', async () => {
    const { svc, store, outbox, completions, clock } = setup();
    const s = must(await svc.startSession({ tenant: 'acme', flow: 'flow.sales' }));
    must(await svc.message(s.sessionId, 'We want to buy new lights for a tennis court', 'c1'));
    clock.advance(59);
    expect(await svc.sweep()).toEqual([]); // not idle long enough yet
    clock.advance(2);
    expect(await svc.sweep()).toEqual([s.sessionId]);
    const view = must(await svc.view(s.sessionId));
    expect(view.state.status).toBe('abandoned');
    expect(view.record.session.outcome).toBe('timed_out');
    expect(view.transcript.at(-1)).toMatchObject({ role: 'bot', kind: 'done', text: expect.stringMatching(/idle/) });
    expect(completions).toHaveLength(1);
    expect(completions[0]).toMatchObject({ status: 'abandoned', outcome: 'timed_out', answers: { intention: 'buy_led', sport: 'tennis' } });
    const [entry] = await outbox.list();
    expect(entry).toMatchObject({ sessionId: s.sessionId, status: 'abandoned' });
    expect((await store.events(s.sessionId)).at(-1)).toMatchObject({ type: 'abandoned', outcome: 'timed_out', reason: 'inactivity' });
    expect(await svc.sweep()).toEqual([]); // ended once
  });

  it('leaves a session alone whose visitor wrote again before the limit, and one an operator holds', async () => {
    const { svc, clock } = setup();
    const a = must(await svc.startSession({ tenant: 'acme', flow: 'flow.sales' }));
    const b = must(await svc.startSession({ tenant: 'acme', flow: 'flow.sales' }));
    must(await svc.operatorMessage(b.sessionId, 'Hi, Kim here', 'kim'));
    clock.advance(40);
    must(await svc.message(a.sessionId, 'buy lights for a tennis court', 'c1'));
    clock.advance(40);
    expect(await svc.sweep()).toEqual([]);
    expect(must(await svc.view(b.sessionId)).state.status).toBe('active');
  });

  it('does not deliver a timed-out session when the tenant does not want partial leads', async () => {
    const outbox = new MemoryOutbox();
    const enqueue = deliveryHook(outbox, { webhookFor: () => ({ url: 'https://hooks.example/x', secret: 'sekrit-sekrit' }), log: () => {} });
    const base = { sessionId: 's1', tenant: 'acme', flowId: 'flow.sales', revision: 'r', version: 2, answers: {}, provenance: {}, at: '2026-01-15T10:00:00Z' };
    await enqueue({ ...base, status: 'abandoned', outcome: 'timed_out' });
    expect(await outbox.list()).toHaveLength(0);
    await enqueue({ ...base, sessionId: 's2', status: 'abandoned', outcome: 'abandoned' }); // a visitor's cancel still goes out
    expect(await outbox.list()).toHaveLength(1);
  });

  it('rejects an interrupt still waiting past its timeout_s: the rejected edge is followed', async () => {
    const { svc, store, clock } = setup();
    expect(tenants.problems).toEqual([]);
    const s = must(await svc.startSession({ tenant: 'waity', flow: 'flow.wait' }));
    must(await svc.message(s.sessionId, 'Ann Lee', 'c1'));
    expect(must(await svc.view(s.sessionId)).state.status).toBe('waiting');
    clock.advance(29);
    expect(await svc.sweep()).toEqual([]);
    clock.advance(2);
    expect(await svc.sweep()).toEqual([s.sessionId]);
    const view = must(await svc.view(s.sessionId));
    expect(view.state).toMatchObject({ status: 'completed', nodeId: 'n.not_reviewed' });
    expect(view.record.session.outcome).toBe('not_reviewed');
    expect((await store.events(s.sessionId)).find((e) => e.type === 'operator')).toMatchObject({ decision: 'reject', by: 'timeout' });
  });
});

describe('interrupt timeout and role', () => {
  it('counts timeout_s from when the wait began: visitor messages meanwhile do not put it off', async () => {
    const { svc, clock } = setup();
    const s = must(await svc.startSession({ tenant: 'waity', flow: 'flow.wait' }));
    must(await svc.message(s.sessionId, 'Ann Lee', 'c1'));
    clock.advance(20);
    must(await svc.message(s.sessionId, 'hello? is anyone there', 'c2')); // activity while waiting
    clock.advance(11); // 31 s since the wait began, 11 s since the last message
    expect(await svc.sweep()).toEqual([s.sessionId]);
    expect(must(await svc.view(s.sessionId)).state).toMatchObject({ status: 'completed', nodeId: 'n.not_reviewed' });
  });

  it('refuses a decision claiming another role than the interrupt\'s, and takes one in its role or with no claim', async () => {
    const { svc } = setup();
    const s = must(await svc.startSession({ tenant: 'waity', flow: 'flow.wait' }));
    must(await svc.message(s.sessionId, 'Ann Lee', 'c1'));
    const wrong = await svc.decide(s.sessionId, 'approve', undefined, 'kim', 'nurse');
    expect(wrong).toMatchObject({ ok: false, error: { code: 'wrong_role', message: expect.stringContaining("'manager'") } });
    expect(must(await svc.view(s.sessionId)).state.status).toBe('waiting');
    expect(must(await svc.decide(s.sessionId, 'approve', undefined, 'kim', 'manager')).state).toMatchObject({ status: 'completed', nodeId: 'n.done' });
    const t = must(await svc.startSession({ tenant: 'waity', flow: 'flow.wait' }));
    must(await svc.message(t.sessionId, 'Bo Li', 'c1'));
    expect(must(await svc.decide(t.sessionId, 'reject')).state).toMatchObject({ status: 'completed', nodeId: 'n.not_reviewed' });
  });
});

describe('an escalation ends properly (issue 31)', () => {
  const HAZARD = ['I need help with our existing stadium lights', 'skip',
    'A pole light on the north side is sparking and the fixture is hanging loose from the bracket.', 'yes, it is sparking'];
  async function escalated(svc: ConversationService): Promise<string> {
    const s = must(await svc.startSession({ tenant: 'acme', flow: 'flow.sales' }));
    let i = 0;
    for (const text of HAZARD) must(await svc.message(s.sessionId, text, `h${i++}`));
    expect(must(await svc.view(s.sessionId)).state.status).toBe('escalated');
    return s.sessionId;
  }

  it('the sweep closes an escalated session nobody wrote in for inactivity_s: still escalated, closed, no more messages, delivered once', async () => {
    const { svc, store, completions, clock } = setup();
    const id = await escalated(svc);
    expect(completions.map((c) => c.status)).toEqual(['escalated']);
    clock.advance(30);
    must(await svc.message(id, 'call me on 415-555-0132', 'c1')); // the visitor's message puts it off
    clock.advance(59);
    expect(await svc.sweep()).toEqual([]);
    clock.advance(2);
    expect(await svc.sweep()).toEqual([id]);
    const view = must(await svc.view(id));
    expect(view.state).toMatchObject({ status: 'escalated', closed: true });
    expect(view.transcript.at(-1)).toMatchObject({ role: 'bot', kind: 'done', text: expect.stringMatching(/idle/) });
    expect((await store.events(id)).at(-1)).toMatchObject({ type: 'handover', closed: 'inactivity' });
    expect((await store.list('acme', { status: 'escalated' })).find((s) => s.id === id)).toMatchObject({ closed: true });
    expect(await svc.message(id, 'hello?', 'c2')).toMatchObject({ ok: false, error: { code: 'session_ended' } });
    clock.advance(600);
    expect(await svc.sweep()).toEqual([]); // closed once
    expect(completions.map((c) => c.status)).toEqual(['escalated']); // its intake.escalated went out when it escalated
    // "restart" still begins again
    expect(must(await svc.message(id, 'restart', 'c3')).state.status).toBe('active');
  });

  it('an operator closes an escalated session (it stays escalated, the visitor is told) and one they took over (abandoned, outcome closed)', async () => {
    const { svc, completions } = setup();
    const id = await escalated(svc);
    must(await svc.operatorMessage(id, 'Kim here, we are sending someone.', 'kim'));
    const closed = must(await svc.close(id));
    expect(closed.state).toMatchObject({ status: 'escalated', closed: true });
    expect(closed.messages).toMatchObject([{ role: 'bot', kind: 'done', text: 'Our team has closed this conversation. Thank you — you can start a new conversation whenever you need us.' }]);
    const view = must(await svc.view(id));
    expect(view.record.operator).toBeUndefined();
    expect(await svc.close(id)).toMatchObject({ ok: false, error: { code: 'session_ended' } });
    expect(await svc.operatorMessage(id, 'one more thing', 'kim')).toMatchObject({ ok: false, error: { code: 'session_ended' } });
    expect(await svc.message(id, 'thanks!', 'c1')).toMatchObject({ ok: false, error: { code: 'session_ended' } });
    // handing it back reopens it
    expect(must(await svc.handBack(id, 'q.name')).state).toMatchObject({ status: 'active', nodeId: 'q.name' });
    expect(must(await svc.view(id)).state.closed).toBeUndefined();

    const t = must(await svc.startSession({ tenant: 'acme', flow: 'flow.sales' }));
    must(await svc.operatorMessage(t.sessionId, 'Hi, Kim here', 'kim'));
    expect(must(await svc.close(t.sessionId)).state.status).toBe('abandoned');
    expect(completions.at(-1)).toMatchObject({ sessionId: t.sessionId, status: 'abandoned', outcome: 'closed' });
  });
});

describe('a visitor who comes back (issue 31: idle and return)', () => {
  async function wentIdle() {
    const ctx = setup();
    const s = must(await ctx.svc.startSession({ tenant: 'acme', flow: 'flow.sales' }));
    must(await ctx.svc.message(s.sessionId, 'We want to buy new lights for a tennis court', 'c1'));
    const before = must(await ctx.svc.view(s.sessionId)).state.nodeId;
    ctx.clock.advance(61);
    expect(await ctx.svc.sweep()).toEqual([s.sessionId]);
    return { ...ctx, id: s.sessionId, before };
  }

  it('the idle line says the visitor can write to carry on, and the state says the session can be picked up', async () => {
    const { svc, id } = await wentIdle();
    const view = must(await svc.view(id));
    expect(view.state).toMatchObject({ status: 'abandoned', resumable: true });
    expect(view.transcript.at(-1)!.text).toBe('This conversation was paused because it was idle for a while. Write here when you are back to pick up where you left off, or start a new conversation.');
  });

  it('within resume_s a message picks the same session up where it stood: answers kept, the reply read as usual', async () => {
    const { svc, id, before, clock } = await wentIdle();
    expect(before).toBe('q.court_size');
    clock.advance(3600);
    const back = must(await svc.message(id, 'about 600 square meters', 'c2'));
    expect(back.state).toMatchObject({ status: 'active' });
    expect(back.state.resumable).toBeUndefined();
    const view = must(await svc.view(id));
    expect(view.visitorAnswers).toMatchObject({ intention: 'buy_led', sport: 'tennis', court_size: 600 });
    expect(view.state.nodeId).not.toBe('q.court_size');
    expect(back.events.find((e) => e.type === 'resumed')).toMatchObject({ by: 'visitor' });
  });

  it('within resume_s a reconnect (resume) welcomes the visitor back and asks the question again', async () => {
    const { svc, id, clock } = await wentIdle();
    clock.advance(600);
    const back = must(await svc.resume(id));
    expect(back.state).toMatchObject({ status: 'active', nodeId: 'q.court_size' });
    expect(back.messages.map((m) => m.text)).toEqual(["Welcome back — let's pick up where we left off.", expect.stringMatching(/court/i)]);
    // an open session has nothing to resume: no messages, no change
    expect(must(await svc.resume(id)).messages).toEqual([]);
  });

  it('after resume_s the session stays ended: a message is refused and "restart" (or a new session) begins again', async () => {
    const { svc, id, clock } = await wentIdle();
    clock.advance(86_401);
    expect(must(await svc.view(id)).state.resumable).toBeUndefined();
    expect(await svc.message(id, 'about 600 square meters', 'c2')).toMatchObject({ ok: false, error: { code: 'session_ended' } });
    expect(await svc.resume(id)).toMatchObject({ ok: false, error: { code: 'session_ended' } });
    expect(must(await svc.message(id, 'restart', 'c3')).state).toMatchObject({ status: 'active' });
  });
});
