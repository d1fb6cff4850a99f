import { describe, expect, it } from 'vitest';
import { TenantDirectory } from '../../server/catalog/tenants.ts';
import { listSessions } from '../../server/transport/http/admin-views.ts';
import { memoryService, must } from '../support/service.ts';

const tenants = TenantDirectory.load('flows');

/** A sales session an operator has taken over after the visitor asked for a person. */
async function held() {
  const { svc, store } = memoryService(tenants);
  const s = must(await svc.startSession({ tenant: 'acme', flow: 'flow.sales' }));
  must(await svc.message(s.sessionId, 'can I talk to a human please', '1'));
  must(await svc.operatorMessage(s.sessionId, 'Hi, this is Kim from Acme. How can I help?', 'kim'));
  return { svc, store, id: s.sessionId };
}

describe('hand-back', () => {
  it('tells the visitor the person has left and the bot is back, before the question', async () => {
    const { svc, id } = await held();
    const back = must(await svc.handBack(id, 'q.intent'));
    const bot = back.messages.filter((m) => m.role === 'bot');
    expect(bot[0]).toMatchObject({ kind: 'handoff', text: expect.stringMatching(/left the chat/) });
    expect(bot.at(-1)).toMatchObject({ kind: 'question', nodeId: 'q.intent' });
  });

  it('commits the answers the operator sets and does not ask them again', async () => {
    const { svc, store, id } = await held();
    const back = must(await svc.handBack(id, 'q.intent', { intention: 'support', order_number: 'BF-104233' }));
    // intention and order number settled by the operator: the bot moves on to the problem
    expect(back.state).toMatchObject({ status: 'active', nodeId: 'q.problem' });
    expect(back.messages.filter((m) => m.kind === 'question').map((m) => m.nodeId)).toEqual(['q.problem']);
    const answers = (await store.load(id))!.session.answers;
    expect(answers.intention).toMatchObject({ value: 'support', source: 'operator' });
    expect(answers.order_number).toMatchObject({ value: 'BF-104233', source: 'operator' });
  });

  it('refuses an invalid operator answer, naming the field, and keeps the session held', async () => {
    const { svc, store, id } = await held();
    const r = await svc.handBack(id, 'q.intent', { intention: 'teleport' });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_payload', message: expect.stringMatching(/^answers\.intention: Please choose one of/) } });
    const unknown = await svc.handBack(id, 'q.intent', { shoe_size: 9 });
    expect(unknown).toMatchObject({ ok: false, error: { message: expect.stringMatching(/answers\.shoe_size/) } });
    expect((await store.load(id))!.operator).toBeDefined();
  });

  it('flags a visitor message unanswered while an operator holds the session, until the operator replies', async () => {
    const { svc, store, id } = await held();
    expect((await store.load(id))!.operator?.unanswered).toBeUndefined();
    must(await svc.message(id, 'are you still there?', '2'));
    must(await svc.message(id, 'hello?', '3'));
    expect((await store.load(id))!.operator?.unanswered).toMatchObject({ count: 2, since: expect.any(String) });
    // the console's session list carries the flag
    const [row] = (await listSessions(store, tenants, { tenant: 'acme', limit: 10 })).sessions;
    expect(row).toMatchObject({ id, operator: true, unanswered: { count: 2 } });
    must(await svc.operatorMessage(id, 'Sorry, yes, I am here', 'kim'));
    expect((await store.load(id))!.operator).toMatchObject({ by: 'kim' });
    expect((await store.load(id))!.operator?.unanswered).toBeUndefined();
    expect((await listSessions(store, tenants, { tenant: 'acme', limit: 10 })).sessions[0]).toMatchObject({ id, unanswered: null });
  });
});
