import { describe, expect, it } from 'vitest';
import { answerValues } from '../../server/engine/session.ts';
import type { ExtractionRequest, OpenQuestion } from '../../server/extract/extractor.ts';
import { exactRule, toolsFor, turnPrompt } from '../../server/extract/anthropic/index.ts';
import { OfflineExtractor } from '../../server/extract/offline/index.ts';
import { EXACT_TO_NAME, salesWithClaude, tool } from '../support/fake-anthropic.ts';
import { useFakeAnthropic } from '../support/fake-anthropic-hooks.ts';

const fakeServer = useFakeAnthropic();

describe('AnthropicExtractor against a fake Messages API (real SDK)', () => {
  it('makes no call for quick-reply clicks and exact typed values', async () => {
    const { conv, extractor, events } = salesWithClaude(fakeServer());
    await conv.start();
    for (const text of [...EXACT_TO_NAME, 'Ann Lee', 'Acme Tennis Club', 'ann@acme.io']) await conv.send(text);
    // the review before submit: confirming it is no extraction at all
    expect(conv.session.node).toBe('n.review');
    await conv.send('yes');
    expect(conv.session.status).toBe('completed');
    expect(fakeServer().requests).toHaveLength(0);
    expect(extractor.stats().calls).toBe(0);
    expect(extractor.stats().skipped).toBe(11);
    expect(events.map((e) => (e.type === 'llm_skipped' ? e.rule : e.type))).toEqual([
      'exact_value', 'exact_value', 'exact_value', 'exact_value', 'exact_value', 'exact_value', 'exact_value', 'exact_value', 'short_text', 'short_text', 'exact_value',
    ]);
  });

  it('extracts several answers from free text in one call, with forced tool use, caching and only the open keys', async () => {
    const { conv, extractor } = salesWithClaude(fakeServer());
    await conv.start();
    for (const text of EXACT_TO_NAME) await conv.send(text);
    expect(conv.session.node).toBe('q.name');
    fakeServer().script(tool('update_answers', { updates: { name: 'Ann Lee', company: 'Acme Tennis Club', email: 'Ann@Acme.io' }, confidence: 0.9 }, { cache_read_input_tokens: 812 }));
    const r = await conv.send("I'm Ann Lee from Acme Tennis Club, reach me at ann@acme.io");
    expect(fakeServer().requests).toHaveLength(1);
    expect(r.session.node).toBe('n.review');
    expect(answerValues(r.session)).toMatchObject({ name: 'Ann Lee', company: 'Acme Tennis Club', email: 'ann@acme.io' });
    expect(r.session.answers.get('name')?.extractor).toBe('anthropic');

    const { headers, body } = fakeServer().requests[0]!;
    expect(headers['x-api-key'] ?? headers.authorization).toBeTruthy();
    expect(body.model).toBe('claude-haiku-4-5');
    expect(body.tool_choice).toEqual({ type: 'any', disable_parallel_tool_use: true });
    expect(body.system).toEqual([expect.objectContaining({ type: 'text', cache_control: { type: 'ephemeral' } })]);
    expect(body.tools.at(-1).cache_control).toEqual({ type: 'ephemeral' });
    // the sales flow's safety trigger is offered at every question but the problem and hazard ones
    expect(body.tools.map((t: { name: string }) => t.name).sort()).toEqual(['escalate_to_human', 'match_trigger', 'unknown_answer', 'update_answers', 'vote_path']);
    const update = body.tools.find((t: { name: string }) => t.name === 'update_answers').input_schema;
    expect(update.additionalProperties).toBe(false);
    expect(update.properties.updates.additionalProperties).toBe(false);
    expect(Object.keys(update.properties.updates.properties)).toEqual(['name', 'company', 'email', 'phone']);
    expect(update.properties.updates.properties.email).toMatchObject({ type: 'string', format: 'email' });
    const votePath = body.tools.find((t: { name: string }) => t.name === 'vote_path').input_schema;
    expect(votePath.properties.path.enum).toEqual(['buy_led', 'support']);
    const prompt: string = body.messages[0].content;
    expect(prompt).toContain('node q.name; key "name"');
    // the question is named, not quoted; its text is only in the recent turns
    expect(prompt.split('\n').find((l) => l.startsWith('Current question:'))).toBe('Current question: node q.name; key "name"; type text; label "Name"; min 2; max 100');
    expect(prompt).toMatch(/Recent turns:\n(.*\n)*bot: .*Who am I chatting with/);
    expect(prompt).toContain('buy_led ("Buy LED lighting"): e.g.');
    expect(prompt).toContain("<user_message>\nI'm Ann Lee from Acme Tennis Club, reach me at ann@acme.io\n</user_message>");

    const s = extractor.stats();
    expect(s).toMatchObject({ calls: 1, inputTokens: 900, outputTokens: 40, cacheReadTokens: 812, fallbacks: [] });
    expect(s.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('answers ahead and votes a path from one message at the first question', async () => {
    const { conv } = salesWithClaude(fakeServer());
    await conv.start();
    fakeServer().script(tool('update_answers', {
      updates: { intention: 'buy_led', sport: 'tennis', court_size: '1300 m2', budget: '40k' },
      vote_path: { path: 'buy_led', confidence: 0.9 },
    }));
    const r = await conv.send("we'd like new LEDs for our two tennis courts, about 1300 m2 in all, budget around 40k");
    expect(fakeServer().requests).toHaveLength(1);
    expect(r.events).toContainEqual(expect.objectContaining({ type: 'path_vote', path: 'buy_led' }));
    // values are normalised by the offline parsers ("1300 m2" → 1300); budget is not open yet, so the engine refuses it
    expect(answerValues(r.session)).toMatchObject({ intention: 'buy_led', sport: 'tennis', court_size: 1300 });
    expect(r.session.answers.has('budget')).toBe(false);
    expect(r.events).toContainEqual(expect.objectContaining({ type: 'llm_proposal_rejected', key: 'budget' }));
    expect(r.session.node).toBe('q.pole_count');
  });

  it('sends no pii from history when the history marks it, and only the last turns', () => {
    const q: OpenQuestion = { nodeId: 'q.phone', key: 'phone', answer: { type: 'phone' }, required: false };
    const history = [
      ...Array.from({ length: 8 }, (_, i) => ({ role: 'bot' as const, text: `old turn ${i}` })),
      { role: 'user' as const, text: 'ann@secret.io', pii: true },
    ];
    const req = { text: 'call me', current: q, open: [], paths: [], now: '2026-01-15T10:00:00Z', defaultCountry: 'US', history } as ExtractionRequest;
    const prompt = turnPrompt(req);
    expect(prompt).not.toContain('ann@secret.io');
    expect(prompt).toContain('user: [withheld]');
    expect(prompt).not.toContain('old turn 2');
    expect(prompt).toContain('old turn 7');
  });
});

describe('the hybrid rule', () => {
  const off = new OfflineExtractor();
  const q = (key: string, answer: OpenQuestion['answer']): OpenQuestion => ({ nodeId: `q.${key}`, key, answer, required: true });
  const req = (text: string, current: OpenQuestion | null, open: OpenQuestion[] = []): ExtractionRequest => ({
    text, current, open, paths: [{ name: 'buy_led', label: 'Buy LED lighting', examples: [] }], now: '2026-01-15T10:00:00Z', defaultCountry: 'US',
  });
  const rule = (r: ExtractionRequest) => exactRule(r, off.extract(r));
  const size = q('size', { type: 'integer', min: 1 });
  const email = q('email', { type: 'email' });
  const plan = q('plan', { type: 'enum', options: [{ value: 'pro', label: 'Pro plan' }, 'basic'] });
  const company = q('company', { type: 'text' });

  it('takes exact parses offline', () => {
    expect(rule(req('20', size))).toBe('exact_value');
    expect(rule(req('ann@x.io', email))).toBe('exact_value');
    expect(rule(req('Pro plan', plan))).toBe('exact_value');
    expect(rule(req('Acme Tennis Club', company))).toBe('short_text');
    expect(rule(req('Buy LED lighting', null))).toBe('path_option');
    expect(rule(req('can I talk to a human please', size))).toBe('human');
  });

  it('sends free text, several facts and non-exact parses to the model', () => {
    expect(rule(req("we're a team of about twenty in Lyon, reach me at ann@x.io", size, [email]))).toBeNull();
    expect(rule(req('20, and my email is ann@x.io', size, [email]))).toBeNull();
    expect(rule(req('about twenty people I think', size))).toBeNull();
    expect(rule(req('We are the Acme Tennis Club, a small community club in Lyon.', company))).toBeNull();
    expect(rule(req('we want to buy some lights', null))).toBeNull();
  });

  it('builds update_answers from the open keys only', () => {
    const tools = toolsFor(req('x', size, [email]));
    const update = tools.find((t) => t.name === 'update_answers')!.input_schema as unknown as { properties: { updates: { properties: object; additionalProperties: boolean } } };
    expect(Object.keys(update.properties.updates.properties)).toEqual(['size', 'email']);
    expect(update.properties.updates.properties).toMatchObject({ size: { type: 'integer', minimum: 1 } });
    expect(update.properties.updates.additionalProperties).toBe(false);
  });
});
