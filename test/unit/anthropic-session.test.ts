import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalConversation } from '../../server/conversation/local-conversation.ts';
import { ConversationService } from '../../server/conversation/service.ts';
import { TenantDirectory } from '../../server/catalog/tenants.ts';
import { answerValues, sessionFromJson } from '../../server/engine/session.ts';
import { AnthropicExtractor, MAX_TRACKED_SESSIONS, supportsStrictTools, type AnthropicExtractorOptions } from '../../server/extract/anthropic/index.ts';
import { compileFile } from '../../server/flow/document.ts';
import type { CompiledFlow } from '../../server/flow/compiled-flow.ts';
import { MemoryStore } from '../../server/store/memory.ts';
import { tool } from '../support/fake-anthropic.ts';
import { useFakeAnthropic } from '../support/fake-anthropic-hooks.ts';

// The Claude extractor inside a conversation: strict tools, pii kept out of
// what the model receives, fallbacks and usage in the engine's trace and the
// session, assessed answers judged by the model, and the server's service.

const fakeServer = useFakeAnthropic();

const TEAM_FLOW = {
  version: 'v1',
  id: 'flow.team',
  nodes: [
    { id: 'q.team', type: 'question', key: 'team_size', prompt: 'How many people are in your team?', answer: { type: 'integer', min: 1, max: 100000 } },
    { id: 'q.city', type: 'question', key: 'city', prompt: 'Which city are you based in?' },
    { id: 'q.email', type: 'question', key: 'email', prompt: 'What email can we reach you at?', answer: { type: 'email' }, pii: true },
    { id: 'q.goal', type: 'question', key: 'goal', prompt: 'What would you like to achieve?' },
    { id: 'n.done', type: 'terminal', say: 'Thanks!' },
  ],
};

const dir = mkdtempSync(join(tmpdir(), 'questline-claude-'));
mkdirSync(join(dir, 'global'));
mkdirSync(join(dir, 'tenants', 'lyon'), { recursive: true });
writeFileSync(join(dir, 'global', 'team.flow.json'), JSON.stringify(TEAM_FLOW));
writeFileSync(join(dir, 'tenants', 'lyon', 'tenant.json'), JSON.stringify({ id: 'lyon', name: 'Lyon', keys: ['pk_lyon_demo'], origins: [], flows: ['flow.team'] }));

function compiled(file: string): CompiledFlow {
  const r = compileFile(file);
  if (r.kind !== 'flow' || !r.flow) throw new Error(`${file} does not compile`);
  return r.flow;
}

function conversation(file: string, opts: Partial<AnthropicExtractorOptions> = {}) {
  const extractor = new AnthropicExtractor({ apiKey: 'sk-test-fake', baseURL: fakeServer().url, timeoutMs: 2_000, maxRetries: 0, ...opts });
  let t = Date.parse('2026-01-15T10:00:00Z');
  const conv = new LocalConversation(compiled(file), { extractor, env: { now: () => new Date((t += 60_000)).toISOString(), sleep: async () => {}, clock: () => 0 } });
  return { conv, extractor };
}

const raw = (i: number) => JSON.stringify(fakeServer().requests[i]!.body);

describe('strict tool schemas', () => {
  it('are on for models that support them, per model, with bounds left to the engine', async () => {
    expect(['claude-haiku-4-5', 'claude-sonnet-4-5-20250929', 'claude-opus-4-6', 'claude-sonnet-5'].map(supportsStrictTools)).toEqual([true, true, true, true]);
    expect(['claude-sonnet-4-20250514', 'claude-3-5-haiku-latest', 'claude-opus-4-1', 'gpt-4o'].map(supportsStrictTools)).toEqual([false, false, false, false]);

    const { conv } = conversation(join(dir, 'global', 'team.flow.json'));
    await conv.start();
    fakeServer().script(tool('update_answers', { updates: { team_size: 20 } }));
    await conv.send('about twenty of us');
    const { tools } = fakeServer().requests[0]!.body;
    expect(tools.every((t: { strict?: boolean }) => t.strict === true)).toBe(true);
    expect(raw(0)).not.toMatch(/"minimum"|"maximum"/);
    const update = tools.find((t: { name: string }) => t.name === 'update_answers').input_schema;
    expect(update.properties.updates.properties.team_size).toMatchObject({ type: 'integer' });
    expect(update.properties.updates.additionalProperties).toBe(false);

    // the per-model switch: an older model, or strict: false, gets the plain schemas with their bounds
    for (const opts of [{ model: 'claude-sonnet-4-20250514' }, { strict: false }]) {
      fakeServer().requests.length = 0;
      const { conv: other } = conversation(join(dir, 'global', 'team.flow.json'), opts);
      await other.start();
      fakeServer().script(tool('update_answers', { updates: { team_size: 20 } }));
      await other.send('about twenty of us');
      const body = fakeServer().requests[0]!.body;
      expect(body.tools.some((t: { strict?: boolean }) => 'strict' in t)).toBe(false);
      expect(raw(0)).toContain('"minimum":1');
    }
  });
});

describe('pii and history', () => {
  it('a pii answer never reaches the model after the turn that gave it, and earlier turns are sent as history', async () => {
    const { conv } = conversation(join(dir, 'global', 'team.flow.json'));
    await conv.start();
    fakeServer().script(tool('update_answers', { updates: { team_size: 20, city: 'Lyon', email: 'Ann@X.io' } }));
    await conv.send("we're a team of about twenty in Lyon, reach me at ann@x.io");
    expect(answerValues(conv.session)).toMatchObject({ team_size: 20, city: 'Lyon', email: 'ann@x.io' });
    fakeServer().script(tool('update_answers', { updates: { goal: 'brighter courts for evening play' } }));
    const r = await conv.send('We would like brighter courts so that we can play in the evening');
    expect(r.session.status).toBe('completed');
    expect(fakeServer().requests).toHaveLength(2);
    const second = raw(1);
    expect(second.toLowerCase()).not.toContain('ann@x.io');
    const prompt: string = fakeServer().requests[1]!.body.messages[0].content;
    expect(prompt).toContain('Recent turns:');
    expect(prompt).toContain('user: [withheld]'); // the message that carried the email
    expect(prompt).toContain('bot: What would you like to achieve?');
  });

  it('a pii answer given as an exact value is never sent at all, even when a later prompt quotes it', async () => {
    const flow = { ...TEAM_FLOW, id: 'flow.team2', nodes: [TEAM_FLOW.nodes[2], { ...TEAM_FLOW.nodes[3], prompt: 'We will write to {{answers.email}}. What would you like to achieve?' }, TEAM_FLOW.nodes[4]] };
    const file = join(dir, 'pii2.flow.json');
    writeFileSync(file, JSON.stringify(flow));
    const { conv } = conversation(file);
    await conv.start();
    await conv.send('Ann@X.io'); // exact: settled offline
    expect(fakeServer().requests).toHaveLength(0);
    fakeServer().script(tool('update_answers', { updates: { goal: 'brighter courts' } }));
    await conv.send('We would like brighter courts for the evenings');
    expect(fakeServer().requests).toHaveLength(1);
    expect(raw(0).toLowerCase()).not.toContain('ann@x.io');
    expect(fakeServer().requests[0]!.body.messages[0].content).toContain('bot: We will write to [pii]. What would you like to achieve?');
  });
});

describe('fallbacks and usage in the trace and the session', () => {
  it('a failed call is an llm_fallback event, usage accumulates per session, and the budget reads the session', async () => {
    const { conv } = conversation(join(dir, 'global', 'team.flow.json'), { budget: { calls: 2 } });
    await conv.start();
    fakeServer().script({ kind: 'error', status: 500 });
    const failed = await conv.send('hmm, we are quite a big group really');
    expect(failed.events).toContainEqual(expect.objectContaining({ type: 'llm_fallback', reason: 'server_error' }));
    expect(failed.events).toContainEqual(expect.objectContaining({ type: 'llm_call', failed: true }));
    expect(failed.session.node).toBe('q.team'); // the offline rules found nothing: asked again, never stalled

    fakeServer().script(tool('update_answers', { updates: { team_size: 20 } }, { input_tokens: 1000, output_tokens: 50, cache_read_input_tokens: 600 }));
    const ok = await conv.send('about twenty, give or take');
    expect(ok.events).toContainEqual(expect.objectContaining({ type: 'llm_call', model: 'claude-haiku-4-5', inputTokens: 1000, outputTokens: 50, cacheReadTokens: 600 }));
    expect(ok.session.llm).toMatchObject({ calls: 2, fallbacks: 1, inputTokens: 1000, outputTokens: 50, cacheReadTokens: 600 });
    expect(ok.session.llm!.durationMs).toBeGreaterThanOrEqual(0);

    await conv.send('Lyon'); // exact short text: no call, counted as skipped
    expect(conv.session.llm).toMatchObject({ calls: 2, skipped: 1 });

    // a new extractor instance (a restarted server) still sees the session's spent budget
    const restarted = new AnthropicExtractor({ apiKey: 'sk-test-fake', baseURL: fakeServer().url, maxRetries: 0, budget: { calls: 2 } });
    const convAgain = new LocalConversation(conv.flow, { extractor: restarted });
    Object.assign(convAgain, { current: conv.session });
    const spent = await convAgain.send('you can reach me by email, it is on our website somewhere');
    expect(fakeServer().requests).toHaveLength(2);
    expect(spent.events).toContainEqual(expect.objectContaining({ type: 'llm_fallback', reason: 'budget' }));
    expect(spent.session.llm).toMatchObject({ calls: 2, fallbacks: 2 });
  });

  it('every refusal of a model proposal is an llm_proposal_rejected event with its reason', async () => {
    const { conv } = conversation(join(dir, 'global', 'team.flow.json'));
    await conv.start();
    fakeServer().script(tool('update_answers', { updates: { team_size: -4, city: 'Lyon', discount: 50 } }));
    const r = await conv.send('we are minus four people in Lyon, and I want a 50% discount');
    const rejected = r.events.filter((e) => e.type === 'llm_proposal_rejected');
    expect(rejected.map((e) => e.key).sort()).toEqual(['discount', 'team_size']);
    expect(rejected.find((e) => e.key === 'discount')?.reason).toMatch(/not a question/);
    expect(rejected.find((e) => e.key === 'team_size')?.reason).toMatch(/whole number between 1 and 100000/);
    expect(r.session.answers.has('team_size')).toBe(false);
    expect(r.session.answers.get('city')?.value).toBe('Lyon');
  });
});

describe('in-memory usage per session id', () => {
  it('keeps the most recent MAX_TRACKED_SESSIONS sessions, so a long-running server does not grow', async () => {
    const extractor = new AnthropicExtractor({ apiKey: 'sk-test-fake', baseURL: fakeServer().url });
    const current = { nodeId: 'q.team', key: 'team_size', answer: { type: 'integer' as const }, required: true };
    for (let i = 0; i <= MAX_TRACKED_SESSIONS; i++) {
      await extractor.extract({ text: '20', current, open: [], paths: [], now: '2026-01-15T10:00:00Z', defaultCountry: 'US', sessionId: `s${i}` });
    }
    expect(fakeServer().requests).toHaveLength(0); // exact values: no call
    expect(extractor.stats('s0').skipped).toBe(0); // dropped
    expect(extractor.stats('s1').skipped).toBe(1);
    expect(extractor.stats(`s${MAX_TRACKED_SESSIONS}`).skipped).toBe(1);
  });
});

describe('assessed answers with the model', () => {
  it('sends the criteria and an assessment field, and re-asks with the model\'s feedback below the threshold', async () => {
    const { conv } = conversation('test/golden/flows/assess.flow.json');
    await conv.start();
    await conv.send('Ann Lee');
    fakeServer().script(tool('update_answers', { updates: { project: 'New LED lights for the padel court' }, assessment: { score: 0.3, feedback: 'Where is the court, and by when?' } }));
    const r = await conv.send('New LED lights for the padel court');
    const body = fakeServer().requests[0]!.body;
    expect(body.messages[0].content).toContain('assessed against these criteria: Says what is to be built or changed, where, and by when.');
    const update = body.tools.find((t: { name: string }) => t.name === 'update_answers').input_schema;
    expect(update.properties.assessment.required).toEqual(['score', 'feedback']);
    expect(r.events).toContainEqual(expect.objectContaining({ type: 'assessment', by: 'model', score: 0.3, outcome: 'refine' }));
    expect(r.messages.at(-1)?.text).toBe('Where is the court, and by when? Tell me about your project: what, where, and by when?');

    fakeServer().script(tool('update_answers', { updates: { project: 'In Lyon by March' }, assessment: { score: 0.85, feedback: '' } }));
    const r2 = await conv.send('In Lyon by March');
    expect(fakeServer().requests[1]!.body.messages[0].content).toContain('adding to an earlier answer (refinement 1 of 2): "New LED lights for the padel court"');
    expect(r2.session.answers.get('project')?.value).toBe('New LED lights for the padel court. In Lyon by March');
    expect(r2.session.node).toBe('q.goal');
  });
});

describe('the conversation service with a key set', () => {
  it('extracts several answers from one free-text message in one call', async () => {
    const tenants = TenantDirectory.load(dir);
    expect(tenants.problems).toEqual([]);
    const store = new MemoryStore();
    const svc = new ConversationService({
      store, tenants,
      extractorFor: () => new AnthropicExtractor({ apiKey: 'sk-test-fake', baseURL: fakeServer().url, maxRetries: 0 }),
    });
    const started = await svc.startSession({ tenant: 'lyon', flow: 'flow.team' });
    if (!started.ok) throw new Error(started.error.message);
    fakeServer().script(tool('update_answers', { updates: { team_size: 20, city: 'Lyon', email: 'ann@x.io' }, confidence: 0.9 }));
    const reply = await svc.message(started.value.sessionId, "we're a team of about twenty in Lyon, reach me at ann@x.io", 'c-1');
    if (!reply.ok) throw new Error(reply.error.message);
    expect(fakeServer().requests).toHaveLength(1);
    expect(reply.value.state.nodeId).toBe('q.goal');
    const record = await store.load(started.value.sessionId);
    const session = sessionFromJson(record!.session);
    expect(answerValues(session)).toEqual({ team_size: 20, city: 'Lyon', email: 'ann@x.io' });
    expect(session.answers.get('city')?.extractor).toBe('anthropic');
    expect(session.llm).toMatchObject({ calls: 1, inputTokens: 900, outputTokens: 40, cacheReadTokens: 700 });
    const events = await store.events(started.value.sessionId);
    expect(events).toContainEqual(expect.objectContaining({ type: 'llm_call', model: 'claude-haiku-4-5', inputTokens: 900 }));
  });
});
