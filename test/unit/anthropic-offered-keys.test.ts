import { describe, expect, it } from 'vitest';
import { LocalConversation } from '../../server/conversation/local-conversation.ts';
import { AnthropicExtractor } from '../../server/extract/anthropic/index.ts';
import { exactRule } from '../../server/extract/anthropic/hybrid.ts';
import { propertySchema, toolsFor } from '../../server/extract/anthropic/schema.ts';
import { OfflineExtractor } from '../../server/extract/offline/index.ts';
import { compileText } from '../../server/flow/document.ts';
import type { CompiledFlow } from '../../server/flow/compiled-flow.ts';
import { tool } from '../support/fake-anthropic.ts';
import { useFakeAnthropic } from '../support/fake-anthropic-hooks.ts';

// The Claude path commits only what the turn's request offered: a sales-only
// `budget` volunteered on the support branch is refused with an event, even
// though it is an unanswered question of the flow. Tool schemas carry each
// question's unit and currency; answers record the model that produced them.

const fakeServer = useFakeAnthropic();

const INTAKE = {
  version: 'v1',
  id: 'flow.intake',
  nodes: [
    { id: 'q.kind', type: 'question', key: 'kind', prompt: 'Sales or support?', answer: { type: 'enum', options: ['sales', 'support'] } },
    { id: 'q.budget', type: 'question', key: 'budget', prompt: 'What budget, in US dollars?', answer: { type: 'integer', min: 0, unit: 'USD' } },
    { id: 'q.issue', type: 'question', key: 'issue', prompt: 'What is the problem?' },
    { id: 'q.court', type: 'question', key: 'court_area', prompt: 'How big is the court?', answer: { type: 'number', unit: 'm²' } },
    { id: 'n.done', type: 'terminal', say: 'Thanks!' },
  ],
  edges: [
    { id: 'e.sales', from: 'q.kind', to: 'q.budget', guard: "answers.kind == 'sales'" },
    { id: 'e.support', from: 'q.kind', to: 'q.issue', guard: 'else' },
    { id: 'e.budget', from: 'q.budget', to: 'q.court' },
    { id: 'e.court', from: 'q.court', to: 'n.done' },
    { id: 'e.issue', from: 'q.issue', to: 'n.done' },
  ],
};

function compiled(): CompiledFlow {
  const r = compileText(JSON.stringify(INTAKE), 'intake.flow.json');
  if (r.kind !== 'flow' || !r.flow) throw new Error(`intake does not compile: ${JSON.stringify(r.diagnostics)}`);
  return r.flow;
}

function conversation() {
  const extractor = new AnthropicExtractor({ apiKey: 'sk-test-fake', baseURL: fakeServer().url, timeoutMs: 2_000, maxRetries: 0, model: 'claude-haiku-4-5' });
  let t = Date.parse('2026-01-15T10:00:00Z');
  return new LocalConversation(compiled(), { extractor, env: { now: () => new Date((t += 60_000)).toISOString(), sleep: async () => {}, clock: () => 0 } });
}

describe('keys a model was not offered', () => {
  it('are not committed, even for an unanswered question of the flow, and the refusal is an event', async () => {
    const conv = conversation();
    await conv.start();
    fakeServer().script(tool('update_answers', { updates: { kind: 'support' } }));
    await conv.send("it's about my installation");
    expect(conv.session.answers.get('kind')?.value).toBe('support');

    // the support branch: the request offers `issue` only; the model also sends the sales-only budget
    fakeServer().script(tool('update_answers', { updates: { issue: 'lights flicker', budget: 5000 } }));
    const r = await conv.send('lights flicker on court 2, and we have about 5k to spend');
    const offered = fakeServer().requests[1]!.body.tools.find((x: { name: string }) => x.name === 'update_answers').input_schema.properties.updates.properties;
    expect(Object.keys(offered)).not.toContain('budget');
    expect(conv.session.answers.has('budget')).toBe(false);
    expect(conv.session.answers.get('issue')?.value).toBe('lights flicker');
    const refusal = r.events.find((e) => e.type === 'llm_proposal_rejected' && e.key === 'budget');
    expect(refusal?.reason).toMatch(/not offered/);
  });

  it('records the model that produced each answer and its confidence', async () => {
    const conv = conversation();
    await conv.start();
    fakeServer().script(tool('update_answers', { updates: { kind: 'sales' }, confidence: 0.8 }));
    await conv.send('we are looking to buy some lighting for our club');
    expect(conv.session.answers.get('kind')).toMatchObject({ value: 'sales', extractor: 'anthropic', model: 'claude-haiku-4-5', confidence: 0.8 });
  });
});

describe('tool schemas for questions with a unit or a currency', () => {
  const base = { now: '2026-01-15T10:00:00Z', defaultCountry: 'US', paths: [], open: [], text: 'x' };

  it('say the unit to convert to and that another currency is not converted', () => {
    const area = propertySchema({ nodeId: 'q.court', key: 'court_area', answer: { type: 'number', unit: 'm²' }, required: true });
    expect(area.description).toMatch(/in m²: a value the user gives in another unit .* converted exactly to m²/);
    const money = propertySchema({ nodeId: 'q.budget', key: 'budget', answer: { type: 'integer', unit: 'USD' }, required: true });
    expect(money.description).toMatch(/amount in USD: .*NOT converted/);
    expect(money.description).not.toMatch(/converted exactly/);
    const plain = propertySchema({ nodeId: 'q.n', key: 'n', answer: { type: 'integer' }, required: true });
    expect(plain.description).not.toMatch(/unit|currency/);
  });

  it('carry them in update_answers for the current and open questions', () => {
    const tools = toolsFor({ ...base, current: { nodeId: 'q.budget', key: 'budget', answer: { type: 'integer', unit: '€' }, required: true },
      open: [{ nodeId: 'q.court', key: 'court_area', answer: { type: 'number', unit: 'ft²' }, required: true }] });
    const props = tools.find((t) => t.name === 'update_answers')!.input_schema.properties!.updates as { properties: Record<string, { description: string }> };
    expect(props.properties.budget!.description).toMatch(/currency EUR/);
    expect(props.properties.court_area!.description).toMatch(/unit ft²/);
  });
});

describe('the hybrid rule for numbers with a unit or currency', () => {
  const off = new OfflineExtractor();
  const ask = (text: string, unit: string) => ({ text, current: { nodeId: 'q.n', key: 'n', answer: { type: 'number' as const, min: 0, unit }, required: true },
    open: [], paths: [], now: '2026-01-15T10:00:00Z', defaultCountry: 'US' });
  const rule = (text: string, unit: string) => exactRule(ask(text, unit), off.extract(ask(text, unit)));

  it('sends a number written with a unit or currency sign to the model, and keeps a bare number offline', () => {
    expect(rule('€30,000', 'USD')).toBeNull();
    expect(rule('25ft', 'm')).toBeNull();
    expect(rule('650', 'm²')).toBe('exact_value');
    expect(rule('30,000', 'USD')).toBe('exact_value');
  });
});
