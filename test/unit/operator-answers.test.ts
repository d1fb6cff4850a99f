import { describe, expect, it } from 'vitest';
import { TenantDirectory } from '../../server/catalog/tenants.ts';
import { Decision, HandBack, OperatorDecision, parsePayload } from '../../server/protocol/index.ts';
import { memoryService, must } from '../support/service.ts';

describe('operator answers', () => {
  it('refuses a correction keyed __proto__ (it used to vanish in parsing, leaving a plain approve)', () => {
    for (const body of ['{"decision":"approve","answers":{"__proto__":{"age":1}}}', '{"decision":"approve","answers":{"constructor":1}}']) {
      const r = parsePayload(Decision, JSON.parse(body));
      expect(r.ok, body).toBe(false);
      if (!r.ok) {
        expect(r.error.code).toBe('invalid_payload');
        expect(r.detail).toMatch(/is not an answer key/);
      }
    }
    const socket = parsePayload(OperatorDecision, JSON.parse('{"sessionId":"abcdefghijklmnopqrstuv","decision":"approve","answers":{"__proto__":{"x":1}}}'));
    expect(socket.ok).toBe(false);
    expect(parsePayload(HandBack, JSON.parse('{"nodeId":"q.a","answers":{"__proto__":{"x":1}}}')).ok).toBe(false);
    // ordinary corrections still parse
    expect(parsePayload(Decision, { decision: 'approve', answers: { age: 41 } })).toMatchObject({ ok: true, value: { answers: { age: 41 } } });
  });

  it('never hands a completed session back to the bot (no second ending, no second webhook)', async () => {
    const { svc, store } = memoryService(TenantDirectory.load('flows'));
    const s = must(await svc.startSession({ tenant: 'acme', flow: 'flow.sales' }));
    must(await svc.message(s.sessionId, 'can I talk to a human please', '1'));
    must(await svc.operatorMessage(s.sessionId, 'Hi, this is Kim.', 'kim'));
    const rec = (await store.load(s.sessionId))!;
    // as if the intake had been completed (and delivered) meanwhile
    await store.commit({ ...rec, status: 'completed', session: { ...rec.session, status: 'completed' } }, rec.version, { transcript: [], events: [] });
    const r = await svc.handBack(s.sessionId, 'q.intent');
    expect(r).toMatchObject({ ok: false, error: { code: 'session_ended' } });
    expect((await store.load(s.sessionId))!.status).toBe('completed');
  });
});
