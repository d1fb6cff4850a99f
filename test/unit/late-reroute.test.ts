import { describe, expect, it } from 'vitest';
import { LocalConversation } from '../../server/conversation/local-conversation.ts';
import { ScriptedClock } from '../../server/conversation/scripted-clock.ts';
import { OfflineExtractor } from '../../server/extract/offline/index.ts';
import { compileText } from '../../server/flow/document.ts';
import type { CompiledFlow } from '../../server/flow/compiled-flow.ts';

// A late correction that changes where its question leads ("no" to the safety question, then "hold on, the wiring on
// pole 6 is exposed. I'm Rosa"): the conversation goes on from that question along its edges — here to the safety advice.

const FLOW = (compileText(JSON.stringify({
  version: 'v1', id: 'reroute',
  nodes: [
    { id: 'q.problem', type: 'question', key: 'problem', prompt: 'Please describe the problem.', answer: { type: 'text', max: 4000 } },
    { id: 'q.safety_hazard', type: 'question', key: 'safety_hazard', label: 'Safety hazard', prompt: 'Is anything unsafe right now: exposed wiring, sparking, or a pole that could fall?', answer: { type: 'boolean' } },
    { id: 'n.escalate', type: 'terminal', outcome: 'escalated', say: 'Please keep everyone away from that area. A technician will call you right away.' },
    { id: 'q.name', type: 'question', key: 'name', prompt: 'Who am I chatting with?', answer: { type: 'text', kind: 'name', max: 100 } },
    { id: 'q.email', type: 'question', key: 'email', prompt: 'Your email?', answer: { type: 'email' } },
    { id: 'n.done', type: 'terminal', outcome: 'completed' },
  ],
  edges: [
    { id: 'e0', from: 'q.problem', to: 'q.safety_hazard' },
    { id: 'e1', from: 'q.safety_hazard', to: 'n.escalate', guard: 'answers.safety_hazard == true' },
    { id: 'e2', from: 'q.safety_hazard', to: 'q.name', guard: 'else' },
    { id: 'e4', from: 'q.name', to: 'q.email' }, { id: 'e5', from: 'q.email', to: 'n.done' },
  ],
}), 'reroute.flow.json') as { flow: CompiledFlow }).flow;

async function atName() {
  const clock = new ScriptedClock('2026-01-15T10:00:00Z');
  const conv = new LocalConversation(FLOW, { extractor: new OfflineExtractor(), env: clock });
  await conv.start({ now: clock.now() });
  await conv.send('the lights on court 2 keep flickering');
  await conv.send('no');
  return conv;
}

describe('a late correction that changes where its question leads', () => {
  it('goes on from that question: a late yes to the safety question gets the advice', async () => {
    const conv = await atName();
    const r = await conv.send('hold on, the access panel on pole 6 is open and the wiring is exposed. I\'m Rosa');
    expect(r.session.answers.get('safety_hazard')?.value).toBe(true);
    expect(r.messages.map((m) => m.text)).toContain('Please keep everyone away from that area. A technician will call you right away.');
    expect(r.session.status).toBe('escalated');
  });

  it('a reply that leaves the route as it was goes on at the current question', async () => {
    const conv = await atName();
    const r = await conv.send("I'm Rosa");
    expect(r.session.answers.get('name')?.value).toBe('Rosa');
    expect(r.session.status).toBe('active');
    expect(r.messages.at(-1)!.text).toBe('Your email?');
  });
});
