import { describe, expect, it } from 'vitest';
import { LocalConversation } from '../../server/conversation/local-conversation.ts';
import { ReplayExtractor } from '../../server/extract/replay.ts';
import { flowOf } from '../support/engine-harness.ts';

const flow = flowOf({
  paths: { options: { buy: { examples: ['buy'] }, help: { examples: ['help'] } } },
  nodes: [
    { id: 'q.budget', type: 'question', key: 'budget', answer: { type: 'integer', min: 0 } },
    { id: 'q.email', type: 'question', key: 'email', answer: { type: 'email' }, required: false },
    { id: 'n.end', type: 'terminal' },
  ],
});
const env = { now: () => '2026-01-15T10:00:00Z', sleep: async () => {}, clock: () => 0 };

describe('replay extractor', () => {
  it('plays recorded tool calls through the same normalisation and validation as live ones', async () => {
    const conv = new LocalConversation(flow, { env, extractor: new ReplayExtractor([
      [{ tool: 'update_answers', input: { budget: '25k', made_up: 'x' } }, { tool: 'vote_path', input: { path: 'buy', confidence: 0.8 } }],
      [{ tool: 'update_answers', input: { email: 'not an email' } }],
      [{ tool: 'unknown_answer', input: { key: 'email' } }],
    ]) });
    await conv.start();
    const first = await conv.send('we have about 25k');
    expect(first.session.answers.get('budget')).toMatchObject({ value: 25000, extractor: 'replay' });
    expect(first.events).toContainEqual(expect.objectContaining({ type: 'llm_proposal_rejected', key: 'made_up' }));
    expect(first.session.path).toMatchObject({ tentative: 'buy', scores: { buy: 0.8 } });
    const second = await conv.send('my email is not an email');
    expect(second.events).toContainEqual(expect.objectContaining({ type: 'validation_failed', key: 'email' }));
    const third = await conv.send("I'd rather not say");
    expect(third.session.status).toBe('completed');
    expect(third.session.answers.get('email')).toMatchObject({ value: null, validation: 'skipped' });
  });

  it('a turn without a record proposes nothing', async () => {
    const conv = new LocalConversation(flow, { env, extractor: new ReplayExtractor([]) });
    await conv.start();
    const r = await conv.send('hello');
    expect(r.events).toContainEqual(expect.objectContaining({ type: 'validation_failed', key: 'budget' }));
  });

  it('an escalation call hands the conversation to a person', async () => {
    const conv = new LocalConversation(flow, { env, extractor: new ReplayExtractor([[{ tool: 'escalate_to_human', input: { reason: 'angry customer' } }]]) });
    await conv.start();
    expect((await conv.send('this is useless')).session.status).toBe('escalated');
  });
});
