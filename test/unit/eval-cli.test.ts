import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../server/cli/main.ts';
import { tool } from '../support/fake-anthropic.ts';
import { useFakeAnthropic } from '../support/fake-anthropic-hooks.ts';

// `questline eval` end to end: the report and exit code with the offline
// rules, and a Claude run recorded to cassettes (against the fake server)
// that replays to the same verdicts without the model.

const fakeServer = useFakeAnthropic();

const CASES = `
questions:
  court_area: { prompt: "How big is the court, in m²?", answer: { type: number, min: 0, unit: "m²" } }
  budget: { prompt: "What budget, in US dollars?", answer: { type: integer, min: 0, unit: USD } }
  courts: { prompt: "How many courts?", answer: { type: integer, min: 1, max: 100 } }
cases:
  - { id: sqft, question: court_area, reply: "5000 sq ft", expect: 464.5, tolerance: 0.5 }
  - { id: euros, question: budget, reply: "about €30,000", must: reask }
  - { id: four, question: courts, reply: "4", expect: 4 }
`;

function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  return main(args, { out: (t) => void out.push(t), err: (t) => void err.push(t) }).then((code) => ({ code, out: out.join('\n'), err: err.join('\n') }));
}

const saved = { key: process.env.ANTHROPIC_API_KEY, url: process.env.ANTHROPIC_BASE_URL, model: process.env.ANTHROPIC_MODEL };
afterEach(() => {
  for (const [name, v] of [['ANTHROPIC_API_KEY', saved.key], ['ANTHROPIC_BASE_URL', saved.url], ['ANTHROPIC_MODEL', saved.model]] as const) {
    if (v === undefined) delete process.env[name];
    else process.env[name] = v;
  }
});

describe('questline eval', () => {
  const dir = mkdtempSync(join(tmpdir(), 'questline-eval-'));
  const file = join(dir, 'units.yaml');
  writeFileSync(file, CASES);

  it('prints per-type figures as one JSON object, its exit code saying whether any case is silently wrong', async () => {
    const r = await run(['eval', file, '--json']);
    const s = JSON.parse(r.out);
    expect(s.total).toBe(3);
    expect(s.byType.integer.total).toBe(2);
    const verdicts = Object.fromEntries(s.failures.map((f: { id: string; verdict: string }) => [f.id, f.verdict]));
    expect(r.code).toBe(s.silentlyWrong > 0 ? 1 : 0);
    expect(verdicts.four).toBeUndefined();
  });

  it('judges the cases through a tenant\'s shipped flow with --tenant, by the declared labels with --labels-only', async () => {
    const header = join(dir, 'timeline.yaml');
    const flows = new URL('../../flows/', import.meta.url).pathname;
    writeFileSync(header, `flow: { tenant: acme, flows: ${JSON.stringify(flows)} }
questions:
  timeline: { prompt: "When?", answer: { type: enum, options: [ { value: asap, label: "Alpha" }, { value: later, label: "Beta" } ] } }
cases:
  - { id: urgent, question: timeline, reply: "this month", expect: asap }
`);
    const through = JSON.parse((await run(['eval', header, '--json'])).out);
    expect(through).toMatchObject({ total: 1, correct: 1 });
    const labels = JSON.parse((await run(['eval', header, '--json', '--labels-only'])).out);
    expect(labels).toMatchObject({ total: 1, correct: 0, clarified: 1 });
    // --tenant on the command line for a file without the header
    const plain = join(dir, 'plain.yaml');
    writeFileSync(plain, readFileSync(header, 'utf8').replace(/^flow:.*\n/, ''));
    expect(JSON.parse((await run(['eval', plain, '--json'])).out)).toMatchObject({ correct: 0 });
    expect(JSON.parse((await run(['eval', plain, '--json', '--tenant', 'acme', '--flows', flows])).out)).toMatchObject({ correct: 1 });
    const bad = await run(['eval', plain, '--tenant', 'nobody', '--flows', flows]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/tenant 'nobody'/);
  });

  it('records a Claude run to a cassette and replays it to the same verdicts', async () => {
    process.env.ANTHROPIC_API_KEY = 'sk-test-fake';
    process.env.ANTHROPIC_BASE_URL = fakeServer().url;
    // "4" is settled by the hybrid rule offline; the other two go to the model
    fakeServer().script(
      tool('update_answers', { updates: { court_area: 464.5 }, confidence: 0.9 }),
      tool('update_answers', { updates: {} }),
    );
    const tapes = join(dir, 'tapes');
    const live = await run(['eval', file, '--extractor', 'claude', '--record', tapes, '--json']);
    expect(fakeServer().pending()).toBe(0);
    expect(fakeServer().requests).toHaveLength(2);
    const liveSummary = JSON.parse(live.out);
    expect(liveSummary).toMatchObject({ total: 3, correct: 3, silentlyWrong: 0 });
    expect(live.code).toBe(0);
    const cassette = readFileSync(join(tapes, 'units.cassette.yaml'), 'utf8');
    expect(cassette).toContain('court_area: 464.5');
    expect(cassette).toMatch(/four:\s+source: offline/);

    const replayed = await run(['eval', file, '--extractor', 'replay', '--cassettes', tapes, '--json']);
    expect(fakeServer().requests).toHaveLength(2); // no model call on replay
    const s = JSON.parse(replayed.out);
    expect({ ...s, extractor: 'x' }).toEqual({ ...liveSummary, extractor: 'x' });
    expect(replayed.code).toBe(0);
  });

  it('exits 1 and names the case when a replayed answer is silently wrong', async () => {
    const tapes = join(dir, 'wrong-tapes');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(tapes, { recursive: true });
    writeFileSync(join(tapes, 'units.cassette.yaml'), [
      'cases:',
      '  sqft: { source: model, calls: [{ tool: update_answers, input: { updates: { court_area: 5000 } } }] }',
      '  euros: { source: model, calls: [{ tool: update_answers, input: { updates: { budget: 30000 } } }] }',
      '  four: { source: offline, calls: [{ tool: update_answers, input: { updates: { courts: 4 } } }] }',
    ].join('\n'));
    const r = await run(['eval', file, '--extractor', 'replay', '--cassettes', tapes]);
    expect(r.code).toBe(1);
    expect(r.out).toContain('SILENTLY WRONG sqft (number) "5000 sq ft": expected 464.5, got 5000');
    expect(r.out).toContain('SILENTLY WRONG euros (integer) "about €30,000": expected a re-ask, got 30000');
    expect(r.out).toMatch(/^integer\s+2\s+1\s+0\s+1$/m);
  });

  it('refuses replay without cassettes and claude without a key (usage errors)', async () => {
    delete process.env.ANTHROPIC_API_KEY;
    expect((await run(['eval', file, '--extractor', 'replay'])).code).toBe(2);
    expect((await run(['eval', file, '--extractor', 'claude'])).code).toBe(2);
    expect((await run(['eval', file, '--extractor', 'gpt'])).code).toBe(2);
  });
});
