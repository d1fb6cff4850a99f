import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, tool, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { startTestServer, TEST_ADMIN_KEY, type TestServer } from '../support/server.ts';
import { api } from './helpers.ts';

// "Describe your intake" against the repository's fake Anthropic server: the
// scripted model first drafts a flow with a guard error, gets the compiler's
// diagnostics back as the tool's result, and repairs it; the draft has no
// errors after the second round and its proposed goldens pass on it. The
// spend counts against the tenant's daily model budget.

const admin = { 'x-questline-admin': TEST_ADMIN_KEY };

const flow = (guard: string) => ({
  version: 'v1', id: 'flow.bike_repair', label: 'Bike repair booking',
  nodes: [
    { id: 'q.name', type: 'question', key: 'name', prompt: 'What is your name?', answer: { type: 'text', kind: 'name', min: 2, max: 100 } },
    { id: 'q.electric', type: 'question', key: 'electric', prompt: 'Is it an e-bike?', answer: { type: 'boolean' } },
    { id: 'q.battery', type: 'question', key: 'battery', when: guard, prompt: 'Does the battery still charge?', answer: { type: 'boolean' } },
    { id: 'q.fault', type: 'question', key: 'fault', prompt: 'What is wrong with the bike?', answer: { type: 'text', min: 3, max: 500 } },
    { id: 'n.done', type: 'terminal', outcome: 'completed', say: 'Thanks, we will call you to book the repair.' },
  ],
});
const goldens = [
  { name: 'e-bike', turns: [{ user: 'Ann Lee', node: 'q.electric' }, { user: 'yes', node: 'q.battery' }, { user: 'no', node: 'q.fault' }] },
  { name: 'plain-bike', turns: [{ user: 'Bob Stone', node: 'q.electric' }, { user: 'no', node: 'q.fault' }] },
];

describe('Studio: draft a flow from a description (fake Anthropic)', () => {
  let fake: FakeAnthropic;
  let server: TestServer;
  let bare: TestServer;

  beforeAll(async () => {
    fake = await startFakeAnthropic();
    [server, bare] = await Promise.all([
      startTestServer({ store: 'memory', env: { ANTHROPIC_API_KEY: 'sk-test-fake', ANTHROPIC_BASE_URL: fake.url } }),
      startTestServer({ store: 'memory', env: { ANTHROPIC_API_KEY: '' } }),
    ]);
  }, 60_000);
  afterAll(async () => {
    await server?.dispose();
    await bare?.dispose();
    await fake?.close();
  });

  it('repairs a guard error with the compiler\'s diagnostics and proposes goldens that pass', async () => {
    fake.script(
      tool('write_flow', { flow: flow('answers.is_electric == true'), goldens }),
      tool('write_flow', { flow: flow('answers.electric == true'), goldens }),
    );
    const res = await api(server.url, '/admin/draft', { body: { description: 'Book a bike repair: name, whether it is an e-bike (then ask about the battery), and what is wrong.', locale: 'en', tenant: 'acme' }, headers: admin });
    expect(res.status).toBe(200);
    expect(res.body.rounds).toBe(2);
    expect(res.body.diagnostics.filter((d: { severity: string }) => d.severity === 'error')).toEqual([]);
    expect(res.body.text).toContain('when: answers.electric == true');
    expect(res.body.goldens.map((g: { name: string; ok: boolean }) => [g.name, g.ok])).toEqual([['e-bike', true], ['plain-bike', true]]);

    // the first request forced the tool; the second carried the compiler's diagnostics as the tool's result
    const [first, second] = fake.requests.slice(-2);
    expect(first!.body.tool_choice).toEqual({ type: 'tool', name: 'write_flow' });
    // the tool's input is the flow JSON Schema (its definitions at the root, where its references point)
    const input = first!.body.tools[0].input_schema;
    expect(input.required).toEqual(['flow', 'goldens']);
    expect(JSON.stringify(input.properties.flow)).toContain('#/$defs/');
    for (const ref of JSON.stringify(input).match(/#\/\$defs\/[^"]+/g) ?? []) expect(input.$defs[ref.slice('#/$defs/'.length)], ref).toBeDefined();
    const result = second!.body.messages.at(-1).content[0];
    expect(result).toMatchObject({ type: 'tool_result', is_error: true });
    expect(result.content).toContain('is_electric');
  });

  it('stops repairing after three rounds and returns the last draft with its errors', async () => {
    fake.script(...Array.from({ length: 4 }, () => tool('write_flow', { flow: flow('answers.nope == 1'), goldens })));
    const res = await api(server.url, '/admin/draft', { body: { description: 'Book a bike repair with a broken guard forever.' }, headers: admin });
    expect(res.status).toBe(200);
    expect(res.body.rounds).toBe(4);
    expect(res.body.diagnostics.some((d: { severity: string }) => d.severity === 'error')).toBe(true);
    expect(fake.pending()).toBe(0);
  });

  it('without ANTHROPIC_API_KEY says what it needs; bad input names the field', async () => {
    const res = await api(bare.url, '/admin/draft', { body: { description: 'Book a bike repair appointment.' }, headers: admin });
    expect(res.status).toBe(501);
    expect(res.body.error.message).toContain('ANTHROPIC_API_KEY');
    const short = await api(bare.url, '/admin/draft', { body: { description: 'hi' }, headers: admin });
    expect(short.body.error).toMatchObject({ code: 'invalid_request', field: 'description' });
  });
});
