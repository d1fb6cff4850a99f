import { describe, expect, it } from 'vitest';
import { sampleActions } from '../../examples/sample-actions.ts';
import { ConversationService } from '../../server/conversation/service.ts';
import type { Completion } from '../../server/delivery/completion.ts';
import { TenantDirectory } from '../../server/catalog/tenants.ts';
import { MemoryStore } from '../../server/store/memory.ts';
import { MemoryOutbox } from '../../server/delivery/outbox.ts';
import { ACME_SALES_SCRIPT } from '../support/scripts.ts';
import { must } from '../support/service.ts';

const tenants = TenantDirectory.load('flows');

function service() {
  const store = new MemoryStore();
  const completions: Completion[] = [];
  const broadcasts: Array<{ id: string; seqs: number[] }> = [];
  let t = Date.parse('2026-01-15T10:00:00Z');
  const svc = new ConversationService({
    store, tenants, actions: sampleActions,
    env: { now: () => new Date((t += 1000)).toISOString(), sleep: async () => {}, clock: () => 0 },
    onComplete: (c) => { completions.push(c); },
    broadcast: (id, entries) => broadcasts.push({ id, seqs: entries.map((e) => e.seq) }),
  });
  return { svc, store, completions, broadcasts };
}

describe('conversation service', () => {
  it('the demo tenant serves its flows', () => {
    expect(tenants.problems).toEqual([]);
    expect(tenants.byKey('pk_acme_demo')?.id).toBe('acme');
    expect(tenants.flows('acme')).toContain('flow.sales');
  });

  it('starts a session with an unguessable token and numbered messages, and authenticates only that token', async () => {
    const { svc } = service();
    const s = must(await svc.startSession({ tenant: 'acme', flow: 'flow.sales' }));
    expect(s.token.length).toBeGreaterThanOrEqual(43); // 32 random bytes
    expect(s.messages.map((m) => m.seq)).toEqual(s.messages.map((_, i) => i + 1));
    expect(s.state).toMatchObject({ status: 'active', nodeId: 'q.intent' });
    expect(must(await svc.authenticate(s.sessionId, s.token)).tenant).toBe('acme');
    expect((await svc.authenticate(s.sessionId, `${s.token}x`)).ok).toBe(false);
    expect((await svc.authenticate('nope-nope-nope', s.token)).ok).toBe(false);
    expect((await svc.startSession({ tenant: 'acme', flow: 'flow.patient_intake' }))).toMatchObject({ ok: false, error: { code: 'unknown_flow' } });
  });

  it('processes a client message id once: a retry gets the same reply from the store', async () => {
    const { svc, store } = service();
    const s = must(await svc.startSession({ tenant: 'acme', flow: 'flow.sales' }));
    const first = must(await svc.message(s.sessionId, 'We want to buy new lights for a tennis court', 'c-1'));
    const again = must(await svc.message(s.sessionId, 'We want to buy new lights for a tennis court', 'c-1'));
    expect(again.duplicate).toBe(true);
    expect(again.messages).toEqual(first.messages);
    const transcript = await store.transcript(s.sessionId);
    expect(transcript.filter((e) => e.role === 'user')).toHaveLength(1);
    expect(transcript.map((e) => e.seq)).toEqual(transcript.map((_, i) => i + 1));
  });

  it('serializes concurrent turns of one session: each turn gets a contiguous block of sequence numbers', async () => {
    const { svc, store } = service();
    const s = must(await svc.startSession({ tenant: 'acme', flow: 'flow.sales' }));
    await svc.message(s.sessionId, 'buy lights for a basketball court', 'a');
    const [x, y] = await Promise.all([svc.message(s.sessionId, '420', 'b'), svc.message(s.sessionId, '4', 'c')]);
    const blocks = [must(x).messages.map((m) => m.seq), must(y).messages.map((m) => m.seq)];
    for (const b of blocks) expect(b).toEqual(b.map((_, i) => b[0]! + i));
    const all = (await store.transcript(s.sessionId)).map((e) => e.seq);
    expect(all).toEqual(all.map((_, i) => i + 1));
    const answers = (await store.load(s.sessionId))!.session.answers;
    expect(answers.court_size?.value).toBe(420);
    const users = (await store.transcript(s.sessionId)).filter((e) => e.role === 'user').map((e) => e.text);
    expect(users).toEqual(['buy lights for a basketball court', '420', '4']);
  });

  it('back and restart work as controls; a finished intake is handed to the outbox once', async () => {
    const { svc, completions } = service();
    const s = must(await svc.startSession({ tenant: 'acme', flow: 'flow.sales' }));
    await svc.message(s.sessionId, 'we need help with broken lights', '1');
    const back = must(await svc.command(s.sessionId, 'back'));
    expect(back.state.nodeId).toBe('q.intent');
    const human = must(await svc.message(s.sessionId, 'can I talk to a human please', '2'));
    expect(human.state.status).toBe('escalated');
    expect(completions).toEqual([expect.objectContaining({ sessionId: s.sessionId, tenant: 'acme', status: 'escalated' })]);
    await svc.message(s.sessionId, 'hello?', '3'); // after the end: a polite reply, no second completion
    expect(completions).toHaveLength(1);
    const restarted = must(await svc.command(s.sessionId, 'restart'));
    expect(restarted.state).toMatchObject({ status: 'active', nodeId: 'q.intent' });
  });

  it('an operator takes over an escalated conversation and hands it back to the bot at a question', async () => {
    const { svc, store } = service();
    const s = must(await svc.startSession({ tenant: 'acme', flow: 'flow.sales' }));
    await svc.message(s.sessionId, 'can I talk to a human please', '1');
    must(await svc.operatorMessage(s.sessionId, 'Hi, this is Kim from Acme. How can I help?', 'kim'));
    const quiet = must(await svc.message(s.sessionId, 'I need lights for a tennis court', '2'));
    expect(quiet.messages.map((m) => m.role)).toEqual(['user']); // the bot stays quiet while a person holds it
    const back = must(await svc.handBack(s.sessionId, 'q.intent'));
    expect(back.state).toMatchObject({ status: 'active', nodeId: 'q.intent' });
    expect(back.messages.at(-1)).toMatchObject({ role: 'bot', nodeId: 'q.intent', kind: 'question' });
    expect((await store.load(s.sessionId))!.operator).toBeUndefined();
    expect((await svc.handBack(s.sessionId, 'q.nowhere')).ok).toBe(false);
  });

  it("starts sessions with the tenant's settings as context, which a page cannot override", async () => {
    const { svc, store } = service();
    const s = must(await svc.startSession({ tenant: 'northside-clinic', flow: 'flow.patient_intake', context: { clinic_id: 'forged', page: 'intake' } }));
    expect((await store.load(s.sessionId))!.session.context).toEqual({
      clinic_id: 'northside', page: 'intake', inactivity_s: 1800, resume_s: 86400, partial_leads: true, reply_time: 'within the hour during opening hours',
    });
    expect(s.messages.map((m) => m.text).join(' ')).toContain('northside');
  });

  it('refuses an operator decision when nothing waits for one', async () => {
    const { svc } = service();
    const s = must(await svc.startSession({ tenant: 'acme', flow: 'flow.sales' }));
    expect(await svc.decide(s.sessionId, 'approve')).toMatchObject({ ok: false, error: { code: 'not_waiting' } });
  });

  it('a stale commit (another server committed first) is refused as a conflict, not overwritten', async () => {
    const { svc, store } = service();
    const s = must(await svc.startSession({ tenant: 'acme', flow: 'flow.sales' }));
    const rec = (await store.load(s.sessionId))!;
    expect((await store.commit({ ...rec, updatedAt: 'elsewhere' }, rec.version, { transcript: [], events: [] })).ok).toBe(true);
    expect((await store.commit({ ...rec, updatedAt: 'stale' }, rec.version, { transcript: [], events: [] })).ok).toBe(false);
    const after = must(await svc.message(s.sessionId, 'buy lights', 'x'));
    expect(after.duplicate).toBe(false);
  });

  it('takes the session from the store, not from its parsed-session cache, once another save replaced the one it made', async () => {
    const { svc, store } = service();
    const s = must(await svc.startSession({ tenant: 'acme', flow: 'flow.sales' }));
    const atIntent = (await store.load(s.sessionId))!;
    const moved = must(await svc.message(s.sessionId, 'Hi, I want LED lights for a basketball court', 'a'));
    expect(moved.state.nodeId).not.toBe('q.intent');
    // another server rolls the conversation back to the first question (a newer save, as it would)
    const now = (await store.load(s.sessionId))!;
    expect((await store.commit({ ...now, session: atIntent.session, updatedAt: '2026-01-15T11:00:00.000Z' }, now.version, { transcript: [], events: [] })).ok).toBe(true);
    const next = must(await svc.message(s.sessionId, 'we need help with broken lights', 'b'));
    expect(next.messages.find((m) => m.role === 'bot')).toBeDefined();
    expect((await store.load(s.sessionId))!.session.answers.intention?.value).not.toBe('buy_led');
  });

  it('erases a session with its pending webhook ending: nothing of it stays in the store or the outbox', async () => {
    const store = new MemoryStore();
    const outbox = new MemoryOutbox();
    let t = Date.parse('2026-01-15T10:00:00Z');
    const svc = new ConversationService({
      store, tenants, actions: sampleActions,
      env: { now: () => new Date((t += 1000)).toISOString(), sleep: async () => {}, clock: () => 0 },
      onComplete: async (c) => void (await outbox.enqueue(c, t)),
      onErase: async (id) => void (await outbox.forgetSession(id, t)),
    });
    const keep = must(await svc.startSession({ tenant: 'acme', flow: 'flow.sales' }));
    const gone = must(await svc.startSession({ tenant: 'acme', flow: 'flow.sales' }));
    for (const s of [keep, gone]) {
      for (const [i, text] of ACME_SALES_SCRIPT.entries()) must(await svc.message(s.sessionId, text, `c${i}`));
    }
    expect((await outbox.pending()).map((e) => e.sessionId).sort()).toEqual([keep.sessionId, gone.sessionId].sort());
    expect(await svc.erase(gone.sessionId)).toBe(true);
    expect(await store.load(gone.sessionId)).toBeNull();
    expect((await outbox.list()).map((e) => e.sessionId)).toEqual([keep.sessionId]);
    expect(await svc.erase(gone.sessionId)).toBe(false);
  });
});
