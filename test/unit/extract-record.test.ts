import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { testCommand } from '../../server/cli/test.ts';
import { startFakeAnthropic, tool } from '../support/fake-anthropic.ts';

// `questline test --record` against the fake Anthropic server (the real SDK,
// ANTHROPIC_BASE_URL on 127.0.0.1): the golden gains its llm: blocks, then
// replays with no server at all.

const FLOW = {
  version: 'v1',
  id: 'test.record',
  nodes: [
    { id: 'q.team', type: 'question', key: 'team_size', prompt: 'How many are you?', answer: { type: 'integer', min: 1, max: 100000 } },
    { id: 'q.city', type: 'question', key: 'city', prompt: 'Which city?' },
    { id: 'q.email', type: 'question', key: 'email', prompt: 'Your email?', answer: { type: 'email' }, pii: true },
    { id: 'q.company', type: 'question', key: 'company', prompt: 'Company name?' },
    { id: 'n.done', type: 'terminal' },
  ],
};

const GOLDEN = `# recorded against the model; the comments stay
name: Team, city and email in one message
flow: record.flow.json
extractor: rules
now: 2026-01-15T10:00:00Z
turns:
  # one free-text message answers three questions
  - user: "we're a team of about twenty in Lyon, reach me at ann@x.io"
    expect: { node: q.company, answers: { team_size: 20, city: Lyon, email: ann@x.io } }
  - user: "back"
    expect: { node: q.team }
  - user: "we're a team of about twenty in Lyon, reach me at ann@x.io"
    expect: { node: q.company }
  - user: "Acme Tennis Club"   # short text: settled offline, no model call
    expect: { status: completed }
end: { status: completed, answers: { company: Acme Tennis Club } }
`;

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => void out.push(t), err: (t: string) => void err.push(t) }, out, err };
}

const saved = { key: process.env.ANTHROPIC_API_KEY, url: process.env.ANTHROPIC_BASE_URL };
afterEach(() => {
  for (const [name, v] of [['ANTHROPIC_API_KEY', saved.key], ['ANTHROPIC_BASE_URL', saved.url]] as const) {
    if (v === undefined) delete process.env[name];
    else process.env[name] = v;
  }
});

describe('questline test --record', () => {
  it('needs a key', async () => {
    delete process.env.ANTHROPIC_API_KEY;
    const r = io();
    expect(await testCommand(['test/golden/assess'], { record: true }, r.io)).toBe(2);
    expect(r.err.join('\n')).toMatch(/ANTHROPIC_API_KEY/);
  });

  it('records each turn\'s tool calls into the golden, which then replays with no server', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'questline-record-'));
    writeFileSync(join(dir, 'record.flow.json'), JSON.stringify(FLOW));
    const file = join(dir, 'team.golden.yaml');
    writeFileSync(file, GOLDEN);
    const fake = await startFakeAnthropic();
    try {
      process.env.ANTHROPIC_API_KEY = 'sk-test-fake';
      process.env.ANTHROPIC_BASE_URL = fake.url;
      // turn 1 needs the model; "back" is a command; after it the same message is asked again (the model again)
      const update = tool('update_answers', { updates: { team_size: 20, city: 'Lyon', email: 'ann@x.io' }, confidence: 0.9 });
      fake.script(update, update);
      const r = io();
      const code = await testCommand([file], { record: true }, r.io);
      expect(r.out.join('\n')).toContain('2 model turns, 1 settled offline, 0 fallbacks');
      expect(code).toBe(0);
      expect(fake.requests).toHaveLength(2);
    } finally {
      await fake.close();
    }

    const text = readFileSync(file, 'utf8');
    expect(text).toContain('# recorded against the model; the comments stay');
    expect(text).toContain('# one free-text message answers three questions');
    expect(text).toContain('# short text: settled offline, no model call');
    const doc = parse(text);
    expect(doc.extractor).toBe('replay');
    expect(doc.turns[0].llm).toEqual([{ tool: 'update_answers', input: { updates: { team_size: 20, city: 'Lyon', email: 'ann@x.io' }, confidence: 0.9 } }]);
    expect(doc.turns[1].llm).toBeUndefined(); // a command: no extraction
    expect(doc.turns[2].llm).toEqual(doc.turns[0].llm);
    expect(doc.turns[3].llm).toEqual([{ tool: 'update_answers', input: { updates: { company: 'Acme Tennis Club' } } }]);
    // the snapshot is the flow's trace: model calls (live only) are not in it, so the replay matches it
    const trace = readFileSync(join(dir, 'team.golden.trace'), 'utf8');
    expect(trace).toContain('answer_set @q.team');
    expect(trace).not.toContain('llm_call');

    // the server is gone and no key is set: the recorded golden replays offline
    delete process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_BASE_URL;
    const again = io();
    const code = await testCommand([file], {}, again.io);
    expect(again.out.join('\n')).toMatch(/1 passed, 0 failed/);
    expect(code).toBe(0);
  });
});
